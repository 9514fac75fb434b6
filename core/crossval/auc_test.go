package crossval

import (
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/testenv"
)

func bools(labels ...int) []bool {
	out := make([]bool, len(labels))
	for i, l := range labels {
		out[i] = l == 1
	}
	return out
}

// TestBinaryROCAUCHandWorked: values counted pair by pair on paper.
func TestBinaryROCAUCHandWorked(t *testing.T) {
	for _, c := range []struct {
		name   string
		scores []float64
		labels []int
		want   float64
	}{
		// sklearn's documentation example: of the 4 (positive, negative)
		// pairs, only 0.35 < 0.4 is out of order.
		{"sklearn example", []float64{0.1, 0.4, 0.35, 0.8}, []int{0, 0, 1, 1}, 0.75},
		// Pairs (pos, neg): (1,1) tie 1/2, (1,2) 0, (2,1) 1, (2,2) tie 1/2.
		{"ties across classes", []float64{1, 1, 2, 2}, []int{0, 1, 0, 1}, 0.5},
		// Positive 0.5 ties both negatives (1/2 + 1/2), 0.9 beats both.
		{"tie at the bottom", []float64{0.5, 0.5, 0.5, 0.9}, []int{0, 0, 1, 1}, 0.75},
		// One positive tied with one of three negatives, above the others:
		// (1 + 1 + 1/2) / 3.
		{"one positive", []float64{-2, -1, 3, 3}, []int{0, 0, 0, 1}, 2.5 / 3},
		{"all tied", []float64{7, 7, 7, 7, 7}, []int{0, 1, 1, 0, 1}, 0.5},
		{"perfect", []float64{-3, -1, 2, 5}, []int{0, 0, 1, 1}, 1},
		{"reversed", []float64{-3, -1, 2, 5}, []int{1, 1, 0, 0}, 0},
		// Infinite scores rank like any other.
		{"infinities", []float64{math.Inf(-1), 0, math.Inf(1)}, []int{0, 1, 1}, 1},
	} {
		got, err := BinaryROCAUC(c.scores, bools(c.labels...))
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: AUC = %g, %v; want %g", c.name, got, err, c.want)
		}
	}
	for _, labels := range [][]int{{1, 1, 1}, {0, 0}} {
		if got, err := BinaryROCAUC([]float64{1, 2, 3}[:len(labels)], bools(labels...)); err != nil || !math.IsNaN(got) {
			t.Errorf("one class %v: AUC = %g, %v; want NaN", labels, got, err)
		}
	}
	if _, err := BinaryROCAUC([]float64{1}, bools(0, 1)); err == nil {
		t.Error("mismatched lengths: no error")
	}
	if _, err := BinaryROCAUC([]float64{1, math.NaN()}, bools(0, 1)); err == nil {
		t.Error("NaN score: no error")
	}
}

// bruteAUC compares every positive with every negative.
func bruteAUC(scores []float64, positive []bool) float64 {
	var wins float64
	var pairs int
	for i := range scores {
		for j := range scores {
			if !positive[i] || positive[j] {
				continue
			}
			pairs++
			switch {
			case scores[i] > scores[j]:
				wins++
			case scores[i] == scores[j]:
				wins += 0.5
			}
		}
	}
	return wins / float64(pairs)
}

// TestBinaryROCAUCBruteForce: the rank formula against all pairs, on
// scores drawn from few values (many ties) and from a continuum.
func TestBinaryROCAUCBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 2 + rng.IntN(60)
		levels := []int{2, 3, 5, 1 << 30}[trial%4]
		scores, pos := make([]float64, n), make([]bool, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(levels)) / 7
			pos[i] = rng.IntN(3) == 0
		}
		pos[0], pos[1] = true, false
		got, err := BinaryROCAUC(scores, pos)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteAUC(scores, pos); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d (n %d, %d levels): rank AUC %.15g, brute force %.15g", trial, n, levels, got, want)
		}
	}
}

