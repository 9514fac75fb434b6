package jobs

import (
	"time"

	"wkpi-web/core/progress"
)

// Throttle passes on a stage's first and last reports and otherwise at
// most one per interval: the core reports every pair row and every
// iteration, and each report is a postMessage the page must render.
func Throttle(p func(progress.Status), every time.Duration, now func() time.Time) func(progress.Status) {
	var stage string
	var last time.Time
	return func(s progress.Status) {
		t := now()
		if s.Stage != stage || s.Done >= s.Total || t.Sub(last) >= every {
			stage, last = s.Stage, t
			p(s)
		}
	}
}
