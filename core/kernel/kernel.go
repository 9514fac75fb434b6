package kernel

import (
	"context"
	"fmt"
	"math"

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

// WKPITerm is 2(1 - e^-x), the WKPI divergence of a pixel where
// x = (A_s - B_s)^2 / (2 sigma^2). Below 1e-3 it is the series to x^5,
// whose truncation error is under x^6/360 < 3e-21 (and which, unlike
// 2 - 2 e^-x, keeps full relative precision): it skips the exp for the
// many pixels where two images differ little (57 % of the common pixels
// of NCI1 pairs at sigma 0.01).
func WKPITerm(x float64) float64 {
	if x < 1e-3 {
		return 2 * x * (1 - x*(1./2-x*(1./6-x*(1./24-x*(1./120)))))
	}
	return 2 - 2*math.Exp(-x)
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

// sparse is an image reduced to its non-zero pixels idx, their values
// val and f(val), and tot[k] = sum_n w_k,idx[n] f(val[n]): kernel k's
// divergence from an all-zero image.
type sparse struct {
	img []float64
	idx []int32
	val []float64
	f   []float64
	tot []float64
}

func (fam Family) prepare(images [][]float64, f func(float64) float64) []sparse {
	out := make([]sparse, len(images))
	for i, img := range images {
		sp := sparse{img: img, tot: make([]float64, len(fam.Weights))}
		for s, v := range img {
			if v != 0 {
				fv := f(v)
				sp.idx = append(sp.idx, int32(s))
				sp.val = append(sp.val, v)
				sp.f = append(sp.f, fv)
				for k, w := range fam.Weights {
					sp.tot[k] += w[s] * fv
				}
			}
		}
		out[i] = sp
	}
	return out
}

// row holds one image a against which a pass computes many divergences,
// with f(a_s) spread over all pixels (zero off its support), so that a
// pair costs one sweep over the other image's support.
type row struct {
	a *sparse
	f []float64
}

// set makes a the row's image.
func (r *row) set(a *sparse) {
	if r.a != nil {
		for _, s := range r.a.idx {
			r.f[s] = 0
		}
	}
	if len(r.f) < len(a.img) {
		r.f = make([]float64, len(a.img))
	}
	r.a = a
	for n, s := range a.idx {
		r.f[s] = a.f[n]
	}
}

// divergences writes into d each kernel's divergence between the row's
// image a and b. Off both supports a pixel adds exactly w_s f(0) = 0, on
// one support only w_s f(A_s) (or f(B_s)), so the divergence is both
// images' divergences from zero corrected on their common pixels by
// w_s (f(A_s) + f(B_s) - f(A_s - B_s)), found by one sweep over b's
// support: a pair costs b's support, an f (an exp, for WKPI) only where
// both differ from zero, and one multiply-add per kernel there. (The
// correction cancels the totals' rounding to within 1e-15 of the
// kernel's scale; TestGramMatchesPlainLoop checks it against the plain
// loop over all pixels.)
func (fam Family) divergences(r *row, b *sparse, f func(float64) float64, d []float64) {
	img, rf := r.a.img, r.f
	wkpi := fam.Variant == WKPI
	c := 1 / (2 * fam.Sigma * fam.Sigma)
	clear(d)
	for n, s := range b.idx {
		av := img[s]
		if av == 0 {
			continue
		}
		diff := av - b.val[n]
		var fv float64
		if wkpi {
			// A direct call: through f it would cost as much as the exp
			// the series saves.
			fv = WKPITerm(diff * diff * c)
		} else {
			fv = f(diff)
		}
		g := rf[s] + b.f[n] - fv
		for k, w := range fam.Weights {
			d[k] += w[s] * g
		}
	}
	for k := range d {
		d[k] = max(0, r.a.tot[k]+b.tot[k]-d[k])
	}
}

func checkImages(images [][]float64, n int) error {
	for i, img := range images {
		if len(img) != n {
			return fmt.Errorf("kernel: image %d has %d pixels, want %d", i, len(img), n)
		}
	}
	return nil
}

// Gram returns the symmetric n x n kernel matrix of images.
func (k Kernel) Gram(ctx context.Context, images [][]float64, prog progress.Func) ([][]float64, error) {
	g, err := Family{Weights: [][]float64{k.Weights}, Sigma: k.Sigma, Variant: k.Variant}.Gram(ctx, images, prog)
	if err != nil {
		return nil, err
	}
	return g[0], nil
}

// Gram returns each kernel's symmetric n x n matrix of images, computing
// row ranges of equal work in parallel on one sparse copy of the images.
func (fam Family) Gram(ctx context.Context, images [][]float64, prog progress.Func) ([][][]float64, error) {
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
	tick := prog.Counter("gram", n)
	err := Parallel(len(b)-1, func(p int) error {
		rows, err := fam.gramRows(ctx, sp, b[p], b[p+1], func(string, int, int) { tick() })
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
func (fam Family) check(images [][]float64) error {
	if err := checkImages(images, len(images[0])); err != nil {
		return err
	}
	return fam.validate(len(images[0]))
}

// GramRows computes rows i0..i1-1 of each kernel's Gram matrix of images,
// but only their upper-triangle entries j >= i (the others stay 0), so
// that workers given disjoint row ranges (see BalancedSplit) share the
// work of one Gram matrix without duplication. Stack the rows and call
// Symmetrize.
func (fam Family) GramRows(ctx context.Context, images [][]float64, i0, i1 int, prog progress.Func) ([][][]float64, error) {
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
	f := fam.kernel(0).pixelFunc()
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
			fam.divergences(&r, &sp[j], f, d)
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
func (k Kernel) Cross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][]float64, error) {
	out, err := Family{Weights: [][]float64{k.Weights}, Sigma: k.Sigma, Variant: k.Variant}.Cross(ctx, rows, cols, prog)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// Cross returns each kernel's len(rows) x len(cols) matrix, computing
// ranges of rows in parallel.
func (fam Family) Cross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][][]float64, error) {
	if len(rows) > 0 && len(cols) > 0 {
		n := len(cols[0])
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
				fam.divergences(&r, &cs[j], f, d)
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