func TestROCAUCHandWorked(t *testing.T) {
	// Two classes: column 1 only; column 0 may hold anything.
	s2 := [][]float64{{9, 0.1}, {-4, 0.4}, {0, 0.35}, {1, 0.8}}
	if got, err := ROCAUC(s2, []int{0, 0, 1, 1}); err != nil || got != 0.75 {
		t.Errorf("binary: %g, %v; want 0.75", got, err)
	}
	// Three classes, every class's column ranks its own samples first
	// but for class 2, whose one sample ties one other (AUC (1 + 1/2 +
	// 1 + 1) / 4 = 7/8): macro (1 + 1 + 7/8) / 3.
	s3 := [][]float64{
		{0.9, 0.1, 0.0},
		{0.8, 0.2, 0.5},
		{0.1, 0.9, 0.2},
		{0.2, 0.7, 0.0},
		{0.0, 0.0, 0.5},
	}
	y3 := []int{0, 0, 1, 1, 2}
	if got, err := ROCAUC(s3, y3); err != nil || math.Abs(got-(2+7.0/8)/3) > 1e-15 {
		t.Errorf("three classes: %g, %v; want %g", got, err, (2+7.0/8)/3)
	}
	// Class 1 absent from truth: the mean over classes 0 and 2.
	// Class 0 (samples 0, 1 against 4): 1; class 2 (sample 4 against 0,
	// 1): 0.5 ties 0.5 and beats 0: 3/4.
	got, err := ROCAUC([][]float64{s3[0], s3[1], s3[4]}, []int{0, 0, 2})
	if want := (1 + 0.75) / 2; err != nil || math.Abs(got-want) > 1e-15 {
		t.Errorf("absent class: %g, %v; want %g", got, err, want)
	}
	for _, y := range [][]int{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}} {
		if got, err := ROCAUC(s3, y); err != nil || !math.IsNaN(got) {
			t.Errorf("one class %v: %g, %v; want NaN", y, got, err)
		}
	}
	for name, c := range map[string]struct {
		s [][]float64
		y []int
	}{
		"ragged":        {[][]float64{{1, 2}, {1}}, []int{0, 1}},
		"one column":    {[][]float64{{1}, {2}}, []int{0, 0}},
		"label too big": {[][]float64{{1, 2}, {1, 3}}, []int{0, 2}},
		"lengths":       {[][]float64{{1, 2}}, []int{0, 1}},
		"empty":         {nil, nil},
	} {
		if _, err := ROCAUC(c.s, c.y); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// metricCase is a test set for the sklearn oracle: true classes,
// predictions and per-class scores.
type metricCase struct {
	Y      []int       `json:"y"`
	Pred   []int       `json:"pred"`
	Scores [][]float64 `json:"scores"`
	// Prob says the scores are probabilities (rows sum to 1), so that
	// sklearn's own multi_class="ovr" applies.
	Prob bool `json:"prob"`
}

type metricWant struct {
	AUC      *float64 `json:"auc"` // null: sklearn refuses (one class)
	OVR      *float64 `json:"ovr"` // multi_class="ovr" on probabilities
	Balanced float64  `json:"balanced"`
	F1       float64  `json:"f1"`
}

// sklearnMetrics computes the oracle values. The AUC of k > 2 classes is
// the mean of roc_auc_score(y == c, scores[:, c]) over the classes c in
// y, and, for probabilities, sklearn's own multi_class="ovr" too.
const sklearnMetrics = `
import json, sys, warnings
import numpy as np
from sklearn.metrics import roc_auc_score, balanced_accuracy_score, f1_score
warnings.simplefilter("ignore")
out = []
for d in json.load(sys.stdin):
    y = np.array(d["y"]); p = np.array(d["pred"]); s = np.array(d["scores"], dtype=float)
    r = {"balanced": float(balanced_accuracy_score(y, p)),
         "f1": float(f1_score(y, p, average="macro")), "auc": None, "ovr": None}
    present = np.unique(y)
    if len(present) >= 2:
        if s.shape[1] == 2:
            r["auc"] = float(roc_auc_score(y, s[:, 1]))
        else:
            r["auc"] = float(np.mean([roc_auc_score(y == c, s[:, c]) for c in present]))
            if d["prob"] and len(present) == s.shape[1]:
                r["ovr"] = float(roc_auc_score(y, s, multi_class="ovr", average="macro"))
    out.append(r)
json.dump(out, sys.stdout)
`

// randomCase draws a test set of k classes whose scores lean towards the
// true class, rounded to few values for ties; absent > 0 leaves that
// class out of the truth (not of the predictions).
func randomCase(rng *rand.Rand, n, k, absent int, prob bool) metricCase {
	c := metricCase{Y: make([]int, n), Pred: make([]int, n), Scores: make([][]float64, n), Prob: prob}
	for i := range n {
		c.Y[i] = rng.IntN(k)
		for absent > 0 && c.Y[i] == absent {
			c.Y[i] = rng.IntN(k)
		}
		if i < k && i != absent {
			c.Y[i] = i
		}
		row := make([]float64, k)
		var sum float64
		for j := range row {
			row[j] = math.Round(4*rng.Float64()) / 4
			if j == c.Y[i] {
				row[j] += 0.5
			}
			if prob {
				row[j] = math.Exp(row[j])
			}
			sum += row[j]
		}
		best := 0
		for j := range row {
			if prob {
				row[j] /= sum
			}
			if row[j] > row[best] {
				best = j
			}
		}
		c.Scores[i], c.Pred[i] = row, best
		if rng.IntN(6) == 0 {
			c.Pred[i] = rng.IntN(k) // predictions also outside the argmax
		}
	}
	return c
}

// TestMetricsMatchSklearn: ROC-AUC (binary and macro one-vs-rest),
// balanced accuracy and macro F1 against scikit-learn on random test
// sets with ties, absent classes, classes never predicted and a test
// set of one class.
func TestMetricsMatchSklearn(t *testing.T) {
	py := testenv.Python(t, "numpy", "sklearn")
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []metricCase
	for trial := range 40 {
		k := 2 + trial%4
		absent := 0
		if k > 2 && trial%3 == 0 {
			absent = k - 1
		}
		cases = append(cases, randomCase(rng, 5+rng.IntN(40), k, absent, trial%2 == 1))
	}
	// A class predicted but never true, a class true but never predicted.
	cases = append(cases,
		metricCase{Y: []int{0, 0, 1, 1}, Pred: []int{2, 0, 0, 0}, Scores: [][]float64{{1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {1, 0.5, 0}}},
		metricCase{Y: []int{1, 1, 1}, Pred: []int{1, 0, 1}, Scores: [][]float64{{0, 1}, {1, 0}, {0, 2}}},
	)
	var want []metricWant
	testenv.RunJSON(t, py, []string{"-c", sklearnMetrics}, cases, &want)
	for i, c := range cases {
		m, err := Evaluate(c.Pred, c.Y, c.Scores)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if math.Abs(m.BalancedAccuracy-want[i].Balanced) > 1e-12 {
			t.Errorf("case %d: balanced accuracy %.15g, sklearn %.15g", i, m.BalancedAccuracy, want[i].Balanced)
		}
		if math.Abs(m.F1Macro-want[i].F1) > 1e-12 {
			t.Errorf("case %d: macro F1 %.15g, sklearn %.15g", i, m.F1Macro, want[i].F1)
		}
		auc := float64(m.ROCAUC)
		switch {
		case want[i].AUC == nil:
			if !math.IsNaN(auc) {
				t.Errorf("case %d: one class, AUC %g, want NaN", i, auc)
			}
		case math.Abs(auc-*want[i].AUC) > 1e-12:
			t.Errorf("case %d (%d classes): AUC %.15g, sklearn %.15g", i, len(c.Scores[0]), auc, *want[i].AUC)
		}
		if want[i].OVR != nil && math.Abs(auc-*want[i].OVR) > 1e-12 {
			t.Errorf("case %d: AUC %.15g, sklearn multi_class=ovr %.15g", i, auc, *want[i].OVR)
		}
	}
	var ovr int
	for _, w := range want {
		if w.OVR != nil {
			ovr++
		}
	}
	if ovr < 5 {
		t.Errorf("only %d cases compared with sklearn's multi_class=ovr", ovr)
	}
}
