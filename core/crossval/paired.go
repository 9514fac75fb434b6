package crossval

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"wkpi-web/core/wire"
)

// Paired is a paired comparison of two methods over the same folds
// (wire.Paired, plain data the page shows): the first's fold accuracies
// minus the second's, and the p-values of the Wilcoxon signed-rank and
// the paired t-test.
type Paired = wire.Paired

// Compare pairs a's fold accuracies with b's: differences a - b and the
// two tests.
func Compare(a, b []float64) (Paired, error) {
	if len(a) != len(b) {
		return Paired{}, fmt.Errorf("crossval: %d folds against %d", len(a), len(b))
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return Paired{Differences: d, WilcoxonP: Wilcoxon(d), TP: PairedT(d)}, nil
}

// CompareDefined pairs a's fold metrics with b's over the folds where
// both are defined (a ROC-AUC is not on a fold of one class); ok is false
// when fewer than two folds are.
func CompareDefined(a, b []Metric) (p Paired, ok bool, err error) {
	if len(a) != len(b) {
		return Paired{}, false, fmt.Errorf("crossval: %d folds against %d", len(a), len(b))
	}
	var x, y []float64
	for i := range a {
		if !math.IsNaN(float64(a[i])) && !math.IsNaN(float64(b[i])) {
			x, y = append(x, float64(a[i])), append(y, float64(b[i]))
		}
	}
	if len(x) < 2 {
		return Paired{}, false, nil
	}
	p, err = Compare(x, y)
	return p, err == nil, err
}

// CorrectedRepeatedT returns the two-sided p-value of the corrected
// repeated k-fold cross-validation t-test (Nadeau and Bengio, Machine
// Learning 52(3), 2003; Bouckaert and Frank, PAKDD 2004) of the
// differences d of r repeats of a k-fold CV (k = folds, n = len(d)
// folds in all): t = mean / sqrt((1/n + 1/(k-1)) s^2) on n-1 degrees of
// freedom. The folds of one repeat, and the repeats, share training
// graphs, so their differences are not independent; the plain t-test
// (PairedT) over all r x k folds would then find differences where
// there are none, and the correction's 1/(k-1), the test share over the
// training share, widens the variance for that.
func CorrectedRepeatedT(d []float64, folds int) float64 {
	if folds < 2 {
		return 1
	}
	return tTest(d, 1/(1/float64(len(d))+1/float64(folds-1)))
}

// diffTol treats differences of fold accuracies within rounding of each
// other as equal (the same fold's accuracies are multiples of 1/size, and
// their differences are computed in floating point).
const diffTol = 1e-12

// Wilcoxon returns the two-sided p-value of the Wilcoxon signed-rank test
// of the differences d, as scipy.stats.wilcoxon(d) with its defaults
// (zero_method "wilcox", no continuity correction): zero differences are
// dropped; with no zeros, no tied |d| and at most 50 differences the
// p-value is exact (the null distribution of the positive rank sum, every
// sign pattern equally likely); otherwise it is the normal approximation
// of T = min(W+, W-) with mean n(n+1)/4 and variance n(n+1)(2n+1)/24
// less the tie correction sum(t^3 - t)/48. (scipy 1.10 also goes exact
// with ties when there are no zeros, truncating W+; newer scipy does not:
// we follow the newer rule, where the exact table does not apply.)
func Wilcoxon(d []float64) float64 {
	var nz []float64
	for _, x := range d {
		if math.Abs(x) > diffTol {
			nz = append(nz, x)
		}
	}
	n := len(nz)
	if n == 0 {
		return 1
	}
	abs := make([]float64, n)
	for i, x := range nz {
		abs[i] = math.Abs(x)
	}
	ranks, ties := rank(abs)
	var wPlus float64
	for i, x := range nz {
		if x > 0 {
			wPlus += ranks[i]
		}
	}
	total := float64(n*(n+1)) / 2
	if n <= 50 && len(nz) == len(d) && len(ties) == 0 {
		return exactWilcoxon(n, int(math.Round(wPlus)))
	}
	t := math.Min(wPlus, total-wPlus)
	mean := total / 2
	v := float64(n) * float64(n+1) * float64(2*n+1)
	for _, c := range ties {
		v -= 0.5 * float64(c*(c*c-1))
	}
	se := math.Sqrt(v / 24)
	if se == 0 {
		return 1
	}
	z := (t - mean) / se
	return math.Min(1, 2*distuv.UnitNormal.CDF(-math.Abs(z)))
}

// exactWilcoxon is the two-sided exact p-value of a positive rank sum w
// of n untied ranks: 2 min(P(W <= w), P(W >= w)), clipped to 1, with the
// null distribution counted by dynamic programming over subsets of 1..n.
func exactWilcoxon(n, w int) float64 {
	max := n * (n + 1) / 2
	count := make([]float64, max+1)
	count[0] = 1
	for k := 1; k <= n; k++ {
		for s := max; s >= k; s-- {
			count[s] += count[s-k]
		}
	}
	total := math.Pow(2, float64(n))
	if 2*w == max {
		return 1
	}
	var less, greater float64
	for s, c := range count {
		if s <= w {
			less += c
		}
		if s >= w {
			greater += c
		}
	}
	return math.Min(1, 2*math.Min(less, greater)/total)
}

// rank returns average ranks (1-based) of xs, ties sharing the mean of
// their positions, and the size of every group of two or more ties.
func rank(xs []float64) (ranks []float64, ties []int) {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	ranks = make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && xs[idx[j]]-xs[idx[i]] <= diffTol {
			j++
		}
		for k := i; k < j; k++ {
			ranks[idx[k]] = float64(i+j+1) / 2 // mean of positions i+1..j
		}
		if j-i > 1 {
			ties = append(ties, j-i)
		}
		i = j
	}
	return ranks, ties
}

// PairedT returns the two-sided p-value of the paired t-test of the
// differences d (scipy.stats.ttest_rel): t = mean / (s / sqrt(n)) with the
// sample standard deviation s, on n - 1 degrees of freedom. With s = 0 it
// is 1 for a zero mean and 0 otherwise; with fewer than 2 differences, 1.
func PairedT(d []float64) float64 {
	return tTest(d, float64(len(d)))
}

// tTest returns the two-sided p-value of t = mean / (s / sqrt(n)) on
// len(d) - 1 degrees of freedom, s the sample standard deviation of d and
// n the effective number of independent differences: 1 with fewer than 2
// differences or all of them 0, 0 when they are one non-zero value.
func tTest(d []float64, n float64) float64 {
	if len(d) < 2 {
		return 1
	}
	mean, s := stat.MeanStdDev(d, nil)
	if s <= diffTol {
		if math.Abs(mean) <= diffTol {
			return 1
		}
		return 0
	}
	t := mean / (s / math.Sqrt(n))
	return math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}.CDF(-math.Abs(t)))
}
