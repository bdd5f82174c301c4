#include "textflag.h"

// The AVX2 kernels of networks of two blocks a view or more (see the
// notes in net.go and netwide_amd64.go), and the feature test they need.
// Every kernel ends with VZEROUPPER, so SSE code after it pays no
// transition penalty.

// ROWS8 applies the rows at the byte offsets read from [R10, end) (each
// the offset of a piece's row from the table's current block, DX) to the
// eight blocks in Y0-Y7 by OP (VPSUBW or VPADDW), leaving R10 at end.
// ROWS2 does the same for two blocks, in Y0-Y1.
#define ROWS8(OP, end, loop, next) \
	CMPQ	R10, end \
	JEQ	next \
loop: \
	MOVL	(R10), R11 \
	ADDQ	DX, R11 \
	OP	0(R11), Y0, Y0 \
	OP	32(R11), Y1, Y1 \
	OP	64(R11), Y2, Y2 \
	OP	96(R11), Y3, Y3 \
	OP	128(R11), Y4, Y4 \
	OP	160(R11), Y5, Y5 \
	OP	192(R11), Y6, Y6 \
	OP	224(R11), Y7, Y7 \
	ADDQ	$4, R10 \
	CMPQ	R10, end \
	JNE	loop \
next:

#define ROWS2(OP, end, loop, next) \
	CMPQ	R10, end \
	JEQ	next \
loop: \
	MOVL	(R10), R11 \
	ADDQ	DX, R11 \
	OP	0(R11), Y0, Y0 \
	OP	32(R11), Y1, Y1 \
	ADDQ	$4, R10 \
	CMPQ	R10, end \
	JNE	loop \
next:

// CLIPCONSTS sets the registers the clipping kernels read: Y14 0x8000
// in every lane (a lane XORed with it is its signed sum), Y13 NetQ (256),
// Y12 zero.
#define CLIPCONSTS \
	VPCMPEQW	Y15, Y15, Y15 \
	VPSLLW	$15, Y15, Y14 \
	VPSRLW	$15, Y15, Y13 \
	VPSLLW	$8, Y13, Y13 \
	VPXOR	Y12, Y12, Y12

// SUMLANES adds the eight int32 lanes of Y10, widened to int64, into AX.
#define SUMLANES \
	VEXTRACTI128	$1, Y10, X1 \
	VPMOVSXDQ	X10, Y2 \
	VPMOVSXDQ	X1, Y3 \
	VPADDQ	Y3, Y2, Y2 \
	VEXTRACTI128	$1, Y2, X3 \
	VPADDQ	X3, X2, X2 \
	VPSHUFD	$0x4E, X2, X3 \
	VPADDQ	X3, X2, X2 \
	VMOVQ	X2, AX

// func netUpdateWide(dst, src, rows *netBlock, offs *uint32, nsub, nadd, blocks int)
//
// dst = src less the rows at the byte offsets offs[0:nsub] of the table
// rows plus those at offs[nsub:nsub+nadd], over blocks (even) blocks of 16
// lanes, lane by lane (the rows in lanes: lanesBlock). Eight blocks at a
// time are loaded into Y0-Y7, every row applied to them, and stored (a
// row's offset is read once for eight blocks); the rest, if blocks is not a
// multiple of eight, likewise two (Y0-Y1) at a time.
TEXT ·netUpdateWide(SB), NOSPLIT, $0-56
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	rows+16(FP), DX
	MOVQ	offs+24(FP), CX
	MOVQ	nsub+32(FP), R8
	MOVQ	nadd+40(FP), R9
	MOVQ	blocks+48(FP), BX
	LEAQ	(CX)(R8*4), R8 // the end of the rows to subtract, the start of those to add
	LEAQ	(R8)(R9*4), R9 // the end of the rows to add

eight:
	CMPQ	BX, $8
	JB	two
	VMOVDQU	0(SI), Y0
	VMOVDQU	32(SI), Y1
	VMOVDQU	64(SI), Y2
	VMOVDQU	96(SI), Y3
	VMOVDQU	128(SI), Y4
	VMOVDQU	160(SI), Y5
	VMOVDQU	192(SI), Y6
	VMOVDQU	224(SI), Y7
	MOVQ	CX, R10
	ROWS8(VPSUBW, R8, sub8, sub8done)
	ROWS8(VPADDW, R9, add8, add8done)
	VMOVDQU	Y0, 0(DI)
	VMOVDQU	Y1, 32(DI)
	VMOVDQU	Y2, 64(DI)
	VMOVDQU	Y3, 96(DI)
	VMOVDQU	Y4, 128(DI)
	VMOVDQU	Y5, 160(DI)
	VMOVDQU	Y6, 192(DI)
	VMOVDQU	Y7, 224(DI)
	ADDQ	$256, SI
	ADDQ	$256, DI
	ADDQ	$256, DX
	SUBQ	$8, BX
	JMP	eight

