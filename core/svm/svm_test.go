package svm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
)

// Two points x = +1 (class 0) and x = -1 (class 1) under the linear
// kernel. Worked by hand: the hard-margin solution has alpha = 1/2 for
// both, w = 1, rho = 0, so f(x) = x. With C = 1/4 both alphas sit at C,
// w = 1/2, and the gradients y_i G_i are -1/2 (class 0) and +1/2
// (class 1), so LIBSVM's midpoint rule gives rho = 0 and f(x) = x/2.
func TestTrainTwoPoints(t *testing.T) {
	K := [][]float64{{1, -1}, {-1, 1}}
	y := []int{0, 1}
	for _, tc := range []struct {
		C     float64
		coef  []float64
		slope float64
	}{
		{C: 10, coef: []float64{0.5, -0.5}, slope: 1},
		{C: 0.5, coef: []float64{0.5, -0.5}, slope: 1},
		{C: 0.25, coef: []float64{0.25, -0.25}, slope: 0.5},
	} {
		for _, shrink := range []bool{false, true} {
			m, err := Train(context.Background(), K, y, Options{C: tc.C, NoShrinking: !shrink})
			if err != nil {
				t.Fatal(err)
			}
			b := m.Pairs[0]
			if !reflect.DeepEqual(b.SV, []int{0, 1}) || !close(b.Coef, tc.coef, 1e-12) || math.Abs(b.Rho) > 1e-12 {
				t.Errorf("C=%g: SV %v coef %v rho %g, want [0 1] %v 0", tc.C, b.SV, b.Coef, b.Rho, tc.coef)
			}
			for _, x := range []float64{-2, 0.3, 1} {
				// The kernel row of x against the training points is (x, -x).
				if got := m.Decision([]float64{x, -x})[0]; math.Abs(got-tc.slope*x) > 1e-12 {
					t.Errorf("C=%g: f(%g) = %g, want %g", tc.C, x, got, tc.slope*x)
				}
			}
		}
	}
}

