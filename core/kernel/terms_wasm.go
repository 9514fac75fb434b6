//go:build wkpisimd

package kernel

import "unsafe"

// The vector loops as functions of terms_wasm.wat, a WebAssembly SIMD
// module that the program's loader instantiates on the Go program's own
// memory (public/worker.js): a slice is passed as the address of its
// first element. Go's garbage collector does not move heap objects, and
// no Go code runs during the call, so the addresses hold until it
// returns. Built only with -tags wkpisimd, because a program that imports
// these cannot start without the module: the edge Worker and plain
// `GOOS=js go test` keep the Go loops.

//go:wasmimport wkpi_kernel common
//go:noescape
func wasmCommon(abits, bbits unsafe.Pointer, words int32, brank, img, rf, bval, bf, at, diff, g unsafe.Pointer) int32

//go:wasmimport wkpi_kernel init
//go:noescape
func wasmInit(consts, table unsafe.Pointer)

//go:wasmimport wkpi_kernel subTerms
//go:noescape
func wasmSubTerms(g, d unsafe.Pointer, n int32, c float64)

//go:wasmimport wkpi_kernel terms32
//go:noescape
func wasmTerms32(val, d unsafe.Pointer, n int32, c float64)

//go:wasmimport wkpi_kernel differences
//go:noescape
func wasmDifferences(a, b, sa, sb unsafe.Pointer, words int32, pix, d unsafe.Pointer, room int32) int32

//go:wasmimport wkpi_kernel sums4
//go:noescape
func wasmSums4(d, w, at unsafe.Pointer, n int32, g unsafe.Pointer, stride, groups int32)

//go:wasmimport wkpi_kernel dots2
//go:noescape
func wasmDots2(d, w0, w1, pix, val unsafe.Pointer, n int32)

// The module reads WKPITerm's constants and table from this program once.
func init() { wasmInit(unsafe.Pointer(&termConsts), unsafe.Pointer(&exp2Neg64)) }

func hasVectorUnit() bool { return true }

// subTermsVector does SubTerms's entries in pairs and returns how many.
func subTermsVector(g, d []float64, c float64) int {
	n := len(d) &^ 1
	if n > 0 {
		wasmSubTerms(ptr(g), ptr(d), int32(n), c)
	}
	return n
}

// terms32Vector sets val[e] = float32(WKPITerm(d[e]*d[e]*c)) in pairs and
// returns how many it did.
func terms32Vector(val []float32, d []float64, c float64) int {
	n := len(d) &^ 1
	if n > 0 {
		wasmTerms32(ptr(val[:n]), ptr(d), int32(n), c)
	}
	return n
}

// differencesVector runs differences' loop in terms_wasm.wat: the pixels
// where a and b differ into pix and their differences into d (pix as long
// as their count, which the counting call gave), or only their count with
// pix nil.
func differencesVector(a, b []float64, sa, sb []uint64, pix []uint16, d []float64) (int, bool) {
	if len(b) != len(a) || (len(a)+63)/64 != len(sb) || len(sa) < len(sb) || len(d) < len(pix) {
		panic("kernel: differences: lengths do not match")
	}
	e := int(wasmDifferences(ptr(a), ptr(b), ptr(sa), ptr(sb), int32(len(sb)), ptr(pix), ptr(d), int32(len(pix))))
	if pix != nil && e != len(pix) {
		panic("kernel: differences: the pair's entries do not fit the room counted for them")
	}
	return e, true
}

// sums4Loop is sums4Vector's loop over groups (1 to 4) groups of four
// kernels.
func sums4Loop(d, w []float64, at []int32, g []float64, stride, groups int) {
	wasmSums4(ptr(d), ptr(w), ptr(at), int32(len(at)), ptr(g), int32(stride), int32(groups))
}

// commonVector runs common's loop in terms_wasm.wat.
func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	return int(wasmCommon(ptr(abits), ptr(bbits), int32(len(bbits)), ptr(brank), ptr(img), ptr(rf), ptr(bval), ptr(bf), ptr(at), ptr(diff), ptr(g)))
}

// dots2Vector runs dots2's loop in terms_wasm.wat.
func dots2Vector(d, w0, w1 []float64, pix []uint16, val []float32) bool {
	wasmDots2(ptr(d), ptr(w0), ptr(w1), ptr(pix), ptr(val), int32(min(len(pix), len(val))))
	return true
}

// ptr is the address of s's first element (nil for a nil slice, never
// read then: every loop reads only within the lengths it is given).
func ptr[T any](s []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }
