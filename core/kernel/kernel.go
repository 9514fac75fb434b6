package kernel

import (
	"context"
	"fmt"
	"math"
	"slices"

	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// Variant selects the kernel form built on the weighted pixel divergence.
type Variant int

const (
	// WKPI is k(A,B) = sum_s w_s exp(-(A_s-B_s)^2 / (2 sigma^2)) (Definition 3.3).
	WKPI Variant = iota
	// Alt is altWKPI, k(A,B) = exp(-sum_s w_s (A_s-B_s)^2 / (2 sigma^2)), a
	// Gaussian kernel under the w-weighted Euclidean distance of images.
	Alt
)

// Kernel is a WKPI or altWKPI kernel on persistence images of N pixels.
type Kernel struct {
	Weights []float64 // pixel weights w_s, usually Mixture.PixelWeights(centres)
	Sigma   float64   // kernel width (see the package doc for the authors' convention)
	Variant Variant
}

// validate checks the kernel against images of n pixels.
func (k Kernel) validate(n int) error {
	if !(k.Sigma > 0) || math.IsInf(k.Sigma, 0) {
		return fmt.Errorf("kernel: sigma %g must be positive and finite", k.Sigma)
	}
	if k.Variant != WKPI && k.Variant != Alt {
		return fmt.Errorf("kernel: unknown variant %d", k.Variant)
	}
	if len(k.Weights) != n {
		return fmt.Errorf("kernel: %d pixel weights for images of %d pixels", len(k.Weights), n)
	}
	for s, w := range k.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("kernel: pixel weight %d is not finite", s)
		}
	}
	return nil
}

// pixelFunc returns f with f(0) = 0 such that the divergence is
// sum_s w_s f(A_s - B_s).
func (k Kernel) pixelFunc() func(d float64) float64 {
	c := 1 / (2 * k.Sigma * k.Sigma)
	if k.Variant == Alt {
		return func(d float64) float64 { return d * d }
	}
	return func(d float64) float64 { return WKPITerm(d * d * c) }
}

// WKPITerm is 2(1 - e^-x) = -2 expm1(-x), the WKPI divergence of a pixel
// where x = (A_s - B_s)^2 / (2 sigma^2) >= 0, to within 2.5e-16 of its
// value absolutely and 4e-16 relatively below x = ln2/128 (where
// 2 - 2 math.Exp(-x) would lose digits). It is the most called function
// of a cross-validation (an exp per common pixel of every pair), where
// math.Exp and a series' unpredictable branch took half of a Gram
// matrix's time (4.1 ns a call here against 7.1): here
// e^-x = 2^(-k/64) e^r with k = round(64 x / ln2) and |r| <= ln2/128, as
// in Tang's method: 2^(-k/64) from a table of 2^(-j/64) and a power of
// two, e^r - 1 from its series to r^6 (truncation under r^7/5040 <
// 3e-20), and 1 - e^-x = (1 - T) - T (e^r - 1) with T = 2^(-k/64), where
// 1 - T is exact for T >= 1/2 and both terms are small for k = 0, which
// keeps the relative precision of small x without a branch.
// TestWKPITermBound checks the bounds against math.Expm1 on 2e6 points.
func WKPITerm(x float64) float64 {
	// Above 40, e^-x is below half an ulp of 2: the result is 2 (a NaN
	// stays NaN through r).
	// Not min(x, termMax): under WebAssembly that is a call
	// (runtime.fmin64) per term; NaN stays NaN either way.
	if x > termMax {
		x = termMax
	}
	k := int(x*termInv + 0.5)
	kf := float64(k)
	// r = k ln2/64 - x; the subtraction is exact (Sterbenz) for k >= 1.
	r := (kf*termLn2h - x) + kf*termLn2l
	// Horner's scheme. (Estrin's, 10 % faster, rounds differently
	// enough to move a learned NCI1 fold by one test graph.)
	q := r * (1 + r*(1./2+r*(1./6+r*(1./24+r*(1./120+r*(1./720))))))
	t := math.Float64frombits(uint64(1023-k>>6)<<52) * exp2Neg64[k&63]
	return 2 * ((1 - t) - t*q)
}

