//go:build !amd64

package eval

// Without the AVX2 kernels wide networks take the portable path
// (updateBlocks, outputBlocks, Refresh's own code).

func netUpdateWide(dst, src, rows *netBlock, offs *uint32, nsub, nadd, blocks int) {
	panic("netUpdateWide: no kernel")
}

func netOutputWide(acc *NetAcc, w *int16, nb int, two bool) int64 { panic("netOutputWide: no kernel") }

// netWideKernels says networks of two blocks a view or more use the AVX2
// kernels: never on this architecture.
var netWideKernels = false

func netTempoWide(acc *NetAcc, w *int16, nb int) int64 { panic("netTempoWide: no kernel") }

func netOutTempoWide(acc *NetAcc, wa, wb *int16, nb int) int64 { panic("netOutTempoWide: no kernel") }