two:
	TESTQ	BX, BX
	JZ	done
	VMOVDQU	0(SI), Y0
	VMOVDQU	32(SI), Y1
	MOVQ	CX, R10
	ROWS2(VPSUBW, R8, sub2, sub2done)
	ROWS2(VPADDW, R9, add2, add2done)
	VMOVDQU	Y0, 0(DI)
	VMOVDQU	Y1, 32(DI)
	ADDQ	$64, SI
	ADDQ	$64, DI
	ADDQ	$64, DX
	SUBQ	$2, BX
	JMP	two

done:
	VZEROUPPER
	RET

// func netOutputWide(acc *NetAcc, w *int16, nb int, two bool) int64
//
// Σ_j W2[j]·(clip(A_j) − clip(B_j)) over nb blocks a view, the weights
// w[j] + w[16·nb + j] (int16 halves; the second read only when two). A
// lane XORed with 0x8000 is its signed sum, VPMAXSW and VPMINSW clip it
// to [0, NetQ], VPMADDWD multiplies the differences by the weights and
// adds them in pairs into int32 lanes, which are then widened to int64
// and summed. Overflow is impossible: a pair's products are each at most
// 32,767 × 256 < 2^23 in magnitude, so a pair is below 2^24; a lane of Y10
// or Y11 adds one pair a block, nb ≤ 16, so stays below 2^28, and their
// sum below 2^29; the eight lanes are added in int64.
TEXT ·netOutputWide(SB), NOSPLIT, $0-40
	MOVQ	acc+0(FP), SI
	MOVQ	w+8(FP), DX
	MOVQ	nb+16(FP), BX
	MOVBLZX	two+24(FP), AX
	MOVQ	BX, R8
	SHLQ	$5, R8 // 32·nb bytes: view A's block to view B's, a first half to its second
	CLIPCONSTS
	VPXOR	Y10, Y10, Y10 // the sums of the first halves' products
	VPXOR	Y11, Y11, Y11 // of the second halves'
	TESTQ	AX, AX
	JNZ	halves

one:
	VPXOR	(SI), Y14, Y0
	VPXOR	(SI)(R8*1), Y14, Y1
	VPMAXSW	Y12, Y0, Y0
	VPMAXSW	Y12, Y1, Y1
	VPMINSW	Y13, Y0, Y0
	VPMINSW	Y13, Y1, Y1
	VPSUBW	Y1, Y0, Y0
	VPMADDWD	(DX), Y0, Y2
	VPADDD	Y2, Y10, Y10
	ADDQ	$32, SI
	ADDQ	$32, DX
	DECQ	BX
	JNZ	one
	JMP	sum

halves:
	VPXOR	(SI), Y14, Y0
	VPXOR	(SI)(R8*1), Y14, Y1
	VPMAXSW	Y12, Y0, Y0
	VPMAXSW	Y12, Y1, Y1
	VPMINSW	Y13, Y0, Y0
	VPMINSW	Y13, Y1, Y1
	VPSUBW	Y1, Y0, Y0
	VPMADDWD	(DX), Y0, Y2
	VPMADDWD	(DX)(R8*1), Y0, Y3
	VPADDD	Y2, Y10, Y10
	VPADDD	Y3, Y11, Y11
	ADDQ	$32, SI
	ADDQ	$32, DX
	DECQ	BX
	JNZ	halves

sum:
	VPADDD	Y11, Y10, Y10
	SUMLANES
	VZEROUPPER
	MOVQ	AX, ret+32(FP)
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL	leaf+0(FP), AX
	MOVL	sub+4(FP), CX
	CPUID
	MOVL	AX, eax+8(FP)
	MOVL	BX, ebx+12(FP)
	MOVL	CX, ecx+16(FP)
	MOVL	DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
//
// The low and high words of XCR0, the register states the operating
// system saves (XGETBV with ECX = 0).
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL	$0, CX
	XGETBV
	MOVL	AX, eax+0(FP)
	MOVL	DX, edx+4(FP)
	RET

