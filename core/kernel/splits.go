package kernel

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// Split is a training set and a test set of images (indices into the
// images of a Splits pass, Train ascending, the two disjoint), with the
// weight vectors whose kernels are wanted on them: for each, the Gram
// matrix of Train and the cross matrix of Test against Train. A fold of
// a cross-validation, say, with its learned and initial weights.
type Split struct {
	Weights     [][]float64
	Train, Test []int
}

// SplitKernels is a Split's matrices, one per weight vector: Gram[k] the
// Train x Train matrix as its upper triangle packed row-major (gonum's
// blas.Upper packed layout, half the memory of the full matrix; Full
// unpacks it), Cross[k] the Test x Train matrix.
//
// The Gram matrices are kept as float32, the nearest float32 of each
// entry: they are most of a pass's memory, and at half the size twice as
// many folds share a pass (NCI1: 2 passes instead of 3 within 1 GB).
// The SVM's solution moves by about 1e-7 relative (its own stopping
// tolerance is 1e-3); docs/benchmarks.md gives the accuracies before and
// after, which agree.
type SplitKernels struct {
	Gram  []blas32.SymmetricPacked
	Cross [][][]float64
}

// Splits computes the kernels of several splits of the same images in
// one pass over their pairs: a pair's pixel terms (the exps of WKPI), the
// costly part, are computed once for the weight vectors of every split
// that needs the pair (all but those with both images in its test set).
// Every cross entry has the same bits as Family.Cross of that split
// gives, every Gram entry is the float32 rounding of Family.Gram's
// (divergences are symmetric in the two images, bit for bit).
//
// out, when it holds the kernels of earlier splits of the same shapes,
// is overwritten in place, so that successive groups of splits (as a
// memory budget allows) reuse one allocation.
func Splits(ctx context.Context, images []pimage.Sparse, sigma float64, v Variant, splits []Split, out []SplitKernels, prog progress.Func) ([]SplitKernels, error) {
	if len(splits) == 0 {
		return nil, fmt.Errorf("kernel: splits need images (%d) and splits (%d)", len(images), len(splits))
	}
	return SplitsVisit(ctx, images, sigma, v, splits, out, nil, prog)
}

// PairVisitor sees every pair of images of a pass (SplitsVisit) with the
// terms the pass computes for it anyway, so that a caller can accumulate
// other sums in the same pass (core/learn's pair sums: SumsVisitor).
//
// The pass splits the rows into the contiguous ranges of
// BalancedSplit(n, SumParts(n)), n images, and runs each part on its own
// goroutine: the calls of one part come from one goroutine, in order.
// Part p's rows [i0, i1) are visited from i1-1 down to i0, each row i
// with its pairs (i, j) for j = i+1, ..., n-1 in ascending order.
type PairVisitor interface {
	// Start begins part p, rows [i0, i1). support(j) gives image j's
	// non-zero pixels and the pixel function f there (f(A_s - 0)), for
	// any j; the slices must not be changed.
	Start(p, i0, i1 int, support func(j int) (idx []int32, f []float64))
	// Row and RowDone bracket row i's pairs.
	Row(p, i int)
	RowDone(p, i int)
	// Pair gives pair (i, j)'s common non-zero pixels pix, in ascending
	// order, and g[e] = f(A_s) + f(B_s) - f(A_s - B_s) at pixel s =
	// pix[e]: the correction of the two images' divergences from zero
	// that makes their divergence (Kernel.Divergence with unit weights
	// is the sum of f(A_s) and f(B_s) over their supports minus the sum
	// of g). The slices are reused after Pair returns.
	Pair(p, i, j int, pix []int32, g []float64)
}

