package crossval

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestAccuracyConfusion(t *testing.T) {
	pred := []int{0, 1, 1, 2, 0, 2}
	truth := []int{0, 1, 2, 2, 1, 0}
	acc, err := Accuracy(pred, truth)
	if err != nil || acc != 0.5 {
		t.Errorf("Accuracy = %g, %v; want 0.5", acc, err)
	}
	m, err := Confusion(pred, truth, 3)
	want := [][]int{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}} // rows: true class
	if err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("Confusion = %v, %v; want %v", m, err, want)
	}
	for _, bad := range [][2][]int{{{0}, {0, 1}}, {{3}, {0}}, {{0}, {-1}}} {
		if _, err := Confusion(bad[0], bad[1], 3); err == nil {
			t.Errorf("Confusion(%v, %v): no error", bad[0], bad[1])
		}
	}
	if _, err := Accuracy([]int{0}, nil); err == nil {
		t.Error("Accuracy of mismatched lengths: no error")
	}
	if _, err := Accuracy(nil, nil); err == nil {
		t.Error("Accuracy of nothing: no error")
	}
}

func TestMeanStd(t *testing.T) {
	// Population std of 1..4: sqrt(((1.5^2 + 0.5^2) * 2) / 4) = sqrt(1.25).
	m, s := MeanStd([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(s-math.Sqrt(1.25)) > 1e-15 {
		t.Errorf("MeanStd = %g, %g; want 2.5, %g", m, s, math.Sqrt(1.25))
	}
	if m, s := MeanStd([]float64{0.7}); m != 0.7 || s != 0 {
		t.Errorf("MeanStd of one value = %g, %g", m, s)
	}
}

func TestBalancedAccuracyF1HandWorked(t *testing.T) {
	for _, c := range []struct {
		name        string
		pred, truth []int
		bal, f1     float64
	}{
		// Recalls 2/3 and 1; F1 of class 0: 2*2 / (2*2 + 0 + 1) = 4/5,
		// of class 1: 2 / (2 + 1 + 0) = 2/3.
		{"two classes", []int{0, 0, 1, 1}, []int{0, 0, 0, 1}, (2.0/3 + 1) / 2, (4.0/5 + 2.0/3) / 2},
		// Class 2 is predicted, never true: no recall (left out of the
		// balanced accuracy), F1 0 (counted in the macro mean).
		{"predicted only", []int{0, 2, 1, 1}, []int{0, 0, 1, 1}, (0.5 + 1) / 2, (2.0/3 + 1 + 0) / 3},
		// Class 1 is true, never predicted: recall 0, F1 0.
		{"never predicted", []int{0, 0, 0}, []int{0, 1, 0}, (1 + 0) / 2.0, (2*2.0/(2*2+1) + 0) / 2},
		{"perfect", []int{2, 0, 1}, []int{2, 0, 1}, 1, 1},
	} {
		bal, err := BalancedAccuracy(c.pred, c.truth)
		if err != nil || math.Abs(bal-c.bal) > 1e-15 {
			t.Errorf("%s: balanced accuracy %g, %v; want %g", c.name, bal, err, c.bal)
		}
		f1, err := F1Macro(c.pred, c.truth)
		if err != nil || math.Abs(f1-c.f1) > 1e-15 {
			t.Errorf("%s: macro F1 %g, %v; want %g", c.name, f1, err, c.f1)
		}
	}
	for _, f := range []func([]int, []int) (float64, error){BalancedAccuracy, F1Macro} {
		if _, err := f([]int{0}, []int{0, 1}); err == nil {
			t.Error("mismatched lengths: no error")
		}
		if _, err := f(nil, nil); err == nil {
			t.Error("no predictions: no error")
		}
	}
}

func TestEvaluate(t *testing.T) {
	m, err := Evaluate([]int{0, 0, 1, 1}, []int{0, 0, 0, 1}, [][]float64{{0, -1}, {0, 2}, {0, 1}, {0, 3}})
	// Class 1's score 3 beats all three negatives: AUC 1.
	want := Metrics{Accuracy: 0.75, BalancedAccuracy: (2.0/3 + 1) / 2, F1Macro: (4.0/5 + 2.0/3) / 2, ROCAUC: 1}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-15 }
	if err != nil || m.Accuracy != want.Accuracy || !near(m.BalancedAccuracy, want.BalancedAccuracy) || !near(m.F1Macro, want.F1Macro) || m.ROCAUC != want.ROCAUC {
		t.Errorf("Evaluate = %+v, %v; want %+v", m, err, want)
	}
	if m, err := Evaluate([]int{0, 1}, []int{0, 1}, nil); err != nil || !math.IsNaN(float64(m.ROCAUC)) {
		t.Errorf("no scores: %+v, %v; want ROC-AUC NaN", m, err)
	}
	if _, err := Evaluate([]int{0, 1}, []int{0, 1}, [][]float64{{1, 2}}); err == nil {
		t.Error("too few score rows: no error")
	}
}

// TestMetricJSON: NaN is null both ways, numbers stay numbers.
func TestMetricJSON(t *testing.T) {
	in := Summarize([]float64{0.5, math.NaN(), 1})
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mean":0.75,"std":0.25,"per_fold":[0.5,null,1],"undefined":1}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	var out Summary
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Mean != 0.75 || out.Std != 0.25 || out.Undefined != 1 || len(out.PerFold) != 3 || !math.IsNaN(float64(out.PerFold[1])) || out.PerFold[2] != 1 {
		t.Errorf("read back %+v", out)
	}
	none := Summarize([]float64{math.NaN()})
	if data, err := json.Marshal(none); err != nil || string(data) != `{"mean":null,"std":null,"per_fold":[null],"undefined":1}` {
		t.Errorf("all undefined: %s, %v", data, err)
	}
	var bad Metric
	if err := json.Unmarshal([]byte(`"x"`), &bad); err == nil {
		t.Error("a string read as a metric")
	}
}
