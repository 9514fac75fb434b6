//go:build !amd64 && !(wasm && wkpisimd)

package kernel

// Off amd64, and in WebAssembly built without terms_wasm.wat, there is no
// vector unit: the vector loops below never run.
func hasVectorUnit() bool { return false }

func subTermsVector(g, d []float64, c float64) int { panic("kernel: no vector unit") }

func sums4Loop(d, w []float64, at []int32, g []float64, stride, groups int) {
	panic("kernel: no vector unit")
}

func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	panic("kernel: no vector unit")
}

func dots2Vector(d, w0, w1 []float64, pix []uint16, val []float32) bool { return false }

func differencesVector(a, b []float64, sa, sb []uint64, pix []uint16, d []float64) (int, bool) {
	return 0, false
}

func terms32Vector(val []float32, d []float64, c float64) int { return 0 }
