package app

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

func TestHeatViewPointsAndLayout(t *testing.T) {
	// A 2x4 grid of pixel 0.5 from (1, 0): birth 1..3, persistence 0..1.
	g := protocol.Grid{MinX: 1, MinY: 0, Pixel: 0.5, Rows: 2, Cols: 4}
	vals := []float64{0, 1, 2, 3, 4, 5, 6, 8}
	pts := [][2]float64{{1, 0}, {2, 0.75}, {3, 1}, {5, 0.5}} // the last lies off the grid
	html := app.HTMLString(&HeatView{ID: "h", Grid: g, Values: vals, Points: pts})
	px := rasterPixels(t, html)
	if len(px) != 8 {
		t.Fatalf("%d samples drawn, want 8", len(px))
	}
	// Every sample in its place (row 0 at the bottom), on the scale of the
	// maximum, 8.
	for k, v := range vals {
		if px[k] != colour(v/8) {
			t.Errorf("sample %d: %s, want %s", k, px[k], colour(v/8))
		}
	}
	// Hand-placed in grid units, x = (birth-1)/0.5 and y = 2 - persistence/0.5,
	// then in the plot's square of the view box: (18 + 79x/4, 3 + 79y/2).
	want := [][2]string{{"18", "82"}, {"57.5", "22.75"}, {"97", "3"}}
	circles := elems(html, "circle")
	if len(circles) != len(want) {
		t.Fatalf("%d points drawn, want %d", len(circles), len(want))
	}
	for i, c := range circles {
		if c["cx"] != want[i][0] || c["cy"] != want[i][1] {
			t.Errorf("point %d at (%s, %s), want (%s, %s)", i, c["cx"], c["cy"], want[i][0], want[i][1])
		}
	}
	if !strings.Contains(html, "4 diagram points (1 outside the grid, not drawn)") {
		t.Error("the caption does not count the point off the grid")
	}
	if !strings.Contains(app.HTMLString(&HeatView{Grid: g, Values: vals[:7]}), "No weight function") {
		t.Error("a ragged heat map was drawn")
	}
}

func TestCostPlotCoordinates(t *testing.T) {
	// Two curves, the longer over 4 iterations; costs span [1, 3].
	html := app.HTMLString(&CostPlot{Names: []string{"a", "b"}, Curves: [][]float64{{3, 2, 1}, {3, 2.5, 2, 1.5, 1}}})
	lines := elems(html, "polyline")
	if len(lines) != 2 {
		t.Fatalf("%d curves", len(lines))
	}
	// x = 14 + 84*i/4, y = 50 - 46*(c-1)/2.
	if got, want := lines[0]["points"], "14,4 35,27 56,50"; got != want {
		t.Errorf("curve a: %q, want %q", got, want)
	}
	if got, want := lines[1]["points"], "14,4 35,15.5 56,27 77,38.5 98,50"; got != want {
		t.Errorf("curve b: %q, want %q", got, want)
	}
}

