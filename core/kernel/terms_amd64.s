#include "textflag.h"

// func hasAVX2() bool
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	MOVL $0, AX
	CPUID
	CMPL AX, $7
	JLT  no
	MOVL $1, AX
	MOVL $0, CX
	CPUID
	// POPCNT (bit 23), OSXSAVE (bit 27) and AVX (bit 28) of ECX.
	ANDL $0x18800000, CX
	CMPL CX, $0x18800000
	JNE  no
	// The OS saves the XMM and YMM state: XCR0 bits 1 and 2.
	MOVL $0, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	// BMI1 (bit 3) and AVX2 (bit 5) of EBX.
	ANDL $0x28, BX
	CMPL BX, $0x28
	JNE  no
	MOVB $1, ret+0(FP)
no:
	RET

// func subTermsAVX2(g, d []float64, c float64)
//
// g[e] -= WKPITerm(d[e]*d[e]*c) four entries at a time, len(d) a
// multiple of 4, with WKPITerm's operations in its order, each rounded
// as Go rounds it (a multiply, then an add: no fused multiply-add), so
// that every entry has the bits of the scalar loop.
TEXT ·subTermsAVX2(SB), NOSPLIT, $0-56
	MOVQ g_base+0(FP), DI
	MOVQ d_base+24(FP), SI
	MOVQ d_len+32(FP), CX
	VBROADCASTSD c+48(FP), Y7
	SHRQ $2, CX
	JZ   done
	LEAQ ·termVecs(SB), DX
	LEAQ ·termInts(SB), R8
	LEAQ ·exp2Neg64(SB), BX
	VMOVUPD 0(DX), Y15  // termMax
	VMOVUPD 32(DX), Y14 // termInv
	VMOVUPD 64(DX), Y13 // 0.5
	VMOVUPD 96(DX), Y12 // termLn2h
	VMOVUPD 128(DX), Y11 // termLn2l
	VMOVUPD 288(DX), Y10 // 1
	VMOVDQU 0(R8), X9   // 1023
	VMOVDQU 16(R8), X8  // 63

loop:
	// x = d*d*c
	VMOVUPD (SI), Y0
	VMULPD Y0, Y0, Y0
	VMULPD Y7, Y0, Y0
	// x = min(x, termMax), NaN staying NaN (the second source wins).
	VMINPD Y0, Y15, Y0
	// k = int(x*termInv + 0.5), kf = float64(k)
	VMULPD Y14, Y0, Y1
	VADDPD Y13, Y1, Y1
	VCVTTPD2DQY Y1, X1
	VCVTDQ2PD X1, Y2
	// r = (kf*ln2h - x) + kf*ln2l
	VMULPD Y12, Y2, Y3
	VSUBPD Y0, Y3, Y3
	VMULPD Y11, Y2, Y2
	VADDPD Y2, Y3, Y3
	// q = r * (1 + r*(1/2 + r*(1/6 + r*(1/24 + r*(1/120 + r*(1/720))))))
	VMULPD 160(DX), Y3, Y2
	VADDPD 192(DX), Y2, Y2
	VMULPD Y2, Y3, Y2
	VADDPD 224(DX), Y2, Y2
	VMULPD Y2, Y3, Y2
	VADDPD 256(DX), Y2, Y2
	VMULPD Y2, Y3, Y2
	VADDPD Y13, Y2, Y2
	VMULPD Y2, Y3, Y2
	VADDPD Y10, Y2, Y2
	VMULPD Y2, Y3, Y2
	// t = 2^-(k>>6) * exp2Neg64[k&63]
	VPSRAD $6, X1, X4
	VPSUBD X4, X9, X4
	VPMOVZXDQ X4, Y4
	VPSLLQ $52, Y4, Y4
	VPAND X8, X1, X1
	VPCMPEQD Y5, Y5, Y5
	VGATHERDPD Y5, (BX)(X1*8), Y6
	VMULPD Y6, Y4, Y4
	// 2 * ((1 - t) - t*q)
	VSUBPD Y4, Y10, Y1
	VMULPD Y2, Y4, Y4
	VSUBPD Y4, Y1, Y1
	VMULPD 320(DX), Y1, Y1
	// g -= that
	VMOVUPD (DI), Y0
	VSUBPD Y1, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER

done:
	RET

// func sums4AVX2(d, w []float64, at []int32, g []float64, stride, groups int)
//
// For each of groups (1 to 4) groups of four kernels, d[4j+i] =
// sum_e w[at[e]*stride+4j+i] * g[e], summed over e in ascending order,
// each product rounded before its add (as Go computes it) so that every
// sum has the bits of the scalar loop.
TEXT ·sums4AVX2(SB), NOSPLIT, $0-112
	MOVQ d_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ at_base+48(FP), R8
	MOVQ at_len+56(FP), CX
	MOVQ g_base+72(FP), R9
	MOVQ stride+96(FP), R10
	MOVQ groups+104(FP), AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ BX, BX
	TESTQ CX, CX
	JZ   store
	CMPQ AX, $1
	JEQ  g1
	CMPQ AX, $2
	JEQ  g2
	CMPQ AX, $3
	JEQ  g3

