package eval

import (
	"context"
	"errors"
	"math/rand/v2"

	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
)

// MaxAlignSamples bounds the training samples whose Gram matrices the
// alignment objective holds (m of them, n^2 floats each): larger training
// sets are subsampled at random (seeded by the learning seed), so that
// NCI1's 3,700 training graphs cost 8 MB per component instead of 110 MB.
const MaxAlignSamples = 1000

// learnAligned learns the weights of init's components by kernel-target
// alignment (learn.ObjectiveCKA) on train: one Gram matrix per component,
// from the same pairs as the SVM's.
func (w *WKPI) learnAligned(ctx context.Context, train []int, init kernel.Mixture, cfg Config, prog progress.Func) (kernel.Mixture, learn.Trace, error) {
	if cfg.Variant != kernel.WKPI {
		return kernel.Mixture{}, learn.Trace{}, errors.New("eval: the cka objective needs the wkpi kernel (altWKPI is not linear in the weights)")
	}
	sub := w.alignSample(train, cfg.Learn.Seed)
	p, err := w.pairsFor(ctx, cfg.Sigma, cfg.Variant, prog)
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, err
	}
	ws := make([][]float64, init.Len())
	for r := range ws {
		one := kernel.Mixture{X: init.X[r : r+1], Y: init.Y[r : r+1], Sigma: init.Sigma[r : r+1], W: []float64{1}}
		ws[r] = one.PixelWeights(w.centres)
	}
	grams, err := p.grams(ctx, ws, sub)
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, err
	}
	al, err := learn.NewAlignment(grams, w.truth(sub))
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, err
	}
	return learn.FitAlignment(ctx, al, init, cfg.Learn, prog)
}

// alignSample returns train, or a random subset of MaxAlignSamples of it.
func (w *WKPI) alignSample(train []int, seed int64) []int {
	if len(train) <= MaxAlignSamples {
		return train
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	var out []int
	for _, s := range rng.Perm(len(train))[:MaxAlignSamples] {
		out = append(out, train[s])
	}
	return out
}

// channelScales returns, when cfg.Learn.Channels is set, one scale per
// image block (features.Settings.Blocks) of the SVM's kernel with the
// weight function mix: the non-negative combination of the blocks'
// kernels that maximises their alignment with the classes on train
// (learn.FitWeights, prior cfg.Learn.Prior around equal scales). It
// returns nil otherwise, and for a single block.
func (w *WKPI) channelScales(ctx context.Context, train []int, mix kernel.Mixture, cfg Config) ([]float64, error) {
	blocks := w.Set.Settings.Blocks()
	if !cfg.Learn.Channels || blocks < 2 {
		return nil, nil
	}
	if cfg.Variant != kernel.WKPI {
		return nil, errors.New("eval: channel scales need the wkpi kernel (altWKPI is not linear in the weights)")
	}
	sub := w.alignSample(train, cfg.Learn.Seed)
	p, err := w.pairsFor(ctx, cfg.Sigma, cfg.Variant, nil)
	if err != nil {
		return nil, err
	}
	pw := model.KernelFor(mix, w.centres, cfg.Sigma, cfg.Variant).Weights
	size := len(pw) / blocks
	ws := make([][]float64, blocks)
	for b := range ws {
		ws[b] = make([]float64, len(pw))
		copy(ws[b][b*size:(b+1)*size], pw[b*size:(b+1)*size])
	}
	grams, err := p.grams(ctx, ws, sub)
	if err != nil {
		return nil, err
	}
	al, err := learn.NewAlignment(grams, w.truth(sub))
	if err != nil {
		return nil, err
	}
	ones := make([]float64, blocks)
	for b := range ones {
		ones[b] = 1
	}
	scales, _, err := learn.FitWeights(ctx, al, ones, cfg.Learn, nil)
	return scales, err
}
