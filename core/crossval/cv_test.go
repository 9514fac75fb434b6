package crossval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// majority predicts the most frequent training label (ties: lowest).
type majority struct{ labels []int }

func (m majority) Fit(_ context.Context, train []int) (Predictor, error) {
	count := map[int]int{}
	best := -1
	for _, s := range train {
		count[m.labels[s]]++
	}
	for c, n := range count {
		if best < 0 || n > count[best] || n == count[best] && c < best {
			best = c
		}
	}
	return constant(best), nil
}

type constant int

func (c constant) Predict(_ context.Context, test []int) ([]int, error) {
	out := make([]int, len(test))
	for i := range out {
		out[i] = int(c)
	}
	return out, nil
}

// Worked by hand: folds {0,3}, {1,4}, {2,5} of labels 0,0,0,0,1,1.
// Fold 0 trains on labels 0,0,1,1 (tie -> 0) and tests 0,0: accuracy 1.
// Folds 1 and 2 train on 0,0,0,1 (-> 0) and test 0,1: accuracy 1/2.
// Mean 2/3, population std sqrt(((1/3)^2 + 2 (1/6)^2) / 3) = sqrt(1/18).
func TestCrossValidateMajority(t *testing.T) {
	labels := []int{0, 0, 0, 0, 1, 1}
	folds := []int{0, 1, 2, 0, 1, 2}
	var reports []string
	prog := func(stage string, done, total int) { reports = append(reports, fmt.Sprint(stage, done, "/", total)) }
	r, err := CrossValidate(context.Background(), labels, folds, 3, majority{labels}, prog)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.PerFold, []float64{1, 0.5, 0.5}) {
		t.Errorf("PerFold = %v", r.PerFold)
	}
	if math.Abs(r.Accuracy-2.0/3) > 1e-15 || math.Abs(r.Std-math.Sqrt(1.0/18)) > 1e-15 {
		t.Errorf("Accuracy, Std = %g, %g; want 2/3, sqrt(1/18)", r.Accuracy, r.Std)
	}
	if !reflect.DeepEqual(r.Confusion, [][]int{{4, 0}, {2, 0}}) {
		t.Errorf("Confusion = %v", r.Confusion)
	}
	if !reflect.DeepEqual(r.Predictions, []int{0, 0, 0, 0, 0, 0}) {
		t.Errorf("Predictions = %v", r.Predictions)
	}
	if !reflect.DeepEqual(reports, []string{"cv1/3", "cv2/3", "cv3/3"}) {
		t.Errorf("progress %v", reports)
	}
}

// threshold classifies points x by x > T; it records every training set
// it is fitted on, to check that nested CV never trains on test samples.
type threshold struct {
	x    []float64
	t    float64
	seen *[][]int
}

func (l threshold) Fit(_ context.Context, train []int) (Predictor, error) {
	if l.seen != nil {
		*l.seen = append(*l.seen, append([]int(nil), train...))
	}
	return l, nil
}

func (l threshold) Predict(_ context.Context, test []int) ([]int, error) {
	out := make([]int, len(test))
	for i, s := range test {
		if l.x[s] > l.t {
			out[i] = 1
		}
	}
	return out, nil
}

