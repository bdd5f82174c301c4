#include "textflag.h"

// func netOutput16(acc *[2]netBlock, w2 *[2][16]int16) int32
//
// Σ_j (w2[0][j] + w2[1][j])·(clip(A_j) − clip(B_j)) over the 16 lanes of
// a one-block network's two views (SSE2, part of every amd64 processor):
// an output weight is split in two int16 halves so that weights up to
// twice int16's range take the kernel too. A lane holds its sum + 2^15:
// XOR with 0x8000 gives the signed sum, which PMAXSW and PMINSW clip to
// [0, NetQ]; PMADDWD multiplies the differences by each half and adds
// them in pairs (int32 cannot overflow: see netOutputFits).
TEXT ·netOutput16(SB), NOSPLIT, $0-20
	MOVQ	acc+0(FP), AX
	MOVQ	w2+8(FP), BX
	PCMPEQW	X7, X7
	MOVO	X7, X6
	PSLLW	$15, X7        // 0x8000 in every lane
	PSRLW	$15, X6
	PSLLW	$8, X6         // NetQ (256) in every lane
	PXOR	X5, X5         // 0
	MOVOU	0(AX), X0      // view A, units 0-7
	MOVOU	16(AX), X1     // view A, units 8-15
	MOVOU	32(AX), X2     // view B, units 0-7
	MOVOU	48(AX), X3     // view B, units 8-15
	PXOR	X7, X0
	PXOR	X7, X1
	PXOR	X7, X2
	PXOR	X7, X3
	PMAXSW	X5, X0
	PMAXSW	X5, X1
	PMAXSW	X5, X2
	PMAXSW	X5, X3
	PMINSW	X6, X0
	PMINSW	X6, X1
	PMINSW	X6, X2
	PMINSW	X6, X3
	PSUBW	X2, X0
	PSUBW	X3, X1
	MOVO	X0, X8
	MOVO	X1, X9
	MOVOU	0(BX), X2
	MOVOU	16(BX), X3
	MOVOU	32(BX), X4
	MOVOU	48(BX), X5
	PMADDWL	X2, X0
	PMADDWL	X3, X1
	PMADDWL	X4, X8
	PMADDWL	X5, X9
	PADDL	X1, X0
	PADDL	X9, X8
	PADDL	X8, X0
	PSHUFD	$0x4E, X0, X1
	PADDL	X1, X0
	PSHUFD	$0xB1, X0, X1
	PADDL	X1, X0
	MOVQ	X0, AX
	MOVL	AX, ret+16(FP)
	RET

// KIND applies the rows of the pieces in the bit set at byte offset chOff
// of ch (CX), rows at byte offset rowOff of the table (DX), to X0-X3 by
// OP (PSUBW or PADDW).
#define KIND(OP, chOff, rowOff, loop, next) \
	MOVQ	chOff(CX), R10 \
	TESTQ	R10, R10 \
	JZ	next \
	LEAQ	rowOff(DX), R9 \
loop: \
	BSFQ	R10, R11 \
	SHLQ	$6, R11 \
	ADDQ	R9, R11 \
	MOVOU	0(R11), X4 \
	MOVOU	16(R11), X5 \
	MOVOU	32(R11), X6 \
	MOVOU	48(R11), X7 \
	OP	X4, X0 \
	OP	X5, X1 \
	OP	X6, X2 \
	OP	X7, X3 \
	LEAQ	-1(R10), R11 \
	ANDQ	R11, R10 \
	JNZ	loop \
next:

// func netUpdate16(dst, src *[2]netBlock, rows *[NetKinds][64][2]netBlock, ch *[2 * NetKinds]uint64)
//
// dst = src less the rows of the pieces in ch[0:4] (by kind) plus the rows
// of those in ch[4:8], 16-bit lane by lane (SSE2). The rows hold each
// weight in its own lane (lanesBlock), not packed with borrows: PSUBW and
// PADDW add lane by lane.
TEXT ·netUpdate16(SB), NOSPLIT, $0-32
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	rows+16(FP), DX
	MOVQ	ch+24(FP), CX
	MOVOU	0(SI), X0
	MOVOU	16(SI), X1
	MOVOU	32(SI), X2
	MOVOU	48(SI), X3
	KIND(PSUBW, 0, 0, sub0, sub0done)
	KIND(PSUBW, 8, 4096, sub1, sub1done)
	KIND(PSUBW, 16, 8192, sub2, sub2done)
	KIND(PSUBW, 24, 12288, sub3, sub3done)
	KIND(PADDW, 32, 0, add0, add0done)
	KIND(PADDW, 40, 4096, add1, add1done)
	KIND(PADDW, 48, 8192, add2, add2done)
	KIND(PADDW, 56, 12288, add3, add3done)
	MOVOU	X0, 0(DI)
	MOVOU	X1, 16(DI)
	MOVOU	X2, 32(DI)
	MOVOU	X3, 48(DI)
	RET
