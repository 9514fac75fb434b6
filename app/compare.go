package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/compare"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// compareState is the Compare tab's: the methods picked and the last run.
type compareState struct {
	off  map[string]bool // methods the user unticked
	jobs map[int64]string
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
		if m == compare.WKPI || m == compare.WKPIInit {
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
		Summary: r.summary, Off: s.off, Results: s.results, Paired: s.paired, Error: s.err,
		Running: len(s.jobs) > 0, Ready: r.form != nil,
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
	if len(s.jobs) > 0 {
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
	if r.summary == nil || r.form == nil {
		return
	}
	r.cancelCompare("")
	var picked []string
	off := map[string]bool{}
	if r.compare != nil && r.compare.off != nil {
		off = r.compare.off
	}
	for _, m := range compare.Names() {
		if !off[m] || m == compare.Majority { // majority always runs: the chart draws its line
			picked = append(picked, m)
		}
	}
	s := &compareState{off: off, jobs: map[int64]string{}, stages: map[int64]string{}, start: time.Now()}
	r.compare = s
	folds := r.form.Folds
	if folds < 2 || folds > r.summary.Graphs {
		s.err = fmt.Sprintf("Folds (Train tab) must be between 2 and %d.", r.summary.Graphs)
		return
	}
	job := protocol.CompareJob{Descriptor: r.form.Descriptor, Folds: folds, Seed: r.form.Seed}
	groups := compareGroups(picked)
	s.total = len(groups)
	r.status = fmt.Sprintf("Comparing %d methods on %s, %d folds.", len(picked), r.summary.Name, folds)
	for _, g := range groups {
		j := job
		j.Methods = g
		r.compareJob(ctx, s, j, strings.Join(g, ", "))
	}
}

// compareJob submits one job of run s.
func (r *Root) compareJob(ctx app.Context, s *compareState, j protocol.CompareJob, name string) {
	id := new(int64)
	live := func() bool { _, ok := s.jobs[*id]; return r.compare == s && ok }
	*id = r.submit(ctx, protocol.Request{Kind: protocol.Compare, Dataset: r.key, Compare: &j}, pool.Handler{
		Progress: func(stage string, done, total int) {
			ctx.Dispatch(func(app.Context) {
				if live() {
					s.stages[*id] = fmt.Sprintf("%s: %s %d/%d", name, stage, done, total)
				}
			})
		},
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				if !live() {
					return
				}
				delete(s.jobs, *id)
				delete(s.stages, *id)
				if len(j.Pair) > 0 {
					s.results, s.paired = resp.Compared, true
				} else {
					s.results = append(s.results, resp.Compared...)
					order := compare.Names()
					slices.SortStableFunc(s.results, func(a, b protocol.CompareMethod) int {
						return slices.Index(order, a.Name) - slices.Index(order, b.Name)
					})
				}
				if len(s.jobs) > 0 {
					return
				}
				if !s.paired && slices.ContainsFunc(s.results, func(m protocol.CompareMethod) bool { return m.Name == compare.WKPI }) {
					pj := j
					pj.Methods, pj.Pair = nil, slices.Clone(s.results)
					r.compareJob(ctx, s, pj, "pairing with WKPI")
					return
				}
				r.status = fmt.Sprintf("Comparison done in %.1f s.", time.Since(s.start).Seconds())
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(app.Context) {
				if !live() || errors.Is(err, pool.ErrCanceled) {
					return
				}
				delete(s.jobs, *id)
				r.cancelCompare(fmt.Sprintf("%s failed: %v", name, err))
			})
		},
	})
	s.jobs[*id] = name
}

// cancelCompare stops the run's jobs; why ("" for none) is shown.
func (r *Root) cancelCompare(why string) {
	s := r.compare
	if s == nil {
		return
	}
	for id := range s.jobs {
		r.Backend.Cancel(id)
	}
	s.jobs, s.stages = map[int64]string{}, map[int64]string{}
	if why != "" {
		s.err, r.status = why, why
	}
}

// CompareTab picks methods of the baseline comparison, follows their
// jobs and shows the table and a bar chart of the accuracies.
type CompareTab struct {
	app.Compo
	Summary  *protocol.Summary
	Off      map[string]bool // unticked methods
	Ready    bool            // the Train tab's settings (folds, seed) have arrived
	Running  bool
	Fraction float64
	Stages   []string
	Results  []protocol.CompareMethod
	Paired   bool
	Error    string
	OnToggle func(name string)
	OnRun    func()
	OnCancel func()
}

