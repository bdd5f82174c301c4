package movegen

import "math/bits"

// Russian draughts (rules.md §7) has a generator of its own, written out
// for these rules only (see diag.go): on the 8x8
// layout the diagonal steps are the constant shifts 4 and 5 (board.go), men
// capture backward and may take kings, a man reaching the far rank during a
// capture is crowned at once and goes on capturing as a king, kings fly,
// and any complete capture may be chosen — except that a flying king that
// can go on capturing from some square beyond the piece it takes must land
// on such a square. Captured pieces stay on the board until the move ends.
//
// It lists the moves in the same order as the generic generator did
// (diag.go), so that the search sees the same tree.

// ruJumps returns where the men land that jump one of opp onto an empty
// square, per direction (see diag.go).
func ruJumps(men, opp, empty uint64) (l0, l1, l2, l3 uint64) {
	l0 = ((men >> 4) & opp) >> 4 & empty
	l1 = ((men >> 5) & opp) >> 5 & empty
	l2 = ((men << 4) & opp) << 4 & empty
	l3 = ((men << 5) & opp) << 5 & empty
	return
}

// ruSingle reports whether the men's jumps landing on all are complete
// moves: none lands on the far rank (the man would go on as a king) and
// none can jump again, judged on the board as it stands (see
// diag.go: exact for men).
func ruSingle(all, far, opp, empty uint64) bool {
	if all&far != 0 {
		return false
	}
	more := ((all>>4)&opp)>>4 | ((all>>5)&opp)>>5 | ((all<<4)&opp)<<4 | ((all<<5)&opp)<<5
	return more&empty == 0
}

// ruKingJumpers returns the kings among ownK that can capture.
func ruKingJumpers(ownK, opp, empty uint64) (kings uint64) {
	for k := ownK; k != 0; k &= k - 1 {
		s := k & -k
		if ruKingCan(s, opp, empty) {
			kings |= s
		}
	}
	return kings
}

// ruKingCan reports whether a flying king on s can take one of opp.
func ruKingCan(s, opp, empty uint64) bool {
	for _, r := range rot8 {
		x := bits.RotateLeft64(s, r)
		for x&empty != 0 {
			x = bits.RotateLeft64(x, r)
		}
		if x&opp != 0 && bits.RotateLeft64(x, r)&empty != 0 {
			return true
		}
	}
	return false
}

// russianJumpers returns the men and kings of the side to move that can
// capture.
func russianJumpers(p *Position) (men, kings uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	l0, l1, l2, l3 := ruJumps(own&^p.Kings, opp, empty)
	if k := own & p.Kings; k != 0 {
		kings = ruKingJumpers(k, opp, empty)
	}
	return l0<<8 | l1<<10 | l2>>8 | l3>>10, kings
}

