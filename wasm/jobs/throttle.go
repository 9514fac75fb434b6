package jobs

import (
	"time"

	"wkpi-web/core/progress"
)

// Throttle passes on a stage's first and last reports and otherwise at
// most one per interval: the core reports every Gram row and every
// iteration, and each report is a postMessage the page must render.
func Throttle(p progress.Func, every time.Duration, now func() time.Time) progress.Func {
	var stage string
	var last time.Time
	return func(s string, done, total int) {
		t := now()
		if s != stage || done >= total || t.Sub(last) >= every {
			stage, last = s, t
			p.Report(s, done, total)
		}
	}
}
