package crossval

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"

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

// BalancedAccuracy is the mean over the classes present in truth of the
// recall (the fraction of the class's samples predicted as it), as
// scikit-learn's balanced_accuracy_score(truth, pred) computes it: a
// class that is only predicted, never true, has no recall and is left
// out (sklearn warns and leaves it out too).
func BalancedAccuracy(pred, truth []int) (float64, error) {
	if err := checkLabels(pred, truth); err != nil {
		return 0, err
	}
	total, right := map[int]int{}, map[int]int{}
	for i, t := range truth {
		total[t]++
		if pred[i] == t {
			right[t]++
		}
	}
	var sum float64
	for _, c := range slices.Sorted(maps.Keys(total)) {
		sum += float64(right[c]) / float64(total[c])
	}
	return sum / float64(len(total)), nil
}

// F1Macro is the unweighted mean over the classes in truth or pred of
// each class's F1 score, 2 TP / (2 TP + FP + FN), as scikit-learn's
// f1_score(truth, pred, average="macro") computes it with its default
// zero_division ("warn", which scores 0): a class that is true but
// never predicted (precision 0/0) or predicted but never true (recall
// 0/0) has F1 0 and counts in the mean. Classes in neither are not
// averaged (sklearn's default labels are those of truth and pred).
func F1Macro(pred, truth []int) (float64, error) {
	if err := checkLabels(pred, truth); err != nil {
		return 0, err
	}
	tp, fp, fn := map[int]int{}, map[int]int{}, map[int]int{}
	for i, t := range truth {
		if p := pred[i]; p == t {
			tp[t]++
		} else {
			fp[p]++
			fn[t]++
		}
	}
	classes := map[int]bool{}
	for i := range truth {
		classes[truth[i]], classes[pred[i]] = true, true
	}
	var sum float64
	for _, c := range slices.Sorted(maps.Keys(classes)) {
		sum += 2 * float64(tp[c]) / float64(2*tp[c]+fp[c]+fn[c])
	}
	return sum / float64(len(classes)), nil
}

func checkLabels(pred, truth []int) error {
	if len(pred) != len(truth) {
		return fmt.Errorf("crossval: %d predictions for %d labels", len(pred), len(truth))
	}
	if len(pred) == 0 {
		return fmt.Errorf("crossval: scores of no predictions")
	}
	return nil
}

// Metric is a value that may be undefined, NaN: the ROC-AUC of a test
// set with a single class, or its mean when no fold had one. JSON has no
// NaN, so a Metric writes NaN as null and reads null back as NaN.
type Metric float64

// MarshalJSON writes NaN as null and any other value as a number.
func (m Metric) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(m)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(m))
}

// UnmarshalJSON reads null as NaN.
func (m *Metric) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*m = Metric(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("crossval: metric: %w", err)
	}
	*m = Metric(f)
	return nil
}

// Metrics score one test set's predictions (Evaluate).
type Metrics struct {
	Accuracy         float64 `json:"accuracy"`
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	F1Macro          float64 `json:"f1_macro"`
	// ROCAUC is NaN when the test set holds one class or there were no
	// scores.
	ROCAUC Metric `json:"roc_auc"`
}

// Evaluate scores predictions pred of a test set whose true classes are
// truth: Accuracy, BalancedAccuracy, F1Macro, and ROCAUC from scores
// (one row of per-class scores per sample; nil leaves ROCAUC NaN).
func Evaluate(pred, truth []int, scores [][]float64) (Metrics, error) {
	var m Metrics
	var err error
	if m.Accuracy, err = Accuracy(pred, truth); err != nil {
		return Metrics{}, err
	}
	if m.BalancedAccuracy, err = BalancedAccuracy(pred, truth); err != nil {
		return Metrics{}, err
	}
	if m.F1Macro, err = F1Macro(pred, truth); err != nil {
		return Metrics{}, err
	}
	m.ROCAUC = Metric(math.NaN())
	if scores != nil {
		auc, err := ROCAUC(scores, truth)
		if err != nil {
			return Metrics{}, err
		}
		m.ROCAUC = Metric(auc)
	}
	return m, nil
}

// Summary is one metric over the folds of a cross-validation: its
// value in every fold, and the mean and population standard deviation
// of the defined (non-NaN) values; Undefined counts the folds left out.
// Mean and Std are NaN when no fold has a value.
type Summary struct {
	Mean      Metric   `json:"mean"`
	Std       Metric   `json:"std"`
	PerFold   []Metric `json:"per_fold"`
	Undefined int      `json:"undefined,omitempty"`
}

// Summarize is the Summary of values, one per fold, NaN where undefined.
func Summarize(values []float64) Summary {
	s := Summary{PerFold: make([]Metric, len(values))}
	var defined []float64
	for i, v := range values {
		s.PerFold[i] = Metric(v)
		if math.IsNaN(v) {
			s.Undefined++
		} else {
			defined = append(defined, v)
		}
	}
	s.Mean, s.Std = Metric(math.NaN()), Metric(math.NaN())
	if len(defined) > 0 {
		mean, std := MeanStd(defined)
		s.Mean, s.Std = Metric(mean), Metric(std)
	}
	return s
}
