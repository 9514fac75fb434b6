package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// Table holds, for every unordered pair of a fixed set of images, the
// pixel terms f(A_s - B_s) of the divergence at the pixels where the two
// images differ (f(0) = 0 elsewhere). The terms depend on sigma but not on
// the weights, so one table serves every Gram and cross-kernel matrix of
// a cross-validation, for any weight function and any subset of the
// images: each entry is then a sparse dot product with the pixel weights
// instead of a fresh exp per pixel. Terms are stored as float32 (relative
// error below 1e-7, far under the SVM's tolerance).
type Table struct {
	Sigma   float64
	Variant Variant
	n       int
	pixels  int
	off     []int64 // entries of pair p are off[p]..off[p+1]
	pix     []uint16
	val     []float32
}

// ErrTableTooLarge reports a table over the caller's memory budget.
var ErrTableTooLarge = errors.New("kernel: pair table over the memory budget")

// tableEntryBytes is the size of one stored pixel term.
const tableEntryBytes = 6

// TableBytes bounds the memory a Table of images takes from above, from
// each image's non-zero pixel count alone (a pair's entries are at most
// the sum of its two counts).
func TableBytes(images []pimage.Sparse) int64 {
	var nnz int64
	for _, img := range images {
		nnz += int64(len(img.Idx))
	}
	n := int64(len(images))
	return nnz*(n-1)*tableEntryBytes + n*n/2*8
}

