package progress

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Stage is a named part of a job, known before the job starts, so that
// the bar is determinate from the first report.
type Stage struct {
	// Name is the stage as the pipeline reports it ("diagrams", "gram"…).
	Name string
	// Cost is the stage's share of the job's work in any unit common to
	// the job's stages (eval.Work counts nanoseconds); all its runs
	// together.
	Cost float64
	// Runs is how many times the stage's counter goes from 0 to its
	// total (one learning per fold); 0 means 1.
	Runs int
	// Total, when not 0, is what the stage's counter reaches when the
	// total it reports is more (a CV's part reports its folds out of all
	// the folds).
	Total int
}

// Status is where a job stands: plain data that a progress line or a
// page's bar formats.
type Status struct {
	// Stage, Done and Total are the stage's own counter as reported,
	// which may start again (every fold learns).
	Stage string `json:"stage,omitempty"`
	Done  int    `json:"done,omitempty"`
	Total int    `json:"total,omitempty"`
	// Fraction is the share of the job's work done, in [0, 1]; it never
	// decreases.
	Fraction float64 `json:"fraction"`
	// Work is the job's whole cost, in its stages' unit: what weighs it
	// among jobs that run together (Run); 0 when its stages are not known.
	Work float64 `json:"work,omitempty"`
	// Elapsed is the seconds since the job started; Left the seconds it
	// should still take, -1 while unknown (before minFraction of the
	// work is done).
	Elapsed float64 `json:"elapsed"`
	Left    float64 `json:"left"`
}

// stageState is what a Tracker knows of one of its stages.
type stageState struct {
	seen     bool
	finished int     // runs complete
	last     float64 // the share of the current run done
	// The current run's first report: its time and share done.
	runStart time.Time
	runFrom  float64
}

// Tracker turns a job's stage reports into one Status whose Fraction
// weighs every stage by its cost and never goes back, and whose Left is
// the time so far scaled by the work left over the work done. Reports
// of stages outside the plan change only the text. Its methods may be
// called from several goroutines.
type Tracker struct {
	mu       sync.Mutex
	stages   []Stage
	state    []stageState
	work     float64
	fraction float64
	start    time.Time
	current  int // the stage that reported last
}

// NewTracker starts tracking a job of stages at start.
func NewTracker(stages []Stage, start time.Time) *Tracker {
	t := &Tracker{start: start, current: -1}
	t.Plan(stages)
	return t
}

// Plan replaces the job's stages once the work done so far decides how
// the rest goes (whether the pair table fits, known from the images):
// what the stages of the same name reported carries over, and Fraction
// still never decreases.
func (t *Tracker) Plan(stages []Stage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	state := make([]stageState, len(stages))
	t.work = 0
	for i, s := range stages {
		t.work += s.Cost
		if j := t.find(s.Name); j >= 0 {
			state[i] = t.state[j]
		}
	}
	t.stages, t.state = stages, state
}

// Report takes one report of the pipeline at time now.
func (t *Tracker) Report(stage string, done, total int, now time.Time) Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i := t.find(stage); i >= 0 {
		st := &t.state[i]
		// The stages before this one are done: those that never
		// reported ran silently (a path of the pipeline that does not
		// report them) or were not needed, and a learning that stopped
		// early left its counter short of its total.
		for j := range i {
			t.state[j].seen, t.state[j].finished, t.state[j].last = true, t.runs(j), 0
		}
		f, of := 0.0, total
		if t.stages[i].Total > 0 {
			of = t.stages[i].Total
		}
		if of > 0 {
			f = math.Min(float64(done)/float64(of), 1)
		}
		if st.seen && f < st.last {
			st.finished++ // the counter started again: one more run done
			st.runStart, st.runFrom = now, f
		}
		if !st.seen || t.current != i {
			// The stage's own rate counts from here: another stage
			// ran in between.
			st.runStart, st.runFrom = now, f
		}
		t.current = i
		st.seen, st.last = true, f
		if f == 1 {
			st.finished++
			st.last, st.runStart, st.runFrom = 0, now, 0
		}
	}
	t.fraction = math.Max(t.fraction, t.done())
	s := t.status(stage, done, total, now)
	if i := t.find(stage); i >= 0 && s.Left >= 0 {
		s.Left = t.left(i, s, now)
	}
	return s
}

// minRun is the share of a stage's run seen before its own rate counts,
// and fullRun the share from which it counts alone.
const (
	minRun  = 0.1
	fullRun = 0.5
)

