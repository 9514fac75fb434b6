package protocol

import (
	"strings"
	"testing"
)

func TestCheckUpload(t *testing.T) {
	tests := []struct {
		files []Upload
		want  string // "" for no error
	}{
		{[]Upload{{"a.txt", 10}, {"b.txt", MaxUploadBytes - 10}}, ""},
		{[]Upload{{"a.txt", 10}, {"big.zip", MaxUploadBytes}}, "big.zip: the files chosen exceed 512 MiB"},
		{[]Upload{{"a.txt", 10}, {"empty.mol", 0}}, "empty.mol: the file is empty"},
		{nil, "no file chosen"},
	}
	for _, tt := range tests {
		err := CheckUpload(tt.files)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckUpload(%v) = %v, want %q", tt.files, err, tt.want)
		}
	}
}