func TestTrainTabResults(t *testing.T) {
	s := &protocol.Summary{Name: "TOY", Graphs: 4, Classes: []protocol.Class{{Label: "x", Count: 2}, {Label: "y", Count: 2}}}
	// Labels 0, 0, 1, 1; the merge of these folds, as a worker sends it.
	folds := []protocol.Fold{
		{Index: 0, Test: []int{0, 2}, Predicted: []int{0, 1}, BaselinePredicted: []int{1, 1}, Accuracy: 1, Baseline: 0.5, Trace: protocol.Trace{Cost: []float64{2, 1}, Iterations: 1}},
		{Index: 1, Test: []int{1, 3}, Predicted: []int{0, 0}, BaselinePredicted: []int{1, 1}, Accuracy: 0.5, Baseline: 0.5, Trace: protocol.Trace{Cost: []float64{2, 1.5}, Iterations: 1}},
	}
	rep := protocol.Report{Folds: folds,
		Learned: protocol.Result{Accuracy: 0.75, Std: 0.25, PerFold: []float64{1, 0.5}, Confusion: [][]int{{2, 0}, {1, 1}}, Predictions: []int{0, 0, 1, 0},
			ROCAUC:           protocol.MetricSummary{Mean: ptr(0.875), Std: ptr(0.125), Undefined: 1},
			BalancedAccuracy: protocol.MetricSummary{Mean: ptr(0.75), Std: ptr(0.25)}, F1Macro: protocol.MetricSummary{Mean: ptr(0.7), Std: ptr(0.3)}},
		Baseline: protocol.Result{Accuracy: 0.5, Std: 0, PerFold: []float64{0.5, 0.5}, Confusion: [][]int{{0, 2}, {0, 2}}, Predictions: []int{1, 1, 1, 1}}}
	test := protocol.PairedTest{ComparePaired: protocol.ComparePaired{Differences: []float64{0.5, 0}, TP: 0.5, WilcoxonP: 1}, Mean: 0.25, Std: 0.35355}
	html := app.HTMLString(&TrainTab{Summary: s, Form: &protocol.Training{Spec: spec.Defaults()},
		Folds: rep.Folds, Report: &rep, Test: &test})
	// Learned: folds 1 and 0.5, mean 0.75, population std 0.25.
	for _, want := range []string{"75.0 ± 25.0 %", "50.0 ± 0.0 %", `data-value="0.75"`, `id="confusion-learned"`, "fold 2",
		"0.875 ± 0.125 (1 fold of one class left out)", `data-auc="0.875"`, "0.700 ± 0.300", "none (every test fold has one class)",
		`data-p="0.5"`, "Learning did not help here: learned minus initial weight function: +25.0 ± 35.4 points over 2 folds (paired t-test p = 0.5, Wilcoxon signed-rank p = 1)"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Train tab", want)
		}
	}
	// Learned confusion, by hand: x->x twice; y->y once, y->x once.
	cells := regexpCells(html, "confusion-learned")
	if fmt.Sprint(cells) != "[2 0 1 1]" {
		t.Errorf("learned confusion cells %v, want [2 0 1 1]", cells)
	}
	// The settings: plain words first, the symbols behind a disclosure.
	used := protocol.Training{Spec: spec.Defaults()}
	html = app.HTMLString(&TrainTab{Summary: s, Folds: rep.Folds, Report: &rep, Used: &used})
	_, plain, _ := strings.Cut(html, `id="train-settings-plain"`)
	plain, details, _ := strings.Cut(plain, `id="train-settings-details"`)
	for _, symbol := range []string{"λ", "μ", "σ", "τ", " = ", "prior", "contrast"} {
		if strings.Contains(plain, symbol) {
			t.Errorf("%q in the plain settings line:\n%s", symbol, plain)
		}
	}
	if !strings.Contains(plain, "What was done: Ollivier-Ricci curvature, heat kernel signature and degree read as persistence images") ||
		!strings.Contains(plain, fmt.Sprintf("%d-fold cross-validation", used.Folds)) ||
		!strings.Contains(details, "<summary>Details: every setting") || !strings.Contains(details, "prior λ 0.3, contrast μ 0.03") {
		t.Errorf("settings: plain\n%s\ndetails\n%s", plain, details)
	}
	// Without the test (a worker adds it to a run an earlier page saved)
	// the results show without a verdict.
	if html := app.HTMLString(&TrainTab{Summary: s, Folds: rep.Folds, Report: &rep}); strings.Contains(html, "train-verdict") || !strings.Contains(html, "75.0 ± 25.0 %") {
		t.Error("a verdict without a test, or no results")
	}
	if !strings.Contains(app.HTMLString(&TrainTab{}), "Load a dataset") {
		t.Error("no hint without a dataset")
	}
}

// regexpCells returns the td texts of the table with id, in order.
func regexpCells(html, id string) []string {
	_, table, _ := strings.Cut(html, `id="`+id+`"`)
	table, _, _ = strings.Cut(table, "</table>")
	var out []string
	for _, part := range strings.Split(table, "<td")[1:] {
		_, text, _ := strings.Cut(part, ">")
		text, _, _ = strings.Cut(text, "<")
		out = append(out, strings.TrimSpace(text))
	}
	return out
}

