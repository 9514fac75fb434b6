package eval

import (
	"context"
	"fmt"
	"runtime/debug"

	"wkpi-web/core/crossval"
	"wkpi-web/core/kernel"
	"wkpi-web/core/progress"
)

// fitted is an outer fold's fit awaiting its kernels and SVMs: its
// learned and initial weight functions.
type fitted struct {
	fold  Fold
	mixes []kernel.Mixture // learned, initial
}

// testFolds computes the kernels of the fitted folds, trains and tests
// their learned and baseline SVMs, and hands each finished fold to done,
// in order. Folds whose kernels are computed directly (no pair table)
// and exactly (no Nyström option) share passes over the pairs
// (kernel.Splits): every pair's pixel terms
// are computed once for the learned and initial weights of a group of
// folds, where a fold alone would recompute them (NCI1: 10 passes over
// 8.4 M pairs become 3).
func (w *WKPI) testFolds(ctx context.Context, fits []fitted, train [][]int, prog progress.Func, done func(Fold)) error {
	var out []kernel.SplitKernels
	var scratch svmScratch // the unpacked Gram matrix, one at a time
	for a := 0; a < len(fits); {
		cfg := fits[a].fold.Config
		p, err := w.pairsFor(ctx, cfg.Sigma, cfg.Variant, prog)
		if err != nil {
			return err
		}
		direct, ok := p.(directPairs)
		if !ok || cfg.Nystrom > 0 {
			f := &fits[a]
			ks, err := w.kernelSet(ctx, p, cfg, f.mixes, [][]float64{f.fold.ChannelScales}, train[f.fold.Index], f.fold.Test)
			if err != nil {
				return fmt.Errorf("eval: fold %d: %w", f.fold.Index, err)
			}
			if err := w.score(ctx, &f.fold, ks); err != nil {
				return err
			}
			done(f.fold)
			a++
			continue
		}
		b := w.group(fits, a, train)
		splits := make([]kernel.Split, b-a)
		for q := range splits {
			f := fits[a+q].fold
			splits[q] = kernel.Split{Weights: w.weights(f.Config, fits[a+q].mixes, [][]float64{f.ChannelScales}), Train: train[f.Index], Test: f.Test}
		}
		// The garbage of what came before (the features, the pair sums,
		// what the last pass prepared of the images) goes first, and back
		// to the system: the heap may otherwise grow to twice its live
		// size, and freed pages stay resident until returned, when the
		// passes' matrices are most of the memory budget.
		debug.FreeOSMemory()
		if out, err = kernel.Splits(ctx, direct.images, cfg.Sigma, cfg.Variant, splits, out, prog); err != nil {
			return fmt.Errorf("eval: folds %d to %d: %w", fits[a].fold.Index, fits[b-1].fold.Index, err)
		}
		for q, s := range splits {
			f := &fits[a+q].fold
			ks := &kernelSet{train: s.Train, test: s.Test, cross: out[q].Cross, packed: out[q].Gram, scratch: &scratch}
			if err := w.score(ctx, f, ks); err != nil {
				return err
			}
			done(*f)
		}
		a = b
	}
	return nil
}

// group returns the end of the group of folds from fits[a] that share a
// pass over the pairs: of the consecutive folds of fits[a]'s kernel width
// and variant, as many as the memory budget allows, in groups of about
// equal size. Within three quarters of the table budget go the group's
// matrices (packed Gram and cross, one per weight function), the one
// unpacked Gram matrix an SVM needs at a time and what the pass prepares
// of the images (kernel.PassBytes); the rest is left to the images
// themselves, the features and the runtime. On NCI1 (1 GB) that
// is 5 folds a pass (float32 Gram matrices).
func (w *WKPI) group(fits []fitted, a int, train [][]int) int {
	c := fits[a].fold.Config
	var worst, most int64
	end := a
	for ; end < len(fits); end++ {
		f := fits[end].fold
		if f.Config.Sigma != c.Sigma || f.Config.Variant != c.Variant || f.Config.Nystrom != c.Nystrom {
			break
		}
		nt, ne := int64(len(train[f.Index])), int64(len(f.Test))
		worst = max(worst, int64(len(fits[end].mixes))*(4*nt*(nt+1)/2+8*ne*nt)) // float32 Gram, float64 cross
		most = max(most, nt)
	}
	per := w.perPass(worst, most)
	m := end - a
	groups := (m + per - 1) / per
	return a + (m+groups-1)/groups
}

