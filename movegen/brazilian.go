package movegen

import "math/bits"

// Brazilian draughts (rules.md §6) is International draughts on the 8x8
// board, and has International's generator (intl.go) with the 8x8 layout's
// steps: the constant shifts 4 and 5 (board.go), and the rotations rot8
// for the flying kings. Men capture backward and may take kings, a man
// passing through the far rank during a capture goes on as a man (crowned
// only if the move ends there), kings fly, and the capture taking the most
// pieces is the only legal one. Keep the two files alike.
//
// It lists the moves in the same order as the generic generator did
// (diag.go), so that the search sees the same tree.

// brJumps returns where the men of own land that jump one of opp onto an
// empty square, per direction (see diag.go).
func brJumps(men, opp, empty uint64) (l0, l1, l2, l3 uint64) {
	l0 = ((men >> 4) & opp) >> 4 & empty
	l1 = ((men >> 5) & opp) >> 5 & empty
	l2 = ((men << 4) & opp) << 4 & empty
	l3 = ((men << 5) & opp) << 5 & empty
	return
}

// brMore reports whether a man standing on one of all could jump again,
// judged on the board as it stands (exact for men: see diag.go).
func brMore(all, opp, empty uint64) bool {
	more := ((all>>4)&opp)>>4 | ((all>>5)&opp)>>5 | ((all<<4)&opp)<<4 | ((all<<5)&opp)<<5
	return more&empty != 0
}

// brazilianJumpers returns the men and kings of the side to move that can
// capture.
func brazilianJumpers(p *Position) (men, kings uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	l0, l1, l2, l3 := brJumps(own&^p.Kings, opp, empty)
	if k := own & p.Kings; k != 0 {
		kings = brKingJumpers(k, opp, empty)
	}
	return l0<<8 | l1<<10 | l2>>8 | l3>>10, kings
}

// brKingJumpers returns the kings among ownK that can capture.
func brKingJumpers(ownK, opp, empty uint64) (kings uint64) {
	for k := ownK; k != 0; k &= k - 1 {
		s := k & -k
		if brKingCan(s, opp, empty) {
			kings |= s
		}
	}
	return kings
}

// brKingCan reports whether a flying king on s can take one of opp.
func brKingCan(s, opp, empty uint64) bool {
	x := s >> 4
	for x&empty != 0 {
		x >>= 4
	}
	if x&opp != 0 && (x>>4)&empty != 0 {
		return true
	}
	x = s >> 5
	for x&empty != 0 {
		x >>= 5
	}
	if x&opp != 0 && (x>>5)&empty != 0 {
		return true
	}
	x = s << 4
	for x&empty != 0 {
		x <<= 4
	}
	if x&opp != 0 && (x<<4)&empty != 0 {
		return true
	}
	x = s << 5
	for x&empty != 0 {
		x <<= 5
	}
	return x&opp != 0 && (x<<5)&empty != 0
}

// genBrazilian fills ml with the legal moves of p.
func genBrazilian(p *Position, ml *MoveList) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	l0, l1, l2, l3 := brJumps(men, opp, empty)
	all := l0 | l1 | l2 | l3
	var jk uint64
	if kings != 0 {
		jk = brKingJumpers(kings, opp, empty)
	}
	far := Row8Top
	if us == Black {
		far = Row8Bottom
	}
	n := 0
	if all|jk != 0 {
		if jk != 0 || brMore(all, opp, empty) {
			brazilianCaptures(p, ml, l0<<8|l1<<10|l2>>8|l3>>10, jk)
			return
		}
		for ; l0 != 0; l0 &= l0 - 1 {
			l := uint(lsb(l0))
			ml.Moves[n] = Move{Captured: 1 << ((l + 4) & 63), From: uint8(l + 8), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for ; l1 != 0; l1 &= l1 - 1 {
			l := uint(lsb(l1))
			ml.Moves[n] = Move{Captured: 1 << ((l + 5) & 63), From: uint8(l + 10), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for ; l2 != 0; l2 &= l2 - 1 {
			l := uint(lsb(l2))
			ml.Moves[n] = Move{Captured: 1 << ((l - 4) & 63), From: uint8(l - 8), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for ; l3 != 0; l3 &= l3 - 1 {
			l := uint(lsb(l3))
			ml.Moves[n] = Move{Captured: 1 << ((l - 5) & 63), From: uint8(l - 10), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
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

// countBrazilian returns the number of legal moves of p, listing them in
// scratch only when a capture can take more than one piece.
func countBrazilian(p *Position, scratch *MoveList) int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	l0, l1, l2, l3 := brJumps(men, opp, empty)
	all := l0 | l1 | l2 | l3
	var jk uint64
	if kings != 0 {
		jk = brKingJumpers(kings, opp, empty)
	}
	if all|jk != 0 {
		if jk != 0 || brMore(all, opp, empty) {
			brazilianCaptures(p, scratch, l0<<8|l1<<10|l2>>8|l3>>10, jk)
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

// bGen is the state of one Brazilian capture search.
type bGen struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	opp   uint64 // every enemy piece
	far   uint64 // the mover's crowning rank
	from  uint8
}

// brazilianCaptures lists the legal captures of the men jm and kings jk.
func brazilianCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := bGen{ml: ml, opp: opp, far: Row8Top}
	if us == Black {
		g.far = Row8Bottom
	}
	ml.N = 0
	base := Board8 &^ (own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.kingJump(s, 0, 0)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.manJump(s, 0, 0)
	}
}

// manJump extends a man's capture from s (a one-bit mask), having taken
// cap (n pieces).
func (g *bGen) manJump(s, cap uint64, n uint32) {
	capt := g.opp &^ cap
	ended := true
	if o := (s >> 4) & capt; o != 0 {
		if l := (o >> 4) & g.empty; l != 0 {
			ended = false
			g.manJump(l, cap|o, n+1)
		}
	}
	if o := (s >> 5) & capt; o != 0 {
		if l := (o >> 5) & g.empty; l != 0 {
			ended = false
			g.manJump(l, cap|o, n+1)
		}
	}
	if o := (s << 4) & capt; o != 0 {
		if l := (o << 4) & g.empty; l != 0 {
			ended = false
			g.manJump(l, cap|o, n+1)
		}
	}
	if o := (s << 5) & capt; o != 0 {
		if l := (o << 5) & g.empty; l != 0 {
			ended = false
			g.manJump(l, cap|o, n+1)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, s&g.far != 0)
	}
}

// kingJump extends a flying king's capture from s, having taken cap (n
// pieces).
func (g *bGen) kingJump(s, cap uint64, n uint32) {
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
		for l := bits.RotateLeft64(o, r) & g.empty; l != 0; l = bits.RotateLeft64(l, r) & g.empty {
			ended = false
			g.kingJump(l, cap|o, n+1)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, false)
	}
}

// add records a finished capture of n pieces ending on to if it takes the
// most pieces so far, dropping duplicates (the same from, to and captured
// set by another path).
func (g *bGen) add(to, cap uint64, n uint32, promote bool) {
	g.ml.keepCapture(&g.best, n, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
