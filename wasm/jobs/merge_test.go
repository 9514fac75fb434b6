package jobs

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

// toyFolds are 3 folds of 6 samples of 2 classes.
func toyFolds() []protocol.Fold {
	fold := func(i int, acc, base float64, pred, basePred []int) protocol.Fold {
		return protocol.Fold{Index: i, Accuracy: acc, Baseline: base, Test: []int{2 * i, 2*i + 1}, Predicted: pred, BaselinePredicted: basePred,
			Trace: protocol.Trace{Cost: []float64{1, 0.5}, Iterations: 1}, Config: protocol.FoldConfig{Sigma: 0.1, C: 10, Learn: protocol.FoldLearn{M: 3}}}
	}
	return []protocol.Fold{
		fold(0, 1, 0.5, []int{0, 1}, []int{0, 0}),
		fold(1, 0.5, 0.5, []int{0, 0}, []int{0, 0}),
		fold(2, 1, 0.5, []int{0, 1}, []int{1, 1}),
	}
}

// TestMergeCV merges parts given out of order; the report is the one of
// the folds worked by hand, and the test that of their differences
// 0.5, 0, 0.5: mean 1/3, sample std sqrt(1/12), t = 2 on 2 degrees of
// freedom, p = 1 - 2/sqrt(6) (Student's t closed form); Wilcoxon: two
// non-zero differences of tied rank, normal approximation.
func TestMergeCV(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1}
	f := toyFolds()
	var w Worker
	r := w.Run(context.Background(), protocol.Request{Kind: protocol.MergeCV, Parts: []protocol.CVPart{
		{Report: protocol.Report{Protocol: "fixed", Folds: []protocol.Fold{f[1]}, Seconds: 2}, Labels: labels, Classes: 2},
		{Report: protocol.Report{Protocol: "fixed", Folds: []protocol.Fold{f[0], f[2]}, Seconds: 3}, Labels: labels, Classes: 2},
	}}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	rep := r.Merged.Report
	if !reflect.DeepEqual(rep.Folds, f) || rep.Protocol != "fixed" || rep.Seconds != 3 {
		t.Errorf("merged folds %+v, protocol %q, %v s", rep.Folds, rep.Protocol, rep.Seconds)
	}
	// Learned: 5 of 6 right (sample 3 predicted 0); initial: 3 of 6.
	if l := rep.Learned; math.Abs(l.Accuracy-2.5/3) > 1e-15 || !reflect.DeepEqual(l.Predictions, []int{0, 1, 0, 0, 0, 1}) ||
		!reflect.DeepEqual(l.Confusion, [][]int{{3, 0}, {1, 2}}) || l.Seconds != 3 {
		t.Errorf("learned %+v", l)
	}
	if b := rep.Baseline; b.Accuracy != 0.5 || !reflect.DeepEqual(b.Confusion, [][]int{{2, 1}, {2, 1}}) {
		t.Errorf("baseline %+v", b)
	}
	p := r.Merged.Test
	if !reflect.DeepEqual(p.Differences, []float64{0.5, 0, 0.5}) || math.Abs(p.Mean-1.0/3) > 1e-15 || math.Abs(p.Std-math.Sqrt(1.0/12)) > 1e-15 ||
		math.Abs(p.TP-(1-2/math.Sqrt(6))) > 1e-12 {
		t.Errorf("test %+v, want t p %v", p, 1-2/math.Sqrt(6))
	}
	// W+ = 3 of n = 2 tied ranks 1.5: T = 0, mean 1.5, variance
	// (2*3*5 - 0.5*(2*3))/24 = 1.125, z = -1.5/sqrt(1.125).
	if want := math.Erfc(1.5 / math.Sqrt(1.125) / math.Sqrt2); math.Abs(p.WilcoxonP-want) > 1e-12 {
		t.Errorf("Wilcoxon p %v, want %v", p.WilcoxonP, want)
	}

	if p.ROCAUC != nil {
		t.Errorf("folds without ROC-AUCs: ROC-AUC test %+v", p.ROCAUC)
	}
	// ROC-AUCs: fold 1's test graphs of one class have none, so the
	// test pairs folds 0 and 2, differences 0.5 and 0.25.
	withAUC := toyFolds()
	auc := func(x float64) *float64 { return &x }
	withAUC[0].ROCAUC, withAUC[0].BaselineROCAUC = auc(1), auc(0.5)
	withAUC[2].ROCAUC, withAUC[2].BaselineROCAUC = auc(0.75), auc(0.5)
	r = w.Run(context.Background(), protocol.Request{Kind: protocol.MergeCV, Parts: []protocol.CVPart{{Report: protocol.Report{Folds: withAUC}, Labels: labels, Classes: 2}}}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	if a := r.Merged.Test.ROCAUC; a == nil || !reflect.DeepEqual(a.Differences, []float64{0.5, 0.25}) || math.Abs(a.Mean-0.375) > 1e-15 ||
		math.Abs(a.Std-math.Sqrt(0.03125)) > 1e-15 || a.TP != crossval.PairedT(a.Differences) || a.WilcoxonP != crossval.Wilcoxon(a.Differences) {
		t.Errorf("ROC-AUC test %+v, want differences 0.5 and 0.25, mean 0.375, std sqrt(1/32)", a)
	}

	// A report merged already (saved by an earlier page) is only tested.
	merged := rep
	r = w.Run(context.Background(), protocol.Request{Kind: protocol.MergeCV, Parts: []protocol.CVPart{{Report: merged}}}, nil, nil)
	if r.Event != protocol.Done || !reflect.DeepEqual(r.Merged.Report, merged) || !reflect.DeepEqual(r.Merged.Test, p) {
		t.Errorf("a merged report: %+v", r)
	}
	// One fold: no spread, and nothing to test; the JSON still encodes.
	r = w.Run(context.Background(), protocol.Request{Kind: protocol.MergeCV, Parts: []protocol.CVPart{{Report: protocol.Report{Folds: f[:1]}}}}, nil, nil)
	if r.Event != protocol.Done || r.Merged.Test.Std != 0 || r.Merged.Test.TP != 1 || r.Merged.Test.Mean != 0.5 {
		t.Errorf("one fold: %+v", r.Merged)
	}
	if _, err := r.Envelope(); err != nil {
		t.Error(err)
	}

	for _, tc := range []struct {
		name  string
		parts []protocol.CVPart
		want  string
	}{
		{"no parts", nil, "no parts"},
		{"a fold missing", []protocol.CVPart{{Report: protocol.Report{Folds: f[:1]}, Labels: labels, Classes: 2},
			{Report: protocol.Report{Folds: f[2:]}, Labels: labels, Classes: 2}}, "fold 1 missing"},
		{"parts of two datasets", []protocol.CVPart{{Report: protocol.Report{Folds: f[:1]}, Labels: labels, Classes: 2},
			{Report: protocol.Report{Folds: f[1:]}, Labels: labels[1:], Classes: 2}}, "another dataset"},
		{"a merged report with a part", []protocol.CVPart{{Report: merged}, {Report: merged, Labels: labels, Classes: 2}}, "must come alone"},
	} {
		r := w.Run(context.Background(), protocol.Request{Kind: protocol.MergeCV, Parts: tc.parts}, nil, nil)
		if r.Event != protocol.Failed || !strings.Contains(r.Error, tc.want) {
			t.Errorf("%s: %+v, want an error with %q", tc.name, r, tc.want)
		}
	}
}

// TestFoldConversions: a protocol fold survives the trip to eval and
// back, and an eval fold's mirrored fields come through.
func TestFoldConversions(t *testing.T) {
	for _, f := range toyFolds() {
		f.Config.Gauss, f.Candidate, f.ChannelScales, f.InnerAccuracy, f.Cost = 1, 1, []float64{2}, 0.5, 0.25
		auc := 0.75
		f.BalancedAccuracy, f.F1Macro, f.ROCAUC, f.BaselineF1Macro = 0.6, 0.5, &auc, 0.4
		f.Scores, f.BaselineScores = [][]float64{{-1, 1}}, [][]float64{{1, -1}}
		if back := foldOf(evalFold(f)); !reflect.DeepEqual(back, f) {
			t.Errorf("fold %+v came back as %+v", f, back)
		}
	}
	r := eval.Report{Protocol: "nested", Learned: crossval.Result{Accuracy: 0.5, Std: 0.1, PerFold: []float64{0.4, 0.6}, Confusion: [][]int{{1}}, Predictions: []int{0}, Seconds: 2,
		ROCAUC: crossval.Summarize([]float64{0.9, math.NaN()}), F1Macro: crossval.Summarize([]float64{0.5, 0.7})}}
	// Compared as JSON: an undefined metric is NaN, unequal to itself.
	want, _ := json.Marshal(r)
	if back, _ := json.Marshal(evalReport(reportOf(r))); string(back) != string(want) {
		t.Errorf("report %s came back as %s", want, back)
	}
}