// NewTable computes the pair table of images for kernel width sigma, or
// returns ErrTableTooLarge when TableBytes exceeds maxBytes.
func NewTable(ctx context.Context, images []pimage.Sparse, sigma float64, v Variant, maxBytes int64, prog progress.Func) (*Table, error) {
	n := len(images)
	if n == 0 {
		return nil, errors.New("kernel: no images")
	}
	pixels := images[0].Len
	if err := checkImages(images, pixels); err != nil {
		return nil, err
	}
	if pixels > math.MaxUint16+1 {
		return nil, fmt.Errorf("%w: %d pixels exceed the table's 16-bit pixel index", ErrTableTooLarge, pixels)
	}
	if b := TableBytes(images); b > maxBytes {
		return nil, fmt.Errorf("%w: %d MB needed, %d MB allowed", ErrTableTooLarge, b>>20, maxBytes>>20)
	}
	k := Kernel{Weights: make([]float64, pixels), Sigma: sigma, Variant: v}
	if err := k.validate(pixels); err != nil {
		return nil, err
	}
	t := &Table{Sigma: sigma, Variant: v, n: n, pixels: pixels, off: make([]int64, n*(n-1)/2+1)}
	// Two images can differ only where one of them is non-zero, so each
	// pair visits the union of the two supports (from bitmaps, in
	// ascending order, as a scan of every pixel would) rather than all
	// pixels; the images' supports are a fifth of their pixels under the
	// defaults. The term is called directly, not through pixelFunc's
	// closure: an indirect call per entry costs most under WebAssembly.
	supports := make([][]uint64, n)
	for i, img := range images {
		supports[i] = supportBits(img)
	}
	// differences reads both images of a pair over the union of their
	// supports, so the table is built from dense images: a table is only
	// built when it fits the budget, beside which they are small.
	dense := pimage.DenseAll(images)
	alt, c := v == Alt, 1/(2*sigma*sigma)
	// Two passes over row ranges in parallel: count each pair's entries,
	// then fill them in at their final offsets, so the arrays are
	// allocated once at their exact size.
	b := BalancedSplit(n, Parts(n))
	parts := len(b) - 1
	// Both passes count their pairs: the first takes about as long.
	tick := prog.Weighted("pairs", n*(n-1))
	err := Parallel(parts, func(p int) error {
		for i := b[p]; i < b[p+1]; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			for j := i + 1; j < n; j++ {
				t.off[t.pair(i, j)+1] = int64(differences(dense[i], dense[j], supports[i], supports[j], alt, c, nil, nil, nil, vectorUnit))
			}
			tick(n - 1 - i)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for q := 1; q < len(t.off); q++ {
		t.off[q] += t.off[q-1]
	}
	t.pix = make([]uint16, t.off[len(t.off)-1])
	t.val = make([]float32, t.off[len(t.off)-1])
	err = Parallel(parts, func(p int) error {
		scratch := make([]float64, pixels)
		for i := b[p]; i < b[p+1]; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			for j := i + 1; j < n; j++ {
				q := t.pair(i, j)
				e0, e1 := t.off[q], t.off[q+1]
				differences(dense[i], dense[j], supports[i], supports[j], alt, c, t.pix[e0:e1], t.val[e0:e1], scratch, vectorUnit)
			}
			tick(n - 1 - i)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Len is the number of images the table covers.
func (t *Table) Len() int { return t.n }

// Pixels is the length of the image vectors.
func (t *Table) Pixels() int { return t.pixels }

// AddTo adds the pixel terms of images i and j to sum (one per pixel).
func (t *Table) AddTo(sum []float64, i, j int) error {
	if len(sum) != t.pixels || i < 0 || j < 0 || i >= t.n || j >= t.n {
		return fmt.Errorf("kernel: AddTo(%d pixels, %d, %d) on a table of %d images of %d pixels", len(sum), i, j, t.n, t.pixels)
	}
	if i == j {
		return nil
	}
	p := t.pair(i, j)
	for e := t.off[p]; e < t.off[p+1]; e++ {
		sum[t.pix[e]] += float64(t.val[e])
	}
	return nil
}

// pair indexes the unordered pair i != j in row-major upper-triangle order.
func (t *Table) pair(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*t.n - i*(i+1)/2 + (j - i - 1)
}

// divergences sets d[k] = sum_s ws[k]_s f(A_s - B_s) for images i and j
// of the table, two weight vectors a pass over the pair's entries (each
// sum still in ascending order of entries, so with the bits of one
// vector's own pass).
func (t *Table) divergences(ws [][]float64, i, j int, d []float64) {
	if i == j {
		clear(d)
		return
	}
	p := t.pair(i, j)
	// One slice of each array per pair lets the compiler drop their bounds
	// checks inside the loop; that matters most under WebAssembly.
	pix := t.pix[t.off[p]:t.off[p+1]]
	val := t.val[t.off[p]:t.off[p+1]]
	val = val[:len(pix)]
	k := 0
	for ; k+2 <= len(ws); k += 2 {
		dots2(d[k:], ws[k], ws[k+1], pix, val, vectorUnit)
	}
	if k < len(ws) {
		w := ws[k]
		var d0 float64
		for e, s := range pix {
			d0 += w[s] * float64(val[e])
		}
		d[k] = d0
	}
}

func (t *Table) check(ws [][]float64, idx ...[]int) error {
	for _, w := range ws {
		if len(w) != t.pixels {
			return fmt.Errorf("kernel: %d pixel weights for a table of %d pixels", len(w), t.pixels)
		}
	}
	for _, list := range idx {
		for _, i := range list {
			if i < 0 || i >= t.n {
				return fmt.Errorf("kernel: image %d outside the table's %d", i, t.n)
			}
		}
	}
	return nil
}

// kernels are the kernels of weight vectors ws and their weights' sums.
func (t *Table) kernels(ws [][]float64) ([]Kernel, []float64) {
	ks, totals := make([]Kernel, len(ws)), make([]float64, len(ws))
	for k, w := range ws {
		ks[k], totals[k] = Kernel{Weights: w, Sigma: t.Sigma, Variant: t.Variant}, sum(w)
	}
	return ks, totals
}

// Grams are the kernel matrices, one for each vector of pixel weights in
// ws, of the table's images idx (indices into the images the table was
// built from), from one pass over the pairs.
func (t *Table) Grams(ctx context.Context, ws [][]float64, idx []int) ([][][]float64, error) {
	if err := t.check(ws, idx); err != nil {
		return nil, err
	}
	ks, totals := t.kernels(ws)
	out := make([][][]float64, len(ws))
	for k := range out {
		out[k] = make([][]float64, len(idx))
		for a := range idx {
			out[k][a] = make([]float64, len(idx))
		}
	}
	d := make([]float64, len(ws))
	for a, i := range idx {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for k, g := range out {
			g[a][a] = ks[k].fromDivergence(0, totals[k])
		}
		for b := a + 1; b < len(idx); b++ {
			t.divergences(ws, i, idx[b], d)
			for k, g := range out {
				v := ks[k].fromDivergence(d[k], totals[k])
				g[a][b], g[b][a] = v, v
			}
		}
	}
	return out, nil
}

// Crosses are the len(rows) x len(cols) kernel matrices, one for each
// vector of pixel weights in ws, between the table's images rows and
// cols, from one pass over the pairs.
func (t *Table) Crosses(ctx context.Context, ws [][]float64, rows, cols []int) ([][][]float64, error) {
	if err := t.check(ws, rows, cols); err != nil {
		return nil, err
	}
	ks, totals := t.kernels(ws)
	out := make([][][]float64, len(ws))
	for k := range out {
		out[k] = make([][]float64, len(rows))
		for a := range rows {
			out[k][a] = make([]float64, len(cols))
		}
	}
	d := make([]float64, len(ws))
	for a, i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for b, j := range cols {
			t.divergences(ws, i, j, d)
			for k, c := range out {
				c[a][b] = ks[k].fromDivergence(d[k], totals[k])
			}
		}
	}
	return out, nil
}

// differences counts the pixels where images a and b (support bitmaps sa
// and sb) differ and, unless pix is nil, writes each one's index and term
// f(A_s - B_s) (WKPITerm of (A_s - B_s)^2 c, or the square for alt) to
// pix and val, in ascending order of pixels. Where a vector unit has the
// loop (terms_wasm.wat) it runs there, the differences going through
// scratch (at least as long as pix), with the same results
// (TestDifferencesBits).
func differences(a, b []float64, sa, sb []uint64, alt bool, c float64, pix []uint16, val []float32, scratch []float64, vector bool) int {
	if vector {
		if e, ok := differencesVector(a, b, sa, sb, pix, scratch); ok {
			if pix == nil {
				return e
			}
			d, v := scratch[:e], val[:e]
			done := 0
			if !alt {
				done = terms32Vector(v, d, c)
			}
			for i := done; i < e; i++ {
				f := d[i] * d[i]
				if !alt {
					f = WKPITerm(f * c)
				}
				v[i] = float32(f)
			}
			return e
		}
	}
	e := 0
	for q, w := range sb {
		for m := w | sa[q]; m != 0; m &= m - 1 {
			s := q*64 + bits.TrailingZeros64(m)
			d := a[s] - b[s]
			if d == 0 {
				continue
			}
			if pix != nil {
				f := d * d
				if !alt {
					f = WKPITerm(f * c)
				}
				pix[e], val[e] = uint16(s), float32(f)
			}
			e++
		}
	}
	return e
}

// Support is img's support as Common reads it: the bitmap of its non-zero
// pixels (bit s%64 of word s/64 for pixel s) and, for each word q, the
// non-zero pixels in the words before it.
func Support(img pimage.Sparse) (words []uint64, rank []int32) {
	words = supportBits(img)
	rank = make([]int32, len(words))
	for q := 1; q < len(words); q++ {
		rank[q] = rank[q-1] + int32(bits.OnesCount64(words[q-1]))
	}
	return words, rank
}

// supportBits is the bitmap of img's non-zero pixels: bit s%64 of word
// s/64 for pixel s.
func supportBits(img pimage.Sparse) []uint64 {
	w := make([]uint64, (img.Len+63)/64)
	for _, s := range img.Idx {
		w[s/64] |= 1 << (s % 64)
	}
	return w
}
