package search

import (
	"math/rand/v2"
	"testing"
)

// TestDecayHistory: decayHistory (the SSE2 kernel on amd64) divides every
// score by 4 exactly as Go's division does, negative and odd values and
// the table's bounds included.
func TestDecayHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var a, b [2][64][64]int32
	for s := range a {
		for f := range a[s] {
			for x := range a[s][f] {
				v := int32(r.IntN(1<<21+1) - 1<<20)
				switch r.IntN(8) {
				case 0:
					v = int32(r.IntN(9) - 4) // −4 … 4: the rounding
				case 1:
					v = 1 << 20
				case 2:
					v = -(1 << 20)
				case 3:
					v = -(1 << 31) // the extremes of int32
				case 4:
					v = 1<<31 - 1
				}
				a[s][f][x], b[s][f][x] = v, v
			}
		}
	}
	for range 3 {
		decayHistory(&a)
		decayHistoryGo(&b)
		if a != b {
			for s := range a {
				for f := range a[s] {
					for x := range a[s][f] {
						if a[s][f][x] != b[s][f][x] {
							t.Fatalf("[%d][%d][%d]: %d, Go's division %d", s, f, x, a[s][f][x], b[s][f][x])
						}
					}
				}
			}
		}
	}
}

func TestDecayHistoryNoAllocs(t *testing.T) {
	var h [2][64][64]int32
	if n := testing.AllocsPerRun(10, func() { decayHistory(&h) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
