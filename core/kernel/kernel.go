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
	return func(d float64) float64 { return 2 - 2*math.Exp(-d*d*c) }
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

// sparse is an image reduced to its non-zero pixels, with the divergence
// term t_s = w_s f(A_s) that each such pixel costs against an exact zero.
type sparse struct {
	img []float64
	idx []int32
	t   []float64
}

func (k Kernel) prepare(images [][]float64, f func(float64) float64) []sparse {
	out := make([]sparse, len(images))
	for i, img := range images {
		sp := sparse{img: img}
		for s, v := range img {
			if v != 0 {
				sp.idx = append(sp.idx, int32(s))
				sp.t = append(sp.t, k.Weights[s]*f(v))
			}
		}
		out[i] = sp
	}
	return out
}

// divergence is Divergence restricted to the union of the non-zero pixels of
// a and b, where the other pixels contribute exactly w_s f(0) = 0.
func (k Kernel) divergence(a, b *sparse, f func(float64) float64) float64 {
	var d float64
	for n, s := range a.idx {
		if bv := b.img[s]; bv == 0 {
			d += a.t[n]
		} else {
			d += k.Weights[s] * f(a.img[s]-bv)
		}
	}
	for n, s := range b.idx {
		if a.img[s] == 0 {
			d += b.t[n]
		}
	}
	return d
}

func checkImages(images [][]float64, n int) error {
	for i, img := range images {
		if len(img) != n {
			return fmt.Errorf("kernel: image %d has %d pixels, want %d", i, len(img), n)
		}
	}
	return nil
}

// Gram returns the symmetric n x n kernel matrix of images, computing
// row ranges of equal work in parallel.
func (k Kernel) Gram(ctx context.Context, images [][]float64, prog progress.Func) ([][]float64, error) {
	n := len(images)
	b := BalancedSplit(n, Parts(n))
	tick := prog.Counter("gram", n)
	g := make([][]float64, n)
	err := Parallel(len(b)-1, func(p int) error {
		rows, err := k.GramRows(ctx, images, b[p], b[p+1], func(string, int, int) { tick() })
		copy(g[b[p]:], rows)
		return err
	})
	if err != nil {
		return nil, err
	}
	Symmetrize(g)
	return g, nil
}

// GramRows computes rows i0..i1-1 of the Gram matrix of images, but only
// their upper-triangle entries j >= i (the others stay 0), so that workers
// given disjoint row ranges (see BalancedSplit) share the work of one Gram
// matrix without duplication. Stack the rows and call Symmetrize.
func (k Kernel) GramRows(ctx context.Context, images [][]float64, i0, i1 int, prog progress.Func) ([][]float64, error) {
	n := len(images)
	if i0 < 0 || i1 > n || i0 > i1 {
		return nil, fmt.Errorf("kernel: row range [%d, %d) outside [0, %d)", i0, i1, n)
	}
	if n == 0 {
		return nil, nil
	}
	if err := checkImages(images, len(images[0])); err != nil {
		return nil, err
	}
	if err := k.validate(len(images[0])); err != nil {
		return nil, err
	}
	f := k.pixelFunc()
	total := sum(k.Weights)
	sp := k.prepare(images, f)
	rows := make([][]float64, i1-i0)
	for i := i0; i < i1; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row := make([]float64, n)
		row[i] = k.fromDivergence(0, total)
		for j := i + 1; j < n; j++ {
			row[j] = k.fromDivergence(k.divergence(&sp[i], &sp[j], f), total)
		}
		rows[i-i0] = row
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
// example test images against training images for prediction, computing
// ranges of rows in parallel.
func (k Kernel) Cross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][]float64, error) {
	parts := Parts(len(rows))
	tick := prog.Counter("cross", len(rows))
	out := make([][]float64, len(rows))
	err := Parallel(parts, func(p int) error {
		i0, i1 := p*len(rows)/parts, (p+1)*len(rows)/parts
		part, err := k.cross(ctx, rows[i0:i1], cols, func(string, int, int) { tick() })
		copy(out[i0:], part)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (k Kernel) cross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][]float64, error) {
	if len(rows) == 0 || len(cols) == 0 {
		return make([][]float64, len(rows)), nil
	}
	n := len(cols[0])
	if err := checkImages(rows, n); err != nil {
		return nil, err
	}
	if err := checkImages(cols, n); err != nil {
		return nil, err
	}
	if err := k.validate(n); err != nil {
		return nil, err
	}
	f := k.pixelFunc()
	total := sum(k.Weights)
	rs, cs := k.prepare(rows, f), k.prepare(cols, f)
	out := make([][]float64, len(rows))
	for i := range rs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row := make([]float64, len(cs))
		for j := range cs {
			row[j] = k.fromDivergence(k.divergence(&rs[i], &cs[j], f), total)
		}
		out[i] = row
		prog.Report("cross", i+1, len(rs))
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
