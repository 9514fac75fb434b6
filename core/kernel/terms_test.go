package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSubTermsBits checks SubTerms (four at a time with AVX2 on amd64)
// against WKPITerm one at a time, bit for bit, on the range a pass meets
// (x = (A_s - B_s)^2 / (2 sigma^2) >= 0: tiny, around every k of the
// table, past the cut-off at 40) and on odd lengths.
func TestSubTermsBits(t *testing.T) {
	t.Logf("AVX2: %v", subTermsVector(make([]float64, 4), make([]float64, 4)) == 4)
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 200_000 {
		xs = append(xs, 45*r.Float64(), math.Ldexp(r.Float64(), -r.IntN(60)), float64(r.IntN(3000))*math.Ln2/64+1e-12*(r.Float64()-0.5))
	}
	xs = append(xs, 0, math.SmallestNonzeroFloat64, 1e-300, 39.999999, 40, 40.000001, 1e300, math.Inf(1), math.MaxFloat64)
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, len(xs)} {
		x := xs[:n]
		g := make([]float64, n)
		want := make([]float64, n)
		for e := range x {
			g[e] = r.NormFloat64()
			want[e] = g[e] - WKPITerm(x[e])
		}
		SubTerms(g, x)
		for e := range x {
			if math.Float64bits(g[e]) != math.Float64bits(want[e]) {
				t.Fatalf("n %d, x[%d] = %v (%#x): %v, want %v", n, e, x[e], math.Float64bits(x[e]), g[e], want[e])
			}
		}
	}
	g := []float64{0, 0, 0, 0, 0}
	SubTerms(g, []float64{math.NaN(), 1, math.NaN(), 2, math.NaN()})
	for _, e := range []int{0, 2, 4} {
		if !math.IsNaN(g[e]) {
			t.Errorf("NaN at %d gave %v", e, g[e])
		}
	}
	if g[1] != -WKPITerm(1) || g[3] != -WKPITerm(2) {
		t.Errorf("entries beside NaNs: %v", g)
	}
}

func BenchmarkSubTerms(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1500)
	for e := range x {
		x[e] = 10 * r.Float64() * r.Float64()
	}
	g := make([]float64, len(x))
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			SubTerms(g, x)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for e := range x {
				g[e] -= WKPITerm(x[e])
			}
		}
	})
}
