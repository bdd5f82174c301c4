#include "textflag.h"

// WIN adds window k's entry (from the round's first: masks at SI, its
// table at DX) to R12. AX and BX hold White's and Black's men, DI tern.
#define WIN(k) \
	MOVQ    (k*8)(SI), R8; \
	PEXTQ   R8, AX, R9; \
	PEXTQ   R8, BX, R10; \
	MOVWQZX (DI)(R9*2), R9; \
	MOVWQZX (DI)(R10*2), R10; \
	LEAQ    (R9)(R10*2), R11; \
	MOVLQSX (k*26244)(DX)(R11*4), R9; \
	ADDQ    R9, R12

// func patSums(wm, bm uint64, masks *uint64, n int, tern *uint16, f *int32) int64
TEXT ·patSums(SB), NOSPLIT, $0-56
	MOVQ wm+0(FP), AX
	MOVQ bm+8(FP), BX
	MOVQ masks+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ tern+32(FP), DI
	MOVQ f+40(FP), DX
	XORQ R12, R12
	CMPQ CX, $5
	JLT  tail

round:
	WIN(0)
	WIN(1)
	WIN(2)
	WIN(3)
	WIN(4)
	ADDQ $40, SI
	ADDQ $131220, DX
	SUBQ $5, CX
	CMPQ CX, $5
	JGE  round

tail:
	TESTQ CX, CX
	JZ    done

one:
	WIN(0)
	ADDQ $8, SI
	ADDQ $26244, DX
	DECQ CX
	JNZ  one

done:
	MOVQ R12, ret+48(FP)
	RET

// func patSumsWide(wm, bm uint64, masks *uint64, n int, tern *uint32, f *int32, stride int) int64
TEXT ·patSumsWide(SB), NOSPLIT, $0-64
	MOVQ  wm+0(FP), AX
	MOVQ  bm+8(FP), BX
	MOVQ  masks+16(FP), SI
	MOVQ  n+24(FP), CX
	MOVQ  tern+32(FP), DI
	MOVQ  f+40(FP), DX
	MOVQ  stride+48(FP), R13
	XORQ  R12, R12
	TESTQ CX, CX
	JZ    wdone

wone:
	MOVQ    (SI), R8
	PEXTQ   R8, AX, R9
	PEXTQ   R8, BX, R10
	MOVLQZX (DI)(R9*4), R9
	MOVLQZX (DI)(R10*4), R10
	LEAQ    (R9)(R10*2), R11
	MOVLQSX (DX)(R11*4), R9
	ADDQ    R9, R12
	ADDQ    $8, SI
	ADDQ    R13, DX
	DECQ    CX
	JNZ     wone

wdone:
	MOVQ R12, ret+56(FP)
	RET