// 1-D points 0..39 labelled x > 19.5: among thresholds 5, 19.5 and 30,
// only 19.5 is right on every inner split, so every outer fold picks
// it and scores 1; the other thresholds misclassify 14 or 10 points of
// 40 and cannot win an inner CV.
func TestNestedPicksRightParameter(t *testing.T) {
	n := 40
	x := make([]float64, n)
	labels := make([]int, n)
	for i := range x {
		x[i] = float64(i)
		if x[i] > 19.5 {
			labels[i] = 1
		}
	}
	grid := []Params{{"T": 5}, {"T": 19.5}, {"T": 30}}
	var seen [][]int
	mk := func(p Params) Learner { return threshold{x: x, t: p["T"], seen: &seen} }
	last := 0
	total := 0
	prog := func(stage string, done, tot int) { last, total = done, tot }
	r, err := Nested(context.Background(), labels, 4, 3, grid, mk, 7, prog)
	if err != nil {
		t.Fatal(err)
	}
	for f, p := range r.Chosen {
		if p.String() != "T=19.5" || r.InnerAccuracy[f] != 1 {
			t.Errorf("outer fold %d chose %v (inner accuracy %g)", f, p, r.InnerAccuracy[f])
		}
	}
	if r.Accuracy != 1 || r.Std != 0 || !reflect.DeepEqual(r.Predictions, labels) {
		t.Errorf("accuracy %g ± %g, predictions %v", r.Accuracy, r.Std, r.Predictions)
	}
	if want := 4 * (3*3 + 1); total != want || last != want {
		t.Errorf("progress ended at %d/%d, want %d/%d", last, total, want, want)
	}
	// Every fit, inner or outer, sees only the outer training set of the
	// fold it serves: 3 grid cells × 3 inner folds + 1 refit per fold.
	outer, _ := StratifiedKFold(labels, 4, 7)
	if len(seen) != 4*10 {
		t.Fatalf("%d fits, want 40", len(seen))
	}
	for i, train := range seen {
		f := i / 10
		for _, s := range train {
			if outer[s] == f {
				t.Fatalf("fit %d for outer fold %d trained on its test sample %d", i, f, s)
			}
		}
		if i%10 == 9 && len(train) != n-n/4 {
			t.Errorf("refit %d on %d samples, want %d", f, len(train), n-n/4)
		}
	}
}

