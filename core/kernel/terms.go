package kernel

import "math"

// The constants of WKPITerm, shared with the vector version of
// terms_amd64.s so that both compute with the same bits.
const (
	termMax  = 40                              // above it e^-x is below half an ulp of 2
	termInv  = 64 / math.Ln2                   // k = round(64 x / ln2)
	termLn2h = 6.93147180369123816490e-01 / 64 // low 21 bits zero: k*termLn2h is exact
	termLn2l = 1.90821492927058770002e-10 / 64
)

// termVecs are WKPITerm's floating-point constants, each four times
// (one vector), in the order terms_amd64.s reads them; termInts its
// integer ones, as vectors of four int32.
var (
	termVecs = func() (v [11][4]float64) {
		for i, c := range [...]float64{termMax, termInv, 0.5, termLn2h, termLn2l, 1. / 720, 1. / 120, 1. / 24, 1. / 6, 1, 2} {
			v[i] = [4]float64{c, c, c, c}
		}
		return v
	}()
	termInts = [2][4]int32{{1023, 1023, 1023, 1023}, {63, 63, 63, 63}}
)

// useAVX2 says whether the vector versions of SubTerms and the weighted
// sums run (tests turn it off to compare).
var useAVX2 = hasAVX2()

// SubTerms sets g[e] -= WKPITerm(x[e]) for every e < len(x) (g at least
// as long), with the same bits as that loop: four at a time with AVX2
// where the CPU has it (subTermsVector), the rest one at a time. A pass
// over pairs of images collects a pair's common pixels first, then
// computes their terms here (core/learn's pair sums too).
// TestSubTermsBits checks the two against each other bit for bit.
func SubTerms(g, x []float64) {
	g = g[:len(x)]
	done := subTermsVector(g, x)
	for e := done; e < len(x); e++ {
		g[e] -= WKPITerm(x[e])
	}
}