// func netTempoWide(acc *NetAcc, w *int16, nb int) int64
//
// Σ_j T[j]·(clip(A_j) + clip(B_j)) over nb blocks a view (nettempo.go):
// the clips as in netOutputWide, added instead of subtracted. No
// overflow: a sum of two clips is at most 2·NetQ = 512, its product with
// an int16 weight below 2^24, a pair below 2^25, and a lane of Y10 adds
// one pair a block (nb ≤ 16): below 2^29. The lanes are added in int64.
TEXT ·netTempoWide(SB), NOSPLIT, $0-32
	MOVQ	acc+0(FP), SI
	MOVQ	w+8(FP), DX
	MOVQ	nb+16(FP), BX
	MOVQ	BX, R8
	SHLQ	$5, R8 // 32·nb bytes: view A's block to view B's
	CLIPCONSTS
	VPXOR	Y10, Y10, Y10 // the sums of the products

tempo:
	VPXOR	(SI), Y14, Y0
	VPXOR	(SI)(R8*1), Y14, Y1
	VPMAXSW	Y12, Y0, Y0
	VPMAXSW	Y12, Y1, Y1
	VPMINSW	Y13, Y0, Y0
	VPMINSW	Y13, Y1, Y1
	VPADDW	Y1, Y0, Y0
	VPMADDWD	(DX), Y0, Y2
	VPADDD	Y2, Y10, Y10
	ADDQ	$32, SI
	ADDQ	$32, DX
	DECQ	BX
	JNZ	tempo

	SUMLANES
	VZEROUPPER
	MOVQ	AX, ret+24(FP)
	RET

// OUTTEMPO1 adds the block at byte offset R9+off of both views (SI, DI),
// clipped, times its weights (DX, CX), into Y10 and Y11.
#define OUTTEMPO1(off) \
	VPXOR	off(SI)(R9*1), Y14, Y0 \
	VPXOR	off(DI)(R9*1), Y14, Y1 \
	VPMAXSW	Y12, Y0, Y0 \
	VPMAXSW	Y12, Y1, Y1 \
	VPMINSW	Y13, Y0, Y0 \
	VPMINSW	Y13, Y1, Y1 \
	VPMADDWD	off(DX)(R9*1), Y0, Y2 \
	VPMADDWD	off(CX)(R9*1), Y1, Y3 \
	VPADDD	Y2, Y10, Y10 \
	VPADDD	Y3, Y11, Y11

// func netOutTempoWide(acc *NetAcc, wa, wb *int16, nb int) int64
//
// Σ_j wa[j]·clip(A_j) − Σ_j wb[j]·clip(B_j) over nb blocks a view: the
// output and tempo terms in one pass (nettempo.go), wa and wb the
// weights W2 ± T of the side to move's view and the other's, clipped as in
// netOutputWide. No overflow: a product is at most 32,767 × 256 < 2^23 in
// magnitude, a pair below 2^24, a lane of Y10 or Y11 adds one pair a block
// (nb ≤ 16): below 2^28, their difference below 2^29; the lanes are added
// in int64.
TEXT ·netOutTempoWide(SB), NOSPLIT, $0-40
	MOVQ	acc+0(FP), SI
	MOVQ	wa+8(FP), DX
	MOVQ	wb+16(FP), CX
	MOVQ	nb+24(FP), R8
	SHLQ	$5, R8 // 32·nb bytes: view A's block to view B's, and the loop's end
	LEAQ	(SI)(R8*1), DI // view B's first block
	CLIPCONSTS
	VPXOR	Y10, Y10, Y10 // Σ wa·clip(A), by pairs
	VPXOR	Y11, Y11, Y11 // Σ wb·clip(B), by pairs
	XORQ	R9, R9 // byte offset of the block, the same in the four arrays
	TESTQ	$32, R8
	JZ	pairs
	OUTTEMPO1(0) // an odd number of blocks: the first alone
	MOVQ	$32, R9
	CMPQ	R9, R8
	JEQ	sum

pairs: // two blocks a turn
	OUTTEMPO1(0)
	OUTTEMPO1(32)
	ADDQ	$64, R9
	CMPQ	R9, R8
	JNE	pairs

sum:
	VPSUBD	Y11, Y10, Y10
	SUMLANES
	VZEROUPPER
	MOVQ	AX, ret+32(FP)
	RET
