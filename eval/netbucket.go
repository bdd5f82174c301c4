package eval

import (
	"fmt"
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// Output buckets (weights file version 4). A network may keep several sets
// of output weights W2 (and tempo weights T), one for each range of the
// number of pieces on the board, over one shared first layer: the same
// hidden units are then weighed one way in the opening, another in the
// ending, as a pattern evaluation keeps a middlegame and an endgame value
// for each pattern. With B buckets and S pieces at the start, a position
// of n pieces reads bucket min((n − 1)·B / S, B − 1): equal ranges of the
// piece count, the last one the fullest board (International, B = 4: 1–10,
// 11–20, 21–30 and 31–40 pieces). The piece count is the same for a
// position and its colour mirror, so a bucketed network stays exactly
// antisymmetric. It costs nothing a node: the first layer and its update
// are shared, and the output reads one bucket's weights.

// MaxNetBuckets is the most output buckets a network may have.
const MaxNetBuckets = 8

// CheckNetBuckets returns an error unless a network may have b output
// buckets (0 and 1 both mean one set of output weights).
func CheckNetBuckets(b int) error {
	if b < 0 || b > MaxNetBuckets {
		return fmt.Errorf("%d output buckets, want 1 to %d", b, MaxNetBuckets)
	}
	return nil
}

// netBucket is the bucket of a position of n pieces, of buckets buckets,
// start pieces at the start.
func netBucket(n, start, buckets int) int {
	return min(max(n-1, 0)*buckets/start, buckets-1)
}

// NetBucket returns the output bucket of p in a network of v with buckets
// output buckets (0 for fewer than two), for the tuner.
func NetBucket(v *movegen.Variant, p *movegen.Position, buckets int) int {
	if buckets < 2 {
		return 0
	}
	return netBucket(pieceCount(p), startPieces(v), buckets)
}

func pieceCount(p *movegen.Position) int {
	return bits.OnesCount64(p.Pieces[movegen.White] | p.Pieces[movegen.Black])
}

func startPieces(v *movegen.Variant) int {
	s := v.Start()
	return max(pieceCount(&s), 1)
}

// head returns the network whose output weights p reads: n itself, or
// its bucket's head.
func (n *Net) head(p *movegen.Position) *Net {
	if n.heads == nil {
		return n
	}
	return n.heads[netBucket(pieceCount(p), n.start, len(n.heads))]
}