// SplitsVisit is Splits that also shows every pair of images, with its
// pixel terms, to visit (when not nil; then splits may be empty): one
// pass over the pairs serves both.
func SplitsVisit(ctx context.Context, images []pimage.Sparse, sigma float64, v Variant, splits []Split, out []SplitKernels, visit PairVisitor, prog progress.Func) ([]SplitKernels, error) {
	if len(images) == 0 || (len(splits) == 0 && visit == nil) {
		return nil, fmt.Errorf("kernel: splits need images (%d) and splits (%d)", len(images), len(splits))
	}
	if err := checkImages(images, images[0].Len); err != nil {
		return nil, err
	}
	n := len(images)
	// role[q][i] is image i's place in split q: position p in Train as
	// p+1, in Test as -(p+1), 0 when in neither.
	role := make([][]int32, len(splits))
	var all [][]float64
	for q, sp := range splits {
		fam := Family{Weights: sp.Weights, Sigma: sigma, Variant: v}
		if err := fam.validate(images[0].Len); err != nil {
			return nil, fmt.Errorf("split %d: %w", q, err)
		}
		role[q] = make([]int32, n)
		for p, i := range sp.Train {
			if i < 0 || i >= n || role[q][i] != 0 || (p > 0 && i <= sp.Train[p-1]) {
				return nil, fmt.Errorf("kernel: split %d: training image %d is outside [0, %d), repeated or out of order", q, i, n)
			}
			role[q][i] = int32(p + 1)
		}
		for p, i := range sp.Test {
			if i < 0 || i >= n || role[q][i] != 0 {
				return nil, fmt.Errorf("kernel: split %d: test image %d is outside [0, %d) or also in training", q, i, n)
			}
			role[q][i] = -int32(p + 1)
		}
		all = append(all, sp.Weights...)
	}
	out = shapeSplits(splits, out)
	if len(all) == 0 {
		// Only the visitor's pass: one weight vector of zeros, unused.
		all = [][]float64{make([]float64, images[0].Len)}
	}
	fam := Family{Weights: all, Sigma: sigma, Variant: v}
	if err := fam.validate(images[0].Len); err != nil {
		return nil, err
	}
	sp := fam.prepare(images, fam.kernel(0).pixelFunc())
	ps := fam.pass()
	support := func(j int) ([]int32, []float64) { return sp[j].idx, sp[j].f }
	// value is vector k's kernel value at divergence div.
	wsum := make([]float64, len(all))
	for k, w := range all {
		wsum[k] = sum(w)
	}
	value := func(k int, div float64) float64 { return fam.kernel(k).fromDivergence(div, wsum[k]) }
	// first[q] is split q's first weight vector in all.
	first := make([]int, len(splits)+1)
	for q, s := range splits {
		first[q+1] = first[q] + len(s.Weights)
	}
	for q, s := range splits {
		for k, g := range out[q].Gram {
			for p := range s.Train {
				g.Data[packed(g.N, p, p)] = float32(value(first[q]+k, 0))
			}
		}
	}
	parts, stage := Parts(n), "gram"
	if visit != nil {
		parts = SumParts(n)
		stage = "gram, pair sums" // a pass that costs more than its matrices
	}
	b := BalancedSplit(n, parts)
	tick := prog.Weighted(stage, n*(n-1)/2)
	return out, Parallel(len(b)-1, func(part int) error {
		d := make([]float64, len(all))
		var r row
		if visit != nil {
			visit.Start(part, b[part], b[part+1], support)
		}
		// Rows from last to first, as a PairVisitor wants them (the
		// matrices do not mind the order).
		for i := b[part+1] - 1; i >= b[part]; i-- {
			if err := ctx.Err(); err != nil {
				return err
			}
			r.set(&sp[i])
			if visit != nil {
				visit.Row(part, i)
			}
			for j := i + 1; j < n; j++ {
				if visit == nil && !needed(role, i, j) {
					continue
				}
				ps.divergences(&r, &sp[j], d)
				if visit != nil {
					visit.Pair(part, i, j, r.at[:r.common], r.g[:r.common])
				}
				for q := range splits {
					ri, rj := role[q][i], role[q][j]
					if ri < 0 {
						ri, rj = rj, ri // the test image second
					}
					switch {
					case ri > 0 && rj > 0:
						for k, g := range out[q].Gram {
							g.Data[packed(g.N, int(ri-1), int(rj-1))] = float32(value(first[q]+k, d[first[q]+k]))
						}
					case ri > 0 && rj < 0:
						for k, c := range out[q].Cross {
							c[-rj-1][ri-1] = value(first[q]+k, d[first[q]+k])
						}
					}
				}
			}
			if visit != nil {
				visit.RowDone(part, i)
			}
			tick(n - 1 - i)
		}
		return nil
	})
}

// needed says whether a split wants pair (i, j): both in its training
// set, or one in training and the other in test.
func needed(role [][]int32, i, j int) bool {
	for _, r := range role {
		if (r[i] > 0 && r[j] != 0) || (r[i] < 0 && r[j] > 0) {
			return true
		}
	}
	return false
}

// packed is the index of (i, j), i <= j, in an n x n upper triangle
// packed row-major: row i starts after the n + (n-1) + ... + (n-i+1)
// entries of the rows above.
func packed(n, i, j int) int {
	return i*n - i*(i-1)/2 + j - i
}

// shapeSplits returns out with matrices of splits' shapes, reusing the
// memory of out's where it is large enough.
func shapeSplits(splits []Split, out []SplitKernels) []SplitKernels {
	if len(out) < len(splits) {
		out = append(out, make([]SplitKernels, len(splits)-len(out))...)
	}
	out = out[:len(splits)]
	for q, s := range splits {
		o := &out[q]
		nt, ne := len(s.Train), len(s.Test)
		o.Gram = resize(o.Gram, len(s.Weights))
		o.Cross = resize(o.Cross, len(s.Weights))
		for k := range s.Weights {
			o.Gram[k] = blas32.SymmetricPacked{Uplo: blas.Upper, N: nt, Data: resize(o.Gram[k].Data, nt*(nt+1)/2)}
			o.Cross[k] = resize(o.Cross[k], ne)
			for t := range o.Cross[k] {
				o.Cross[k][t] = resize(o.Cross[k][t], nt)
			}
		}
	}
	return out
}

// resize returns x with length n, reusing its memory when it can.
func resize[T any](x []T, n int) []T {
	if cap(x) >= n {
		return x[:n]
	}
	// Room for a little growth: folds of a CV differ in size by a few
	// samples. The old elements are kept (the rows of a [][]float64).
	y := make([]T, n, n+n/64)
	copy(y, x[:cap(x)])
	return y
}

// Full unpacks the symmetric matrix g into dst (reused when its rows are
// long enough) and returns the n x n matrix.
func Full(g blas32.SymmetricPacked, dst [][]float64) [][]float64 {
	dst = resize(dst, g.N)
	for i := range dst {
		dst[i] = resize(dst[i], g.N)
	}
	for i := range g.N {
		row := g.Data[packed(g.N, i, i) : packed(g.N, i, i)+g.N-i]
		for j, v := range row {
			dst[i][i+j] = float64(v)
			dst[i+j][i] = float64(v)
		}
	}
	return dst
}
