package jobs

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"wkpi-web/core/progress"
)

func TestThrottle(t *testing.T) {
	var clock time.Time
	var got []string
	p := Throttle(func(s progress.Status) { got = append(got, fmt.Sprintf("%s %d/%d", s.Stage, s.Done, s.Total)) }, time.Second, func() time.Time { return clock })
	for _, step := range []struct {
		after time.Duration
		stage string
		done  int
	}{
		{0, "gram", 1}, {300 * time.Millisecond, "gram", 2}, {800 * time.Millisecond, "gram", 3}, // 1.1 s after the first
		{100 * time.Millisecond, "gram", 4}, {0, "learn", 1}, {0, "learn", 2}, {0, "learn", 5},
	} {
		clock = clock.Add(step.after)
		p(progress.Status{Stage: step.stage, Done: step.done, Total: 5})
	}
	want := []string{"gram 1/5", "gram 3/5", "learn 1/5", "learn 5/5"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("passed %q, want %q", got, want)
	}
}
