package kernel

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

// hasAVX2 says whether the CPU and the OS support AVX2, and the CPU BMI1
// and POPCNT (CPUID and XGETBV).
func hasAVX2() bool

// subTermsAVX2 is SubTerms's loop over the first len(d) &^ 3 entries.
//
//go:noescape
func subTermsAVX2(g, d []float64, c float64)

// sums4AVX2 is sums4Vector's loop: groups (1 to 4) groups of four
// kernels, the weights w offset to the first.
//
//go:noescape
func sums4AVX2(d, w []float64, at []int32, g []float64, stride, groups int)

// commonAVX2 is commonGo's loop.
//
//go:noescape
func commonAVX2(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int

// subTermsVector does the part of SubTerms that the CPU's vector unit
// can, and returns how many entries it did.
func subTermsVector(g, d []float64, c float64) int {
	n := len(d) &^ 3
	if n > 0 {
		subTermsAVX2(g[:n], d[:n], c)
	}
	return n
}

// sums4Vector does the weighted sums of divergences in vectors: all k
// kernels of weights w interleaved with the given stride (k rounded up to
// a multiple of four, d as long), four at a time; it returns k.
func sums4Vector(d, w []float64, at []int32, g []float64, stride, k int) int {
	if k == 0 {
		return 0
	}
	if stride%4 != 0 || stride < k || len(d) < stride || len(g) < len(at) {
		panic("kernel: sums4Vector: lengths do not match")
	}
	for done := 0; done < k; done += 16 {
		groups := min(4, (k-done+3)/4)
		sums4AVX2(d[done:done+4*groups], w[done:], at, g, stride, groups)
	}
	return k
}

// commonVector runs common's loop with BMI1 and POPCNT.
func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	return commonAVX2(abits, bbits, brank, img, rf, bval, bf, at, diff, g)
}
