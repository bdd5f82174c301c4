package eval

// netOutput16 is the output layer's sum Σ_j W2[j]·(clip(A_j) − clip(B_j))
// of a one-block network with output weights w2 (each within int16), in
// SSE2 (netout_amd64.s).
//
//go:noescape
func netOutput16(acc *[2]netBlock, w2 *[16]int16) int32

// haveNetOutput16 says netOutput16 is there to call.
const haveNetOutput16 = true
