package protocol

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/compare"
	"wkpi-web/core/crossval"
	"wkpi-web/core/dataset"
	"wkpi-web/core/eval"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/learn"
)

// coreReport is an eval.Report with every field the protocol mirrors set,
// and others (the fold's full setting) that it drops.
func coreReport() eval.Report {
	cfg := eval.DefaultConfig()
	cfg.Sigma, cfg.C, cfg.Gauss, cfg.Learn.M = 0.1, 10, 1, 4
	f := eval.Fold{Index: 1, Config: cfg, Trace: learn.Trace{Cost: []float64{2, 1.5}, Iterations: 1, Converged: true},
		Accuracy: 0.75, Baseline: 0.5, InnerAccuracy: 0.7, Cost: 0.25, ChannelScales: []float64{1, 2}, Candidate: 1,
		Test: []int{0, 3}, Predicted: []int{0, 1}, BaselinePredicted: []int{1, 1},
		BalancedAccuracy: 0.7, F1Macro: 0.6, ROCAUC: 0.8, BaselineBalancedAccuracy: 0.5, BaselineF1Macro: 0.4, BaselineROCAUC: crossval.Metric(math.NaN()),
		Scores: [][]float64{{-1, 1}, {1, -1}}, BaselineScores: [][]float64{{-2, 2}, {2, -2}}}
	r := crossval.Result{Accuracy: 0.75, Std: 0.25, PerFold: []float64{1, 0.5}, Confusion: [][]int{{2, 0}, {1, 1}},
		Predictions: []int{0, 0, 1, 1}, Seconds: 3,
		ROCAUC: crossval.Summarize([]float64{0.5, math.NaN()}), BalancedAccuracy: crossval.Summarize([]float64{1, 0.5}), F1Macro: crossval.Summarize([]float64{1, 0})}
	return eval.Report{Protocol: "auto", Learned: r, Baseline: r, Folds: []eval.Fold{f}, Seconds: 3}
}

// TestReportMirrorsEval: the JSON of an eval.Report (as the page saved
// it in localStorage before the protocol had its own types) decodes into
// a protocol Report with every value the page reads, and the protocol
// Report's JSON decodes back into eval's types with those values.
func TestReportMirrorsEval(t *testing.T) {
	core := coreReport()
	data, err := json.Marshal(core)
	if err != nil {
		t.Fatal(err)
	}
	var got Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	// By hand, from coreReport.
	p := func(v float64) *float64 { return &v }
	res := Result{Accuracy: 0.75, Std: 0.25, PerFold: []float64{1, 0.5}, Confusion: [][]int{{2, 0}, {1, 1}}, Predictions: []int{0, 0, 1, 1}, Seconds: 3,
		ROCAUC:           MetricSummary{Mean: p(0.5), Std: p(0), PerFold: []*float64{p(0.5), nil}, Undefined: 1},
		BalancedAccuracy: MetricSummary{Mean: p(0.75), Std: p(0.25), PerFold: []*float64{p(1), p(0.5)}},
		F1Macro:          MetricSummary{Mean: p(0.5), Std: p(0.5), PerFold: []*float64{p(1), p(0)}}}
	want := Report{Protocol: "auto", Learned: res, Baseline: res, Seconds: 3, Folds: []Fold{{
		Index: 1, Config: FoldConfig{Sigma: 0.1, C: 10, Gauss: 1, Learn: FoldLearn{M: 4}},
		Trace:    Trace{Cost: []float64{2, 1.5}, Iterations: 1, Converged: true},
		Accuracy: 0.75, Baseline: 0.5, InnerAccuracy: 0.7, Cost: 0.25, ChannelScales: []float64{1, 2}, Candidate: 1,
		Test: []int{0, 3}, Predicted: []int{0, 1}, BaselinePredicted: []int{1, 1},
		BalancedAccuracy: 0.7, F1Macro: 0.6, ROCAUC: p(0.8), BaselineBalancedAccuracy: 0.5, BaselineF1Macro: 0.4,
		Scores: [][]float64{{-1, 1}, {1, -1}}, BaselineScores: [][]float64{{-2, 2}, {2, -2}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("eval's JSON read as\n%+v\nwant\n%+v", got, want)
	}
	back, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var again eval.Report
	if err := json.Unmarshal(back, &again); err != nil {
		t.Fatal(err)
	}
	// What the protocol drops comes back zero; the rest as it was.
	f, cf := again.Folds[0], core.Folds[0]
	if f.Config.Sigma != cf.Config.Sigma || f.Config.C != cf.Config.C || f.Config.Gauss != cf.Config.Gauss || f.Config.Learn.M != cf.Config.Learn.M ||
		f.Config.SVM != nil {
		t.Errorf("fold setting %+v", f.Config)
	}
	f.Config, cf.Config = eval.Config{}, eval.Config{}
	again.Folds[0], core.Folds[0] = f, cf
	// Compared as JSON: the undefined metrics are NaN, unequal to
	// themselves.
	a, _ := json.Marshal(again)
	c, _ := json.Marshal(core)
	if string(a) != string(c) {
		t.Errorf("protocol JSON read by eval as\n%s\nwant\n%s", a, c)
	}
}

// TestMethodsAreCompares: the page's method names are core/compare's, in
// its order, and its special ones are the same constants.
func TestMethodsAreCompares(t *testing.T) {
	if got, want := Methods(), compare.Names(); !slices.Equal(got, want) {
		t.Errorf("methods %q, want compare.Names() %q", got, want)
	}
	for _, c := range [][2]string{{MethodWKPI, compare.WKPI}, {MethodWKPIInit, compare.WKPIInit}, {MethodMajority, compare.Majority},
		{MethodAltWKPI, compare.AltWKPI}, {MethodWL, compare.WL}} {
		if c[0] != c[1] {
			t.Errorf("method %q, compare's %q", c[0], c[1])
		}
	}
	// CompareMethod's JSON is compare.Method's.
	m := compare.Method{Name: compare.SW, Accuracy: 0.5, Std: 0.1, Folds: []float64{0.4, 0.6}, Seconds: 2, Chosen: []string{"a"},
		ROCAUC: 0.75, ROCAUCStd: crossval.Metric(math.NaN()), ROCAUCFolds: []crossval.Metric{0.5, crossval.Metric(math.NaN())},
		Paired: &crossval.Paired{Differences: []float64{0.1}, WilcoxonP: 0.5, TP: 0.25}}
	data, _ := json.Marshal(m)
	var ours CompareMethod
	if err := json.Unmarshal(data, &ours); err != nil {
		t.Fatal(err)
	}
	back, _ := json.Marshal(ours)
	if string(back) != string(data) {
		t.Errorf("CompareMethod JSON\n%s\nwant compare.Method's\n%s", back, data)
	}
}

// TestFormatNamesAreCores: the format names the page tells apart are
// graphfile's and dataset's.
func TestFormatNamesAreCores(t *testing.T) {
	for _, c := range [][2]string{{FormatCSV, string(graphfile.FormatCSV)}, {FormatTSV, string(graphfile.FormatTSV)}, {FormatSD, string(graphfile.FormatMolfile)},
		{FormatGraphML, string(graphfile.FormatGraphML)}, {FormatTU, dataset.FormatTU}, {FormatSWC, dataset.FormatSWC}} {
		if c[0] != c[1] {
			t.Errorf("format %q, core's %q", c[0], c[1])
		}
	}
}
