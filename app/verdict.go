package app

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

// Paired is a paired t-test of learned against baseline accuracy over the
// folds of one CV: the mean and sample standard deviation of the
// differences, t and the two-sided p-value.
type Paired struct {
	N          int
	Mean, Std  float64
	T, P       float64
	Learned    float64 // mean accuracy of the learned weight function
	Baseline   float64 // and of the initial one
	Majority   float64 // rate of the largest class
	MajorityOf string  // its label
}

// pairedTest compares the folds' learned and baseline accuracies.
func pairedTest(folds []eval.Fold) Paired {
	d := make([]float64, len(folds))
	l, b := make([]float64, len(folds)), make([]float64, len(folds))
	for i, f := range folds {
		d[i], l[i], b[i] = f.Accuracy-f.Baseline, f.Accuracy, f.Baseline
	}
	p := Paired{N: len(d), Learned: stat.Mean(l, nil), Baseline: stat.Mean(b, nil)}
	if p.N < 2 {
		p.Mean, p.P = p.Learned-p.Baseline, math.NaN()
		return p
	}
	p.Mean, p.Std = stat.MeanStdDev(d, nil)
	se := p.Std / math.Sqrt(float64(p.N))
	switch {
	case se > 0:
		p.T = p.Mean / se
		p.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(p.N - 1)}.Survival(math.Abs(p.T))
	case p.Mean == 0: // every fold the same: no difference at all
		p.P = 1
	default: // the same non-zero difference in every fold
		p.T, p.P = math.Inf(int(math.Copysign(1, p.Mean))), 0
	}
	return p
}

// majority is the rate and label of the largest class.
func majority(classes []protocol.Class) (float64, string) {
	best, total, name := 0, 0, ""
	for _, c := range classes {
		total += c.Count
		if c.Count > best {
			best, name = c.Count, c.Label
		}
	}
	if total == 0 {
		return 0, ""
	}
	return float64(best) / float64(total), name
}

// verdict says plainly what the folds show about learning.
func (p Paired) verdict() string {
	if p.N < 2 {
		return "Too few folds to test whether learning helped."
	}
	diff := fmt.Sprintf("learned minus initial weight function: %+.1f ± %.1f points over %d folds (paired t-test, p = %.2g)",
		100*p.Mean, 100*p.Std, p.N, p.P)
	var s string
	switch {
	case p.Mean > 0 && p.P < 0.05:
		s = "Learning helped: " + diff + "."
	case p.Mean < 0 && p.P < 0.05:
		s = "Learning made it worse: " + diff + "."
	default:
		s = "Learning did not help here: " + diff + "; the difference is within the folds' noise."
	}
	if p.Majority > 0 && p.Learned <= p.Majority+0.005 {
		s += fmt.Sprintf(" The learned kernel does no better than always answering class %s (%.1f %%).", p.MajorityOf, 100*p.Majority)
	}
	return s
}