func TestClassifyAndModelsTabs(t *testing.T) {
	if !strings.Contains(app.HTMLString(&ClassifyTab{}), "No model yet") {
		t.Error("Classify without a model gives no hint")
	}
	info := &protocol.Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}, M: 5, Init: "kcenter", Sigma: 0.1, C: 10,
		Grid: protocol.Grid{Rows: 1, Cols: 2, Pixel: 1}, Cost: []float64{2, 1}}
	html := app.HTMLString(&ClassifyTab{Model: info, Weight: []float64{1, 2}, Error: "bad.edges line 2: x",
		Graphs: []protocol.Graph{{File: "a.mol", Label: "1", Decision: []float64{-0.25}}, {File: "b.edges", Index: 0, Label: "-1", Decision: []float64{1.5}}}, Chosen: 1})
	for _, want := range []string{"a.mol", "-0.2500", "+1.5000", "-1 vs 1", "b.edges, graph 0: predicted class -1", "bad.edges line 2: x"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Classify tab", want)
		}
	}
	html = app.HTMLString(&ModelsTab{Model: info, Weight: []float64{1, 2}, URL: "blob:x", FileName: "wkpi-MUTAG.json"})
	for _, want := range []string{`href="blob:x"`, `download="wkpi-MUTAG.json"`, "5 Gaussians, k-center start", "1 × 2 pixels", "unit norm"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Models tab", want)
		}
	}
	raw := *info
	raw.Raw = true
	if html := app.HTMLString(&ModelsTab{Model: &raw, Weight: []float64{1, 2}}); !strings.Contains(html, "size-aware") || strings.Contains(html, "unit norm") {
		t.Error("a size-aware model is not shown as such in the Models tab")
	}
	if !strings.Contains(html, "the WKPI kernel") {
		t.Error("a model on the WKPI kernel does not say so in the Models tab")
	}
	gauss := *info
	gauss.GaussWidth = 0.25
	if html := app.HTMLString(&ModelsTab{Model: &gauss, Weight: []float64{1, 2}}); !strings.Contains(html, "Gaussian of the WKPI distance, width 0.25") {
		t.Error("a model on the Gaussian of the distance does not say so in the Models tab")
	}
}

// TestCVRunFoldsAsTheyCome feeds a 3-fold run as two workers would: folds
// one by one, out of order, one sent twice by a retried job, then the
// jobs' parts. Each fold counts once; the tally is the mean so far; the
// run is ready to merge once every part is in, and keeps the parts as
// they came for the worker that merges them.
func TestCVRunFoldsAsTheyCome(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1}
	fold := func(i int, acc, base float64) protocol.Fold {
		return protocol.Fold{Index: i, Accuracy: acc, Baseline: base, Test: []int{2 * i, 2*i + 1},
			Predicted: []int{0, 1}, BaselinePredicted: []int{0, 0}, Trace: protocol.Trace{Cost: []float64{1, 0.5}}}
	}
	f0, f1, f2 := fold(0, 1, 0.5), fold(1, 0.5, 0.5), fold(2, 0, 1)
	c := &cvRun{units: 4, tally: Tally{Total: 3}}
	indices := func() (out []int) {
		for _, f := range c.folds {
			out = append(out, f.Index)
		}
		return out
	}
	for _, step := range []struct {
		name string
		do   func() bool // whether every part is in
		want []int
		// Hand-computed means of the folds so far.
		learned, baseline float64
		complete          bool
	}{
		{"fold 2 first", func() bool { c.addFold(f2); return false }, []int{2}, 0, 1, false},
		{"fold 0", func() bool { c.addFold(f0); return false }, []int{0, 2}, 0.5, 0.75, false},
		{"fold 0 again, from a retry", func() bool { c.addFold(f0); return false }, []int{0, 2}, 0.5, 0.75, false},
		{"the part of folds 0 and 2", func() bool {
			return c.addPart(&protocol.CVPart{Report: protocol.Report{Folds: []protocol.Fold{f0, f2}}, Labels: labels, Classes: 2})
		}, []int{0, 2}, 0.5, 0.75, false},
		{"the part of fold 1, with no Partial before", func() bool {
			return c.addPart(&protocol.CVPart{Report: protocol.Report{Folds: []protocol.Fold{f1}}, Labels: labels, Classes: 2})
		}, []int{0, 1, 2}, 0.5, 2.0 / 3, true},
	} {
		complete := step.do()
		if got := indices(); !slices.Equal(got, step.want) {
			t.Fatalf("%s: folds %v, want %v", step.name, got, step.want)
		}
		tl := c.tally
		if tl.Done != len(step.want) || tl.Total != 3 || math.Abs(tl.Learned-step.learned) > 1e-12 || math.Abs(tl.Baseline-step.baseline) > 1e-12 {
			t.Errorf("%s: tally %+v, want %d of 3, learned %g, baseline %g", step.name, tl, len(step.want), step.learned, step.baseline)
		}
		if complete != step.complete {
			t.Fatalf("%s: complete %v, want %v", step.name, complete, step.complete)
		}
	}
	if len(c.parts) != 2 || c.parts[1].Report.Folds[0].Index != 1 || c.report != nil || c.err != "" {
		t.Errorf("parts %+v, report %v (error %q)", c.parts, c.report, c.err)
	}
}

