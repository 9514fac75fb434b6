package eval

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"

	"wkpi-web/core/crossval"
	"wkpi-web/core/kernel"
	"wkpi-web/core/svm"
)

// SVMGrid is what every outer fold (and a final model) chooses for its
// SVMs by inner CV of the unlearned kernel on its training graphs: the
// kernel's form and C. The weight function is learned first, as without
// the choice; both the learned and the unlearned SVM then use the chosen
// form and C, so that the two still differ in the weight alone.
type SVMGrid struct {
	// Cs are the SVM's C values tried.
	Cs []float64 `json:"Cs"`
	// Gauss are the kernel forms tried: 0 is the WKPI kernel itself, s > 0
	// the Gaussian of its distance at s times the median heuristic
	// (Config.Gauss).
	Gauss []float64 `json:"gauss"`
	// Folds are the inner folds (stratified, split with the learning's
	// seed + fold index + 1).
	Folds int `json:"folds"`
}

// DefaultSVMGrid is the grid of DefaultConfig. Three inner folds on the
// whole training set, as the comparison's baselines choose theirs, keep
// the choice's SVMs a small part of a CV (NCI1: 24 SVMs a fold).
func DefaultSVMGrid() *SVMGrid {
	return &SVMGrid{Cs: []float64{1, 10, 100, 1000}, Gauss: []float64{0, 1}, Folds: 3}
}

func (g *SVMGrid) validate() error {
	if len(g.Cs) == 0 || len(g.Gauss) == 0 || g.Folds < 2 {
		return fmt.Errorf("eval: SVM grid needs a C, a form and 2 or more folds (%d C, %d forms, %d folds)", len(g.Cs), len(g.Gauss), g.Folds)
	}
	for _, c := range g.Cs {
		if !(c > 0) {
			return fmt.Errorf("eval: SVM grid C %g must be positive", c)
		}
	}
	for _, s := range g.Gauss {
		if !(s >= 0) {
			return fmt.Errorf("eval: SVM grid Gaussian scale %g must be 0 (the WKPI kernel) or positive", s)
		}
	}
	return nil
}

// forms are the grid's kernel forms that cfg can use: the Gaussian of
// the distance needs the WKPI kernel, whose k(A, A) = 1 gives D^2 = 2 - 2k,
// and exact Gram matrices (a Nyström approximation's distances are not).
func (g *SVMGrid) forms(cfg Config) []float64 {
	if cfg.Variant == kernel.WKPI && cfg.Nystrom == 0 {
		return g.Gauss
	}
	return []float64{0}
}

// gaussWidth is the width of the Gaussian of the WKPI distance at scale
// s for a Gram matrix of kernel values (weights summing to 1, so that
// D^2 = 2 - 2k): s times the median D^2 over pairs of (up to
// medianSamples evenly spaced) training samples.
func gaussWidth[T svm.Element](gram [][]T, s float64) float64 {
	return s * crossval.Median(func(i, j int) float64 { return 2 - 2*float64(gram[i][j]) }, indices(len(gram)))
}

// chooseSVM scores every (form, C) cell of cfg.SVM by stratified inner CV
// of the unlearned Gram matrix gram of training labels y (not kept), and
// returns cfg with the best cell's Gauss and C (ties: the first of the
// grid's order, forms major) and that cell's mean inner accuracy. buf,
// when not nil, is memory for the Gaussian forms' matrices that
// successive calls reuse.
func chooseSVM[T svm.Element](ctx context.Context, gram [][]T, y []int, cfg Config, seed int64, buf *[][]float64) (Config, float64, error) {
	g := cfg.SVM
	if err := g.validate(); err != nil {
		return cfg, 0, err
	}
	folds, err := crossval.StratifiedKFold(y, g.Folds, seed)
	if err != nil {
		return cfg, 0, fmt.Errorf("eval: SVM choice inner split: %w", err)
	}
	if buf == nil {
		buf = new([][]float64)
	}
	// Checked once here for every inner SVM (its Gaussian forms are
	// finite and symmetric with it).
	if err := svm.CheckGram(gram); err != nil {
		return cfg, 0, err
	}
	all := indices(len(y))
	forms := g.forms(cfg)
	accs := make([][][]float64, len(forms))
	var tasks []func() error
	inUse := false // by the tasks of a Gaussian form
	for fi, s := range forms {
		accs[fi] = newAccs(len(g.Cs), g.Folds)
		if s == 0 {
			tasks = append(tasks, innerTasks(ctx, gram, y, all, folds, g.Folds, g.Cs, accs[fi])...)
			continue
		}
		// The Gaussian form's matrix, once for all its inner folds; one
		// form's at a time.
		if inUse {
			if err := runTasks(tasks); err != nil {
				return cfg, 0, err
			}
			tasks = nil
		}
		inUse = true
		*buf = gaussianOf(gram, gaussWidth(gram, s), *buf)
		tasks = append(tasks, innerTasks(ctx, *buf, y, all, folds, g.Folds, g.Cs, accs[fi])...)
	}
	if err := runTasks(tasks); err != nil {
		return cfg, 0, err
	}
	best := -1.0
	for fi, s := range forms {
		for ci, c := range g.Cs {
			if mean, _ := crossval.MeanStd(accs[fi][ci]); mean > best {
				best, cfg.Gauss, cfg.C = mean, s, c
			}
		}
	}
	return cfg, best, nil
}

