package progress

import (
	"math"
	"testing"
	"time"
)

func TestTracker(t *testing.T) {
	var start time.Time
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	// images cost 1, two learnings 2 in all (1 each), folds 1 out of 2
	// of 4 reported: 4 units.
	tr := NewTracker([]Stage{{Name: "images", Cost: 1}, {Name: "learn", Cost: 2, Runs: 2}, {Name: "folds", Cost: 1, Total: 2}}, start)
	for i, c := range []struct {
		stage       string
		done, total int
		at          float64
		fraction    float64
		left        float64
	}{
		{"images", 1, 100, 1, 0.01 / 4, -1}, // under 2 %: not estimated
		// The stage's rate (0.49 in 1 s) for its half left, trusted 0.98
		// (0.49 of fullRun) against the job's (2 s for half a unit, 4 s a
		// unit), and the job's for the 3 units after it.
		{"images", 50, 100, 2, 0.5 / 4, 0.98*0.5/0.49 + 0.02*0.5*4 + 3*4},
		{"other", 3, 10, 3, 0.5 / 4, 21}, // outside the plan: the text only
		{"learn", 10, 100, 4, (1 + 0.1) / 4, 4 * 2.9 / 1.1},
		{"learn", 3, 100, 5, (1 + 1 + 0.03) / 4, 5 * 1.97 / 2.03}, // a new run: the first is done
		// The run's rate (0.57 in 1 s), then 1 unit at the job's (6 s for 2.6).
		{"learn", 60, 100, 6, (1 + 1 + 0.6) / 4, 0.4/0.57 + 6/2.6},
		{"gram", 5, 5, 7, (1 + 1 + 0.6) / 4, 7 * 1.4 / 2.6}, // not planned
		{"folds", 1, 4, 8, 3.5 / 4, 8 * 0.5 / 3.5},          // the learning stopped early: done
		{"learn", 1, 100, 9, 3.5 / 4, 9 * 0.5 / 3.5},        // never backwards
	} {
		s := tr.Report(c.stage, c.done, c.total, at(c.at))
		if math.Abs(s.Fraction-c.fraction) > 1e-12 || s.Stage != c.stage || s.Done != c.done || s.Total != c.total {
			t.Errorf("report %d: %+v, want fraction %g", i, s, c.fraction)
		}
		if want := c.left; (want < 0) != (s.Left < 0) || math.Abs(s.Left-want) > 1e-9 {
			t.Errorf("report %d: %.6g s left, want %.6g", i, s.Left, want)
		}
	}
	if s := tr.Finish(at(10)); s.Fraction != 1 || s.Left != 0 || s.Work != 4 {
		t.Errorf("finished: %+v", s)
	}
}

func TestTrackerPlan(t *testing.T) {
	var start time.Time
	tr := NewTracker([]Stage{{Name: "images", Cost: 1}, {Name: "gram", Cost: 1}}, start)
	tr.Report("images", 1, 1, start.Add(time.Second))
	// The table fits after all: images keep their report, the work grows.
	tr.Plan([]Stage{{Name: "images", Cost: 1}, {Name: "pairs", Cost: 2}, {Name: "learn", Cost: 1}})
	if s := tr.Report("pairs", 1, 2, start.Add(2*time.Second)); s.Fraction != 0.5 || s.Work != 4 {
		t.Errorf("after Plan: %+v, want half of 4", s)
	}
	// A plan that says less is done leaves the bar where it was.
	tr.Plan([]Stage{{Name: "images", Cost: 1}, {Name: "learn", Cost: 100}})
	if s := tr.Report("pairs", 2, 2, start.Add(3*time.Second)); s.Fraction != 0.5 {
		t.Errorf("after a second Plan: %+v, want 0.5 kept", s)
	}
}

func TestRun(t *testing.T) {
	var start time.Time
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	r := NewRun(3, start)
	// Job 0 half of 3 units; jobs 1 and 2 unheard count 3 each: 1.5 of 9.
	if s := r.Update(0, Status{Fraction: 0.5, Work: 3}, at(3)); s.Fraction != 1.5/9 || s.Work != 9 || s.Left != 3*7.5/1.5 {
		t.Errorf("one job heard: %+v", s)
	}
	// Job 1 weighs 1 and is done: the unheard job 2 counts 2 units,
	// (1.5 + 1) of 6 done.
	if s := r.Update(1, Status{Fraction: 1, Work: 1}, at(5)); s.Fraction != 2.5/6 || s.Work != 6 {
		t.Errorf("two jobs heard: %+v", s)
	}
	// Job 2 weighs 100: what it adds to the run leaves the bar where it was.
	if s := r.Update(2, Status{Fraction: 0, Work: 100}, at(6)); s.Fraction != 2.5/6 {
		t.Errorf("a heavy job heard: %+v, want the bar kept at %g", s, 2.5/6)
	}
	if s := r.Finish(2, at(7)); s.Fraction != 102.5/104 {
		t.Errorf("job 2 finished: %+v", s)
	}
	// A job that finishes unheard counts the mean, done.
	r = NewRun(2, start)
	r.Update(0, Status{Fraction: 0.5, Work: 2}, at(1))
	if s := r.Finish(1, at(2)); s.Fraction != 3.0/4 {
		t.Errorf("finished unheard: %+v", s)
	}
}

func TestRemaining(t *testing.T) {
	for left, want := range map[float64]string{-1: "estimating time left…", 0: "about 0 s left", 12.4: "about 12 s left", 89: "about 89 s left", 150: "about 3 min left"} {
		if got := Remaining(left); got != want {
			t.Errorf("Remaining(%g) = %q, want %q", left, got, want)
		}
	}
}
