package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/testenv"
)

// sklearnSVC fits scikit-learn's SVC(kernel="precomputed") on each case
// of a JSON list and reports what the Go model must reproduce.
// decision_function_shape="ovo" keeps one column per pair; for two
// classes sklearn returns a single column with the opposite sign of
// LIBSVM's, which the script undoes. One process serves every case
// because importing sklearn costs about a second.
const sklearnSVC = `
import json, sys
import numpy as np
from sklearn.svm import SVC
out = []
for d in json.load(sys.stdin):
    K = np.array(d["K"]); y = np.array(d["y"]); T = np.array(d["T"])
    m = SVC(kernel="precomputed", C=d["C"], tol=d["tol"], shrinking=True,
            decision_function_shape="ovo").fit(K, y)
    dec = m.decision_function(T)
    if dec.ndim == 1:
        dec = -dec[:, None]
    out.append({"pred": m.predict(T).tolist(), "dec": dec.tolist(),
                "iter": np.atleast_1d(m.n_iter_).tolist()})
json.dump(out, sys.stdout)
`

type sklearnCase struct {
	K, T   [][]float64
	Y      []int   `json:"y"`
	C, Tol float64 `json:"-"`
}

type sklearnOut struct {
	Pred []int       `json:"pred"`
	Dec  [][]float64 `json:"dec"`
	Iter []int       `json:"iter"`
}

func runSklearn(t *testing.T, py string, cases []sklearnCase) []sklearnOut {
	t.Helper()
	in := make([]map[string]any, len(cases))
	for i, c := range cases {
		in[i] = map[string]any{"K": c.K, "y": c.Y, "T": c.T, "C": c.C, "tol": c.Tol}
	}
	var r []sklearnOut
	testenv.RunJSON(t, py, []string{"-c", sklearnSVC}, in, &r)
	if len(r) != len(cases) {
		t.Fatalf("sklearn answered %d cases of %d", len(r), len(cases))
	}
	return r
}

// problem is a labelled point cloud: k classes with Gaussian scatter
// around centres spread by sep, and held-out points from the same law.
type problem struct {
	name    string
	classes int
	n, m    int
	dim     int
	sep     float64
	kernel  string // "rbf" or "linear"
	gamma   float64
}

