package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/progress"
)

func TestReporterThrottles(t *testing.T) {
	var buf bytes.Buffer
	r := reporter(&buf, time.Hour, nil)
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
	if progressFor("auto", &buf, nil) != nil || progressFor("off", &buf, nil) != nil || progressFor("on", &buf, nil) == nil {
		t.Error("progressFor: auto on a buffer or off must be silent, on must report")
	}
}

// With the job's stages the line says how much is done and how long is
// left: 50 of 100 images are a third of images 1 and diagrams 0.5.
func TestReporterShare(t *testing.T) {
	var buf bytes.Buffer
	tracker := progress.NewTracker([]progress.Stage{{Name: "diagrams", Cost: 0.5}, {Name: "images", Cost: 1}}, time.Now())
	reporter(&buf, time.Hour, tracker)("images", 50, 100)
	if got, want := buf.String(), "wkpi: images 50/100, 67 % done, about 0 s left"; !strings.HasPrefix(got, want) {
		t.Errorf("line %q, want prefix %q", got, want)
	}
}
