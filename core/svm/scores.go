package svm

import "math"

// Scores returns one score per class, classes values (at least
// m.Classes), at a sample whose kernel values against every training
// sample are k: the higher, the more the model leans to that class, the
// input of a ROC-AUC.
//
// Two classes: the decision value f of the single pair (positive for
// class 0, as LIBSVM's), f for class 0 and -f for class 1, so that
// Scores(k)[1] is scikit-learn's SVC.decision_function, the score of the
// positive class.
//
// More classes: scikit-learn's one-vs-rest shape of the one-vs-one
// decision values (SVC(decision_function_shape="ovr").decision_function),
// votes_c + s_c / (3 (|s_c| + 1)), where votes_c counts the pairs that
// vote for c (as Predict counts them) and s_c sums the pairs' decision
// values signed in c's favour; the second term lies in (-1/3, 1/3), so
// votes rank first and the summed confidence breaks their ties. Predict
// breaks ties to the lowest class instead, so the class of the highest
// score may differ from Predict's when votes tie. A pair's decision
// value of exactly 0 votes for its B, as in Predict and LIBSVM (sklearn
// gives it to A). Classes with no training samples (and classes beyond
// m.Classes) have no pair and score 0.
func (m *Model) Scores(k []float64, classes int) []float64 {
	dec := m.Decision(k)
	out := make([]float64, max(classes, m.Classes))
	if m.Classes == 2 {
		out[0], out[1] = dec[0], -dec[0]
		return out
	}
	sums := make([]float64, len(out))
	for p, f := range dec {
		a, b := m.Pairs[p].A, m.Pairs[p].B
		if f > 0 {
			out[a]++
		} else {
			out[b]++
		}
		sums[a] += f
		sums[b] -= f
	}
	for c, s := range sums {
		out[c] += s / (3 * (math.Abs(s) + 1))
	}
	return out
}
