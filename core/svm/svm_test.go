package svm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
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

// TestFreeOfC: a model whose training never reached C (Model.FreeOfC) is
// the one every larger C trains, iteration counts included; random
// Gaussian-kernel problems of 2 and 3 classes at C from 0.01 to 1000
// give both kinds, and the two-point problem reaches C = 1/4 (its
// alphas sit at C) but not C = 10.
func TestFreeOfC(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	free, bound := 0, 0
	for trial := range 40 {
		n, classes := 20+r.IntN(60), 2+trial%2
		x := make([][2]float64, n)
		y := make([]int, n)
		for i := range x {
			y[i] = r.IntN(classes)
			x[i] = [2]float64{float64(y[i]) + r.NormFloat64(), r.NormFloat64()}
		}
		K := make([][]float64, n)
		for i := range K {
			K[i] = make([]float64, n)
			for j := range K[i] {
				d := (x[i][0]-x[j][0])*(x[i][0]-x[j][0]) + (x[i][1]-x[j][1])*(x[i][1]-x[j][1])
				K[i][j] = math.Exp(-d / 2)
			}
		}
		for _, c := range []float64{0.01, 1, 10, 100, 1000} {
			for _, shrink := range []bool{false, true} {
				m, err := Train(context.Background(), K, y, Options{C: c, NoShrinking: !shrink})
				if err != nil {
					t.Fatal(err)
				}
				if !m.FreeOfC() {
					bound++
					continue
				}
				free++
				for _, larger := range []float64{c * 1.5, c * 1000} {
					m2, err := Train(context.Background(), K, y, Options{C: larger, NoShrinking: !shrink})
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(m2, m) {
						t.Fatalf("trial %d: free of C at %g, but C %g trains another model", trial, c, larger)
					}
				}
			}
		}
	}
	if free == 0 || bound == 0 {
		t.Errorf("%d models free of C, %d bounded: want both kinds", free, bound)
	}
	K := [][]float64{{1, -1}, {-1, 1}}
	for c, want := range map[float64]bool{0.25: false, 10: true} {
		if m, err := Train(context.Background(), K, []int{0, 1}, Options{C: c}); err != nil || m.FreeOfC() != want {
			t.Errorf("two points, C %g: free of C %v (%v), want %v", c, m.FreeOfC(), err, want)
		}
	}
}

// TestTrainOn: training on rows and columns sub of a larger matrix, of
// float64 or float32 entries, checked or not, gives the model Train
// gives on the copied sub-matrix (of the float32 entries as float64),
// step for step, its support vectors positions in sub; bad rows and
// entries are refused, and CheckGram finds the latter too.
func TestTrainOn(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 90
	x := make([][2]float64, n)
	y := make([]int, n)
	for i := range x {
		y[i] = r.IntN(3)
		x[i] = [2]float64{float64(y[i]) + r.NormFloat64(), r.NormFloat64()}
	}
	K := make([][]float64, n)
	K32 := make([][]float32, n)
	for i := range K {
		K[i], K32[i] = make([]float64, n), make([]float32, n)
		for j := range K[i] {
			d := (x[i][0]-x[j][0])*(x[i][0]-x[j][0]) + (x[i][1]-x[j][1])*(x[i][1]-x[j][1])
			K[i][j] = math.Exp(-d / 2)
			K32[i][j] = float32(K[i][j])
		}
	}
	for _, sub := range [][]int{nil, {3, 5, 8, 13, 21, 34, 55, 56, 57, 60, 61, 70, 71, 72, 80, 81, 82, 85, 86, 89}, {89, 0, 44, 2, 17, 3, 60, 61, 62, 63}} {
		rows := sub
		if rows == nil {
			rows = make([]int, n)
			for i := range rows {
				rows[i] = i
			}
		}
		sk, sk32, sy := make([][]float64, len(rows)), make([][]float64, len(rows)), make([]int, len(rows))
		for i, a := range rows {
			sk[i], sk32[i], sy[i] = make([]float64, len(rows)), make([]float64, len(rows)), y[a]
			for j, b := range rows {
				sk[i][j], sk32[i][j] = K[a][b], float64(K32[a][b])
			}
		}
		for _, c := range []float64{0.1, 10} {
			want, err := Train(context.Background(), sk, sy, Options{C: c})
			if err != nil {
				t.Fatal(err)
			}
			got, err := TrainOn(context.Background(), K, sub, sy, Options{C: c})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d samples, C %g: TrainOn %+v\nTrain on the copy %+v", len(rows), c, got, want)
			}
			if checked, err := TrainOn(context.Background(), K, sub, sy, Options{C: c, Checked: true}); err != nil || !reflect.DeepEqual(checked, want) {
				t.Errorf("%d samples, C %g, checked: TrainOn %+v (%v)\nTrain on the copy %+v", len(rows), c, checked, err, want)
			}
			want32, err := Train(context.Background(), sk32, sy, Options{C: c})
			if err != nil {
				t.Fatal(err)
			}
			got32, err := TrainOn(context.Background(), K32, sub, sy, Options{C: c})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got32, want32) {
				t.Errorf("%d samples, C %g, float32: TrainOn %+v\nTrain on the float64 copy %+v", len(rows), c, got32, want32)
			}
		}
	}
	for _, sub := range [][]int{{1, 2, 1}, {1, n}, {-1, 2}} {
		if _, err := TrainOn(context.Background(), K, sub, make([]int, len(sub)), Options{C: 1}); err == nil || !strings.Contains(err.Error(), "outside it or repeated") {
			t.Errorf("sub %v: error %v", sub, err)
		}
	}
	if err := CheckGram(K32); err != nil {
		t.Errorf("CheckGram of a good matrix: %v", err)
	}
	K[4][7] = math.NaN()
	if err := CheckGram(K); err == nil || !strings.Contains(err.Error(), "entry (4,7) is NaN") {
		t.Errorf("CheckGram, NaN at (4, 7): error %v", err)
	}
	if _, err := TrainOn(context.Background(), K, []int{1, 7, 4}, []int{0, 1, 0}, Options{C: 1}); err == nil || !strings.Contains(err.Error(), "entry (2,1) is NaN") {
		t.Errorf("NaN at rows (4, 7), positions (2, 1): error %v", err)
	}
}
