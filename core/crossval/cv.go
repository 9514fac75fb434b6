package crossval

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"wkpi-web/core/progress"
)

// Learner fits a classifier on training samples given by index into the
// caller's dataset.
type Learner interface {
	Fit(ctx context.Context, train []int) (Predictor, error)
}

// Predictor predicts one class label per test sample index.
type Predictor interface {
	Predict(ctx context.Context, test []int) ([]int, error)
}

// Scorer is a Predictor that also scores every class: Scores returns
// the predicted labels and, per test sample, one score per class of the
// dataset (higher: more likely that class), the input of ROCAUC. The
// cross-validations use it, when a Predictor has it, for the ROC-AUC of
// every fold; without it the ROC-AUC is undefined (NaN).
type Scorer interface {
	Predictor
	Scores(ctx context.Context, test []int) (pred []int, scores [][]float64, err error)
}

// Result summarises one cross-validation.
type Result struct {
	// Accuracy and Std are the mean and population standard deviation
	// of PerFold, the accuracy on each test fold.
	Accuracy, Std float64
	PerFold       []float64
	// ROCAUC, BalancedAccuracy and F1Macro are those metrics on each
	// test fold (Evaluate) and their mean and population standard
	// deviation; a fold whose test set holds one class (or whose
	// Predictor is no Scorer) has no ROC-AUC and is left out of its mean,
	// counted in ROCAUC.Undefined.
	ROCAUC, BalancedAccuracy, F1Macro Summary
	// Confusion pools all test predictions, [true][predicted].
	Confusion [][]int
	// Predictions[i] is the label predicted for sample i when its fold
	// was the test fold.
	Predictions []int
	Seconds     float64
}

// CrossValidate fits l on all folds but one and tests on that one, for
// each of the nFolds folds (folds[i] is the fold of sample i, from
// StratifiedKFold for example). prog receives stage "cv" after each fold.
func CrossValidate(ctx context.Context, labels, folds []int, nFolds int, l Learner, prog progress.Func) (Result, error) {
	start := time.Now()
	classes, err := members(labels)
	if err != nil {
		return Result{}, err
	}
	fit := func(_ int, train []int) (Predictor, error) { return l.Fit(ctx, train) }
	r, err := crossValidate(ctx, labels, indices(len(labels)), folds, nFolds, fit, func(done int) { prog.Report("cv", done, nFolds) })
	if err != nil {
		return Result{}, err
	}
	return r, finish(&r, labels, len(classes), start)
}

func indices(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// finish adds what a whole-dataset CV reports beyond crossValidate.
func finish(r *Result, labels []int, classes int, start time.Time) error {
	var err error
	r.Confusion, err = Confusion(r.Predictions, labels, classes)
	r.Seconds = time.Since(start).Seconds()
	return err
}

// crossValidate runs CV on the samples subset (indices into labels),
// whose folds are folds[i] for subset[i], fitting fold f with fit(f,
// training indices). It fills PerFold, Accuracy,
// Std and Predictions (indexed like labels; samples outside subset
// keep -1).
func crossValidate(ctx context.Context, labels, subset, folds []int, nFolds int, fit func(f int, train []int) (Predictor, error), done func(int)) (Result, error) {
	if len(folds) != len(subset) {
		return Result{}, fmt.Errorf("crossval: %d fold indices for %d samples", len(folds), len(subset))
	}
	for i, f := range folds {
		if f < 0 || f >= nFolds {
			return Result{}, fmt.Errorf("crossval: sample %d in fold %d, want 0..%d", subset[i], f, nFolds-1)
		}
	}
	train, test := Split(subset, folds, nFolds)
	r := Result{PerFold: make([]float64, nFolds), Predictions: make([]int, len(labels))}
	aucs, bals, f1s := make([]float64, nFolds), make([]float64, nFolds), make([]float64, nFolds)
	for i := range r.Predictions {
		r.Predictions[i] = -1
	}
	for f := range nFolds {
		if len(test[f]) == 0 || len(train[f]) == 0 {
			return Result{}, fmt.Errorf("crossval: fold %d of %d has %d test and %d training samples", f, nFolds, len(test[f]), len(train[f]))
		}
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		p, err := fit(f, train[f])
		if err != nil {
			return Result{}, fmt.Errorf("crossval: fold %d: fit: %w", f, err)
		}
		var pred []int
		var scores [][]float64
		if sc, ok := p.(Scorer); ok {
			pred, scores, err = sc.Scores(ctx, test[f])
		} else {
			pred, err = p.Predict(ctx, test[f])
		}
		if err != nil {
			return Result{}, fmt.Errorf("crossval: fold %d: predict: %w", f, err)
		}
		truth := make([]int, len(test[f]))
		for i, s := range test[f] {
			truth[i] = labels[s]
		}
		m, err := Evaluate(pred, truth, scores)
		if err != nil {
			return Result{}, fmt.Errorf("crossval: fold %d: %w", f, err)
		}
		r.PerFold[f], aucs[f], bals[f], f1s[f] = m.Accuracy, float64(m.ROCAUC), m.BalancedAccuracy, m.F1Macro
		for i, s := range test[f] {
			r.Predictions[s] = pred[i]
		}
		done(f + 1)
	}
	r.Accuracy, r.Std = MeanStd(r.PerFold)
	r.ROCAUC, r.BalancedAccuracy, r.F1Macro = Summarize(aucs), Summarize(bals), Summarize(f1s)
	return r, nil
}

// Params is one cell of a hyper-parameter grid, by name.
type Params map[string]float64

// String lists the parameters sorted by name, "C=1 sigma=0.1", so that
// equal Params print equally.
func (p Params) String() string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n + "=" + strconv.FormatFloat(p[n], 'g', -1, 64))
	}
	return b.String()
}

