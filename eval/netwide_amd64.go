package eval

// The AVX2 kernels of networks of two blocks a view or more
// (netwide_amd64.s): see the notes at the top of net.go. Not every amd64
// processor has AVX2, so they run only where hasAVX2 finds it.

// netUpdateWide sets the blocks blocks (an even number) from dst to src
// less the rows of the table rows at the byte offsets offs[0:nsub] plus
// those at offs[nsub:nsub+nadd], rows in lanes (lanesBlock). dst may be
// src.
//
//go:noescape
func netUpdateWide(dst, src, rows *netBlock, offs *uint32, nsub, nadd, blocks int)

// netOutputWide is the output layer's sum Σ_j W2[j]·(clip(A_j) − clip(B_j))
// of the nb blocks a view of acc, the output weights w[j] + w[16·nb+j] in
// int16 halves (splitOutputWide); the second halves are read only when
// two.
//
//go:noescape
func netOutputWide(acc *NetAcc, w *int16, nb int, two bool) int64

// cpuid returns the registers CPUID leaves for leaf and sub-leaf sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0, the register states the operating system saves.
func xgetbv() (eax, edx uint32)

// hasAVX2 reports whether the processor has AVX2 (CPUID leaf 7, EBX bit 5)
// and the operating system saves the YMM registers across context
// switches (CPUID leaf 1: OSXSAVE, ECX bit 27, and AVX, bit 28; XCR0: the
// XMM and YMM states, bits 1 and 2).
func hasAVX2() bool {
	if top, _, _, _ := cpuid(0, 0); top < 7 {
		return false
	}
	if _, _, ecx, _ := cpuid(1, 0); ecx&(1<<27) == 0 || ecx&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<5) != 0
}

// netWideKernels says networks of two blocks a view or more use the AVX2
// kernels: on where the processor has them. A test may turn it off to
// force the portable path (updateBlocks, outputBlocks, Refresh's own code),
// never on where it was off. It is read when a network is built (whether
// to keep its rows in lanes) and at every call.
var netWideKernels = hasAVX2()

// netTempoWide is the tempo sum Σ_j T[j]·(clip(A_j) + clip(B_j)) of the nb
// blocks a view of acc, T as int16 (nettempo.go).
//
//go:noescape
func netTempoWide(acc *NetAcc, w *int16, nb int) int64

// netOutTempoWide is Σ_j wa[j]·clip(A_j) − Σ_j wb[j]·clip(B_j) over the nb
// blocks a view of acc: the output and tempo terms of a network in one
// pass, wa and wb its W2 + T and W2 − T (or the other way round) as int16
// (nettempo.go).
//
//go:noescape
func netOutTempoWide(acc *NetAcc, wa, wb *int16, nb int) int64