// gaussianOf is the Gaussian of the WKPI distance at width over the
// matrix gram of WKPI kernel values (kernel.GaussianOf of each entry), in
// dst's memory when it is large enough, computed by rows in parallel.
func gaussianOf[T svm.Element](gram [][]T, width float64, dst [][]float64) [][]float64 {
	n := len(gram)
	dst = slices.Grow(dst[:0], n)[:n]
	rows := kernel.Parts(n)
	kernel.Parallel(rows, func(p int) error {
		for i := p * n / rows; i < (p+1)*n/rows; i++ {
			dst[i] = slices.Grow(dst[i][:0], n)[:n]
			for j, v := range gram[i] {
				dst[i][j] = kernel.GaussianOf(float64(v), width)
			}
		}
		return nil
	})
	return dst
}

// newAccs are accuracies per C and inner fold.
func newAccs(cs, folds int) [][]float64 {
	accs := make([][]float64, cs)
	for i := range accs {
		accs[i] = make([]float64, folds)
	}
	return accs
}

// innerScores is, for each C of cs, the accuracy of each of nFolds inner
// folds of an SVM with that C on the kernel matrix k over the samples of
// labels, cross-validated over the positions sub split by folds:
// accs[C][fold] (innerTasks, on as many goroutines as there are CPUs).
func innerScores[T svm.Element](ctx context.Context, k [][]T, labels, sub, folds []int, nFolds int, cs []float64) ([][]float64, error) {
	if err := svm.CheckGram(k); err != nil {
		return nil, err
	}
	accs := newAccs(len(cs), nFolds)
	return accs, runTasks(innerTasks(ctx, k, labels, sub, folds, nFolds, cs, accs))
}

// innerTasks are the inner folds of innerScores, one task each, that
// fill in accs[C][fold], on a matrix k already checked
// (svm.CheckGram). Each trains its SVMs on k itself (svm.TrainOn:
// no copy of its blocks) and gathers each test graph's kernel row when it
// predicts it (one row's memory, not the test block's: on NCI1 that was
// 24 MB of garbage a task); a C larger than one whose SVM never reached
// its bound (svm.Model.FreeOfC) trains that same SVM, so it is not
// trained again.
func innerTasks[T svm.Element](ctx context.Context, k [][]T, labels, sub, folds []int, nFolds int, cs []float64, accs [][]float64) []func() error {
	trainPos, testPos := crossval.Split(sub, folds, nFolds)
	tasks := make([]func() error, nFolds)
	for g := range nFolds {
		tasks[g] = func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			tr, te := trainPos[g], testPos[g]
			y := make([]int, len(tr))
			for i, a := range tr {
				y[i] = labels[a]
			}
			truth := make([]int, len(te))
			for t, a := range te {
				truth[t] = labels[a]
			}
			row := make([]float64, len(tr))
			var free *svm.Model // trained with freeC, never reaching it
			var freeC float64
			for ci, c := range cs {
				m := free
				if m == nil || c < freeC {
					var err error
					m, err = svm.TrainOn(ctx, k, tr, y, svm.Options{C: c, Checked: true})
					if err != nil && !errors.Is(err, svm.ErrNotConverged) {
						return err
					}
					if m.FreeOfC() && (free == nil || c > freeC) {
						free, freeC = m, c
					}
				}
				pred := make([]int, len(te))
				for t, a := range te {
					for j, b := range tr {
						row[j] = float64(k[a][b])
					}
					pred[t] = m.Predict(row)
				}
				var err error
				if accs[ci][g], err = crossval.Accuracy(pred, truth); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return tasks
}

// runTasks runs tasks on as many goroutines as there are CPUs (one under
// WebAssembly) and returns the first error.
func runTasks(tasks []func() error) error {
	if len(tasks) == 0 {
		return nil
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(tasks)))
	var next atomic.Int64
	return kernel.Parallel(workers, func(int) error {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(tasks) {
				return nil
			}
			if err := tasks[i](); err != nil {
				return err
			}
		}
	})
}

// toGaussian turns weight function i's matrices of ks into the Gaussian of
// the WKPI distance at scale s (its width from i's own training Gram
// matrix) and returns the width; each weight function's once.
func (ks *kernelSet) toGaussian(i int, s float64) float64 {
	var width float64
	if ks.gram != nil {
		width = gaussWidth(ks.gram[i], s)
	} else {
		width = gaussWidth(ks.unpack(i), s)
	}
	gauss := func(v float64) float64 { return kernel.GaussianOf(v, width) }
	switch {
	case ks.gram != nil:
		for _, row := range ks.gram[i] {
			for j, v := range row {
				row[j] = gauss(v)
			}
		}
	default:
		packed := ks.packed[i]
		for j, v := range packed.Data {
			packed.Data[j] = float32(gauss(float64(v)))
		}
	}
	if ks.cross != nil {
		for _, row := range ks.cross[i] {
			for j, v := range row {
				row[j] = gauss(v)
			}
		}
	}
	return width
}
