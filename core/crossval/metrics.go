package crossval

import (
	"fmt"

	"gonum.org/v1/gonum/stat"
)

// Accuracy is the fraction of pred equal to truth.
func Accuracy(pred, truth []int) (float64, error) {
	if len(pred) != len(truth) {
		return 0, fmt.Errorf("crossval: %d predictions for %d labels", len(pred), len(truth))
	}
	if len(pred) == 0 {
		return 0, fmt.Errorf("crossval: accuracy of no predictions")
	}
	right := 0
	for i := range pred {
		if pred[i] == truth[i] {
			right++
		}
	}
	return float64(right) / float64(len(pred)), nil
}

// Confusion counts samples of true class t predicted as p in [t][p]
// (rows are true classes, as in scikit-learn's confusion_matrix).
func Confusion(pred, truth []int, k int) ([][]int, error) {
	if len(pred) != len(truth) {
		return nil, fmt.Errorf("crossval: %d predictions for %d labels", len(pred), len(truth))
	}
	m := make([][]int, k)
	for i := range m {
		m[i] = make([]int, k)
	}
	for i := range pred {
		p, t := pred[i], truth[i]
		if p < 0 || p >= k || t < 0 || t >= k {
			return nil, fmt.Errorf("crossval: sample %d: prediction %d or label %d outside 0..%d", i, p, t, k-1)
		}
		m[t][p]++
	}
	return m, nil
}

// MeanStd returns the mean and the population standard deviation of xs.
func MeanStd(xs []float64) (mean, std float64) {
	return stat.PopMeanStdDev(xs, nil)
}
