package kernel

// hasAVX2 says whether the CPU and the OS support AVX2 (CPUID and XGETBV).
func hasAVX2() bool

// subTermsAVX2 is SubTerms's loop over the first len(x) &^ 3 entries.
//
//go:noescape
func subTermsAVX2(g, x []float64)

// sums4AVX2 is sums4Vector's loop: groups (1 to 4) groups of four
// kernels, the weights w offset to the first.
//
//go:noescape
func sums4AVX2(d, w []float64, at []int32, g []float64, groups int)

// sums4Vector does the part of weightedSums that the CPU's vector unit
// can: the kernels in groups of four, all of them for k a multiple of
// four, and returns how many it did.
func sums4Vector(d, w []float64, at []int32, g []float64, k int) int {
	if !useAVX2 {
		return 0
	}
	done := 0
	for ; done+4 <= k; done += 16 {
		groups := min(4, (k-done)/4)
		sums4AVX2(d[done:done+4*groups], w[done:], at, g, groups)
		if groups < 4 {
			return done + 4*groups
		}
	}
	return done
}

// subTermsVector does the part of SubTerms that the CPU's vector unit
// can, and returns how many entries it did.
func subTermsVector(g, x []float64) int {
	if !useAVX2 {
		return 0
	}
	n := len(x) &^ 3
	if n > 0 {
		subTermsAVX2(g[:n], x[:n])
	}
	return n
}
