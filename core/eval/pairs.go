package eval

import (
	"context"
	"errors"

	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// pairs computes what a cross-validation needs from pairs of images for
// one kernel width: Gram and cross-kernel matrices for any pixel weights,
// and the metric learning's pair sums, on subsets given by index.
type pairs interface {
	// grams and crosses compute one matrix per weight vector of ws.
	grams(ctx context.Context, ws [][]float64, idx []int) ([][][]float64, error)
	crosses(ctx context.Context, ws [][]float64, rows, cols []int) ([][][]float64, error)
	sums(ctx context.Context, subset, labels, folds []int, nFolds int) (*learn.PairSums, error)
}

// DefaultMaxTableBytes is the memory a WKPI evaluation may spend on one
// pair table (kernel.Table) before computing pairs directly instead, and
// on the kernel matrices of a pass over the pairs.
const DefaultMaxTableBytes = 1 << 30

// tableCap bounds the pair table within any budget: a larger table costs
// more to build and to read than the two passes over the pairs that
// replace it (PTC_MR's 0.31 GB table: 2.4-2.8 s against 1.4-1.6 s without
// it; docs/notes/2026-11-speed-log.md), and it takes the memory.
const tableCap = 1 << 28

// pairsFor returns the table-backed pairs for sigma when the table fits
// in w.MaxTableBytes (built once, kept for later calls), and direct
// computation otherwise.
// prog hears of the table's construction and of direct computations.
func (w *WKPI) pairsFor(ctx context.Context, sigma float64, v kernel.Variant, prog progress.Func) (pairs, error) {
	direct := directPairs{images: w.Set.Images, sigma: sigma, variant: v, prog: prog}
	if v != kernel.WKPI || w.MaxTableBytes <= 0 {
		return direct, nil
	}
	if t, ok := w.tables[sigma]; ok {
		return tablePairs{t}, nil
	}
	t, err := kernel.NewTable(ctx, w.Set.Images, sigma, v, min(w.MaxTableBytes, tableCap), prog)
	if errors.Is(err, kernel.ErrTableTooLarge) {
		return direct, nil
	}
	if err != nil {
		return nil, err
	}
	if w.tables == nil {
		w.tables = map[float64]*kernel.Table{}
	}
	w.tables[sigma] = t
	return tablePairs{t}, nil
}

type tablePairs struct{ t *kernel.Table }

func (p tablePairs) grams(ctx context.Context, ws [][]float64, idx []int) ([][][]float64, error) {
	return p.t.Grams(ctx, ws, idx)
}

func (p tablePairs) crosses(ctx context.Context, ws [][]float64, rows, cols []int) ([][][]float64, error) {
	return p.t.Crosses(ctx, ws, rows, cols)
}

func (p tablePairs) sums(ctx context.Context, subset, labels, folds []int, nFolds int) (*learn.PairSums, error) {
	return learn.NewPairSumsTable(ctx, p.t, subset, labels, folds, nFolds)
}

type directPairs struct {
	images  []pimage.Sparse
	sigma   float64
	variant kernel.Variant
	prog    progress.Func
}

func (p directPairs) pick(idx []int) []pimage.Sparse {
	out := make([]pimage.Sparse, len(idx))
	for i, s := range idx {
		out[i] = p.images[s]
	}
	return out
}

// The weight vectors of a direct computation form one kernel.Family: every
// pixel term is computed once for all of them.
func (p directPairs) grams(ctx context.Context, ws [][]float64, idx []int) ([][][]float64, error) {
	return kernel.Family{Weights: ws, Sigma: p.sigma, Variant: p.variant}.Gram(ctx, p.pick(idx), p.prog)
}

func (p directPairs) crosses(ctx context.Context, ws [][]float64, rows, cols []int) ([][][]float64, error) {
	return kernel.Family{Weights: ws, Sigma: p.sigma, Variant: p.variant}.Cross(ctx, p.pick(rows), p.pick(cols), p.prog)
}

func (p directPairs) sums(ctx context.Context, subset, labels, folds []int, nFolds int) (*learn.PairSums, error) {
	return learn.NewPairSums(ctx, p.pick(subset), labels, folds, nFolds, p.sigma, p.prog)
}
