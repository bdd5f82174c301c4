#include "textflag.h"

// func patSums(wm, bm uint64, masks *uint64, n int, tern *uint16, f *int16) (mg, eg int32)
TEXT ·patSums(SB), NOSPLIT, $0-56
	MOVQ wm+0(FP), AX
	MOVQ bm+8(FP), BX
	MOVQ masks+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ tern+32(FP), DI
	MOVQ f+40(FP), DX
	XORL R12, R12
	XORL R13, R13

loop:
	MOVQ    (SI), R8
	PEXTQ   R8, AX, R9
	PEXTQ   R8, BX, R10
	MOVWQZX (DI)(R9*2), R9
	MOVWQZX (DI)(R10*2), R10
	LEAQ    (R9)(R10*2), R11
	MOVWQSX (DX)(R11*4), R9
	ADDL    R9, R12
	MOVWQSX 2(DX)(R11*4), R10
	ADDL    R10, R13
	ADDQ    $8, SI
	ADDQ    $26244, DX
	DECQ    CX
	JNZ     loop

	MOVL R12, mg+48(FP)
	MOVL R13, eg+52(FP)
	RET
