package app

import (
	"fmt"

	"wkpi-web/wasm/protocol"
)

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

// verdict says plainly what the folds show about learning: test is a
// worker's paired comparison of the learned with the initial weight
// function over the folds (the tests of `wkpi compare`; of the ROC-AUCs
// too, when the worker gave them), learned the
// learned kernel's mean accuracy and rate the rate of the largest class,
// label.
func verdict(test protocol.PairedTest, learned, rate float64, label string) string {
	n := len(test.Differences)
	if n < 2 {
		return "Too few folds to test whether learning helped."
	}
	diff := fmt.Sprintf("learned minus initial weight function: %+.1f ± %.1f points over %d folds (paired t-test p = %.2g, Wilcoxon signed-rank p = %.2g)",
		100*test.Mean, 100*test.Std, n, test.TP, test.WilcoxonP)
	var s string
	switch {
	case test.Mean > 0 && test.TP < 0.05:
		s = "Learning helped: " + diff + "."
	case test.Mean < 0 && test.TP < 0.05:
		s = "Learning made it worse: " + diff + "."
	default:
		s = "Learning did not help here: " + diff + "; the difference is within the folds' noise."
	}
	if auc := test.ROCAUC; auc != nil {
		s += fmt.Sprintf(" ROC-AUC: learned minus initial %+.3f ± %.3f over %d folds (paired t-test p = %.2g, Wilcoxon signed-rank p = %.2g).",
			auc.Mean, auc.Std, len(auc.Differences), auc.TP, auc.WilcoxonP)
	}
	if rate > 0 && learned <= rate+0.005 {
		s += fmt.Sprintf(" The learned kernel does no better than always answering class %s (%.1f %%).", label, 100*rate)
	}
	return s
}
