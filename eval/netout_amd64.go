package eval

// The one-block network's kernels in SSE2 (netout_amd64.s): every amd64
// processor has it, so no feature test is needed.

// netOutput16 is the output layer's sum Σ_j W2[j]·(clip(A_j) − clip(B_j))
// of a one-block network whose output weights are w2[0][j] + w2[1][j]
// (two int16 halves: see netOutputFits).
//
//go:noescape
func netOutput16(acc *[2]netBlock, w2 *[2][16]int16) int32

// netUpdate16 sets dst to src less the rows of the pieces ch[0:4] (bits
// by kind) plus those of ch[4:8], rows in lanes (lanesBlock).
//
//go:noescape
func netUpdate16(dst, src *[2]netBlock, rows *[NetKinds][64][2]netBlock, ch *[2 * NetKinds]uint64)

// haveNetKernels says the kernels are there to call.
const haveNetKernels = true