// score trains the fold's learned (0) and baseline (1) SVMs on ks and
// tests them on the fold; with an SVM grid, after choosing their form and
// C on the baseline's training Gram matrix.
func (w *WKPI) score(ctx context.Context, fold *Fold, ks *kernelSet) error {
	if _, err := w.chooseFor(ctx, &fold.Config, &fold.InnerAccuracy, ks, fold.Config.Learn.Seed+int64(fold.Index)+1); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	var err error
	if fold.Predicted, fold.Scores, err = w.scored(ctx, ks, 0, fold.Config.C); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	if fold.BaselinePredicted, fold.BaselineScores, err = w.scored(ctx, ks, 1, fold.Config.C); err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	return w.metrics(fold)
}

// metrics scores the fold's learned and unlearned predictions.
func (w *WKPI) metrics(fold *Fold) error {
	truth := w.truth(fold.Test)
	m, err := crossval.Evaluate(fold.Predicted, truth, fold.Scores)
	if err != nil {
		return fmt.Errorf("eval: fold %d: %w", fold.Index, err)
	}
	b, err := crossval.Evaluate(fold.BaselinePredicted, truth, fold.BaselineScores)
	if err != nil {
		return fmt.Errorf("eval: fold %d: baseline: %w", fold.Index, err)
	}
	fold.Accuracy, fold.BalancedAccuracy, fold.F1Macro, fold.ROCAUC = m.Accuracy, m.BalancedAccuracy, m.F1Macro, m.ROCAUC
	fold.Baseline, fold.BaselineBalancedAccuracy, fold.BaselineF1Macro, fold.BaselineROCAUC = b.Accuracy, b.BalancedAccuracy, b.F1Macro, b.ROCAUC
	return nil
}

// chooseFor chooses cfg's SVM form and C (when cfg has an SVM grid) on
// the training Gram matrix of ks's last weight function, the unlearned
// one, recording the choice's inner accuracy in inner, and turns every
// weight function's matrices into the chosen form. It returns the first
// (learned) weight function's Gaussian width, 0 for the WKPI kernel.
func (w *WKPI) chooseFor(ctx context.Context, cfg *Config, inner *float64, ks *kernelSet, seed int64) (float64, error) {
	weights := len(ks.packed) + len(ks.gram)
	if cfg.SVM != nil {
		var err error
		if ks.gram != nil {
			*cfg, *inner, err = chooseSVM(ctx, ks.gram[weights-1], w.truth(ks.train), *cfg, seed, nil)
		} else {
			*cfg, *inner, err = chooseSVM(ctx, ks.unpack(weights-1), w.truth(ks.train), *cfg, seed, &ks.scratch.gauss)
		}
		if err != nil {
			return 0, err
		}
	}
	if cfg.Gauss == 0 {
		return 0, nil
	}
	var first float64
	for i := range weights {
		width := ks.toGaussian(i, cfg.Gauss)
		if i == 0 {
			first = width
		}
	}
	return first, nil
}

// perPass is how many kernel matrix sets of at most worst bytes share a
// pass over the pairs: within three quarters of the table budget, beside
// the one unpacked Gram matrix (of at most most training graphs) an SVM
// needs at a time and what the pass prepares of the images
// (kernel.PassBytes); at least one.
func (w *WKPI) perPass(worst, most int64) int {
	budget := w.MaxTableBytes
	if budget <= 0 {
		budget = DefaultMaxTableBytes
	}
	return max(1, int((budget*3/4-8*most*most-kernel.PassBytes(w.Set.Images))/worst))
}