// genRussian fills ml with the legal moves of p.
func genRussian(p *Position, ml *MoveList) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	l0, l1, l2, l3 := ruJumps(men, opp, empty)
	all := l0 | l1 | l2 | l3
	var jk uint64
	if kings != 0 {
		jk = ruKingJumpers(kings, opp, empty)
	}
	far := Row8Top
	if us == Black {
		far = Row8Bottom
	}
	n := 0
	if all|jk != 0 {
		if jk != 0 || !ruSingle(all, far, opp, empty) {
			russianCaptures(p, ml, l0<<8|l1<<10|l2>>8|l3>>10, jk)
			return
		}
		for ; l0 != 0; l0 &= l0 - 1 {
			l := uint(lsb(l0))
			ml.Moves[n] = Move{Captured: 1 << ((l + 4) & 63), From: uint8(l + 8), To: uint8(l)}
			n++
		}
		for ; l1 != 0; l1 &= l1 - 1 {
			l := uint(lsb(l1))
			ml.Moves[n] = Move{Captured: 1 << ((l + 5) & 63), From: uint8(l + 10), To: uint8(l)}
			n++
		}
		for ; l2 != 0; l2 &= l2 - 1 {
			l := uint(lsb(l2))
			ml.Moves[n] = Move{Captured: 1 << ((l - 4) & 63), From: uint8(l - 8), To: uint8(l)}
			n++
		}
		for ; l3 != 0; l3 &= l3 - 1 {
			l := uint(lsb(l3))
			ml.Moves[n] = Move{Captured: 1 << ((l - 5) & 63), From: uint8(l - 10), To: uint8(l)}
			n++
		}
		ml.N = n
		return
	}
	if us == White {
		for t := (men >> 4) & empty; t != 0; t &= t - 1 {
			l := uint(lsb(t))
			ml.Moves[n] = Move{From: uint8(l + 4), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := (men >> 5) & empty; t != 0; t &= t - 1 {
			l := uint(lsb(t))
			ml.Moves[n] = Move{From: uint8(l + 5), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
	} else {
		for t := (men << 4) & empty; t != 0; t &= t - 1 {
			l := uint(lsb(t))
			ml.Moves[n] = Move{From: uint8(l - 4), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := (men << 5) & empty; t != 0; t &= t - 1 {
			l := uint(lsb(t))
			ml.Moves[n] = Move{From: uint8(l - 5), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
	}
	for ; kings != 0; kings &= kings - 1 {
		s := kings & -kings
		from := uint8(lsb(s))
		for x := (s >> 4) & empty; x != 0; x = (x >> 4) & empty {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		for x := (s >> 5) & empty; x != 0; x = (x >> 5) & empty {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		for x := (s << 4) & empty; x != 0; x = (x << 4) & empty {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		for x := (s << 5) & empty; x != 0; x = (x << 5) & empty {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
	}
	ml.N = n
}

// countRussian returns the number of legal moves of p, listing them in
// scratch only when a capture can go on past its first jump.
func countRussian(p *Position, scratch *MoveList) int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	l0, l1, l2, l3 := ruJumps(men, opp, empty)
	all := l0 | l1 | l2 | l3
	var jk uint64
	if kings != 0 {
		jk = ruKingJumpers(kings, opp, empty)
	}
	if all|jk != 0 {
		far := Row8Top
		if us == Black {
			far = Row8Bottom
		}
		if jk != 0 || !ruSingle(all, far, opp, empty) {
			russianCaptures(p, scratch, l0<<8|l1<<10|l2>>8|l3>>10, jk)
			return scratch.N
		}
		return popcount(l0) + popcount(l1) + popcount(l2) + popcount(l3)
	}
	var n int
	if us == White {
		n = popcount((men>>4)&empty) + popcount((men>>5)&empty)
	} else {
		n = popcount((men<<4)&empty) + popcount((men<<5)&empty)
	}
	if kings == 0 {
		return n
	}
	for x := (kings >> 4) & empty; x != 0; x = (x >> 4) & empty {
		n += popcount(x)
	}
	for x := (kings >> 5) & empty; x != 0; x = (x >> 5) & empty {
		n += popcount(x)
	}
	for x := (kings << 4) & empty; x != 0; x = (x << 4) & empty {
		n += popcount(x)
	}
	for x := (kings << 5) & empty; x != 0; x = (x << 5) & empty {
		n += popcount(x)
	}
	return n
}

// rGen is the state of one Russian capture search.
type rGen struct {
	ml    *MoveList
	empty uint64 // empty squares; the mover's origin counts as empty
	opp   uint64 // every enemy piece
	far   uint64 // the mover's crowning rank
	from  uint8
}

// russianCaptures lists the legal captures of the men jm and kings jk.
func russianCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := rGen{ml: ml, opp: opp, far: Row8Top}
	if us == Black {
		g.far = Row8Bottom
	}
	ml.N = 0
	base := Board8 &^ (own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.kingJump(s, 0, false)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.manJump(s, 0)
	}
}

// manJump extends a man's capture from s (a one-bit mask), having taken
// cap.
func (g *rGen) manJump(s, cap uint64) {
	capt := g.opp &^ cap
	ended := true
	if o := (s >> 4) & capt; o != 0 {
		if l := (o >> 4) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o)
		}
	}
	if o := (s >> 5) & capt; o != 0 {
		if l := (o >> 5) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o)
		}
	}
	if o := (s << 4) & capt; o != 0 {
		if l := (o << 4) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o)
		}
	}
	if o := (s << 5) & capt; o != 0 {
		if l := (o << 5) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o)
		}
	}
	if ended && cap != 0 {
		g.add(s, cap, false)
	}
}

// manLand goes on after a man's jump onto l: crowned on the far rank, it
// goes on as a king.
func (g *rGen) manLand(l, cap uint64) {
	if l&g.far != 0 {
		g.kingJump(l, cap, true)
		return
	}
	g.manJump(l, cap)
}

// kingJump extends a flying king's capture from s, having taken cap;
// promoted marks a man crowned during this capture.
func (g *rGen) kingJump(s, cap uint64, promoted bool) {
	ended := true
	for _, r := range rot8 {
		x := bits.RotateLeft64(s, r)
		for x&g.empty != 0 {
			x = bits.RotateLeft64(x, r)
		}
		o := x & g.opp &^ cap
		if o == 0 {
			continue
		}
		c2 := cap | o
		// The king must land where it can go on capturing, if there is
		// such a square beyond o.
		mustGoOn := false
		for l := bits.RotateLeft64(o, r) & g.empty; l != 0; l = bits.RotateLeft64(l, r) & g.empty {
			if g.kingCan(l, c2) {
				mustGoOn = true
				break
			}
		}
		for l := bits.RotateLeft64(o, r) & g.empty; l != 0; l = bits.RotateLeft64(l, r) & g.empty {
			if mustGoOn && !g.kingCan(l, c2) {
				continue
			}
			ended = false
			g.kingJump(l, c2, promoted)
		}
	}
	if ended && cap != 0 {
		g.add(s, cap, promoted)
	}
}

// kingCan reports whether a flying king on s, having taken cap, has a
// further capture.
func (g *rGen) kingCan(s, cap uint64) bool {
	for _, r := range rot8 {
		x := bits.RotateLeft64(s, r)
		for x&g.empty != 0 {
			x = bits.RotateLeft64(x, r)
		}
		if x&g.opp&^cap != 0 && bits.RotateLeft64(x, r)&g.empty != 0 {
			return true
		}
	}
	return false
}

// add records a finished capture ending on to, dropping duplicates (the
// same from, to and captured set by another path). Every complete capture
// is legal: the score is always 0.
func (g *rGen) add(to, cap uint64, promote bool) {
	var best uint32
	g.ml.keepCapture(&best, 0, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
