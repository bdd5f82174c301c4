//go:build !amd64

package eval

// netOutput16 is not used where there is no SSE2 kernel (output1 instead).
func netOutput16(acc *[2]netBlock, w2 *[16]int16) int32 { panic("netOutput16: no kernel") }

// haveNetOutput16 says netOutput16 is there to call.
const haveNetOutput16 = false
