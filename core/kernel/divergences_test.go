package kernel

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/pimage"
)

// TestDivergencesBits: a pass's divergences (common pixels collected
// first, their terms by SubTerms, the weighted sums four kernels a vector
// with AVX2) have the bits of the one-pixel-at-a-time loop they replaced
// (divergencesOracle, kept here), with and without the vector unit, for
// 1 to 21 kernels, WKPI and altWKPI, on images whose supports overlap
// anywhere from not at all to fully, over a partial last bitmap word.
func TestDivergencesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, N = 24, 200
	images := make([][]float64, n)
	for i := range images {
		images[i] = make([]float64, N)
		density := r.Float64()
		for s := range images[i] {
			if r.Float64() < density {
				images[i][s] = math.Abs(r.NormFloat64()) * math.Pow(10, -r.Float64()*4)
			}
		}
	}
	images[3] = make([]float64, N)
	for _, v := range []Variant{WKPI, Alt} {
		for k := 1; k <= 21; k++ {
			ws := make([][]float64, k)
			for j := range ws {
				ws[j] = make([]float64, N)
				for s := range ws[j] {
					ws[j][s] = r.Float64()
				}
			}
			fam := Family{Weights: ws, Sigma: 0.05, Variant: v}
			sp := fam.prepare(pimage.SparseAll(images), fam.kernel(0).pixelFunc())
			ps := fam.pass()
			want, got := make([]float64, k), make([]float64, k)
			for _, vector := range []bool{false, true} {
				ps.vector = vector && vectorUnit
				var r1, r2 row
				for i := range sp {
					r1.set(&sp[i])
					r2.set(&sp[i])
					for j := range sp {
						ps.divergencesOracle(&r1, &sp[j], want)
						ps.divergences(&r2, &sp[j], got)
						for q := range want {
							if math.Float64bits(got[q]) != math.Float64bits(want[q]) {
								t.Fatalf("variant %d, %d kernels, vector %v: pair (%d, %d) kernel %d: %v, want %v", v, k, ps.vector, i, j, q, got[q], want[q])
							}
						}
					}
				}
			}
		}
	}
}

// divergencesOracle is pass.divergences as it was before the common
// pixels' terms were computed together: one pixel at a time.
func (p *pass) divergencesOracle(r *row, b *sparse, d []float64) {
	img, rf := r.v, r.f
	var at []int32
	var gs []float64
	// The common pixels, in ascending order, from the AND of the two
	// support bitmaps (testing every pixel of b's support instead
	// mispredicts a branch at a third of them); b's n-th support pixel
	// is found by its rank.
	abits := r.a.bits[:len(b.bits)]
	for q, bw := range b.bits {
		for m := bw & abits[q]; m != 0; m &= m - 1 {
			t := bits.TrailingZeros64(m)
			s := int32(q*64 + t)
			n := b.rank[q] + int32(bits.OnesCount64(bw&(1<<t-1)))
			diff := img[s] - b.val[n]
			var fv float64
			if p.wkpi {
				// A direct call, not one through the func value f.
				fv = WKPITerm(diff * diff * p.c)
			} else {
				fv = p.f(diff)
			}
			at = append(at, s*int32(p.stride))
			gs = append(gs, rf[s]+b.f[n]-fv)
		}
	}
	// Then the weighted sums, four kernels at a time in registers (then
	// two, then one; each still summed over the common pixels in
	// ascending order): with many kernels (Splits) sums kept in memory
	// cost more than the exps.
	d = d[:p.k]
	w := p.w
	k := 0
	for ; k+4 <= p.k; k += 4 {
		var d0, d1, d2, d3 float64
		for e, o := range at {
			ws := w[int(o)+k : int(o)+k+4]
			g := gs[e]
			d0 += ws[0] * g
			d1 += ws[1] * g
			d2 += ws[2] * g
			d3 += ws[3] * g
		}
		d[k], d[k+1], d[k+2], d[k+3] = d0, d1, d2, d3
	}
	if k+2 <= p.k {
		var d0, d1 float64
		for e, o := range at {
			ws := w[int(o)+k : int(o)+k+2]
			d0 += ws[0] * gs[e]
			d1 += ws[1] * gs[e]
		}
		d[k], d[k+1] = d0, d1
		k += 2
	}
	if k < p.k {
		var dk float64
		for e, o := range at {
			dk += w[int(o)+k] * gs[e]
		}
		d[k] = dk
	}
	for k := range d {
		d[k] = max(0, r.a.tot[k]+b.tot[k]-d[k])
	}
}
