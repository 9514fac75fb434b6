package svm

import (
	"context"
	"fmt"
	"math"
	"testing"

	"wkpi-web/core/testenv"
)

// TestScoresHandWorked: a three-class model built by hand on one
// training sample with kernel value 1, whose pairs decide f(0,1) = 2 - 1
// = 1 (votes 0), f(0,2) = -0.5 (votes 2) and f(1,2) = 0 (votes 2, the
// B of the pair). Votes 1, 0, 2; summed confidences s = (1 - 0.5, -1 +
// 0, 0.5 - 0) = (0.5, -1, 0.5); scores votes + s / (3 (|s| + 1)).
func TestScoresHandWorked(t *testing.T) {
	m := &Model{Classes: 3, N: 1, Pairs: []Binary{
		{A: 0, B: 1, SV: []int{0}, Coef: []float64{2}, Rho: 1},
		{A: 0, B: 2, SV: []int{0}, Coef: []float64{-0.5}},
		{A: 1, B: 2, SV: []int{0}, Coef: []float64{0}},
	}}
	want := []float64{1 + 1.0/9, -1.0 / 6, 2 + 1.0/9, 0}
	got := m.Scores([]float64{1}, 4) // a fourth class without samples scores 0
	if !close(got, want, 1e-15) {
		t.Errorf("Scores = %v, want %v", got, want)
	}
	// Two classes: the decision value for class 0, its opposite for 1.
	two := &Model{Classes: 2, N: 1, Pairs: []Binary{{A: 0, B: 1, SV: []int{0}, Coef: []float64{3}, Rho: 0.5}}}
	if got := two.Scores([]float64{1}, 2); !close(got, []float64{2.5, -2.5}, 1e-15) {
		t.Errorf("binary Scores = %v, want [2.5 -2.5]", got)
	}
}

// sklearnOVR fits scikit-learn's SVC on each case and returns its
// decision_function with decision_function_shape="ovr" (one column for
// two classes, the positive class's score).
const sklearnOVR = `
import json, sys
import numpy as np
from sklearn.svm import SVC
out = []
for d in json.load(sys.stdin):
    K = np.array(d["K"]); y = np.array(d["y"]); T = np.array(d["T"])
    m = SVC(kernel="precomputed", C=d["C"], tol=d["tol"], decision_function_shape="ovr").fit(K, y)
    dec = m.decision_function(T)
    out.append(np.atleast_2d(dec.T).T.tolist())
json.dump(out, sys.stdout)
`

// TestScoresMatchSklearn: the per-class scores against sklearn's
// one-vs-rest decision function on the problems of the training oracle
// (2, 3 and 4 classes) at a tight tolerance.
func TestScoresMatchSklearn(t *testing.T) {
	py := testenv.Python(t, "numpy", "sklearn")
	type run struct {
		name    string
		K, T    [][]float64
		y       []int
		C       float64
		classes int
	}
	var runs []run
	var in []map[string]any
	for pi, p := range oracleProblems {
		K, y, T := p.generate(uint64(pi + 1))
		for _, C := range p.Cs {
			runs = append(runs, run{fmt.Sprintf("%s/C=%g", p.name, C), K, T, y, C, p.classes})
			in = append(in, map[string]any{"K": K, "y": y, "T": T, "C": C, "tol": 1e-8})
		}
	}
	var want [][][]float64
	testenv.RunJSON(t, py, []string{"-c", sklearnOVR}, in, &want)
	for r, run := range runs {
		m, err := Train(context.Background(), run.K, run.y, Options{C: run.C, Tol: 1e-8})
		if err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		var worst float64
		for s, k := range run.T {
			got := m.Scores(k, run.classes)
			if run.classes == 2 {
				if got[0] != -got[1] {
					t.Errorf("%s: binary scores %v not opposite", run.name, got)
				}
				got = got[1:]
			}
			if len(got) != len(want[r][s]) {
				t.Fatalf("%s: %d scores, sklearn %d", run.name, len(got), len(want[r][s]))
			}
			for c := range got {
				worst = math.Max(worst, math.Abs(got[c]-want[r][s][c]))
			}
		}
		if worst > 1e-6 {
			t.Errorf("%s: scores differ from sklearn's by up to %g", run.name, worst)
		}
	}
}
