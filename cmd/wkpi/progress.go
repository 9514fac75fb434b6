package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"wkpi-web/core/progress"
)

// reporter prints progress to w at most every interval, and at every
// change of stage, as "stage done/total (elapsed)"; with a tracker of
// the job's stages (eval.Work) also the share of the work done and the
// time left: "stage done/total, 42 % done, about 12 s left (elapsed)".
func reporter(w io.Writer, interval time.Duration, tracker *progress.Tracker) progress.Func {
	start := time.Now()
	var last time.Time
	var lastStage string
	return func(stage string, done, total int) {
		now := time.Now()
		var s progress.Status
		if tracker != nil {
			s = tracker.Report(stage, done, total, now)
		}
		if stage == lastStage && now.Sub(last) < interval && done != total {
			return
		}
		last, lastStage = now, stage
		share := ""
		if tracker != nil {
			share = fmt.Sprintf(", %.0f %% done, %s", 100*s.Fraction, progress.Remaining(s.Left))
		}
		fmt.Fprintf(w, "wkpi: %s %d/%d%s (%s)\n", stage, done, total, share, now.Sub(start).Round(time.Second))
	}
}

// progressFor returns the progress reporter of a command: on with -progress,
// or when standard error is a terminal; off otherwise, so that scripts and
// tests see on stderr nothing but errors. tracker follows the job's
// stages (eval.Work), nil when they are not known.
func progressFor(flag string, stderr io.Writer, tracker *progress.Tracker) progress.Func {
	on := flag == "on"
	if flag == "auto" {
		if f, ok := stderr.(*os.File); ok {
			if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
				on = true
			}
		}
	}
	if !on {
		return nil
	}
	return reporter(stderr, 2*time.Second, tracker)
}

// trackerFor tracks a job of stages (eval.Setup.Work) from now; nil when
// they are not known.
func trackerFor(stages []progress.Stage) *progress.Tracker {
	if stages == nil {
		return nil
	}
	return progress.NewTracker(stages, time.Now())
}
