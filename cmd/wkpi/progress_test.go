package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestReporterThrottles(t *testing.T) {
	var buf bytes.Buffer
	r := reporter(&buf, time.Hour)
	for i := 1; i <= 100; i++ {
		r("pairs", i, 100)
	}
	r("learn", 1, 10)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// The first report, the last of its stage, and the new stage's first.
	want := []string{"wkpi: pairs 1/100", "wkpi: pairs 100/100", "wkpi: learn 1/10"}
	if len(lines) != len(want) {
		t.Fatalf("lines %q, want 3", lines)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	if progressFor("auto", &buf) != nil || progressFor("off", &buf) != nil || progressFor("on", &buf) == nil {
		t.Error("progressFor: auto on a buffer or off must be silent, on must report")
	}
}