// exp2Neg64[j] is 2^(-j/64), correctly rounded (computed to 60 digits).
var exp2Neg64 = [64]float64{
	0x1.0000000000000p+0, 0x1.fa7c1819e90d8p-1, 0x1.f50765b6e4540p-1, 0x1.efa1bee615a27p-1,
	0x1.ea4afa2a490dap-1, 0x1.e502ee78b3ff6p-1, 0x1.dfc97337b9b5fp-1, 0x1.da9e603db3285p-1,
	0x1.d5818dcfba487p-1, 0x1.d072d4a07897cp-1, 0x1.cb720dcef9069p-1, 0x1.c67f12e57d14bp-1,
	0x1.c199bdd85529cp-1, 0x1.bcc1e904bc1d2p-1, 0x1.b7f76f2fb5e47p-1, 0x1.b33a2b84f15fbp-1,
	0x1.ae89f995ad3adp-1, 0x1.a9e6b5579fdbfp-1, 0x1.a5503b23e255dp-1, 0x1.a0c667b5de565p-1,
	0x1.9c49182a3f090p-1, 0x1.97d829fde4e50p-1, 0x1.93737b0cdc5e5p-1, 0x1.8f1ae99157736p-1,
	0x1.8ace5422aa0dbp-1, 0x1.868d99b4492edp-1, 0x1.82589994cce13p-1, 0x1.7e2f336cf4e62p-1,
	0x1.7a11473eb0187p-1, 0x1.75feb564267c9p-1, 0x1.71f75e8ec5f74p-1, 0x1.6dfb23c651a2fp-1,
	0x1.6a09e667f3bcdp-1, 0x1.6623882552225p-1, 0x1.6247eb03a5585p-1, 0x1.5e76f15ad2148p-1,
	0x1.5ab07dd485429p-1, 0x1.56f4736b527dap-1, 0x1.5342b569d4f82p-1, 0x1.4f9b2769d2ca7p-1,
	0x1.4bfdad5362a27p-1, 0x1.486a2b5c13cd0p-1, 0x1.44e086061892dp-1, 0x1.4160a21f72e2ap-1,
	0x1.3dea64c123422p-1, 0x1.3a7db34e59ff7p-1, 0x1.371a7373aa9cbp-1, 0x1.33c08b26416ffp-1,
	0x1.306fe0a31b715p-1, 0x1.2d285a6e4030bp-1, 0x1.29e9df51fdee1p-1, 0x1.26b4565e27cddp-1,
	0x1.2387a6e756238p-1, 0x1.2063b88628cd6p-1, 0x1.1d4873168b9aap-1, 0x1.1a35beb6fcb75p-1,
	0x1.172b83c7d517bp-1, 0x1.1429aaea92de0p-1, 0x1.11301d0125b51p-1, 0x1.0e3ec32d3d1a2p-1,
	0x1.0b5586cf9890fp-1, 0x1.0874518759bc8p-1, 0x1.059b0d3158574p-1, 0x1.02c9a3e778061p-1,
}

// fromDivergence turns a divergence into the kernel value; total is sum_s w_s.
func (k Kernel) fromDivergence(div, total float64) float64 {
	if k.Variant == Alt {
		return math.Exp(-div / (2 * k.Sigma * k.Sigma))
	}
	return total - div/2
}

// Divergence returns sum_s w_s f(a_s - b_s) by a plain loop over all
// pixels. For WKPI it is the squared pseudo-metric D_w^2(a, b).
func (k Kernel) Divergence(a, b []float64) float64 {
	f := k.pixelFunc()
	var d float64
	for s := range a {
		d += k.Weights[s] * f(a[s]-b[s])
	}
	return d
}

// Distance2 returns the squared kernel distance k(a,a) + k(b,b) - 2k(a,b).
func (k Kernel) Distance2(a, b []float64) float64 {
	div := k.Divergence(a, b)
	if k.Variant == Alt {
		return 2 - 2*k.fromDivergence(div, 0)
	}
	return div
}

// Eval returns k(a, b) by a plain loop over all pixels.
func (k Kernel) Eval(a, b []float64) float64 {
	return k.fromDivergence(k.Divergence(a, b), sum(k.Weights))
}

func sum(x []float64) float64 {
	var t float64
	for _, v := range x {
		t += v
	}
	return t
}

// Family is several kernels that differ only in their pixel weights (a
// learned weight function and the initial one, say). Computed together
// they share every pixel term f(A_s - B_s), the costly part, so a Family
// of two costs little more than one kernel.
type Family struct {
	Weights [][]float64 // one weight vector per kernel
	Sigma   float64
	Variant Variant
}