// Equal inner accuracies go to the first grid cell.
func TestNestedTiesPickFirst(t *testing.T) {
	labels := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	grid := []Params{{"b": 2}, {"a": 1}}
	mk := func(Params) Learner { return majority{labels} }
	r, err := Nested(context.Background(), labels, 3, 2, grid, mk, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for f, p := range r.Chosen {
		if p.String() != "b=2" {
			t.Errorf("outer fold %d chose %v, want the first cell", f, p)
		}
	}
}

func TestParamsString(t *testing.T) {
	p := Params{"sigma": 0.1, "C": 1e3, "M": 4}
	if got := p.String(); got != "C=1000 M=4 sigma=0.1" {
		t.Errorf("String = %q", got)
	}
}

// Repeat passes consecutive seeds and averages the run accuracies:
// here accuracy = seed/10 for seeds 3, 4, 5: mean 0.4, population std
// sqrt(2/3)/10.
func TestRepeat(t *testing.T) {
	var seeds []int64
	run := func(_ context.Context, seed int64) (Result, error) {
		seeds = append(seeds, seed)
		return Result{Accuracy: float64(seed) / 10}, nil
	}
	r, err := Repeat(context.Background(), 3, 3, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seeds, []int64{3, 4, 5}) || math.Abs(r.Accuracy-0.4) > 1e-15 ||
		math.Abs(r.Std-math.Sqrt(2.0/3)/10) > 1e-15 || len(r.Runs) != 3 {
		t.Errorf("seeds %v, accuracy %g ± %g", seeds, r.Accuracy, r.Std)
	}
	if _, err := Repeat(context.Background(), 0, 0, run, nil); err == nil {
		t.Error("0 repeats: no error")
	}
}

type failing struct{}

func (failing) Fit(context.Context, []int) (Predictor, error) { return nil, errors.New("boom") }

func TestCrossValidateErrors(t *testing.T) {
	labels := []int{0, 1, 0, 1}
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		labels []int
		folds  []int
		k      int
		l      Learner
		want   error
	}{
		{"fold count mismatch", ctx, labels, []int{0, 1, 0}, 2, majority{labels}, nil},
		{"fold out of range", ctx, labels, []int{0, 1, 2, 0}, 2, majority{labels}, nil},
		{"empty fold", ctx, labels, []int{0, 0, 0, 0}, 2, majority{labels}, nil},
		{"negative label", ctx, []int{0, -1, 0, 1}, []int{0, 1, 0, 1}, 2, majority{labels}, nil},
		{"learner fails", ctx, labels, []int{0, 1, 0, 1}, 2, failing{}, nil},
		{"cancelled", cancelled, labels, []int{0, 1, 0, 1}, 2, majority{labels}, context.Canceled},
	} {
		_, err := CrossValidate(tc.ctx, tc.labels, tc.folds, tc.k, tc.l, nil)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
	if _, err := Nested(ctx, labels, 2, 2, nil, nil, 0, nil); err == nil {
		t.Error("Nested with empty grid: no error")
	}
}

// scoredLine predicts class 1 above 0.5 and scores class 1 by x (class
// 0 by -x): a Scorer.
type scoredLine struct{ x []float64 }

func (l scoredLine) Fit(context.Context, []int) (Predictor, error) { return l, nil }

func (l scoredLine) Predict(ctx context.Context, test []int) ([]int, error) {
	pred, _, err := l.Scores(ctx, test)
	return pred, err
}

func (l scoredLine) Scores(_ context.Context, test []int) ([]int, [][]float64, error) {
	pred, scores := make([]int, len(test)), make([][]float64, len(test))
	for i, s := range test {
		if l.x[s] > 0.5 {
			pred[i] = 1
		}
		scores[i] = []float64{-l.x[s], l.x[s]}
	}
	return pred, scores, nil
}

// Worked by hand on the folds of TestCrossValidateMajority. Fold 0 tests
// samples 0 and 3, both class 0: no ROC-AUC, both predicted 0 (balanced
// accuracy and F1 1). Fold 1 tests x 0.7 (class 0) and 0.9 (class 1):
// AUC 1, both predicted 1: recalls 0 and 1, F1 0 and 2/3. Fold 2 tests
// 0.3 (class 0) and 0.4 (class 1): AUC 1, both predicted 0: recalls 1
// and 0, F1 2/3 and 0. A Predictor without scores has no ROC-AUC.
func TestCrossValidateMetrics(t *testing.T) {
	labels := []int{0, 0, 0, 0, 1, 1}
	folds := []int{0, 1, 2, 0, 1, 2}
	r, err := CrossValidate(context.Background(), labels, folds, 3, scoredLine{[]float64{0.1, 0.7, 0.3, 0.2, 0.9, 0.4}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	auc := r.ROCAUC
	if !math.IsNaN(float64(auc.PerFold[0])) || auc.PerFold[1] != 1 || auc.PerFold[2] != 1 || auc.Mean != 1 || auc.Std != 0 || auc.Undefined != 1 {
		t.Errorf("ROCAUC = %+v; want [NaN 1 1], mean 1, std 0, 1 undefined", auc)
	}
	if want := []Metric{1, 0.5, 0.5}; !reflect.DeepEqual(r.BalancedAccuracy.PerFold, want) || r.BalancedAccuracy.Undefined != 0 {
		t.Errorf("BalancedAccuracy = %+v; want %v", r.BalancedAccuracy, want)
	}
	if f := r.F1Macro; f.PerFold[0] != 1 || math.Abs(float64(f.PerFold[1])-1.0/3) > 1e-15 || math.Abs(float64(f.Mean)-5.0/9) > 1e-15 {
		t.Errorf("F1Macro = %+v; want [1 1/3 1/3], mean 5/9", f)
	}
	r, err = CrossValidate(context.Background(), labels, folds, 3, majority{labels}, nil)
	if err != nil || r.ROCAUC.Undefined != 3 || !math.IsNaN(float64(r.ROCAUC.Mean)) {
		t.Errorf("without scores: ROCAUC = %+v, %v; want all undefined", r.ROCAUC, err)
	}
}
