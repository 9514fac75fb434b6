package crossval

import (
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