func close(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestPredictVotes builds models by hand (no support vectors, so each
// decision value is -Rho) to check the one-vs-one vote and its ties.
func TestPredictVotes(t *testing.T) {
	pairs := func(f01, f02, f12 float64) *Model {
		return &Model{Classes: 3, N: 1, Pairs: []Binary{
			{A: 0, B: 1, Rho: -f01}, {A: 0, B: 2, Rho: -f02}, {A: 1, B: 2, Rho: -f12}}}
	}
	for _, tc := range []struct {
		name          string
		f01, f02, f12 float64
		want          int
	}{
		{"0 wins both", 1, 1, -1, 0},
		{"2 wins both", -1, -1, -1, 2},
		{"cycle: three-way tie goes to 0", 1, -1, 1, 0},
		{"1 beats 0 and 2", -1, -1, 1, 1},
		{"zero votes for B", 0, 0, 0, 2},
	} {
		if got := pairs(tc.f01, tc.f02, tc.f12).Predict([]float64{0}); got != tc.want {
			t.Errorf("%s: Predict = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	good := [][]float64{{1, 0.5, 0}, {0.5, 1, 0}, {0, 0, 1}}
	for _, tc := range []struct {
		name string
		K    [][]float64
		y    []int
		o    Options
	}{
		{"C zero", good, []int{0, 1, 1}, Options{}},
		{"C negative", good, []int{0, 1, 1}, Options{C: -1}},
		{"C NaN", good, []int{0, 1, 1}, Options{C: math.NaN()}},
		{"Tol negative", good, []int{0, 1, 1}, Options{C: 1, Tol: -1}},
		{"MaxIter negative", good, []int{0, 1, 1}, Options{C: 1, MaxIter: -1}},
		{"empty", nil, nil, Options{C: 1}},
		{"not square", [][]float64{{1, 0}, {0, 1}, {0, 0}}, []int{0, 1, 1}, Options{C: 1}},
		{"ragged", [][]float64{{1, 0}, {0}}, []int{0, 1}, Options{C: 1}},
		{"asymmetric", [][]float64{{1, 0.5}, {0.5 + 1e-6, 1}}, []int{0, 1}, Options{C: 1}},
		{"NaN", [][]float64{{1, math.NaN()}, {math.NaN(), 1}}, []int{0, 1}, Options{C: 1}},
		{"Inf", [][]float64{{math.Inf(1), 0}, {0, 1}}, []int{0, 1}, Options{C: 1}},
		{"label count", good, []int{0, 1}, Options{C: 1}},
		{"negative label", good, []int{0, -1, 1}, Options{C: 1}},
		{"one class", good, []int{2, 2, 2}, Options{C: 1}},
	} {
		if _, err := Train(context.Background(), tc.K, tc.y, tc.o); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	// Asymmetry within the relative tolerance is accepted.
	if _, err := Train(context.Background(), [][]float64{{1, 0.5}, {0.5 * (1 + 1e-12), 1}}, []int{0, 1}, Options{C: 1}); err != nil {
		t.Errorf("tiny asymmetry rejected: %v", err)
	}
}

func TestTrainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	K, y, _ := oracleProblems[1].generate(1)
	if _, err := Train(ctx, K, y, Options{C: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestTrainMaxIter(t *testing.T) {
	K, y, _ := oracleProblems[1].generate(1)
	m, err := Train(context.Background(), K, y, Options{C: 1, MaxIter: 3})
	if !errors.Is(err, ErrNotConverged) || m == nil || m.Pairs[0].Iterations != 3 {
		t.Errorf("err = %v, model %v; want ErrNotConverged after 3 iterations with a model", err, m != nil)
	}
}

// A class without samples gets no pair and never wins; the other pairs
// are those of the problem with the class removed and labels shifted.
func TestTrainEmptyClass(t *testing.T) {
	K, y, T := oracleProblems[3].generate(4) // 3 classes
	shifted := make([]int, len(y))
	for i, c := range y {
		shifted[i] = c
		if c >= 1 {
			shifted[i] = c + 1 // class 1 is empty
		}
	}
	ref, err := Train(context.Background(), K, y, Options{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(context.Background(), K, shifted, Options{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Classes != 4 || len(m.Pairs) != 3 {
		t.Fatalf("Classes %d, %d pairs; want 4, 3", m.Classes, len(m.Pairs))
	}
	for s, k := range T {
		want := ref.Predict(k)
		if want >= 1 {
			want++
		}
		if got := m.Predict(k); got != want {
			t.Errorf("sample %d: %d, want %d", s, got, want)
		}
		if !close(m.Decision(k), ref.Decision(k), 0) {
			t.Errorf("sample %d: decision %v, want %v", s, m.Decision(k), ref.Decision(k))
		}
	}
}

// SupportVectors is the sorted union of the pairs' SV, checked against
// a set built independently, and a model survives a JSON round trip.
func TestSupportVectorsAndJSON(t *testing.T) {
	K, y, T := oracleProblems[5].generate(6)
	m, err := Train(context.Background(), K, y, Options{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := make([]bool, m.N)
	for _, b := range m.Pairs {
		for _, sv := range b.SV {
			in[sv] = true
		}
	}
	var want []int
	for i, ok := range in {
		if ok {
			want = append(want, i)
		}
	}
	if got := m.SupportVectors(); !reflect.DeepEqual(got, want) {
		t.Errorf("SupportVectors = %v, want %v", got, want)
	}
	// Predicting reads only support vector columns: zeroing the others
	// must not change anything.
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range T {
		masked := make([]float64, len(k))
		for _, sv := range want {
			masked[sv] = k[sv]
		}
		if !close(back.Decision(masked), m.Decision(k), 0) {
			t.Fatalf("decision changed after JSON round trip and masking")
		}
	}
}
