//go:build !amd64

package kernel

// hasAVX2 is false off amd64.
func hasAVX2() bool { return false }

// subTermsVector does nothing without a vector version (SubTerms then
// does every entry).
func subTermsVector(g, x []float64) int { return 0 }

// sums4Vector does nothing without a vector version.
func sums4Vector(d, w []float64, at []int32, g []float64, k int) int { return 0 }
