#include "textflag.h"

// func decayHistory4(p *int32, n int)
//
// p[0:n] /= 4 in place, truncating toward zero as Go's division does (a
// negative value gets 3 added before the arithmetic shift), four values
// an SSE2 instruction (SSE2 is in every amd64 processor); n is a multiple
// of 4.
TEXT ·decayHistory4(SB), NOSPLIT, $0-16
	MOVQ	p+0(FP), DI
	MOVQ	n+8(FP), CX
	SHRQ	$2, CX
	JZ	done
loop:
	MOVOU	(DI), X0
	MOVO	X0, X1
	PSRAL	$31, X1 // −1 in the negative lanes
	PSRLL	$30, X1 // 3 there
	PADDL	X1, X0
	PSRAL	$2, X0
	MOVOU	X0, (DI)
	ADDQ	$16, DI
	DECQ	CX
	JNZ	loop
done:
	RET