func (fam Family) kernel(i int) Kernel {
	return Kernel{Weights: fam.Weights[i], Sigma: fam.Sigma, Variant: fam.Variant}
}

func (fam Family) validate(n int) error {
	if len(fam.Weights) == 0 {
		return fmt.Errorf("kernel: a family needs at least one weight vector")
	}
	for i := range fam.Weights {
		if err := fam.kernel(i).validate(n); err != nil {
			return err
		}
	}
	return nil
}

// sparse is an image of n pixels reduced to its non-zero pixels idx,
// their values val (the pimage.Sparse's own slices, not copies) and
// f(val), and tot[k] = sum_n w_k,idx[n] f(val[n]): kernel k's divergence
// from an all-zero image. The support is also a bitmap (bit s%64 of
// bits[s/64]) with rank[q], the support pixels in words before q, so
// that a pair's common pixels are found by ANDing two bitmaps.
type sparse struct {
	n    int
	idx  []int32
	val  []float64
	f    []float64
	tot  []float64
	bits []uint64
	rank []int32
}

// PassBytes is the memory a pass over pairs of images adds to the images
// themselves for one weight vector (prepare): f of every non-zero pixel,
// each image's support bitmap with its ranks, and its divergence from
// zero.
func PassBytes(images []pimage.Sparse) int64 {
	var b int64
	for _, img := range images {
		words := int64(img.Len+63) / 64
		b += 8*int64(len(img.Val)) + 12*words + 8
	}
	return b
}

func (fam Family) prepare(images []pimage.Sparse, f func(float64) float64) []sparse {
	out := make([]sparse, len(images))
	for i, img := range images {
		sp := sparse{n: img.Len, idx: img.Idx, val: img.Val, f: make([]float64, len(img.Val)), tot: make([]float64, len(fam.Weights))}
		sp.bits, sp.rank = Support(img)
		for n, s := range img.Idx {
			fv := f(img.Val[n])
			sp.f[n] = fv
			for k, w := range fam.Weights {
				sp.tot[k] += w[s] * fv
			}
		}
		out[i] = sp
	}
	return out
}

// row holds one image a against which a pass computes many divergences,
// with its values v and f(a_s) spread over all pixels (zero off its
// support), so that a pair costs one sweep over the other image's
// support.
type row struct {
	a    *sparse
	v, f []float64
	// Scratch of divergences: a pair's common pixels, the differences
	// of the two images there and their corrections; common is how many
	// the last divergences found; d the kernels' sums, padded.
	at     []int32
	diff   []float64
	g      []float64
	common int
	d      []float64
}

// set makes a the row's image.
func (r *row) set(a *sparse) {
	if r.a != nil {
		for _, s := range r.a.idx {
			r.v[s], r.f[s] = 0, 0
		}
	}
	if len(r.f) != a.n {
		r.v, r.f = make([]float64, a.n), make([]float64, a.n)
	}
	r.a = a
	for n, s := range a.idx {
		r.v[s], r.f[s] = a.val[n], a.f[n]
	}
}

// pass is what a pass over pairs needs besides the images: the family's
// k weight vectors interleaved per pixel (w[s*stride+j] is vector j's
// weight of pixel s, so that a common pixel reads its k weights
// contiguously, which matters when a pass serves many vectors; stride is
// k rounded up to a multiple of four, the rest zeros, so that the vector
// sums take four kernels at a time with no remainder), the WKPI constant
// c = 1/(2 sigma^2) and the pixel function f.
type pass struct {
	w         []float64
	k, stride int
	c         float64
	f         func(float64) float64
	wkpi      bool
	vector    bool // run the vector loops (vectorUnit)
}

func (fam Family) pass() pass {
	k := len(fam.Weights)
	stride := (k + 3) &^ 3
	w := make([]float64, len(fam.Weights[0])*stride)
	for j, ws := range fam.Weights {
		for s, v := range ws {
			w[s*stride+j] = v
		}
	}
	return pass{w: w, k: k, stride: stride, c: 1 / (2 * fam.Sigma * fam.Sigma), f: fam.kernel(0).pixelFunc(), wkpi: fam.Variant == WKPI, vector: vectorUnit}
}

