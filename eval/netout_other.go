//go:build !amd64

package eval

// Without SSE2 kernels the portable paths run (output1, update1).

func netOutput16(acc *[2]netBlock, w2 *[2][16]int16) int32 { panic("netOutput16: no kernel") }

func netUpdate16(dst, src *[2]netBlock, rows *[NetKinds][64][2]netBlock, ch *[2 * NetKinds]uint64) {
	panic("netUpdate16: no kernel")
}

// haveNetKernels says the kernels are there to call.
const haveNetKernels = false
