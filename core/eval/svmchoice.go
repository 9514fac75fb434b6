package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
func gaussWidth(gram [][]float64, s float64) float64 {
	return s * crossval.Median(func(i, j int) float64 { return 2 - 2*gram[i][j] }, indices(len(gram)))
}

// chooseSVM scores every (form, C) cell of cfg.SVM by stratified inner CV
// of the unlearned Gram matrix gram of training labels y (not kept), and
// returns cfg with the best cell's Gauss and C (ties: the first of the
// grid's order, forms major) and that cell's mean inner accuracy.
func chooseSVM(ctx context.Context, gram [][]float64, y []int, cfg Config, seed int64) (Config, float64, error) {
	g := cfg.SVM
	if err := g.validate(); err != nil {
		return cfg, 0, err
	}
	folds, err := crossval.StratifiedKFold(y, g.Folds, seed)
	if err != nil {
		return cfg, 0, fmt.Errorf("eval: SVM choice inner split: %w", err)
	}
	all := indices(len(y))
	best := -1.0
	for _, s := range g.forms(cfg) {
		// The form applies as the inner folds copy their blocks: no
		// transformed copy of the whole matrix.
		form := func(v float64) float64 { return v }
		if s > 0 {
			width := gaussWidth(gram, s)
			form = func(v float64) float64 { return kernel.GaussianOf(v, width) }
		}
		accs, err := innerScores(ctx, gram, form, y, all, folds, g.Folds, g.Cs)
		if err != nil {
			return cfg, 0, err
		}
		for ci, c := range g.Cs {
			if mean, _ := crossval.MeanStd(accs[ci]); mean > best {
				best, cfg.Gauss, cfg.C = mean, s, c
			}
		}
	}
	return cfg, best, nil
}

// innerScores is, for each C of cs, the accuracy of each of nFolds
// inner folds of an SVM with that C on the kernel form(gram) over the
// samples of labels, cross-validated over the positions sub split by
// folds. An inner fold's kernel blocks are copied once for all of cs.
func innerScores(ctx context.Context, gram [][]float64, form func(float64) float64, labels, sub, folds []int, nFolds int, cs []float64) ([][]float64, error) {
	trainPos, testPos := crossval.Split(sub, folds, nFolds)
	accs := make([][]float64, len(cs))
	for i := range accs {
		accs[i] = make([]float64, nFolds)
	}
	// One buffer serves every inner fold's blocks: on NCI1 they are
	// 75 MB a fold, and fresh ones would let the heap grow by that much
	// garbage per fold.
	var buf []float64
	for g := range nFolds {
		nt, ne := len(trainPos[g]), len(testPos[g])
		buf = slices.Grow(buf[:0], nt*(nt+ne))[:nt*(nt+ne)]
		k := make([][]float64, nt)
		y := make([]int, nt)
		for i, a := range trainPos[g] {
			k[i], y[i] = buf[i*nt:(i+1)*nt], labels[a]
			for j, b := range trainPos[g] {
				k[i][j] = form(gram[a][b])
			}
		}
		rows, truth := make([][]float64, ne), make([]int, ne)
		for t, a := range testPos[g] {
			rows[t], truth[t] = buf[(nt+t)*nt:(nt+t+1)*nt], labels[a]
			for j, b := range trainPos[g] {
				rows[t][j] = form(gram[a][b])
			}
		}
		for ci, c := range cs {
			m, err := svm.Train(ctx, k, y, svm.Options{C: c})
			if err != nil && !errors.Is(err, svm.ErrNotConverged) {
				return nil, err
			}
			pred := make([]int, len(rows))
			for t, row := range rows {
				pred[t] = m.Predict(row)
			}
			if accs[ci][g], err = crossval.Accuracy(pred, truth); err != nil {
				return nil, err
			}
		}
	}
	return accs, nil
}

// toGaussian turns weight function i's matrices of ks into the Gaussian of
// the WKPI distance at scale s (its width from i's own training Gram
// matrix) and returns the width; each weight function's once.
func (ks *kernelSet) toGaussian(i int, s float64) float64 {
	width := gaussWidth(ks.gramOf(i), s)
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