// left is the time left while stage i runs: the rest of its run at the
// rate the run has gone so far (once it has gone minRun of the way,
// blended with the job's rate up to fullRun: a pass's first rows
// allocate its sums and run slower than the rest), the rest of the work
// at the job's rate, so that a stage costlier or cheaper than planned
// moves the estimate as it goes.
func (t *Tracker) left(i int, s Status, now time.Time) float64 {
	st := t.state[i]
	gone := st.last - st.runFrom
	if gone < minRun {
		return s.Left
	}
	rate := s.Elapsed / (t.work * s.Fraction) // the job's, per unit of cost
	run := t.stages[i].Cost / float64(t.runs(i))
	own := now.Sub(st.runStart).Seconds() / gone * (1 - st.last)
	trust := min(1, gone/fullRun)
	stageLeft := trust*own + (1-trust)*run*(1-st.last)*rate
	rest := max(t.work*(1-s.Fraction)-run*(1-st.last), 0)
	return stageLeft + rest*rate
}

// Finish marks the job done at now.
func (t *Tracker) Finish(now time.Time) Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fraction = 1
	return t.status("", 0, 0, now)
}

func (t *Tracker) status(stage string, done, total int, now time.Time) Status {
	s := Status{Stage: stage, Done: done, Total: total, Fraction: t.fraction, Work: t.work,
		Elapsed: now.Sub(t.start).Seconds(), Left: -1}
	s.Left = left(s.Elapsed, s.Fraction)
	return s
}

// minFraction is the share of the work done before Left is estimated:
// from the first graphs' descriptors the rate would be anybody's guess.
const minFraction = 0.02

// left extrapolates the time left at the rate so far; -1 before
// minFraction of the work is done.
func left(elapsed, fraction float64) float64 {
	if fraction < minFraction {
		return -1
	}
	return elapsed * (1 - fraction) / fraction
}

// Func returns a Func that tracks reports with t and hands each Status
// to out.
func (t *Tracker) Func(now func() time.Time, out func(Status)) Func {
	return func(stage string, done, total int) { out(t.Report(stage, done, total, now())) }
}

func (t *Tracker) find(stage string) int {
	for i, s := range t.stages {
		if s.Name == stage {
			return i
		}
	}
	return -1
}

func (t *Tracker) runs(i int) int { return max(t.stages[i].Runs, 1) }

// done is the share of the work done by the stages' counters.
func (t *Tracker) done() float64 {
	if t.work <= 0 {
		return 0
	}
	var sum float64
	for i, s := range t.stages {
		st := t.state[i]
		runs := t.runs(i)
		sum += s.Cost * math.Min((float64(st.finished)+st.last)/float64(runs), 1)
	}
	return sum / t.work
}

// Run follows jobs that run together as one run (a cross-validation's
// parts on several workers and its final model) and makes one Status of
// theirs: each job weighs by its Work, a job not heard from yet by the
// mean Work of the others; its Fraction never decreases, and Left
// extrapolates the run's time. Its methods may be called from several
// goroutines.
type Run struct {
	mu       sync.Mutex
	jobs     []Status
	heard    []bool
	fraction float64
	start    time.Time
}

// NewRun starts following a run of jobs jobs at start.
func NewRun(jobs int, start time.Time) *Run {
	return &Run{jobs: make([]Status, jobs), heard: make([]bool, jobs), start: start}
}

// Update takes job's Status at now and returns the run's.
func (r *Run) Update(job int, s Status, now time.Time) Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.jobs[job], r.heard[job] = s, true
	return r.status(now)
}

// Finish marks job done at now and returns the run's Status.
func (r *Run) Finish(job int, now time.Time) Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.jobs[job].Fraction, r.heard[job] = 1, true
	if r.jobs[job].Work == 0 {
		r.jobs[job].Work = -1 // finished unheard: the mean
	}
	return r.status(now)
}

func (r *Run) status(now time.Time) Status {
	var work, done, known float64
	for i, j := range r.jobs {
		if r.heard[i] && j.Work > 0 {
			work += j.Work
			known++
		}
	}
	mean := 1.0
	if known > 0 {
		mean = work / known
	}
	work = 0
	for i, j := range r.jobs {
		w := j.Work
		if !r.heard[i] || w <= 0 {
			w = mean
		}
		work += w
		done += w * j.Fraction
	}
	r.fraction = math.Max(r.fraction, done/work)
	s := Status{Fraction: r.fraction, Work: work, Elapsed: now.Sub(r.start).Seconds()}
	s.Left = left(s.Elapsed, s.Fraction)
	return s
}

// Remaining says how long seconds left is, for people: "about 40 s
// left", "about 3 min left"; "estimating time left…" while unknown.
func Remaining(left float64) string {
	switch {
	case left < 0:
		return "estimating time left…"
	case left < 90:
		return fmt.Sprintf("about %d s left", int(math.Round(left)))
	default:
		return fmt.Sprintf("about %d min left", int(math.Round(left/60)))
	}
}
