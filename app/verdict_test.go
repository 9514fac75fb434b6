package app

import (
	"math"
	"strings"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

func folds(learned []float64, baseline ...float64) []eval.Fold {
	f := make([]eval.Fold, len(learned))
	for i := range f {
		f[i] = eval.Fold{Index: i, Accuracy: learned[i], Baseline: baseline[i]}
	}
	return f
}

// TestPairedTest checks the paired t-test against the closed forms of
// Student's t distribution for 1 and 2 degrees of freedom:
// p = 1 - 2 atan(|t|)/pi and p = 1 - |t|/sqrt(t^2 + 2).
func TestPairedTest(t *testing.T) {
	// Differences 0.1, 0.2, 0: mean 0.1, sample std 0.1, t = sqrt 3.
	p := pairedTest(folds([]float64{0.9, 1, 0.8}, 0.8, 0.8, 0.8))
	if want := 1 - math.Sqrt(3)/math.Sqrt(5); math.Abs(p.P-want) > 1e-9 || math.Abs(p.T-math.Sqrt(3)) > 1e-9 || math.Abs(p.Mean-0.1) > 1e-12 {
		t.Errorf("3 folds: t %v p %v mean %v, want t sqrt 3, p %v", p.T, p.P, p.Mean, want)
	}
	// Differences -0.3, -0.1: mean -0.2, std sqrt 0.02, t = -2.
	p = pairedTest(folds([]float64{0.5, 0.7}, 0.8, 0.8))
	if want := 1 - 2*math.Atan(2)/math.Pi; math.Abs(p.P-want) > 1e-9 || math.Abs(p.T+2) > 1e-9 {
		t.Errorf("2 folds: t %v p %v, want t -2, p %v", p.T, p.P, want)
	}
	if p := pairedTest(folds([]float64{0.8, 0.7}, 0.8, 0.7)); p.P != 1 || !strings.HasPrefix(p.verdict(), "Learning did not help") {
		t.Errorf("equal folds: p %v, verdict %q", p.P, p.verdict())
	}
	if p := pairedTest(folds([]float64{0.75, 1}, 0.5, 0.75)); p.P != 0 || !strings.HasPrefix(p.verdict(), "Learning helped") {
		t.Errorf("the same gain in every fold: p %v, verdict %q", p.P, p.verdict())
	}
	p = pairedTest(folds([]float64{0.66, 0.67}, 0.8, 0.85))
	p.Majority, p.MajorityOf = 0.665, "1"
	if !strings.Contains(p.verdict(), "no better than always answering class 1 (66.5 %)") {
		t.Errorf("a kernel at the majority rate is not called out: %q", p.verdict())
	}
	if r, c := majority([]protocol.Class{{Label: "-1", Count: 63}, {Label: "1", Count: 125}}); math.Abs(r-125.0/188) > 1e-12 || c != "1" {
		t.Errorf("majority %v %q", r, c)
	}
}
