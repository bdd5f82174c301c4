#include "textflag.h"

// func netOutput16(acc *[2]netBlock, w2 *[16]int16) int32
//
// Σ_j w2[j]·(clip(A_j) − clip(B_j)) over the 16 lanes of a one-block
// network's two views (SSE2, part of every amd64 processor). A lane holds
// its sum + 2^15: XOR with 0x8000 gives the signed sum, which PMAXSW and
// PMINSW clip to [0, NetQ]; PMADDWD multiplies the differences by the
// output weights and adds them in pairs (int32 cannot overflow: see
// netOutputFits).
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
	MOVOU	0(BX), X2
	MOVOU	16(BX), X3
	PMADDWL	X2, X0
	PMADDWL	X3, X1
	PADDL	X1, X0
	PSHUFD	$0x4E, X0, X1
	PADDL	X1, X0
	PSHUFD	$0xB1, X0, X1
	PADDL	X1, X0
	MOVQ	X0, AX
	MOVL	AX, ret+16(FP)
	RET
