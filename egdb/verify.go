package egdb

import (
	"fmt"
	"math/rand/v2"

	"github.com/damaengine/damaengine/movegen"
)

// VerifyReport is the check of one slice by Verify.
type VerifyReport struct {
	Slice   Slice
	Sampled bool // random positions, not all of them
	Checked int  // index values looked at (positions when sampled)
	// Values of the quiet positions checked, for the side to move.
	Win, Draw, Loss int
	Capture         int // positions with a capture pending (stored as none)
	Empty           int // index values with no position (pieces overlap)
	Bad             int // positions whose stored value (or distance) disagrees
	// MaxDist is the longest distance to conversion seen (-1: the slice
	// has no distances).
	MaxDist int
	// FirstBad describes the first disagreement (FEN, stored, expected).
	FirstBad string
}

// Verify checks the stored values of slice s of v against the move
// generator: every quiet position's value must be the best of its
// successors' (the side to move wins iff some move reaches a position lost
// for the opponent, loses iff every move reaches one won for the opponent
// or there is no move, and draws otherwise), the successors probed as a
// search would (captures resolved through the smaller slices); positions
// with a capture pending and index values with no position must be stored
// as none. Where the slice has distances to conversion, a win's must be
// one more than the least of its lost successors' (0 after a capture or a
// promotion), a loss's one more than the greatest of its successors' (0
// with no move). With sample > 0, that many random positions are checked
// instead of every index value (index values with no position are drawn
// again, not counted).
func (db *DB) Verify(v *movegen.Variant, s Slice, sample int, seed uint64) (VerifyReport, error) {
	rep := VerifyReport{Slice: s, Sampled: sample > 0, MaxDist: -1}
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs || db.vars[v.ID()] == nil {
		return rep, fmt.Errorf("egdb: no %s tables loaded", v.Name)
	}
	vt := db.vars[v.ID()]
	t := vt.tabs[s]
	if t == nil {
		return rep, fmt.Errorf("egdb: %s: slice %s not loaded", v.Name, s)
	}
	n := vt.ix.size(s)
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	count := n
	if sample > 0 {
		count = sample
	}
	var ml movegen.MoveList
	for k := 0; k < count; k++ {
		idx := k
		p, ok := movegen.Position{}, false
		if sample > 0 {
			// Positions: an index value with none is drawn again (a few
			// times at most: overlaps are under a third of a slice).
			for try := 0; !ok && try < 100; try++ {
				idx = rng.IntN(n)
				p, ok = vt.ix.position(s, idx)
			}
		} else {
			p, ok = vt.ix.position(s, idx)
		}
		rep.Checked++
		code := db.code(t, idx)
		dist := -1
		if t.dist != nil {
			dist = int(db.byteAt(t.dist, idx)) - 1
		}
		bad := func(want string) {
			if rep.Bad == 0 {
				got := map[uint8]string{codeNone: "none", codeDraw: "draw", codeWin: "win", codeLoss: "loss"}[code]
				if t.dist != nil {
					got += fmt.Sprintf(" at distance %d", dist)
				}
				rep.FirstBad = fmt.Sprintf("%s: stored %s, the successors say %s", v.FEN(&p), got, want)
			}
			rep.Bad++
		}
		if !ok {
			rep.Empty++
			if code != codeNone {
				bad("no position")
			}
			continue
		}
		if v.HasCapture(&p) {
			rep.Capture++
			if code != codeNone {
				bad("none (a capture is pending)")
			}
			continue
		}
		v.Generate(&p, &ml)
		best := Loss
		near, far := -1, -1 // least distance of a lost successor, greatest of any
		for _, m := range ml.Slice() {
			c := p
			c.Play(m)
			w, d, ok := db.ProbeDistance(v, &c)
			if !ok {
				return rep, fmt.Errorf("egdb: %s %s: %s: successor %s not in the tables", v.Name, s, v.FEN(&p), v.FEN(&c))
			}
			best = max(best, -w)
			if m.Captured != 0 || m.Promote {
				d = 0 // converted
			}
			if w == Loss && (near < 0 || d < near) {
				near = d
			}
			far = max(far, d)
		}
		switch best {
		case Win:
			rep.Win++
		case Draw:
			rep.Draw++
		default:
			rep.Loss++
		}
		switch {
		case code != codeOf(best):
			bad(best.String())
		case t.dist == nil || best == Draw:
		case best == Win && dist != near+1:
			bad(fmt.Sprintf("win at distance %d", near+1))
		case best == Loss && dist != far+1:
			bad(fmt.Sprintf("loss at distance %d", far+1))
		}
		if t.dist != nil && best != Draw {
			rep.MaxDist = max(rep.MaxDist, dist)
		}
	}
	return rep, nil
}

// Present returns the slices of v loaded or built, in build order.
func (db *DB) Present(v *movegen.Variant) []Slice {
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs || db.vars[v.ID()] == nil {
		return nil
	}
	vt := db.vars[v.ID()]
	var out []Slice
	for _, s := range SlicesOf(v, 8) {
		if vt.tabs[s] != nil {
			out = append(out, s)
		}
	}
	return out
}
