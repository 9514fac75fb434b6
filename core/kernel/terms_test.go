package kernel

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"wkpi-web/core/pimage"
)

// TestSubTermsBits checks SubTerms (four at a time with AVX2 on amd64)
// against WKPITerm one at a time, bit for bit, on the range a pass meets
// (x = (A_s - B_s)^2 / (2 sigma^2) >= 0: tiny, around every k of the
// table, past the cut-off at 40) and on odd lengths.
func TestSubTermsBits(t *testing.T) {
	t.Logf("vector unit: %v", vectorUnit)
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []float64{5000, 12.5, 0.5, 1e6} {
		var ds []float64
		for range 100_000 {
			// x = d*d*c uniform to 45, tiny, and around every k of the table.
			ds = append(ds, math.Sqrt(45*r.Float64()/c), math.Ldexp(r.Float64(), -r.IntN(60)), math.Sqrt(math.Abs(float64(r.IntN(3000))*math.Ln2/64+1e-12*(r.Float64()-0.5))/c))
		}
		ds = append(ds, 0, -1e-3, math.SmallestNonzeroFloat64, 1e-150, math.Sqrt(40/c), -math.Sqrt(40/c), 1e150, math.Inf(1), math.Inf(-1), math.MaxFloat64)
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, len(ds)} {
			d := ds[:n]
			g := make([]float64, n)
			want := make([]float64, n)
			for e := range d {
				g[e] = r.NormFloat64()
				want[e] = g[e] - WKPITerm(d[e]*d[e]*c)
			}
			SubTerms(g, d, c)
			for e := range d {
				if math.Float64bits(g[e]) != math.Float64bits(want[e]) {
					t.Fatalf("c %g, n %d, d[%d] = %v: %v, want %v", c, n, e, d[e], g[e], want[e])
				}
			}
		}
	}
	g := []float64{0, 0, 0, 0, 0}
	SubTerms(g, []float64{math.NaN(), 1, math.NaN(), 2, math.NaN()}, 0.5)
	for _, e := range []int{0, 2, 4} {
		if !math.IsNaN(g[e]) {
			t.Errorf("NaN at %d gave %v", e, g[e])
		}
	}
	if g[1] != -WKPITerm(0.5) || g[3] != -WKPITerm(2) {
		t.Errorf("entries beside NaNs: %v", g)
	}
}

// TestCommonMatches: Common (BMI1 and POPCNT where the CPU has them)
// finds the common pixels of two supports with the results of commonGo,
// on bitmaps of any density over a partial last word.
func TestCommonMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		N := 1 + r.IntN(700)
		images := make([][]float64, 2)
		for i := range images {
			images[i] = make([]float64, N)
			density := []float64{0, 0.05, 0.5, 1}[r.IntN(4)]
			for s := range images[i] {
				if r.Float64() < density {
					images[i][s] = r.NormFloat64()
				}
			}
		}
		fam := Family{Weights: [][]float64{make([]float64, N)}, Sigma: 0.3}
		sp := fam.prepare(pimage.SparseAll(images), fam.kernel(0).pixelFunc())
		var rw row
		rw.set(&sp[0])
		b := &sp[1]
		m := len(b.idx)
		at, diff, g := make([]int32, m), make([]float64, m), make([]float64, m)
		at2, diff2, g2 := make([]int32, m), make([]float64, m), make([]float64, m)
		e := Common(sp[0].bits, b.bits, b.rank, rw.v, rw.f, b.val, b.f, at, diff, g)
		e2 := commonGo(sp[0].bits, b.bits, b.rank, rw.v, rw.f, b.val, b.f, at2, diff2, g2)
		if e != e2 || !reflect.DeepEqual(at[:e], at2[:e2]) || !reflect.DeepEqual(diff[:e], diff2[:e2]) || !reflect.DeepEqual(g[:e], g2[:e2]) {
			t.Fatalf("trial %d (%d pixels): %d common pixels %v, want %d %v", trial, N, e, at[:e], e2, at2[:e2])
		}
		for q, s := range at2[:e2] {
			if images[0][s] == 0 || images[1][s] == 0 || (q > 0 && s <= at2[q-1]) {
				t.Fatalf("trial %d: pixel %d is not common or out of order", trial, s)
			}
		}
	}
}

