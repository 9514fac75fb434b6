package app

import (
	"strings"
	"testing"
	"time"

	"wkpi-web/core/progress"
)

// TestTrainBar: the bar and its text show the run's Status as
// core/progress makes it of the jobs' (a CV part, the final training):
// the part's half of its 2 units with the final training unheard
// (weighing as much) is a quarter; a Status that says less is done
// leaves the bar where it was; the finished jobs fill it.
func TestTrainBar(t *testing.T) {
	c := &cvRun{run: progress.NewRun(2, time.Now().Add(-10*time.Second))}
	c.progressed(0, progress.Status{Fraction: 0.5, Work: 2})
	if c.fraction != 0.25 || !strings.HasPrefix(c.eta, "25 % done, about ") {
		t.Errorf("after half a part: %g %q", c.fraction, c.eta)
	}
	c.progressed(1, progress.Status{Fraction: 0, Work: 6})
	if c.fraction != 0.25 {
		t.Errorf("after a heavier final training started: %g, want the bar kept", c.fraction)
	}
	c.jobFinished(0)
	c.jobFinished(1)
	if c.fraction != 1 || c.eta != "100 % done, about 0 s left" {
		t.Errorf("finished: %g %q", c.fraction, c.eta)
	}
}
