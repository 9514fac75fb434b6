package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
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
func NewPairSums(ctx context.Context, images []pimage.Sparse, labels, folds []int, nFolds int, sigma float64, prog progress.Func) (*PairSums, error) {
	n := len(images)
	if err := checkImages(images, labels, sigma, 0, n); err != nil {
		return nil, err
	}
	// Prepared once for all workers.
	sp := sparseOf(images, sigma)
	b := kernel.BalancedSplit(n, kernel.SumParts(n))
	parts := make([]*PairSums, len(b)-1)
	tick := prog.Counter("pair sums", n)
	err := kernel.Parallel(len(parts), func(p int) error {
		var err error
		parts[p], err = sp.rows(ctx, images, labels, folds, nFolds, sigma, b[p], b[p+1], func(string, int, int) { tick() })
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
func NewPairSumsRows(ctx context.Context, images []pimage.Sparse, labels, folds []int, nFolds int, sigma float64, i0, i1 int, prog progress.Func) (*PairSums, error) {
	if err := checkImages(images, labels, sigma, i0, i1); err != nil {
		return nil, err
	}
	return sparseOf(images, sigma).rows(ctx, images, labels, folds, nFolds, sigma, i0, i1, prog)
}

// checkImages checks a pass's images, labels, sigma and row range.
func checkImages(images []pimage.Sparse, labels []int, sigma float64, i0, i1 int) error {
	n := len(images)
	if n == 0 {
		return fmt.Errorf("learn: no images")
	}
	if len(labels) != n {
		return fmt.Errorf("learn: %d labels for %d images", len(labels), n)
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return fmt.Errorf("learn: sigma %g must be positive and finite", sigma)
	}
	if i0 < 0 || i1 > n || i0 > i1 {
		return fmt.Errorf("learn: row range [%d, %d) outside [0, %d)", i0, i1, n)
	}
	N := images[0].Len
	for i, img := range images {
		if img.Len != N {
			return fmt.Errorf("learn: image %d has %d pixels, want %d", i, img.Len, N)
		}
	}
	return nil
}

// sparseImages are a pass's images as their non-zero pixels: image i's
// pixels idx[i] and their values val[i] (the pimage.Sparse's own slices)
// and m0[i], M against an exact zero; and its support as a bitmap (bit s%64 of bits[i][s/64]) with
// rank[i][q], the support pixels in words before q, so that a pair's
// common pixels are found by ANDing two bitmaps.
type sparseImages struct {
	idx     [][]int32
	val, m0 [][]float64
	bits    [][]uint64
	rank    [][]int32
}

func sparseOf(images []pimage.Sparse, sigma float64) *sparseImages {
	n := len(images)
	c := 1 / (2 * sigma * sigma)
	sp := &sparseImages{idx: make([][]int32, n), val: make([][]float64, n), m0: make([][]float64, n), bits: make([][]uint64, n), rank: make([][]int32, n)}
	for i, img := range images {
		m0 := make([]float64, len(img.Val))
		for n, v := range img.Val {
			m0[n] = kernel.WKPITerm(v * v * c)
		}
		sp.bits[i], sp.rank[i] = kernel.Support(img)
		sp.idx[i], sp.val[i], sp.m0[i] = img.Idx, img.Val, m0
	}
	return sp
}

// rows is NewPairSumsRows on the sparse images sp of images.
func (sp *sparseImages) rows(ctx context.Context, images []pimage.Sparse, labels, folds []int, nFolds int, sigma float64, i0, i1 int, prog progress.Func) (*PairSums, error) {
	n := len(images)
	part, err := newSumsPart(labels, folds, nFolds, images[0].Len)
	if err != nil {
		return nil, err
	}
	c := 1 / (2 * sigma * sigma)
	val := sp.val
	for j := i1; j < n; j++ {
		part.addLater(j, sp.idx[j], sp.m0[j])
	}
	// Scratch of a pair's common pixels: their index, difference and
	// correction.
	var at []int32
	var ds, gs []float64
	a := make([]float64, images[0].Len) // the row's image, dense
	for i := i1 - 1; i >= i0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for n, s := range sp.idx[i] {
			a[s] = sp.val[i][n]
		}
		part.row(i, sp.idx[i], sp.m0[i])
		abits, rowM0 := sp.bits[i], part.rowM0
		for j := i + 1; j < n; j++ {
			vj, mj, bj, rj := val[j], sp.m0[j], sp.bits[j], sp.rank[j]
			if len(at) < len(vj) {
				at, ds, gs = make([]int32, len(vj)), make([]float64, len(vj)), make([]float64, len(vj))
			}
			e := kernel.Common(abits, bj, rj, a, rowM0, vj, mj, at, ds, gs)
			kernel.SubTerms(gs[:e], ds[:e], c)
			part.pair(j, at[:e], gs[:e])
		}
		part.rowDone(i, sp.idx[i], sp.m0[i])
		for _, s := range sp.idx[i] {
			a[s] = 0
		}
		prog.Report("pair sums", i1-i, i1-i0)
	}
	return part.p, nil
}

// sumsPart accumulates the pair sums of a range of rows [i0, i1): the
// pairs (i, j), i0 <= i < i1, j > i. A pair adds M_ij(s) = m0_i(s) +
// m0_j(s) - (m0_i(s) + m0_j(s) - M(I_i(s) - I_j(s))), the last term, the
// correction, only where both are non-zero. So row i adds, to each block
// pair (i's block, beta), the count of later images in beta times m0_i
// and the sum of their m0 (kept per block as rows go from last to first:
// addLater for every j >= i1 first, then rowDone after each row), then
// subtracts each later image's correction at their common pixels (pair,
// in order of j). The sums are then the same bits however the
// corrections were computed (NewPairSumsRows, or a kernel pass that
// computes them anyway: SumsVisitor).
type sumsPart struct {
	p     *PairSums
	block func(j int) int
	later [][]float64 // sum of m0_j over j > i, per block
	// laterPix[b] are the pixels where later[b] can be non-zero (the
	// union of its images' supports, in the order met), marked in the
	// bitmap laterSeen[b]: a row adds later[b] there only, which on
	// molecules' long images is a fifth of the pixels.
	laterPix  [][]int32
	laterSeen [][]uint64
	count     []int
	rowM0     []float64 // m0_i spread over all pixels
	bi        int       // the current row's block
}

func newSumsPart(labels, folds []int, nFolds, N int) (*sumsPart, error) {
	p, folds, err := newPairSums(labels, folds, nFolds, N)
	if err != nil {
		return nil, err
	}
	nb := p.blocks()
	part := &sumsPart{p: p, later: make([][]float64, nb), laterPix: make([][]int32, nb), laterSeen: make([][]uint64, nb), count: make([]int, nb), rowM0: make([]float64, N)}
	part.block = func(j int) int { return folds[j]*p.Classes + labels[j] }
	return part, nil
}

// addLater counts image j (support idx, m0 there) among the later ones.
func (part *sumsPart) addLater(j int, idx []int32, m0 []float64) {
	b := part.block(j)
	if part.later[b] == nil {
		part.later[b] = make([]float64, part.p.Pixels)
		part.laterSeen[b] = make([]uint64, (part.p.Pixels+63)/64)
	}
	later, seen := part.later[b], part.laterSeen[b]
	for q, s := range idx {
		later[s] += m0[q]
		if seen[s/64]&(1<<(s%64)) == 0 {
			seen[s/64] |= 1 << (s % 64)
			part.laterPix[b] = append(part.laterPix[b], s)
		}
	}
	part.count[b]++
}

// row starts row i: the terms of its pairs with every later image
// against zero.
func (part *sumsPart) row(i int, idx []int32, m0 []float64) {
	p := part.p
	part.bi = part.block(i)
	for q, s := range idx {
		part.rowM0[s] = m0[q]
	}
	for b, cnt := range part.count {
		if cnt == 0 {
			continue
		}
		sum, later := p.Blocks[p.blockPair(part.bi, b)], part.later[b]
		// Off laterPix later[b] is exactly 0, and adding 0 changes no
		// sum (none is -0), so these are the bits of adding it all.
		for _, s := range part.laterPix[b] {
			sum[s] += later[s]
		}
		for q, s := range idx {
			sum[s] += float64(cnt) * m0[q]
		}
	}
}

// pair subtracts the correction g[e] at pixel pix[e] of the current row's
// pair with image j.
func (part *sumsPart) pair(j int, pix []int32, g []float64) {
	sum := part.p.Blocks[part.p.blockPair(part.bi, part.block(j))]
	for e, s := range pix {
		sum[s] -= g[e]
	}
}

// rowDone ends row i, which then counts among the later images.
func (part *sumsPart) rowDone(i int, idx []int32, m0 []float64) {
	for _, s := range idx {
		part.rowM0[s] = 0
	}
	part.addLater(i, idx, m0)
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

// SumsVisitor accumulates the pair sums of n images from a kernel pass
// that computes every pair's pixel terms anyway (kernel.SplitsVisit with
// a WKPI kernel of the sums' sigma), so that the sums cost no pass of
// their own: a cross-validation computes its folds' unlearned kernels in
// the pass that makes its pair sums. The sums have the bits of
// NewPairSums's (TestSumsVisitorBits).
type SumsVisitor struct {
	n      int
	labels []int
	folds  []int
	nFolds int
	pixels int
	parts  []*sumsPart
	// support[p] is part p's view of the pass's sparse images.
	support []func(j int) ([]int32, []float64)
}

// NewSumsVisitor prepares the sums of n images of the given pixels,
// labels and folds (as NewPairSums takes them) for kernel.SplitsVisit
// over those images.
func NewSumsVisitor(n, pixels int, labels, folds []int, nFolds int) (*SumsVisitor, error) {
	if n == 0 || len(labels) != n {
		return nil, fmt.Errorf("learn: %d labels for %d images", len(labels), n)
	}
	if _, _, err := newPairSums(labels, folds, nFolds, 0); err != nil {
		return nil, err
	}
	parts := len(kernel.BalancedSplit(n, kernel.SumParts(n))) - 1
	return &SumsVisitor{n: n, labels: labels, folds: folds, nFolds: nFolds, pixels: pixels, parts: make([]*sumsPart, parts), support: make([]func(int) ([]int32, []float64), parts)}, nil
}

// Start implements kernel.PairVisitor.
func (v *SumsVisitor) Start(p, i0, i1 int, support func(j int) ([]int32, []float64)) {
	part, err := newSumsPart(v.labels, v.folds, v.nFolds, v.pixels)
	if err != nil {
		panic(err) // checked by NewSumsVisitor
	}
	v.parts[p], v.support[p] = part, support
	for j := i1; j < v.n; j++ {
		idx, m0 := support(j)
		part.addLater(j, idx, m0)
	}
}

// Row implements kernel.PairVisitor.
func (v *SumsVisitor) Row(p, i int) {
	idx, m0 := v.support[p](i)
	v.parts[p].row(i, idx, m0)
}

// Pair implements kernel.PairVisitor.
func (v *SumsVisitor) Pair(p, i, j int, pix []int32, g []float64) { v.parts[p].pair(j, pix, g) }

// RowDone implements kernel.PairVisitor.
func (v *SumsVisitor) RowDone(p, i int) {
	idx, m0 := v.support[p](i)
	v.parts[p].rowDone(i, idx, m0)
}

// Sums are the pair sums of the pass, once it is over (once: the
// visitor lets go of the pass's images).
func (v *SumsVisitor) Sums() (*PairSums, error) {
	for p, part := range v.parts {
		if part == nil {
			return nil, fmt.Errorf("learn: part %d of the pair sums was not visited", p)
		}
	}
	for _, q := range v.parts[1:] {
		if err := v.parts[0].p.Add(q.p); err != nil {
			return nil, err
		}
	}
	sums := v.parts[0].p
	// The pass's images and the parts' scratch are not needed any more.
	clear(v.parts)
	clear(v.support)
	return sums, nil
}