// TestDots2Bits: dots2 (in terms_wasm.wat under WebAssembly with
// -tags wkpisimd) has the bits of its Go loop, on any number of entries.
func TestDots2Bits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const N = 3000
	w0, w1 := make([]float64, N), make([]float64, N)
	for s := range w0 {
		w0[s], w1[s] = r.NormFloat64(), math.Ldexp(r.Float64(), -r.IntN(30))
	}
	for _, n := range []int{0, 1, 2, 3, 17, 1000} {
		pix, val := make([]uint16, n), make([]float32, n)
		for e := range pix {
			pix[e], val[e] = uint16(r.IntN(N)), float32(r.NormFloat64())
		}
		got, want := make([]float64, 2), make([]float64, 2)
		dots2(got, w0, w1, pix, val, true)
		dots2(want, w0, w1, pix, val, false)
		if math.Float64bits(got[0]) != math.Float64bits(want[0]) || math.Float64bits(got[1]) != math.Float64bits(want[1]) {
			t.Fatalf("%d entries: %v, want %v", n, got, want)
		}
	}
}

// TestDifferencesBits: the pair table's entries (in terms_wasm.wat under
// WebAssembly with -tags wkpisimd) have the bits of the Go loop, counted
// and written, for WKPI and altWKPI, on images that differ anywhere from
// nowhere to everywhere (equal values on common pixels included), over a
// partial last bitmap word.
func TestDifferencesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		N := 1 + r.IntN(700)
		a, b := make([]float64, N), make([]float64, N)
		da, db, same := r.Float64(), r.Float64(), r.Float64()
		for s := range a {
			if r.Float64() < da {
				a[s] = math.Abs(r.NormFloat64()) * math.Pow(10, -r.Float64()*4)
			}
			if r.Float64() < db {
				b[s] = math.Abs(r.NormFloat64()) * math.Pow(10, -r.Float64()*4)
			}
			if r.Float64() < same {
				b[s] = a[s]
			}
		}
		sa, sb := supportBits(pimage.NewSparse(a)), supportBits(pimage.NewSparse(b))
		for _, alt := range []bool{false, true} {
			c := 1 / (2 * 0.05 * 0.05)
			n := differences(a, b, sa, sb, alt, c, nil, nil, nil, false)
			if got := differences(a, b, sa, sb, alt, c, nil, nil, nil, true); got != n {
				t.Fatalf("trial %d: counted %d, want %d", trial, got, n)
			}
			pix, val := make([]uint16, n), make([]float32, n)
			pix2, val2 := make([]uint16, n), make([]float32, n)
			differences(a, b, sa, sb, alt, c, pix, val, nil, false)
			differences(a, b, sa, sb, alt, c, pix2, val2, make([]float64, N), true)
			if !reflect.DeepEqual(pix, pix2) {
				t.Fatalf("trial %d, alt %v: pixels %v, want %v", trial, alt, pix2, pix)
			}
			for e := range val {
				if math.Float32bits(val[e]) != math.Float32bits(val2[e]) {
					t.Fatalf("trial %d, alt %v: entry %d (pixel %d): %v, want %v", trial, alt, e, pix[e], val2[e], val[e])
				}
			}
		}
	}
}

func BenchmarkSubTerms(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	d := make([]float64, 1500)
	for e := range d {
		d[e] = 0.03 * r.Float64() * r.Float64()
	}
	g := make([]float64, len(d))
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			SubTerms(g, d, 5000)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for e := range d {
				g[e] -= WKPITerm(d[e] * d[e] * 5000)
			}
		}
	})
}
