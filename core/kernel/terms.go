package kernel

import (
	"math"
	"math/bits"
)

// Value is the kernel value of a pair whose divergence is div, given
// total = sum_s w_s: with Columns.RowParts it lets a caller split a kernel
// value pixel by pixel (core/explain) with the kernel's own arithmetic.
func (k Kernel) Value(div, total float64) float64 { return k.fromDivergence(div, total) }

// The constants of WKPITerm, shared with the vector version of
// terms_amd64.s so that both compute with the same bits.
const (
	termMax  = 40                              // above it e^-x is below half an ulp of 2
	termInv  = 64 / math.Ln2                   // k = round(64 x / ln2)
	termLn2h = 6.93147180369123816490e-01 / 64 // low 21 bits zero: k*termLn2h is exact
	termLn2l = 1.90821492927058770002e-10 / 64
)

// termConsts are WKPITerm's floating-point constants in the order the
// vector loops read them (terms_amd64.s four times each, as termVecs;
// terms_wasm.wat from the Go program's memory).
var termConsts = [...]float64{termMax, termInv, 0.5, termLn2h, termLn2l, 1. / 720, 1. / 120, 1. / 24, 1. / 6, 1, 2}

// vectorUnit says whether the vector loops can run: on amd64 whether the
// CPU has AVX2, BMI1 and POPCNT; under WebAssembly whether the program was
// built with -tags wkpisimd, whose loader supplies terms_wasm.wat. It is a
// fact of the machine, read once and never written: a kernel pass copies
// it (pass.vector), which is where tests turn the vector loops off to
// compare.
var vectorUnit = hasVectorUnit()

// SubTerms sets g[e] -= WKPITerm(d[e]*d[e]*c) for every e < len(d) (g at
// least as long), with the same bits as that loop: four at a time with
// AVX2 where the CPU has it, two at a time in WebAssembly SIMD
// (subTermsVector), the rest one at a time. A
// pass over pairs of images collects a pair's common pixels first (the
// images' differences d there), then computes their terms here (core/learn's
// pair sums too). TestSubTermsBits checks the two against each other bit
// for bit.
func SubTerms(g, d []float64, c float64) { subTerms(g, d, c, vectorUnit) }

// subTerms is SubTerms, with the vector loop only if vector is set.
func subTerms(g, d []float64, c float64, vector bool) {
	g = g[:len(d)]
	done := 0
	if vector {
		done = subTermsVector(g, d, c)
	}
	for e := done; e < len(d); e++ {
		g[e] -= WKPITerm(d[e] * d[e] * c)
	}
}

// Common finds the pixels where both image a (support bitmap abits) and
// image b (bitmap bbits, with brank[q] its support pixels in words
// before q, and values bval and f(bval) bf there) are non-zero, in
// ascending order: for each, at[e] = s, diff[e] = img[s] - bval[n] and
// g[e] = rf[s] + bf[n], with img and rf a's values and f over all pixels
// and n the rank of s in b's support; it returns how many. at, diff and g
// hold at least b's support. The loop of commonGo, with BMI1 and POPCNT
// where the CPU has them (commonVector), with the same results
// (TestCommonMatches). Kernel passes and core/learn's pair sums share it.
func Common(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	return common(abits, bbits, brank, img, rf, bval, bf, at, diff, g, vectorUnit)
}

// common is Common, with the vector loop only if vector is set.
func common(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64, vector bool) int {
	if len(abits) < len(bbits) || len(brank) < len(bbits) || len(img) != len(rf) || (len(img)+63)/64 != len(bbits) ||
		len(bf) < len(bval) || len(at) < len(bval) || len(diff) < len(bval) || len(g) < len(bval) {
		panic("kernel: Common: lengths do not match")
	}
	if vector {
		return commonVector(abits, bbits, brank, img, rf, bval, bf, at, diff, g)
	}
	return commonGo(abits, bbits, brank, img, rf, bval, bf, at, diff, g)
}

func commonGo(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int {
	e := 0
	for q, bw := range bbits {
		for m := bw & abits[q]; m != 0; m &= m - 1 {
			t := bits.TrailingZeros64(m)
			s := q*64 + t
			n := int(brank[q]) + bits.OnesCount64(bw&(1<<t-1))
			at[e], diff[e], g[e] = int32(s), img[s]-bval[n], rf[s]+bf[n]
			e++
		}
	}
	return e
}

// sums4Vector does the weighted sums of divergences in vectors: all k
// kernels of weights w interleaved with the given stride (k rounded up to
// a multiple of four, d as long), sixteen at a time at most (sums4Loop);
// it returns k.
func sums4Vector(d, w []float64, at []int32, g []float64, stride, k int) int {
	if k == 0 {
		return 0
	}
	if stride%4 != 0 || stride < k || len(d) < stride || len(g) < len(at) {
		panic("kernel: sums4Vector: lengths do not match")
	}
	for done := 0; done < k; done += 16 {
		groups := min(4, (k-done+3)/4)
		sums4Loop(d[done:done+4*groups], w[done:], at, g, stride, groups)
	}
	return k
}

// dots2 sets d[0] and d[1] to the sums over e of w0[pix[e]]*val[e] and of
// w1[pix[e]]*val[e], each in ascending order of e: the pair table's sparse
// dot products, two weight vectors a pass (Table.divergences). Where a
// vector unit has this loop (terms_wasm.wat: no bounds checks) it runs
// there, with the same bits (TestDots2Bits).
func dots2(d, w0, w1 []float64, pix []uint16, val []float32, vector bool) {
	d = d[:2]
	if vector && dots2Vector(d, w0, w1, pix, val) {
		return
	}
	val = val[:len(pix)]
	var d0, d1 float64
	for e, s := range pix {
		v := float64(val[e])
		d0 += w0[s] * v
		d1 += w1[s] * v
	}
	d[0], d[1] = d0, d1
}
