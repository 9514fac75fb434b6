package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/pimage"
)

// TestFamilyOfThreeMatchesPlainLoop: a family of three weight vectors
// (the general path of divergences, past the one- and two-kernel cases)
// gives each kernel's plain-loop value in its Gram and cross matrices, on
// images that share pixels, differ by tiny amounts (the series branch of
// the WKPI function) and by large ones (the exp branch).
func TestFamilyOfThreeMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	images, centres := blobImages(rng, 12, 10, 8)
	near := append([]float64(nil), images[0]...)
	for s := range near {
		if near[s] != 0 {
			near[s] *= 1 + 1e-7*rng.Float64() // x = d^2 c far below 1e-3
		}
	}
	images = append(images, near)
	var ws [][]float64
	for range 3 {
		w := make([]float64, len(centres))
		for s := range w {
			w[s] = rng.Float64()
		}
		ws = append(ws, w)
	}
	for _, tc := range []struct {
		v     Variant
		sigma float64
	}{{WKPI, 0.05}, {WKPI, 1}, {Alt, 0.3}} {
		fam := Family{Weights: ws, Sigma: tc.sigma, Variant: tc.v}
		g, err := fam.Gram(context.Background(), pimage.SparseAll(images), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := fam.Cross(context.Background(), pimage.SparseAll(images[5:]), pimage.SparseAll(images), nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range ws {
			for i := range images {
				for j := range images {
					want := plainKernel(tc.v, w, images[i], images[j], tc.sigma)
					if !close(g[k][i][j], want, 1e-12) {
						t.Fatalf("%v sigma %g: kernel %d G[%d][%d] = %v, plain loop %v", tc.v, tc.sigma, k, i, j, g[k][i][j], want)
					}
					if i >= 5 && !close(c[k][i-5][j], want, 1e-12) {
						t.Fatalf("%v sigma %g: kernel %d cross[%d][%d] = %v, plain loop %v", tc.v, tc.sigma, k, i-5, j, c[k][i-5][j], want)
					}
				}
			}
		}
	}
}

// TestWKPITerm: the WKPI pixel function equals -2 expm1(-x), computed
// independently by the standard library, to full relative precision
// below the series' threshold (where 2 - 2 e^-x would lose digits) and
// to the absolute precision of 2 - 2 e^-x above it.
func TestWKPITerm(t *testing.T) {
	for x := 1e-14; x < 50; x *= 1.37 {
		got, want := WKPITerm(x), -2*math.Expm1(-x)
		tol := 4e-16 * want
		if x >= 1e-3 {
			tol = 4e-16
		}
		if math.Abs(got-want) > tol {
			t.Errorf("WKPITerm(%g) = %.17g, -2 expm1(-x) = %.17g", x, got, want)
		}
	}
	if WKPITerm(0) != 0 {
		t.Errorf("WKPITerm(0) = %g, want 0", WKPITerm(0))
	}
}

// TestWKPITermBound: the fast WKPI pixel function against -2 expm1(-x)
// of the standard library on 2e6 points spread log-uniformly over
// [1e-12, 50] and uniformly over [0, 40]: within 2.5e-16 absolutely
// everywhere and 4e-16 relatively below ln2/128 (the reduced-argument
// branch k = 0). The bound counts both functions' rounding; it is what
// WKPITerm's doc promises.
func TestWKPITermBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var worstAbs, worstRel float64
	for i := range 2_000_000 {
		x := math.Exp(math.Log(1e-12) + rng.Float64()*(math.Log(50)-math.Log(1e-12)))
		if i%2 == 1 {
			x = 40 * rng.Float64()
		}
		got, want := WKPITerm(x), -2*math.Expm1(-x)
		e := math.Abs(got - want)
		worstAbs = max(worstAbs, e)
		if x < math.Ln2/128 {
			worstRel = max(worstRel, e/want)
		}
	}
	t.Logf("worst absolute error %.3g, relative below ln2/128 %.3g", worstAbs, worstRel)
	if worstAbs > 2.5e-16 || worstRel > 4e-16 {
		t.Errorf("worst absolute error %.3g (bound 2.5e-16), relative %.3g (bound 4e-16)", worstAbs, worstRel)
	}
	if got := WKPITerm(math.NaN()); !math.IsNaN(got) {
		t.Errorf("WKPITerm(NaN) = %g", got)
	}
	if got := WKPITerm(math.Inf(1)); got != 2 {
		t.Errorf("WKPITerm(+Inf) = %g, want 2", got)
	}
}
