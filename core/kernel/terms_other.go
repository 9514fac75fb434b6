//go:build !amd64

package kernel

// hasAVX2 is false off amd64.
func hasAVX2() bool { return false }

// subTermsVector does nothing without a vector version (SubTerms then
// does every entry).
func subTermsVector(g, d []float64, c float64) int { return 0 }

// sums4Vector does nothing without a vector version.
func sums4Vector(d, w []float64, at []int32, g []float64, stride, k int) int { return 0 }

// commonVector does nothing without a vector version.
func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) (int, bool) {
	return 0, false
}
