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
	// OSXSAVE (bit 27) and AVX (bit 28) of ECX.
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
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
	// AVX2: bit 5 of EBX.
	ANDL $0x20, BX
	JZ   no
	MOVB $1, ret+0(FP)
no:
	RET

// func subTermsAVX2(g, x []float64)
//
// g[e] -= WKPITerm(x[e]) four entries at a time, len(x) a multiple of 4,
// with WKPITerm's operations in its order, each rounded as Go rounds it
// (a multiply, then an add: no fused multiply-add), so that every entry
// has the bits of the scalar loop.
TEXT ·subTermsAVX2(SB), NOSPLIT, $0-48
	MOVQ g_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), CX
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
	VMOVUPD (SI), Y0
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

// func sums4AVX2(d, w []float64, at []int32, g []float64, groups int)
//
// For each of groups (1 to 4) groups of four kernels, d[4j+i] =
// sum_e w[at[e]+4j+i] * g[e], summed over e in ascending order, each
// product rounded before its add (as Go computes it) so that every sum
// has the bits of the scalar loop.
TEXT ·sums4AVX2(SB), NOSPLIT, $0-104
	MOVQ d_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ at_base+48(FP), R8
	MOVQ at_len+56(FP), CX
	MOVQ g_base+72(FP), R9
	MOVQ groups+96(FP), AX
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