// divergences writes into d each kernel's divergence between the row's
// image a and b. Off both supports a pixel adds exactly w_s f(0) = 0, on
// one support only w_s f(A_s) (or f(B_s)), so the divergence is both
// images' divergences from zero corrected on their common pixels by
// w_s (f(A_s) + f(B_s) - f(A_s - B_s)): a pair costs the common pixels
// (common: the AND of the two support bitmaps), an f (an exp, for WKPI)
// and one multiply-add per kernel at each. (The correction cancels the
// totals' rounding to within 1e-15 of the kernel's scale;
// TestGramMatchesPlainLoop checks it against the plain loop over all
// pixels.) Every operation is symmetric in a and b and the common pixels
// are summed in ascending order either way, so swapping the two images
// gives the same bits. The common pixels stay in r.at and their
// corrections in r.g (r.common of them), for a PairVisitor.
func (p *pass) divergences(r *row, b *sparse, d []float64) {
	// Room for every common pixel: at most b's support.
	if len(r.at) < len(b.idx) {
		r.at, r.diff, r.g = make([]int32, len(b.idx)), make([]float64, len(b.idx)), make([]float64, len(b.idx))
	}
	e := common(r.a.bits, b.bits, b.rank, r.v, r.f, b.val, b.f, r.at, r.diff, r.g, p.vector)
	at, diff, gs := r.at[:e], r.diff[:e], r.g[:e]
	r.common = e
	// The pixel terms of all common pixels at once (for WKPI four at a
	// time where the CPU can: SubTerms).
	if p.wkpi {
		subTerms(gs, diff, p.c, p.vector)
	} else {
		for e, x := range diff {
			gs[e] -= p.f(x)
		}
	}
	// Then the weighted sums, four kernels at a time in vectors where the
	// CPU can, or in registers (then two, then one; each still summed
	// over the common pixels in ascending order): with many kernels
	// (Splits) sums kept in memory cost more than the exps.
	if len(r.d) < p.stride {
		r.d = make([]float64, p.stride)
	}
	sums := r.d[:p.stride]
	w, stride := p.w, p.stride
	k := 0
	if p.vector {
		k = sums4Vector(sums, w, at, gs, stride, p.k)
	}
	for ; k+4 <= p.k; k += 4 {
		var d0, d1, d2, d3 float64
		for e, o := range at {
			i := int(o)*stride + k
			ws := w[i : i+4]
			g := gs[e]
			d0 += ws[0] * g
			d1 += ws[1] * g
			d2 += ws[2] * g
			d3 += ws[3] * g
		}
		sums[k], sums[k+1], sums[k+2], sums[k+3] = d0, d1, d2, d3
	}
	if k+2 <= p.k {
		var d0, d1 float64
		for e, o := range at {
			i := int(o)*stride + k
			ws := w[i : i+2]
			d0 += ws[0] * gs[e]
			d1 += ws[1] * gs[e]
		}
		sums[k], sums[k+1] = d0, d1
		k += 2
	}
	if k < p.k {
		var dk float64
		for e, o := range at {
			dk += w[int(o)*stride+k] * gs[e]
		}
		sums[k] = dk
	}
	d = d[:p.k]
	for k := range d {
		d[k] = max(0, r.a.tot[k]+b.tot[k]-sums[k])
	}
}

func checkImages(images []pimage.Sparse, n int) error {
	for i, img := range images {
		if img.Len != n {
			return fmt.Errorf("kernel: image %d has %d pixels, want %d", i, img.Len, n)
		}
	}
	return nil
}

// Gram returns the symmetric n x n kernel matrix of images.
func (k Kernel) Gram(ctx context.Context, images []pimage.Sparse, prog progress.Func) ([][]float64, error) {
	g, err := k.family().Gram(ctx, images, prog)
	if err != nil {
		return nil, err
	}
	return g[0], nil
}