// TestTrainTabWhileRunning: before the merge, the tab shows the folds so
// far in the table and the plot, and the running tally.
func TestTrainTabWhileRunning(t *testing.T) {
	s := &protocol.Summary{Name: "TOY", Graphs: 30, Classes: []protocol.Class{{Label: "x", Count: 15}, {Label: "y", Count: 15}}}
	folds := []protocol.Fold{
		{Index: 0, Accuracy: 1, Baseline: 0.5, Trace: protocol.Trace{Cost: []float64{2, 1}, Iterations: 1}},
		{Index: 3, Accuracy: 0.5, Baseline: 0.5, Trace: protocol.Trace{Cost: []float64{2, 1.5, 1}, Iterations: 2}},
	}
	html := app.HTMLString(&TrainTab{Summary: s, Form: &protocol.Training{Spec: spec.Defaults()}, Running: true,
		Folds: folds, Tally: Tally{Done: 2, Total: 10, Learned: 0.75, Baseline: 0.5}})
	if !strings.Contains(html, "2 of 10 folds: learned 75.0 %, baseline 50.0 % so far") {
		t.Error("no running tally in the Train tab")
	}
	if n := len(elems(html, "polyline")); n != 2 {
		t.Errorf("%d cost curves, want 2", n)
	}
	if cells := regexpCells(html, "fold-table"); fmt.Sprint(cells) != "[1 100.0 % 50.0 % +50.0 iteration cap (1) 4 50.0 % 50.0 % +0.0 iteration cap (2)]" {
		t.Errorf("fold table cells %v", cells)
	}
	if strings.Contains(html, "confusion-learned") {
		t.Error("a confusion matrix before the merge")
	}
}

// TestChoiceSummary counts the folds whose images were size-aware.
func TestChoiceSummary(t *testing.T) {
	got := choiceSummary([]protocol.Fold{{Candidate: 1}, {}, {Candidate: 1}})
	if !strings.Contains(got, "size-aware (unnormalised, σ = 1) in 2 of 3 folds") {
		t.Errorf("summary %q", got)
	}
}

func ptr(v float64) *float64 { return &v }

// TestTrainWorkersLine: a running run says how many Web Workers share it.
func TestTrainWorkersLine(t *testing.T) {
	for _, tc := range []struct {
		workers int
		want    string
	}{
		{2, "Running on 2 Web Workers, one per processor core the browser reports (at most 4:"},
		{1, "Running on 1 Web Worker: this browser reports one processor core."},
	} {
		html := app.HTMLString(&TrainTab{Summary: &protocol.Summary{Name: "TOY", Graphs: 6}, Form: &protocol.Training{Spec: spec.Defaults()}, Running: true, Workers: tc.workers})
		if !strings.Contains(html, tc.want) {
			t.Errorf("%d workers: no %q in %s", tc.workers, tc.want, html)
		}
	}
	if html := app.HTMLString(&TrainTab{Summary: &protocol.Summary{Name: "TOY", Graphs: 6}, Form: &protocol.Training{Spec: spec.Defaults()}, Workers: 2}); strings.Contains(html, "train-workers") {
		t.Error("a tab that runs nothing speaks of workers")
	}
}