// NestedResult is a Result on the outer folds, with the grid cell chosen
// in each.
type NestedResult struct {
	Result
	// Chosen[f] is the grid cell picked for outer fold f, and
	// InnerAccuracy[f] its mean inner cross-validation accuracy.
	Chosen        []Params
	InnerAccuracy []float64
}

// Nested runs nested cross-validation: the samples are split into
// outerFolds stratified folds with seed; for each outer fold, every grid
// cell is scored by stratified innerFolds-fold CV on the outer training
// set alone (split with seed + f + 1 for outer fold f), the best mean
// inner accuracy wins (ties: the first cell in grid), and the learner
// newLearner(best) is refitted on the whole outer training set and tested on
// the outer fold. newLearner is called once per grid cell for each
// outer fold, and once more for the refit. prog receives stage "nested" after every fit, out of
// outerFolds × (len(grid) × innerFolds + 1).
func Nested(ctx context.Context, labels []int, outerFolds, innerFolds int, grid []Params, newLearner func(Params) Learner, seed int64, prog progress.Func) (NestedResult, error) {
	start := time.Now()
	if len(grid) == 0 {
		return NestedResult{}, fmt.Errorf("crossval: empty parameter grid")
	}
	outer, err := StratifiedKFold(labels, outerFolds, seed)
	if err != nil {
		return NestedResult{}, err
	}
	classes, err := members(labels)
	if err != nil {
		return NestedResult{}, err
	}
	total := outerFolds * (len(grid)*innerFolds + 1)
	fits := 0
	tick := func() { fits++; prog.Report("nested", fits, total) }

	res := NestedResult{Chosen: make([]Params, outerFolds), InnerAccuracy: make([]float64, outerFolds)}
	// choose scores the grid on the outer training set of fold f and
	// fits the winner there.
	choose := func(f int, train []int) (Predictor, error) {
		sub := make([]int, len(train))
		for i, s := range train {
			sub[i] = labels[s]
		}
		inner, err := StratifiedKFold(sub, innerFolds, seed+int64(f)+1)
		if err != nil {
			return nil, fmt.Errorf("inner split: %w", err)
		}
		best := -1
		for g, p := range grid {
			l := newLearner(p)
			fit := func(_ int, tr []int) (Predictor, error) { return l.Fit(ctx, tr) }
			r, err := crossValidate(ctx, labels, train, inner, innerFolds, fit, func(int) { tick() })
			if err != nil {
				return nil, fmt.Errorf("grid cell %s: %w", p, err)
			}
			if best < 0 || r.Accuracy > res.InnerAccuracy[f] {
				best, res.InnerAccuracy[f] = g, r.Accuracy
			}
		}
		res.Chosen[f] = grid[best]
		return newLearner(grid[best]).Fit(ctx, train)
	}
	r, err := crossValidate(ctx, labels, indices(len(labels)), outer, outerFolds, choose, func(int) { tick() })
	if err != nil {
		return NestedResult{}, err
	}
	if err := finish(&r, labels, len(classes), start); err != nil {
		return NestedResult{}, err
	}
	res.Result = r
	return res, nil
}

// Repeated summarises runs of a cross-validation with different seeds.
type Repeated struct {
	Runs []Result
	// Accuracy and Std are the mean and population standard deviation
	// of the runs' accuracies.
	Accuracy, Std float64
	Seconds       float64
}

// Repeat calls run with seeds seed, seed+1, ..., seed+repeats-1 (each
// run typically splits folds with its seed) and averages the accuracies.
// prog receives stage "repeat" after each run.
func Repeat(ctx context.Context, repeats int, seed int64, run func(ctx context.Context, seed int64) (Result, error), prog progress.Func) (Repeated, error) {
	start := time.Now()
	if repeats < 1 {
		return Repeated{}, fmt.Errorf("crossval: %d repeats, need at least 1", repeats)
	}
	out := Repeated{Runs: make([]Result, repeats)}
	accs := make([]float64, repeats)
	for r := range repeats {
		if err := ctx.Err(); err != nil {
			return Repeated{}, err
		}
		res, err := run(ctx, seed+int64(r))
		if err != nil {
			return Repeated{}, fmt.Errorf("crossval: repeat %d: %w", r, err)
		}
		out.Runs[r], accs[r] = res, res.Accuracy
		prog.Report("repeat", r+1, repeats)
	}
	out.Accuracy, out.Std = MeanStd(accs)
	out.Seconds = time.Since(start).Seconds()
	return out, nil
}
