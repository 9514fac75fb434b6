package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// compareState is the Compare tab's: the methods picked and the last run.
type compareState struct {
	off  map[string]bool // methods the user unticked
	jobs slot            // the run's jobs
	// stages are the running jobs' progress, by job.
	stages  map[int64]string
	total   int // jobs of the run, the pairing excluded
	start   time.Time
	results []protocol.CompareMethod // as they finish; paired at the end
	paired  bool
	err     string
}

// compareGroups splits the picked methods into jobs: one per method,
// except WKPI and WKPI-init, which one cross-validation gives together.
func compareGroups(picked []string) [][]string {
	var groups [][]string
	wkpi := -1
	for _, m := range picked {
		if m == protocol.MethodWKPI || m == protocol.MethodWKPIInit {
			if wkpi >= 0 {
				groups[wkpi] = append(groups[wkpi], m)
				continue
			}
			wkpi = len(groups)
		}
		groups = append(groups, []string{m})
	}
	return groups
}

func (r *Root) compareTab() app.UI {
	s := r.compare
	if s == nil {
		s = &compareState{}
	}
	t := &CompareTab{
		Summary: r.data.summary, Off: s.off, Results: s.results, Paired: s.paired, Error: s.err,
		Running: s.jobs.busy(), Ready: r.train.form != nil,
		OnToggle: func(name string) {
			r.act(func(app.Context) {
				if r.compare == nil {
					r.compare = &compareState{}
				}
				if r.compare.off == nil {
					r.compare.off = map[string]bool{}
				}
				r.compare.off[name] = !r.compare.off[name]
			})
		},
		OnRun:    func() { r.act(r.runCompare) },
		OnCancel: func() { r.act(func(app.Context) { r.cancelCompare("Canceled.") }) },
	}
	if s.jobs.busy() {
		t.Fraction = float64(len(s.results)) / float64(max(1, s.total))
		ids := make([]int64, 0, len(s.stages))
		for id := range s.stages {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			t.Stages = append(t.Stages, s.stages[id])
		}
	}
	return t
}

// runCompare runs the picked methods, one job each (WKPI and WKPI-init
// share one), over the worker pool, on the Train tab's descriptor, folds
// and seed; once all are in, one more job pairs them with WKPI.
func (r *Root) runCompare(ctx app.Context) {
	summary, form := r.data.summary, r.train.form
	if summary == nil || form == nil {
		return
	}
	r.cancelCompare("")
	var picked []string
	off := map[string]bool{}
	if r.compare != nil && r.compare.off != nil {
		off = r.compare.off
	}
	for _, m := range protocol.Methods() {
		if !off[m] || m == protocol.MethodMajority { // majority always runs: the chart draws its line
			picked = append(picked, m)
		}
	}
	s := &compareState{off: off, stages: map[int64]string{}, start: time.Now()}
	r.compare = s
	folds := form.Folds
	if folds < 2 || folds > summary.Graphs {
		s.err = fmt.Sprintf("Folds (Train tab) must be between 2 and %d.", summary.Graphs)
		return
	}
	job := protocol.CompareJob{Descriptor: form.Descriptor, Folds: folds, Seed: form.Seed}
	groups := compareGroups(picked)
	s.total = len(groups)
	r.status = fmt.Sprintf("Comparing %d methods on %s, %d folds.", len(picked), summary.Name, folds)
	for _, g := range groups {
		j := job
		j.Methods = g
		r.compareJob(ctx, s, j, strings.Join(g, ", "))
	}
}

// compareJob submits one job of run s.
func (r *Root) compareJob(ctx app.Context, s *compareState, j protocol.CompareJob, name string) {
	var id int64 // set before any answer runs
	id = r.run(ctx, &s.jobs, protocol.Request{Kind: protocol.Compare, Dataset: r.data.key, Compare: &j}, jobCalls{
		Progress: func(ctx app.Context, stage string, done, total int) {
			s.stages[id] = fmt.Sprintf("%s: %s %d/%d", name, stage, done, total)
		},
		Done: func(ctx app.Context, resp protocol.Response) {
			delete(s.stages, id)
			if len(j.Pair) > 0 {
				s.results, s.paired = resp.Compared, true
			} else {
				s.results = append(s.results, resp.Compared...)
				order := protocol.Methods()
				slices.SortStableFunc(s.results, func(a, b protocol.CompareMethod) int {
					return slices.Index(order, a.Name) - slices.Index(order, b.Name)
				})
			}
			if s.jobs.busy() {
				return
			}
			if !s.paired && slices.ContainsFunc(s.results, func(m protocol.CompareMethod) bool { return m.Name == protocol.MethodWKPI }) {
				pj := j
				pj.Methods, pj.Pair = nil, slices.Clone(s.results)
				r.compareJob(ctx, s, pj, "pairing with WKPI")
				return
			}
			r.status = fmt.Sprintf("Comparison done in %.1f s.", time.Since(s.start).Seconds())
		},
		// A run's jobs end early only dropped (cancelCompare), and then
		// they do not answer.
		Fail: func(ctx app.Context, err error) { r.cancelCompare(fmt.Sprintf("%s failed: %v", name, err)) },
	})
}

// cancelCompare stops the run's jobs; why ("" for none) is shown.
func (r *Root) cancelCompare(why string) {
	s := r.compare
	if s == nil {
		return
	}
	s.jobs.drop(r.Backend)
	s.stages = map[int64]string{}
	if why != "" {
		s.err, r.status = why, why
	}
}
