package crossval

import (
	"math"
	"testing"

	"wkpi-web/core/testenv"
)

// TestWilcoxonHandWorked: closed forms.
func TestWilcoxonHandWorked(t *testing.T) {
	for _, c := range []struct {
		name string
		d    []float64
		want float64
	}{
		// n = 5 all positive: W+ = 15 is the largest of 2^5 equally likely
		// sums, P(W >= 15) = 1/32, two-sided 2/32.
		{"all positive", []float64{1, 2, 3, 4, 5}, 2.0 / 32},
		// n = 3, d = (1, -2, 3): W+ = 1 + 3 = 4. Subsets of {1,2,3} with
		// sum >= 4 are {1,3}, {2,3}, {1,2,3}: P(W >= 4) = 3/8, P(W <= 4) =
		// 6/8, p = 2 * 3/8 = 0.75.
		{"mixed", []float64{1, -2, 3}, 0.75},
		// W+ at the centre of the distribution: p = 1.
		{"centre", []float64{1, 2, -3}, 1},
		// Every difference zero.
		{"zeros", []float64{0, 0, 0}, 1},
		// Zeros dropped, ties: d = (0, 0.1, 0.1, -0.2): n = 3, |d| ranks
		// 1.5, 1.5, 3; W+ = 3, W- = 3, T = 3 = mean n(n+1)/4 -> z = 0, p = 1.
		{"tied centre", []float64{0, 0.1, 0.1, -0.2}, 1},
	} {
		if got := Wilcoxon(c.d); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: p = %g, want %g", c.name, got, c.want)
		}
	}
	// Normal approximation by hand: d = (0, 1, 1, 1, 1) -> zeros dropped,
	// n = 4 all tied: ranks 2.5 each, W+ = 10, T = 0, mean 5,
	// var = (4*5*9 - 0.5*4*15)/24 = 150/24, z = -5/sqrt(6.25) = -2,
	// p = 2 Phi(-2).
	want := math.Erfc(2 / math.Sqrt2)
	if got := Wilcoxon([]float64{0, 1, 1, 1, 1}); math.Abs(got-want) > 1e-12 {
		t.Errorf("tied normal approximation: p = %g, want %g", got, want)
	}
}

// TestPairedTHandWorked: d = (1, 2, 3): mean 2, s = 1, t = 2 sqrt 3 on 2
// degrees of freedom, where the Student t CDF has the closed form
// F(t) = 1/2 + t / (2 sqrt(2 + t^2)).
func TestPairedTHandWorked(t *testing.T) {
	tt := 2 * math.Sqrt(3)
	want := 2 * (0.5 - tt/(2*math.Sqrt(2+tt*tt)))
	if got := PairedT([]float64{1, 2, 3}); math.Abs(got-want) > 1e-12 {
		t.Errorf("p = %g, want %g", got, want)
	}
	if got := PairedT([]float64{0.1, 0.1}); got != 0 {
		t.Errorf("constant non-zero differences: p = %g, want 0", got)
	}
	if got := PairedT([]float64{0, 0}); got != 1 {
		t.Errorf("zero differences: p = %g, want 1", got)
	}
}

// TestCorrectedRepeatedTHandWorked: d = (1, 2, 3) from 4-fold CV: mean
// 2, s = 1, t = 2 / sqrt((1/3 + 1/3) 1) = sqrt 6 on 2 degrees of freedom
// (closed form as above); the plain t-test's p is smaller.
func TestCorrectedRepeatedTHandWorked(t *testing.T) {
	tt := math.Sqrt(6)
	want := 2 * (0.5 - tt/(2*math.Sqrt(2+tt*tt)))
	d := []float64{1, 2, 3}
	if got := CorrectedRepeatedT(d, 4); math.Abs(got-want) > 1e-12 {
		t.Errorf("p = %g, want %g", got, want)
	}
	if got := CorrectedRepeatedT(d, 4); got <= PairedT(d) {
		t.Errorf("corrected p %g not above the plain t-test's %g", got, PairedT(d))
	}
	if got := CorrectedRepeatedT([]float64{0, 0, 0}, 10); got != 1 {
		t.Errorf("zero differences: p = %g, want 1", got)
	}
}

// TestScipy checks both tests against scipy.stats (Debian python3-scipy,
// which python3-sklearn brings) on fold-accuracy-like differences: exact
// and normal-approximation Wilcoxon cases and the paired t-test.
func TestScipy(t *testing.T) {
	py := testenv.Python(t, "scipy")
	cases := [][]float64{
		{0.05, -0.01, 0.12, 0.07, 0.031, 0.02, -0.04, 0.09, 0.015, 0.06},         // exact
		{0, 0.0526, 0.0526, -0.0556, 0, 0.1053, 0.0526, 0.0556, -0.0526, 0.1111}, // zeros and ties: approx
		{0.3, -0.1, 0.2, 0.25, 0.05, 0.15, 0.12},                                 // exact, n = 7
		{0.01 * 1, 0.02, -0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12},
	}
	var want []struct {
		W, T float64
	}
	testenv.RunJSON(t, py, []string{"-c", `
import json, sys, warnings
from scipy import stats
warnings.simplefilter("ignore")
out = []
for d in json.load(sys.stdin):
    w = stats.wilcoxon(d).pvalue
    tt = stats.ttest_1samp(d, 0.0).pvalue
    out.append({"W": float(w), "T": float(tt)})
print(json.dumps(out))
`}, cases, &want)
	for i, d := range cases {
		if got := Wilcoxon(d); math.Abs(got-want[i].W) > 1e-9 {
			t.Errorf("case %d: Wilcoxon p = %.12g, scipy %.12g", i, got, want[i].W)
		}
		if got := PairedT(d); math.Abs(got-want[i].T) > 1e-9 {
			t.Errorf("case %d: paired t p = %.12g, scipy %.12g", i, got, want[i].T)
		}
	}
}

// CompareDefined pairs the folds where both metrics are defined.
func TestCompareDefined(t *testing.T) {
	nan := Metric(math.NaN())
	p, ok, err := CompareDefined([]Metric{0.9, nan, 0.7, 0.8}, []Metric{0.8, 0.5, nan, 0.6})
	if err != nil || !ok || len(p.Differences) != 2 || math.Abs(p.Differences[0]-0.1) > 1e-12 || math.Abs(p.Differences[1]-0.2) > 1e-12 {
		t.Errorf("got %+v, %v, %v; want differences 0.1 and 0.2 (folds 0 and 3)", p, ok, err)
	}
	if _, ok, err := CompareDefined([]Metric{0.9, nan}, []Metric{0.8, 0.5}); ok || err != nil {
		t.Errorf("one fold with both: ok %v, err %v; want false, nil", ok, err)
	}
	if _, _, err := CompareDefined([]Metric{0.9}, []Metric{0.8, 0.5}); err == nil {
		t.Error("1 fold against 2: no error")
	}
}
