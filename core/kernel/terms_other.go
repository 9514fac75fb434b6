//go:build !amd64

package kernel

// hasAVX2 is false off amd64, so the vector loops below never run.
func hasAVX2() bool { return false }

func subTermsVector(g, d []float64, c float64) int { panic("kernel: no vector unit") }

func sums4Vector(d, w []float64, at []int32, g []float64, stride, k int) int {
	panic("kernel: no vector unit")
}

func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	panic("kernel: no vector unit")
}
