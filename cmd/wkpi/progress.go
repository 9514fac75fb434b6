package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"wkpi-web/core/progress"
)

// reporter prints progress to w at most every interval, and at every
// change of stage, as "stage done/total (elapsed)".
func reporter(w io.Writer, interval time.Duration) progress.Func {
	start := time.Now()
	var last time.Time
	var lastStage string
	return func(stage string, done, total int) {
		now := time.Now()
		if stage == lastStage && now.Sub(last) < interval && done != total {
			return
		}
		last, lastStage = now, stage
		fmt.Fprintf(w, "wkpi: %s %d/%d (%s)\n", stage, done, total, now.Sub(start).Round(time.Second))
	}
}

// progressFor returns the progress reporter of a command: on with -progress,
// or when standard error is a terminal; off otherwise, so that scripts and
// tests see on stderr nothing but errors.
func progressFor(flag string, stderr io.Writer) progress.Func {
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
	return reporter(stderr, 2*time.Second)
}
