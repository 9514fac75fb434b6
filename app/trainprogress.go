package app

import (
	"fmt"
	"time"

	"wkpi-web/core/progress"
)

// The Train tab's bar shows the workers' Statuses (jobs.Worker.Track)
// of a run's jobs made one by a progress.Run: the page formats, the
// workers and core/progress count.

// progressed takes job's Status (the run's jobs numbered from 0, the
// final training last) into the bar.
func (c *cvRun) progressed(job int, s progress.Status) {
	if c.run != nil {
		c.showBar(c.run.Update(job, s, time.Now()))
	}
}

// jobFinished marks job done in the bar.
func (c *cvRun) jobFinished(job int) {
	if c.run != nil {
		c.showBar(c.run.Finish(job, time.Now()))
	}
}

func (c *cvRun) showBar(s progress.Status) {
	c.fraction = s.Fraction
	c.eta = fmt.Sprintf("%.0f %% done, %s", 100*s.Fraction, progress.Remaining(s.Left))
}