// Gram returns each kernel's symmetric n x n matrix of images, computing
// row ranges of equal work in parallel on the images prepared once.
func (fam Family) Gram(ctx context.Context, images []pimage.Sparse, prog progress.Func) ([][][]float64, error) {
	n := len(images)
	g := make([][][]float64, len(fam.Weights))
	for k := range g {
		g[k] = make([][]float64, n)
	}
	if n == 0 {
		return g, nil
	}
	if err := fam.check(images); err != nil {
		return nil, err
	}
	sp := fam.prepare(images, fam.kernel(0).pixelFunc())
	b := BalancedSplit(n, Parts(n))
	tick := prog.Weighted("gram", n*(n-1)/2)
	err := Parallel(len(b)-1, func(p int) error {
		rows, err := fam.gramRows(ctx, sp, b[p], b[p+1], func(_ string, done, _ int) { tick(n - b[p] - done) })
		for k := range g {
			if rows != nil {
				copy(g[k][b[p]:], rows[k])
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for k := range g {
		Symmetrize(g[k])
	}
	return g, nil
}

// check validates non-empty images and the family against them.
func (fam Family) check(images []pimage.Sparse) error {
	if err := checkImages(images, images[0].Len); err != nil {
		return err
	}
	return fam.validate(images[0].Len)
}

// GramRows computes rows i0..i1-1 of each kernel's Gram matrix of images,
// but only their upper-triangle entries j >= i (the others stay 0), so
// that workers given disjoint row ranges (see BalancedSplit) share the
// work of one Gram matrix without duplication. Stack the rows and call
// Symmetrize.
func (fam Family) GramRows(ctx context.Context, images []pimage.Sparse, i0, i1 int, prog progress.Func) ([][][]float64, error) {
	n := len(images)
	if i0 < 0 || i1 > n || i0 > i1 {
		return nil, fmt.Errorf("kernel: row range [%d, %d) outside [0, %d)", i0, i1, n)
	}
	if n == 0 {
		return nil, nil
	}
	if err := fam.check(images); err != nil {
		return nil, err
	}
	return fam.gramRows(ctx, fam.prepare(images, fam.kernel(0).pixelFunc()), i0, i1, prog)
}

// gramRows is GramRows on prepared images.
func (fam Family) gramRows(ctx context.Context, sp []sparse, i0, i1 int, prog progress.Func) ([][][]float64, error) {
	n := len(sp)
	ps := fam.pass()
	totals := make([]float64, len(fam.Weights))
	rows := make([][][]float64, len(fam.Weights))
	for k, w := range fam.Weights {
		totals[k] = sum(w)
		rows[k] = make([][]float64, i1-i0)
	}
	d := make([]float64, len(fam.Weights))
	var r row
	for i := i0; i < i1; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for k := range rows {
			rows[k][i-i0] = make([]float64, n)
			rows[k][i-i0][i] = fam.kernel(k).fromDivergence(0, totals[k])
		}
		r.set(&sp[i])
		for j := i + 1; j < n; j++ {
			ps.divergences(&r, &sp[j], d)
			for k := range rows {
				rows[k][i-i0][j] = fam.kernel(k).fromDivergence(d[k], totals[k])
			}
		}
		prog.Report("gram", i-i0+1, i1-i0)
	}
	return rows, nil
}

// Symmetrize copies the upper triangle of the square matrix g to its lower
// triangle.
func Symmetrize(g [][]float64) {
	for i := range g {
		for j := 0; j < i; j++ {
			g[i][j] = g[j][i]
		}
	}
}

// Cross returns the len(rows) x len(cols) matrix k(rows[i], cols[j]), for
// example test images against training images for prediction.
func (k Kernel) Cross(ctx context.Context, rows, cols []pimage.Sparse, prog progress.Func) ([][]float64, error) {
	out, err := k.family().Cross(ctx, rows, cols, prog)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (k Kernel) family() Family {
	return Family{Weights: [][]float64{k.Weights}, Sigma: k.Sigma, Variant: k.Variant}
}

// Cross returns each kernel's len(rows) x len(cols) matrix, computing
// ranges of rows in parallel.
func (fam Family) Cross(ctx context.Context, rows, cols []pimage.Sparse, prog progress.Func) ([][][]float64, error) {
	if len(rows) > 0 && len(cols) > 0 {
		n := cols[0].Len
		if err := checkImages(rows, n); err != nil {
			return nil, err
		}
		if err := checkImages(cols, n); err != nil {
			return nil, err
		}
		if err := fam.validate(n); err != nil {
			return nil, err
		}
	}
	out := make([][][]float64, len(fam.Weights))
	for k := range out {
		out[k] = make([][]float64, len(rows))
	}
	if len(rows) == 0 || len(cols) == 0 {
		return out, nil
	}
	f := fam.kernel(0).pixelFunc()
	totals := make([]float64, len(fam.Weights))
	for k, w := range fam.Weights {
		totals[k] = sum(w)
	}
	rs, cs := fam.prepare(rows, f), fam.prepare(cols, f)
	ps := fam.pass()
	parts := Parts(len(rows))
	tick := prog.Counter("cross", len(rows))
	err := Parallel(parts, func(p int) error {
		d := make([]float64, len(fam.Weights))
		var r row
		for i := p * len(rows) / parts; i < (p+1)*len(rows)/parts; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			for k := range out {
				out[k][i] = make([]float64, len(cs))
			}
			r.set(&rs[i])
			for j := range cs {
				ps.divergences(&r, &cs[j], d)
				for k := range out {
					out[k][i][j] = fam.kernel(k).fromDivergence(d[k], totals[k])
				}
			}
			tick()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Columns are images made ready once to be met by many others, one at a
// time (Row), as a model's support images are by every graph it
// classifies: their f, an exp per non-zero pixel for WKPI, is computed
// here, and their non-zero pixels are kept pixel by pixel, so that an
// image meets all columns in one sweep over its own non-zero pixels.
// Row's values are Cross's, bit for bit: the same divergences from zero,
// the same corrections on the common pixels summed in ascending order.
// Safe for concurrent use.
type Columns struct {
	k     Kernel
	total float64   // sum_s w_s
	c     float64   // 1 / (2 sigma^2)
	tot   []float64 // each column's divergence from the zero image
	// The columns non-zero at pixel s are col[start[s]:start[s+1]],
	// with their values val and f(val) there.
	start []int32
	col   []int32
	val   []float64
	f     []float64
}

// Columns prepares cols, which must all have the kernel's number of
// pixels.
func (k Kernel) Columns(cols [][]float64) (*Columns, error) {
	n := len(k.Weights)
	for j, col := range cols {
		if len(col) != n {
			return nil, fmt.Errorf("kernel: image %d has %d pixels, want %d", j, len(col), n)
		}
	}
	if err := k.validate(n); err != nil {
		return nil, err
	}
	fam := k.family()
	cs := fam.prepare(pimage.SparseAll(cols), k.pixelFunc())
	c := &Columns{k: k, total: sum(k.Weights), c: 1 / (2 * k.Sigma * k.Sigma), tot: make([]float64, len(cols)), start: make([]int32, n+1)}
	for j := range cs {
		c.tot[j] = cs[j].tot[0]
		for _, s := range cs[j].idx {
			c.start[s+1]++
		}
	}
	for s := range n {
		c.start[s+1] += c.start[s]
	}
	nnz := c.start[n]
	c.col, c.val, c.f = make([]int32, nnz), make([]float64, nnz), make([]float64, nnz)
	next := slices.Clone(c.start[:n])
	for j := range cs {
		for e, s := range cs[j].idx {
			at := next[s]
			c.col[at], c.val[at], c.f[at] = int32(j), cs[j].val[e], cs[j].f[e]
			next[s]++
		}
	}
	return c, nil
}

// FromZero is column j's divergence from the all-zero image,
// sum_s w_s f(col_js), as Row sums it.
func (c *Columns) FromZero(j int) float64 { return c.tot[j] }

// Row returns k(img, col_j) for every column j.
func (c *Columns) Row(img []float64) ([]float64, error) {
	d, err := c.sweep(img, nil)
	if err != nil {
		return nil, err
	}
	for j := range d {
		d[j] = c.k.fromDivergence(d[j], c.total)
	}
	return d, nil
}

// RowParts is Row's sweep over an image's non-zero pixels with its terms
// kept, so that a caller can split every column's divergence from the
// image by pixel (core/explain): the part of pixel Pix[e] in column j's
// divergence minus column j's divergence from the zero image is Own[e]
// where column j is 0 and Own[e] - Shared[x] where it is Col[x] (x in
// Start[e]..Start[e+1]-1).
type RowParts struct {
	// Div is every column's divergence from the image, the one Row turns
	// into its kernel value: max(0, Tot + column's from zero - Less).
	Div []float64
	// Tot is the image's divergence from zero (the sum of Own), and Less
	// each column's sum of its Shared terms.
	Tot  float64
	Less []float64
	// Pix are the image's non-zero pixels in ascending order, and Own is
	// w_s f(img_s) at each.
	Pix []int32
	Own []float64
	// The columns non-zero at Pix[e] are Col[Start[e]:Start[e+1]], and
	// Shared is w_s (f(img_s) + f(col_s) - f(img_s - col_s)) there.
	Start  []int32
	Col    []int32
	Shared []float64
}

// RowParts returns Row's divergences and their terms (see RowParts).
func (c *Columns) RowParts(img []float64) (*RowParts, error) {
	if len(img) != len(c.k.Weights) {
		return nil, fmt.Errorf("kernel: image has %d pixels, want %d", len(img), len(c.k.Weights))
	}
	var pix, shared int
	for s, av := range img {
		if av != 0 {
			pix++
			shared += int(c.start[s+1] - c.start[s])
		}
	}
	rp := &RowParts{Pix: make([]int32, 0, pix), Own: make([]float64, 0, pix), Start: make([]int32, 1, pix+1),
		Col: make([]int32, 0, shared), Shared: make([]float64, 0, shared)}
	d, err := c.sweep(img, rp)
	if err != nil {
		return nil, err
	}
	rp.Div = d
	return rp, nil
}

// sweep returns img's divergence from every column, max(0, tot + tot_j -
// d_j) with tot img's divergence from zero and d_j the sum of the terms
// shared with column j, summed in ascending pixel order; it keeps the
// terms in rp unless rp is nil.
func (c *Columns) sweep(img []float64, rp *RowParts) ([]float64, error) {
	w := c.k.Weights
	if len(img) != len(w) {
		return nil, fmt.Errorf("kernel: image has %d pixels, want %d", len(img), len(w))
	}
	alt := c.k.Variant == Alt
	d := make([]float64, len(c.tot))
	var tot float64 // img's divergence from zero
	for s, av := range img {
		if av == 0 {
			continue
		}
		var af float64
		if alt {
			af = av * av
		} else {
			af = WKPITerm(av * av * c.c)
		}
		ws := w[s]
		tot += ws * af
		lo, hi := c.start[s], c.start[s+1]
		cols, vals, fs := c.col[lo:hi], c.val[lo:hi], c.f[lo:hi]
		for e, bv := range vals {
			diff := av - bv
			var g float64
			if alt {
				g = (af + fs[e]) - diff*diff
			} else {
				g = (af + fs[e]) - WKPITerm(diff*diff*c.c)
			}
			d[cols[e]] += ws * g
			if rp != nil {
				rp.Shared = append(rp.Shared, ws*g)
			}
		}
		if rp != nil {
			rp.Pix = append(rp.Pix, int32(s))
			rp.Own = append(rp.Own, ws*af)
			rp.Col = append(rp.Col, cols...)
			rp.Start = append(rp.Start, int32(len(rp.Col)))
		}
	}
	if rp != nil {
		rp.Tot, rp.Less = tot, slices.Clone(d)
	}
	for j := range d {
		d[j] = max(0, tot+c.tot[j]-d[j])
	}
	return d, nil
}

// BalancedSplit cuts rows 0..n-1 of an upper-triangular pairwise pass (row i
// pairs with rows i+1..n-1) into parts contiguous ranges of about equal
// pair counts: range p is [b[p], b[p+1]).
func BalancedSplit(n, parts int) []int {
	if parts < 1 {
		parts = 1
	}
	b := make([]int, parts+1)
	total := float64(n) * float64(n-1) / 2
	i, done := 0, 0.0
	for p := 1; p < parts; p++ {
		for i < n && done+float64(n-1-i)/2 < total*float64(p)/float64(parts) {
			done += float64(n - 1 - i)
			i++
		}
		b[p] = i
	}
	b[parts] = n
	return b
}

// GaussianOf is the Gaussian of the WKPI distance, exp(-D^2(A, B) / width),
// from the WKPI kernel's value k = k(A, B) with pixel weights summing to 1
// (as the SVM's kernel has them, model.KernelFor): k(A, A) = 1 for every
// image, so D^2 = 2 - 2k. It is
// positive definite for any width > 0 (D^2 is a squared Hilbert distance,
// so exp(-D^2/width) is by Schoenberg's theorem), and it is the SVM kernel
// that uses the learned metric as a metric, as RBF kernels on persistence
// images (PI-CONST) or on a PWGK distance do.
func GaussianOf(k, width float64) float64 {
	return math.Exp(-(2 - 2*k) / width)
}
