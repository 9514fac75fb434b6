package kernel

// termVecs are termConsts, each four times (one vector), as
// terms_amd64.s reads them; termInts its integer ones, as vectors of four
// int32.
var (
	termVecs = func() (v [len(termConsts)][4]float64) {
		for i, c := range termConsts {
			v[i] = [4]float64{c, c, c, c}
		}
		return v
	}()
	termInts = [2][4]int32{{1023, 1023, 1023, 1023}, {63, 63, 63, 63}}
)

// hasAVX2 says whether the CPU and the OS support AVX2, and the CPU BMI1
// and POPCNT (CPUID and XGETBV).
func hasAVX2() bool

func hasVectorUnit() bool { return hasAVX2() }

// subTermsAVX2 is SubTerms's loop over the first len(d) &^ 3 entries.
//
//go:noescape
func subTermsAVX2(g, d []float64, c float64)

// sums4AVX2 is sums4Loop: groups (1 to 4) groups of four kernels, the
// weights w offset to the first.
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

// sums4Loop is sums4Vector's loop over groups (1 to 4) groups of four
// kernels.
func sums4Loop(d, w []float64, at []int32, g []float64, stride, groups int) {
	sums4AVX2(d, w, at, g, stride, groups)
}

// commonVector runs common's loop with BMI1 and POPCNT.
func commonVector(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	return commonAVX2(abits, bbits, brank, img, rf, bval, bf, at, diff, g)
}

// AVX2 has no loops for the pair table (dots2, differences): amd64's Go
// loops are as fast as it gets without a gather.
func dots2Vector(d, w0, w1 []float64, pix []uint16, val []float32) bool { return false }

func differencesVector(a, b []float64, sa, sb []uint64, pix []uint16, d []float64) (int, bool) {
	return 0, false
}

func terms32Vector(val []float32, d []float64, c float64) int { return 0 }
