package crossval

import (
	"fmt"
	"math"
	"sort"
)

// BinaryROCAUC is the area under the ROC curve of scores for the samples
// where positive is true against the rest: the probability that a random
// positive scores above a random negative, a tie counting one half. It
// is the Mann-Whitney U statistic over n+ n-, computed from the ranks of
// the scores with tied scores sharing their average rank, in
// O(n log n); scikit-learn's roc_auc_score(positive, scores) gives the
// same value (it integrates the ROC curve by trapezoids, which credits
// ties one half too). It is NaN, undefined, when every sample is
// positive or every sample negative (sklearn raises an error there).
func BinaryROCAUC(scores []float64, positive []bool) (float64, error) {
	if len(scores) != len(positive) {
		return 0, fmt.Errorf("crossval: %d scores for %d labels", len(scores), len(positive))
	}
	for i, s := range scores {
		if math.IsNaN(s) {
			return 0, fmt.Errorf("crossval: score of sample %d is NaN", i)
		}
	}
	var pos int
	for _, p := range positive {
		if p {
			pos++
		}
	}
	neg := len(scores) - pos
	if pos == 0 || neg == 0 {
		return math.NaN(), nil
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return scores[order[a]] < scores[order[b]] })
	// rankSum is the sum of the positives' 1-based ranks; a run of tied
	// scores at positions a..b-1 shares the rank (a+1+b)/2. Twice the
	// sum stays an integer, exact in float64 for any realistic n.
	var rankSum2 float64
	for a := 0; a < len(order); {
		b := a + 1
		for b < len(order) && scores[order[b]] == scores[order[a]] {
			b++
		}
		var p int
		for _, i := range order[a:b] {
			if positive[i] {
				p++
			}
		}
		rankSum2 += float64(p) * float64(a+1+b)
		a = b
	}
	u := rankSum2/2 - float64(pos)*float64(pos+1)/2
	return u / (float64(pos) * float64(neg)), nil
}

// ROCAUC scores per-class scores against the true classes: scores[i][c]
// is sample i's score for class c (higher: more likely c), every row of
// the same length k >= 2, and truth[i] in 0..k-1.
//
// Two classes (k = 2): BinaryROCAUC of class 1 (the positive class, the
// greater label, as scikit-learn takes it) with its scores scores[i][1];
// column 0 is not read. This is sklearn's roc_auc_score(truth, s) with
// s the positive class's score.
//
// More classes: the macro one-vs-rest AUC, the unweighted mean over the
// classes present in truth of BinaryROCAUC(scores[.][c], truth == c).
// That is the formula of sklearn's roc_auc_score(truth, scores,
// multi_class="ovr", average="macro"), which however accepts only
// probabilities (rows summing to 1): for scores that are not, the same
// value is the mean of sklearn's binary roc_auc_score(truth == c,
// scores[:, c]) over the classes c in truth. Classes absent from truth
// have no AUC and are left out (sklearn raises an error for them).
//
// The AUC is NaN, undefined, when truth holds fewer than two classes.
func ROCAUC(scores [][]float64, truth []int) (float64, error) {
	if len(scores) != len(truth) {
		return 0, fmt.Errorf("crossval: %d score rows for %d labels", len(scores), len(truth))
	}
	if len(scores) == 0 {
		return 0, fmt.Errorf("crossval: ROC-AUC of no samples")
	}
	k := len(scores[0])
	if k < 2 {
		return 0, fmt.Errorf("crossval: %d scores per sample, want one per class, at least 2", k)
	}
	present := make([]bool, k)
	for i, row := range scores {
		if len(row) != k {
			return 0, fmt.Errorf("crossval: sample %d has %d scores, sample 0 has %d", i, len(row), k)
		}
		if truth[i] < 0 || truth[i] >= k {
			return 0, fmt.Errorf("crossval: sample %d: label %d outside 0..%d", i, truth[i], k-1)
		}
		present[truth[i]] = true
	}
	column := func(c int) ([]float64, []bool) {
		s, p := make([]float64, len(scores)), make([]bool, len(scores))
		for i, row := range scores {
			s[i], p[i] = row[c], truth[i] == c
		}
		return s, p
	}
	if k == 2 {
		return BinaryROCAUC(column(1))
	}
	var sum float64
	var n int
	for c := range k {
		if !present[c] {
			continue
		}
		auc, err := BinaryROCAUC(column(c))
		if err != nil {
			return 0, fmt.Errorf("crossval: class %d: %w", c, err)
		}
		if math.IsNaN(auc) { // c is the only class present
			return math.NaN(), nil
		}
		sum += auc
		n++
	}
	return sum / float64(n), nil
}
