package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/kernel"
	"wkpi-web/core/progress"
)

// PairSums holds, for every pair of (fold, class) blocks, the per-pixel sum
// over all unordered pairs of images (i, j), i in one block and j in the
// other, of M_ij(s) = 2 - 2 exp(-(I_i(s) - I_j(s))^2 / (2 sigma^2)).
//
// Since D_w^2(i, j) = sum_s w_s M_ij(s) is linear in the pixel weights, the
// class costs of any training set that is a union of folds follow from these
// sums without another pass over the pairs (see Training). The fields are
// exported plain data so that worker results can be serialised and merged
// with Add.
type PairSums struct {
	Pixels  int // N
	Classes int // k
	Folds   int
	// Blocks[blockPair(b1, b2)] for blocks b1 <= b2, block b = fold*Classes + class.
	Blocks [][]float64
}

func (p *PairSums) blocks() int { return p.Folds * p.Classes }

// blockPair indexes the unordered block pair b1 <= b2 in row-major upper
// triangle order.
func (p *PairSums) blockPair(b1, b2 int) int {
	if b1 > b2 {
		b1, b2 = b2, b1
	}
	nb := p.blocks()
	return b1*nb - b1*(b1-1)/2 + (b2 - b1)
}

// NewPairSums accumulates the block sums over all pairs of images in one
// pass. labels are classes 0..k-1, folds[i] in 0..nFolds-1 is the CV fold of
// image i (folds may be nil for a single fold).
func NewPairSums(ctx context.Context, images [][]float64, labels, folds []int, nFolds int, sigma float64, prog progress.Func) (*PairSums, error) {
	n := len(images)
	b := kernel.BalancedSplit(n, kernel.Parts(n))
	parts := make([]*PairSums, len(b)-1)
	tick := prog.Counter("pair sums", n)
	err := kernel.Parallel(len(parts), func(p int) error {
		var err error
		parts[p], err = NewPairSumsRows(ctx, images, labels, folds, nFolds, sigma, b[p], b[p+1], func(string, int, int) { tick() })
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, q := range parts[1:] {
		if err := parts[0].Add(q); err != nil {
			return nil, err
		}
	}
	return parts[0], nil
}

// NewPairSumsRows accumulates only the pairs (i, j) with i0 <= i < i1 and
// j > i, so that workers given disjoint row ranges (kernel.BalancedSplit)
// produce partial sums to merge with Add.
func NewPairSumsRows(ctx context.Context, images [][]float64, labels, folds []int, nFolds int, sigma float64, i0, i1 int, prog progress.Func) (*PairSums, error) {
	n := len(images)
	if n == 0 {
		return nil, fmt.Errorf("learn: no images")
	}
	if len(labels) != n {
		return nil, fmt.Errorf("learn: %d labels for %d images", len(labels), n)
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("learn: sigma %g must be positive and finite", sigma)
	}
	if i0 < 0 || i1 > n || i0 > i1 {
		return nil, fmt.Errorf("learn: row range [%d, %d) outside [0, %d)", i0, i1, n)
	}
	N := len(images[0])
	for i, img := range images {
		if len(img) != N {
			return nil, fmt.Errorf("learn: image %d has %d pixels, want %d", i, len(img), N)
		}
	}
	p, folds, err := newPairSums(labels, folds, nFolds, N)
	if err != nil {
		return nil, err
	}
	k := p.Classes

	c := 1 / (2 * sigma * sigma)
	m := func(d float64) float64 { return kernel.WKPITerm(d * d * c) }
	// Non-zero pixels and their M against an exact zero, per image: pixels
	// where both images are 0 have M = 0 and are skipped.
	// Their values too: reading them from the dense image would fetch
	// most of its cache lines for every pair, the pass's bottleneck on
	// thousands of images.
	idx := make([][]int32, n)
	val := make([][]float64, n)
	m0 := make([][]float64, n)
	for i, img := range images {
		nnz := 0
		for _, v := range img {
			if v != 0 {
				nnz++
			}
		}
		// Exact sizes: append's spare capacity would cost every
		// worker a third more memory on thousands of images.
		idx[i], val[i], m0[i] = make([]int32, 0, nnz), make([]float64, 0, nnz), make([]float64, 0, nnz)
		for s, v := range img {
			if v != 0 {
				idx[i] = append(idx[i], int32(s))
				val[i] = append(val[i], v)
				m0[i] = append(m0[i], m(v))
			}
		}
	}
	// A pair (i, j) adds M_ij(s) = m0_i(s) + m0_j(s) - (m0_i(s) + m0_j(s) -
	// M(I_i(s) - I_j(s))), the last term only where both are non-zero. So
	// row i adds, to each block pair (i's block, beta), the count of later
	// images in beta times m0_i and the sum of their m0 (kept per block as
	// rows go from last to first), then sweeps each later image's support
	// for the common pixels: one pass over one support per pair, an exp only
	// where both differ from zero.
	block := func(j int) int { return folds[j]*k + labels[j] }
	later := make([][]float64, p.blocks()) // sum of m0_j over j > i, per block
	count := make([]int, p.blocks())
	addLater := func(j int) {
		b := block(j)
		if later[b] == nil {
			later[b] = make([]float64, N)
		}
		for q, s := range idx[j] {
			later[b][s] += m0[j][q]
		}
		count[b]++
	}
	for j := i1; j < n; j++ {
		addLater(j)
	}
	rowM0 := make([]float64, N) // m0_i spread over all pixels
	for i := i1 - 1; i >= i0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a := images[i]
		bi := block(i)
		for q, s := range idx[i] {
			rowM0[s] = m0[i][q]
		}
		for b, cnt := range count {
			if cnt == 0 {
				continue
			}
			sum := p.Blocks[p.blockPair(bi, b)]
			floats.Add(sum, later[b])
			for q, s := range idx[i] {
				sum[s] += float64(cnt) * m0[i][q]
			}
		}
		for j := i + 1; j < n; j++ {
			sum := p.Blocks[p.blockPair(bi, block(j))]
			vj, mj := val[j], m0[j]
			for q, s := range idx[j] {
				if av := a[s]; av != 0 {
					sum[s] -= rowM0[s] + mj[q] - m(av-vj[q])
				}
			}
		}
		for _, s := range idx[i] {
			rowM0[s] = 0
		}
		addLater(i)
		prog.Report("pair sums", i1-i, i1-i0)
	}
	return p, nil
}

// newPairSums checks labels and folds (nil: one fold) and allocates
// zero sums of N pixels.
func newPairSums(labels, folds []int, nFolds, N int) (*PairSums, []int, error) {
	n := len(labels)
	if folds == nil {
		folds, nFolds = make([]int, n), 1
	}
	if len(folds) != n {
		return nil, nil, fmt.Errorf("learn: %d fold indices for %d images", len(folds), n)
	}
	k := 0
	for i, l := range labels {
		if l < 0 {
			return nil, nil, fmt.Errorf("learn: image %d has negative label %d", i, l)
		}
		k = max(k, l+1)
		if folds[i] < 0 || folds[i] >= nFolds {
			return nil, nil, fmt.Errorf("learn: image %d has fold %d outside [0, %d)", i, folds[i], nFolds)
		}
	}
	p := &PairSums{Pixels: N, Classes: k, Folds: nFolds}
	nb := p.blocks()
	p.Blocks = make([][]float64, nb*(nb+1)/2)
	for b := range p.Blocks {
		p.Blocks[b] = make([]float64, N)
	}
	return p, folds, nil
}

// NewPairSumsTable accumulates the same sums as NewPairSums for the images
// subset of a WKPI pair table (whose pixel terms are exactly M_ij), with
// labels and folds parallel to subset: no exp is evaluated, so the sums of
// any subset (an outer fold's training set in nested CV) are cheap.
func NewPairSumsTable(ctx context.Context, t *kernel.Table, subset, labels, folds []int, nFolds int) (*PairSums, error) {
	if t.Variant != kernel.WKPI {
		return nil, fmt.Errorf("learn: pair sums need a WKPI table, not variant %d", t.Variant)
	}
	if len(labels) != len(subset) {
		return nil, fmt.Errorf("learn: %d labels for %d images", len(labels), len(subset))
	}
	p, folds, err := newPairSums(labels, folds, nFolds, t.Pixels())
	if err != nil {
		return nil, err
	}
	for a, i := range subset {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ba := folds[a]*p.Classes + labels[a]
		for b := a + 1; b < len(subset); b++ {
			sum := p.Blocks[p.blockPair(ba, folds[b]*p.Classes+labels[b])]
			if err := t.AddTo(sum, i, subset[b]); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// Add merges the partial sums q (same images, other rows) into p.
func (p *PairSums) Add(q *PairSums) error {
	if p.Pixels != q.Pixels || p.Classes != q.Classes || p.Folds != q.Folds || len(p.Blocks) != len(q.Blocks) {
		return fmt.Errorf("learn: adding pair sums of shape %dx%dx%d to %dx%dx%d",
			q.Pixels, q.Classes, q.Folds, p.Pixels, p.Classes, p.Folds)
	}
	for b, v := range q.Blocks {
		if len(v) != len(p.Blocks[b]) {
			return fmt.Errorf("learn: pair sum block %d has %d pixels, want %d", b, len(v), len(p.Blocks[b]))
		}
		floats.Add(p.Blocks[b], v)
	}
	return nil
}

// Training returns the per-class pixel sums of the training set that leaves
// out fold excludeFold (-1 keeps every fold): with w the pixel weights,
// cost(t,t) = a[t].w = sum over ordered pairs i, j in class t of D_w^2(i,j)
// and cost(t,.) = b[t].w = sum over i in class t and any j.
func (p *PairSums) Training(excludeFold int) (a, b [][]float64) {
	a = make([][]float64, p.Classes)
	b = make([][]float64, p.Classes)
	for t := range a {
		a[t] = make([]float64, p.Pixels)
		b[t] = make([]float64, p.Pixels)
	}
	nb := p.blocks()
	for b1 := 0; b1 < nb; b1++ {
		f1, c1 := b1/p.Classes, b1%p.Classes
		if f1 == excludeFold {
			continue
		}
		for b2 := b1; b2 < nb; b2++ {
			f2, c2 := b2/p.Classes, b2%p.Classes
			if f2 == excludeFold {
				continue
			}
			// Each unordered pair counts as the two ordered pairs (i,j), (j,i).
			sum := p.Blocks[p.blockPair(b1, b2)]
			if c1 == c2 {
				floats.AddScaled(a[c1], 2, sum)
				floats.AddScaled(b[c1], 2, sum)
			} else {
				floats.AddScaled(b[c1], 1, sum)
				floats.AddScaled(b[c2], 1, sum)
			}
		}
	}
	return a, b
}