func (p problem) generate(seed uint64) (K [][]float64, y []int, T [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([][]float64, p.classes)
	for c := range centres {
		centres[c] = make([]float64, p.dim)
		for d := range centres[c] {
			centres[c][d] = p.sep * rng.NormFloat64()
		}
	}
	draw := func(count int) ([][]float64, []int) {
		xs := make([][]float64, count)
		ls := make([]int, count)
		for i := range xs {
			ls[i] = rng.IntN(p.classes)
			if i < p.classes {
				ls[i] = (i + 1) % p.classes // every class present, not in label order
			}
			xs[i] = make([]float64, p.dim)
			for d := range xs[i] {
				xs[i][d] = centres[ls[i]][d] + rng.NormFloat64()
			}
		}
		return xs, ls
	}
	X, y := draw(p.n)
	Z, _ := draw(p.m)
	kern := func(a, b []float64) float64 {
		var s float64
		for d := range a {
			if p.kernel == "linear" {
				s += a[d] * b[d]
			} else {
				s += (a[d] - b[d]) * (a[d] - b[d])
			}
		}
		if p.kernel == "linear" {
			return s
		}
		return math.Exp(-p.gamma * s)
	}
	gram := func(A, B [][]float64) [][]float64 {
		G := make([][]float64, len(A))
		for i := range A {
			G[i] = make([]float64, len(B))
			for j := range B {
				// LIBSVM inside sklearn caches kernel rows as float32;
				// float32 values make that cache exact, so both solvers
				// see the same problem.
				G[i][j] = float64(float32(kern(A[i], B[j])))
			}
		}
		return G
	}
	return gram(X, X), y, gram(Z, X)
}

// oracleProblems cover 2, 3 and 4 classes, separable and not, a
// strictly positive definite kernel (RBF) and a rank-deficient one
// (linear). C = 1e-3 leaves every alpha at a bound, so rho comes from
// LIBSVM's midpoint rule; larger C exercise the free-SV average. Linear
// kernels stop at C = 10: at C = 100 with tol 1e-8 LIBSVM needs 1.8e7
// iterations on linear3-overlap, beyond its own 1e7 cap.
var oracleProblems = []struct {
	problem
	Cs []float64
}{
	{problem{name: "rbf2-separable", classes: 2, n: 60, m: 40, dim: 2, sep: 6, kernel: "rbf", gamma: 0.5}, []float64{1e-3, 1, 100}},
	{problem{name: "rbf2-overlap", classes: 2, n: 80, m: 40, dim: 3, sep: 1, kernel: "rbf", gamma: 0.3}, []float64{1e-3, 0.1, 1, 10, 100}},
	{problem{name: "linear2-overlap", classes: 2, n: 70, m: 30, dim: 2, sep: 1, kernel: "linear"}, []float64{1e-3, 1, 10}},
	{problem{name: "rbf3-overlap", classes: 3, n: 90, m: 40, dim: 2, sep: 1.5, kernel: "rbf", gamma: 1}, []float64{1e-3, 1, 100}},
	{problem{name: "linear3-overlap", classes: 3, n: 90, m: 40, dim: 3, sep: 1.5, kernel: "linear"}, []float64{0.1, 10}},
	{problem{name: "rbf4-overlap", classes: 4, n: 100, m: 40, dim: 3, sep: 1.5, kernel: "rbf", gamma: 0.2}, []float64{1e-3, 1, 10}},
}

// TestTrainMatchesSklearn checks predictions and decision values against
// sklearn at a tight and the default tolerance. With shrinking on, the Go
// solver follows LIBSVM's path, so it must also take exactly as many
// iterations per pair; without, it takes another path to the same optimum.
func TestTrainMatchesSklearn(t *testing.T) {
	py := testenv.Python(t, "numpy", "sklearn")
	type run struct {
		name string
		c    sklearnCase
	}
	var runs []run
	var cases []sklearnCase
	for pi, p := range oracleProblems {
		K, y, T := p.generate(uint64(pi + 1))
		for _, C := range p.Cs {
			for _, tol := range []float64{1e-8, 1e-3} {
				c := sklearnCase{K: K, Y: y, T: T, C: C, Tol: tol}
				runs = append(runs, run{fmt.Sprintf("%s/C=%g/tol=%g", p.name, C, tol), c})
				cases = append(cases, c)
			}
		}
	}
	want := runSklearn(t, py, cases)
	for r, run := range runs {
		for _, shrink := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/shrink=%v", run.name, shrink), func(t *testing.T) {
				// Decision values must agree within 1e-6 at tol 1e-8; at the
				// default tol only the predictions are compared.
				decTol := math.Inf(1)
				if run.c.Tol < 1e-6 {
					decTol = 1e-6
				}
				m := checkAgainst(t, run.c, Options{C: run.c.C, Tol: run.c.Tol, NoShrinking: !shrink}, want[r], decTol)
				if shrink {
					for p, b := range m.Pairs {
						if b.Iterations != want[r].Iter[p] {
							t.Errorf("pair %d-%d: %d iterations, LIBSVM %d", b.A, b.B, b.Iterations, want[r].Iter[p])
						}
					}
				}
			})
		}
	}
}

// checkAgainst trains with o and compares predictions exactly and
// decision values within decTol with the sklearn output want.
func checkAgainst(t *testing.T, c sklearnCase, o Options, want sklearnOut, decTol float64) *Model {
	t.Helper()
	m, err := Train(context.Background(), c.K, c.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for s, k := range c.T {
		if got := m.Predict(k); got != want.Pred[s] {
			t.Errorf("sample %d predicted %d, sklearn %d", s, got, want.Pred[s])
		}
		dec := m.Decision(k)
		if len(dec) != len(want.Dec[s]) {
			t.Fatalf("%d decision values, sklearn %d", len(dec), len(want.Dec[s]))
		}
		for p := range dec {
			worst = math.Max(worst, math.Abs(dec[p]-want.Dec[s][p]))
		}
	}
	if worst > decTol {
		t.Errorf("decision values differ from sklearn by up to %g, want <= %g", worst, decTol)
	}
	t.Logf("max |decision - sklearn| = %.3g", worst)
	return m
}