g4:
	MOVLQSX (R8)(BX*4), DX
	IMULQ R10, DX
	VBROADCASTSD (R9)(BX*8), Y4
	VMULPD (SI)(DX*8), Y4, Y5
	VADDPD Y5, Y0, Y0
	VMULPD 32(SI)(DX*8), Y4, Y6
	VADDPD Y6, Y1, Y1
	VMULPD 64(SI)(DX*8), Y4, Y7
	VADDPD Y7, Y2, Y2
	VMULPD 96(SI)(DX*8), Y4, Y8
	VADDPD Y8, Y3, Y3
	INCQ BX
	CMPQ BX, CX
	JLT  g4
	JMP  store

g3:
	MOVLQSX (R8)(BX*4), DX
	IMULQ R10, DX
	VBROADCASTSD (R9)(BX*8), Y4
	VMULPD (SI)(DX*8), Y4, Y5
	VADDPD Y5, Y0, Y0
	VMULPD 32(SI)(DX*8), Y4, Y6
	VADDPD Y6, Y1, Y1
	VMULPD 64(SI)(DX*8), Y4, Y7
	VADDPD Y7, Y2, Y2
	INCQ BX
	CMPQ BX, CX
	JLT  g3
	JMP  store

g2:
	MOVLQSX (R8)(BX*4), DX
	IMULQ R10, DX
	VBROADCASTSD (R9)(BX*8), Y4
	VMULPD (SI)(DX*8), Y4, Y5
	VADDPD Y5, Y0, Y0
	VMULPD 32(SI)(DX*8), Y4, Y6
	VADDPD Y6, Y1, Y1
	INCQ BX
	CMPQ BX, CX
	JLT  g2
	JMP  store

g1:
	MOVLQSX (R8)(BX*4), DX
	IMULQ R10, DX
	VBROADCASTSD (R9)(BX*8), Y4
	VMULPD (SI)(DX*8), Y4, Y5
	VADDPD Y5, Y0, Y0
	INCQ BX
	CMPQ BX, CX
	JLT  g1

store:
	VMOVUPD Y0, (DI)
	CMPQ AX, $2
	JLT  end
	VMOVUPD Y1, 32(DI)
	CMPQ AX, $3
	JLT  end
	VMOVUPD Y2, 64(DI)
	CMPQ AX, $4
	JLT  end
	VMOVUPD Y3, 96(DI)

end:
	VZEROUPPER
	RET

// func commonAVX2(abits, bbits []uint64, brank []int32, img, rf, bval, bf []float64, at []int32, diff, g []float64) int
//
// commonGo's loop (terms.go) with BMI1 and POPCNT: for every pixel s in
// both supports, in ascending order, at[e] = s, diff[e] = img[s] - bval[n]
// and g[e] = rf[s] + bf[n], n the rank of s in b's support; returns how
// many. The caller checks the lengths.
TEXT ·commonAVX2(SB), NOSPLIT, $32-248
	MOVQ abits_base+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ bbits_base+24(FP), AX
	MOVQ AX, 8(SP)
	MOVQ brank_base+48(FP), AX
	MOVQ AX, 16(SP)
	MOVQ bbits_len+32(FP), AX
	MOVQ AX, 24(SP)
	MOVQ img_base+72(FP), R8
	MOVQ rf_base+96(FP), R9
	MOVQ bval_base+120(FP), R10
	MOVQ bf_base+144(FP), R11
	MOVQ at_base+168(FP), DI
	MOVQ diff_base+192(FP), SI
	MOVQ g_base+216(FP), R12
	XORQ R13, R13 // q*64

word:
	MOVQ 24(SP), CX
	TESTQ CX, CX
	JZ   done
	DECQ CX
	MOVQ CX, 24(SP)
	MOVQ 8(SP), CX
	MOVQ (CX), BX // b's word
	ADDQ $8, CX
	MOVQ CX, 8(SP)
	MOVQ 0(SP), CX
	MOVQ (CX), AX // a's word
	ADDQ $8, CX
	MOVQ CX, 0(SP)
	MOVQ 16(SP), CX
	MOVLQSX (CX), R14 // b's support before the word
	ADDQ $4, CX
	MOVQ CX, 16(SP)
	ANDQ BX, AX
	JZ   next

bit:
	TZCNTQ AX, CX   // t
	BLSIQ AX, DX    // the lowest common bit
	DECQ DX
	ANDQ BX, DX     // b's support below t
	POPCNTQ DX, DX
	ADDQ R14, DX    // n
	ADDQ R13, CX    // s
	VMOVSD (R8)(CX*8), X0
	VSUBSD (R10)(DX*8), X0, X0
	VMOVSD X0, (SI)
	VMOVSD (R9)(CX*8), X1
	VADDSD (R11)(DX*8), X1, X1
	VMOVSD X1, (R12)
	MOVL CX, (DI)
	ADDQ $8, SI
	ADDQ $8, R12
	ADDQ $4, DI
	BLSRQ AX, AX
	JNZ  bit

next:
	ADDQ $64, R13
	JMP  word

done:
	MOVQ DI, AX
	SUBQ at_base+168(FP), AX
	SHRQ $2, AX
	MOVQ AX, ret+240(FP)
	RET
