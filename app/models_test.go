package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// TestModelsList: every kept model is listed with its accuracy, the
// current one marked.
func TestModelsList(t *testing.T) {
	info := &protocol.Info{Dataset: "MUTAG", Descriptor: "ricci", M: 5, Sigma: 0.01, C: 100, Classes: []string{"-1", "1"}}
	html := app.HTMLString(&ModelsTab{Kept: []Kept{{Name: "MUTAG", Info: info, Accuracy: 0.867, Current: true, Bytes: 5_904_657}, {Name: "MUTAG (2)", Info: info, Bytes: 215_602}},
		Name: "MUTAG", Model: info, Bytes: 5_904_657})
	rows := 0
	for _, tr := range elems(html, "tr") {
		if tr["data-name"] != "" {
			rows++
		}
	}
	for _, want := range []string{"86.7 %", "not known", "in use", `aria-label="Use MUTAG (2)"`, "Ollivier-Ricci curvature, m 5, σ 0.01, C 100", "Current model: MUTAG", ">5.9 MB</td>", ">216 kB</td>", `id="model-size">5.9 MB<`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the model list", want)
		}
	}
	if rows != 2 {
		t.Errorf("%d kept models listed, want 2", rows)
	}
}

func TestSizeLabel(t *testing.T) {
	for _, tt := range []struct {
		bytes int
		want  string
	}{
		{0, "0 bytes"}, {999, "999 bytes"}, {1000, "1 kB"}, {215_602, "216 kB"}, {999_499, "999 kB"},
		{1_000_000, "1.0 MB"}, {5_904_657, "5.9 MB"}, {37_672_457, "37.7 MB"},
	} {
		if got := sizeLabel(tt.bytes); got != tt.want {
			t.Errorf("sizeLabel(%d) = %q, want %q", tt.bytes, got, tt.want)
		}
	}
}