// Render lays out the picker, the progress and the results.
func (t *CompareTab) Render() app.UI {
	if t.Summary == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Compare with baselines"),
			app.P().Text("Load a dataset on the Data tab first."),
		)
	}
	names := compare.Names()
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").ID("compare-form").Body(
			app.H2().Text("Compare with baselines"),
			app.P().Class("muted").Text("Every method on the same stratified folds (the Train tab's descriptor, folds and seed); each baseline's widths and C chosen by inner cross-validation on the training folds. The same as `wkpi compare`."),
			app.Div().Class("row").Body(
				app.Range(names).Slice(func(i int) app.UI {
					n := names[i]
					return app.Label().Body(
						app.Input().Type("checkbox").ID("method-"+n).Checked(!t.Off[n]).Disabled(t.Running || n == compare.Majority).
							OnChange(func(ctx app.Context, e app.Event) { t.OnToggle(n) }),
						app.Text(" "+n),
					)
				}),
			),
			app.Div().Class("row").Body(
				app.Button().ID("compare-run").Text("Run comparison").Disabled(t.Running || !t.Ready).
					OnClick(func(ctx app.Context, e app.Event) { t.OnRun() }),
				app.If(t.Running, func() app.UI {
					return app.Button().ID("compare-cancel").Class("secondary").Text("Cancel").
						OnClick(func(ctx app.Context, e app.Event) { t.OnCancel() })
				}),
			),
			app.If(t.Running, func() app.UI {
				return app.Div().Body(
					app.Progress().ID("compare-progress").Max(1).Value(t.Fraction),
					app.Range(t.Stages).Slice(func(i int) app.UI { return app.P().Class("muted").Text(t.Stages[i]) }),
				)
			}),
			app.If(t.Error != "", func() app.UI { return app.P().ID("compare-error").Class("error").Text(t.Error) }),
		),
		app.If(len(t.Results) > 0, func() app.UI {
			return app.Div().Class("columns").Body(
				app.Section().Class("card").Body(app.H2().Text("Accuracy"), app.Div().Class("scroll").Body(t.table())),
				app.Section().Class("card").Body(app.H2().Text("Chart"), t.chart()),
			)
		}),
	)
}

// table lists the methods: accuracy ± std, time and, once paired, the
// tests against WKPI. data-value keeps the raw mean accuracy.
func (t *CompareTab) table() app.UI {
	return app.Table().ID("compare-table").DataSet("paired", t.Paired).Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text("Method"), app.Th().Text("Accuracy"), app.Th().Text("Seconds"),
			app.Th().Text("Wilcoxon p vs WKPI"), app.Th().Text("Paired t p"),
		)),
		app.TBody().Body(
			app.Range(t.Results).Slice(func(i int) app.UI {
				m := t.Results[i]
				wp, tp := "", ""
				if m.Paired != nil {
					wp, tp = pValue(m.Paired.WilcoxonP), pValue(m.Paired.TP)
				}
				return app.Tr().DataSet("method", m.Name).Body(
					app.Th().Attr("scope", "row").Text(m.Name),
					app.Td().Class("accuracy").DataSet("value", m.Accuracy).Text(fmt.Sprintf("%.1f ± %.1f %%", 100*m.Accuracy, 100*m.Std)),
					app.Td().Text(fmt.Sprintf("%.1f", m.Seconds)),
					app.Td().Text(wp),
					app.Td().Text(tp),
				)
			}),
		),
	)
}

// chart draws a bar per method (mean accuracy, error bar ± one std) and
// a dashed line at the majority-class rate.
func (t *CompareTab) chart() app.UI {
	const w, h, left, top, bottom = 400.0, 220.0, 30.0, 8.0, 60.0
	n := float64(len(t.Results))
	bw := (w - left) / n
	y := func(acc float64) float64 { return top + (h-bottom-top)*(1-acc) }
	var parts []app.UI
	for _, tick := range []float64{0, 0.25, 0.5, 0.75, 1} {
		parts = append(parts,
			svg("line").Attr("x1", left).Attr("x2", w).Attr("y1", num(y(tick))).Attr("y2", num(y(tick))).Attr("stroke", "#ddd"),
			svg("text").Attr("x", 0).Attr("y", num(y(tick)+3)).Attr("font-size", 9).Text(fmt.Sprintf("%.0f%%", 100*tick)))
	}
	for i, m := range t.Results {
		x := left + float64(i)*bw
		parts = append(parts,
			svg("rect").Class("bar").DataSet("method", m.Name).Attr("x", num(x+bw*0.15)).Attr("width", num(bw*0.7)).
				Attr("y", num(y(m.Accuracy))).Attr("height", num(y(0)-y(m.Accuracy))).Attr("fill", colour(float64(i)/max(1, n-1))),
			svg("line").Attr("x1", num(x+bw/2)).Attr("x2", num(x+bw/2)).
				Attr("y1", num(y(min(1, m.Accuracy+m.Std)))).Attr("y2", num(y(max(0, m.Accuracy-m.Std)))).Attr("stroke", "#000"),
			svg("text").Attr("font-size", 9).Attr("transform", fmt.Sprintf("translate(%s,%s) rotate(45)", num(x+bw/3), num(h-bottom+10))).Text(m.Name),
		)
		if m.Name == compare.Majority {
			parts = append(parts, svg("line").ID("majority-line").DataSet("value", m.Accuracy).
				Attr("x1", left).Attr("x2", w).Attr("y1", num(y(m.Accuracy))).Attr("y2", num(y(m.Accuracy))).
				Attr("stroke", "#c00").Attr("stroke-dasharray", "4 3"))
		}
	}
	return app.Figure().Body(
		svg("svg").ID("compare-chart").Attr("viewBox", fmt.Sprintf("0 0 %g %g", w, h)).Attr("role", "img").
			Aria("label", "Mean accuracy per method with ± one standard deviation; the dashed line is the majority-class rate").Body(parts...),
		app.FigCaption().Text("Mean accuracy over the folds, ± one standard deviation; dashed: always predicting the largest class."),
	)
}

// pValue shows a p-value to three decimals, and the smallest ones as a
// bound: "0.000" would read as certainty.
func pValue(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return fmt.Sprintf("%.3f", p)
}
