package movegen

// Turkish draughts (rules.md §3): all 64 squares, orthogonal moves.
//
// Layout: bit = (7-rank)*8 + file, so a8 is bit 0 and h1 bit 63; White
// starts at the high bits and moves up (a right shift by 8), like every
// other layout of the package:
//
//	    a  b  c  d  e  f  g  h
//	8 | 0  1  2  3  4  5  6  7
//	7 | 8  9 10 11 12 13 14 15
//	  ...
//	1 |56 57 58 59 60 61 62 63
//
// Men step one square forward or sideways and capture the same ways with a
// short jump, never backward. Kings slide any distance along ranks and
// files and capture from afar: over an enemy piece with only empty squares
// before it, landing on any empty square beyond. Captured pieces leave the
// board at once, so their squares are free for the rest of the sequence;
// within one sequence a king never turns back 180°. The most pieces must
// be taken (kings count as one). A man reaching the far rank during a
// capture goes on capturing as a man (sideways along that rank) and is
// crowned only if the move ends there.

// Turkish board masks.
const (
	BoardT   uint64 = ^uint64(0)
	RowTTop  uint64 = 0xFF       // rank 8, where White men are crowned
	RowTBot  uint64 = 0xFF << 56 // rank 1, where Black men are crowned
	fileA    uint64 = 0x0101010101010101
	fileH    uint64 = fileA << 7
	notFileA        = ^fileA
	notFileH        = ^fileH
)

// tStep moves the bits of b one square in direction d: 0 up (towards rank
// 8), 1 down, 2 left (towards file a), 3 right. Bits that would wrap round
// an edge are dropped.
func tStep(b uint64, d int) uint64 {
	switch d {
	case 0:
		return b >> 8
	case 1:
		return b << 8
	case 2:
		return (b & notFileA) >> 1
	}
	return (b & notFileH) << 1
}

// tOpposite is the direction opposite d.
func tOpposite(d int) int { return d ^ 1 }

type tGen struct {
	ml   *MoveList
	best uint32
	far  uint64
	us   Color
	from uint8
}

// turkishBoard returns the side to move, its pieces, the other side's and
// the empty squares (every bit is a square).
func turkishBoard(p *Position) (us Color, own, opp, empty uint64) {
	us = p.Side & 1
	own, opp = p.Pieces[us], p.Pieces[us^1]
	return us, own, opp, ^(own | opp)
}

// turkishJumpers returns the men and kings of the side to move that can
// capture.
func turkishJumpers(p *Position) (men, kings uint64) {
	us, own, opp, empty := turkishBoard(p)
	lf, ll, lr := turkishManJumps(own&^p.Kings, opp, empty, us)
	return turkishFrom(lf, ll, lr, us), turkishKingJumpers(own&p.Kings, opp, empty)
}

// turkishManJumps returns where the men of side us land that jump one of
// opp onto an empty square: forward, to the left and to the right.
func turkishManJumps(men, opp, empty uint64, us Color) (lf, ll, lr uint64) {
	if us == White {
		lf = ((men >> 8) & opp) >> 8 & empty
	} else {
		lf = ((men << 8) & opp) << 8 & empty
	}
	ll = ((((men & notFileA) >> 1) & opp & notFileA) >> 1) & empty
	lr = ((((men & notFileH) << 1) & opp & notFileH) << 1) & empty
	return lf, ll, lr
}

// turkishFrom returns the men that make the jumps landing on lf, ll, lr
// (see turkishManJumps).
func turkishFrom(lf, ll, lr uint64, us Color) uint64 {
	from := ll<<2 | lr>>2
	if us == White {
		return from | lf<<16
	}
	return from | lf>>16
}

// turkishKingJumpers returns the kings among ownK that can capture.
func turkishKingJumpers(ownK, opp, empty uint64) (kings uint64) {
	for k := ownK; k != 0; k &= k - 1 {
		s := k & -k
		x := s >> 8
		for x&empty != 0 {
			x >>= 8
		}
		if x&opp != 0 && (x>>8)&empty != 0 {
			kings |= s
			continue
		}
		x = s << 8
		for x&empty != 0 {
			x <<= 8
		}
		if x&opp != 0 && (x<<8)&empty != 0 {
			kings |= s
			continue
		}
		x = (s & notFileA) >> 1
		for x&empty != 0 {
			x = (x & notFileA) >> 1
		}
		if x&opp != 0 && ((x&notFileA)>>1)&empty != 0 {
			kings |= s
			continue
		}
		x = (s & notFileH) << 1
		for x&empty != 0 {
			x = (x & notFileH) << 1
		}
		if x&opp != 0 && ((x&notFileH)<<1)&empty != 0 {
			kings |= s
		}
	}
	return kings
}

// turkishMore reports whether a man of side us standing on one of all could
// jump again. Judged on the board as it stands, it is exact for a man's
// second jump: the piece it took (still on the board here) is next to it
// and could only be jumped back onto its origin, which is not empty here;
// no other jump needs the taken piece gone.
func turkishMore(all, opp, empty uint64, us Color) bool {
	lf, ll, lr := turkishManJumps(all, opp, empty, us)
	return lf|ll|lr != 0
}

// genTurkish fills ml with the legal moves of p.
func genTurkish(p *Position, ml *MoveList) {
	ml.N = 0
	us, own, opp, empty := turkishBoard(p)
	men := own &^ p.Kings
	lf, ll, lr := turkishManJumps(men, opp, empty, us)
	jk := turkishKingJumpers(own&p.Kings, opp, empty)
	if jm := turkishFrom(lf, ll, lr, us); jm|jk != 0 {
		turkishCaptures(p, ml, jm, jk)
		return
	}
	far := RowTTop
	if us == Black {
		far = RowTBot
	}
	n := 0
	var fwd uint64
	if us == White {
		fwd = (men >> 8) & empty
	} else {
		fwd = (men << 8) & empty
	}
	for t := fwd; t != 0; t &= t - 1 {
		l := lsb(t)
		from := l + 8
		if us == Black {
			from = l - 8
		}
		ml.Moves[n] = Move{From: uint8(from), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
		n++
	}
	for t := ((men & notFileA) >> 1) & empty; t != 0; t &= t - 1 {
		l := lsb(t)
		ml.Moves[n] = Move{From: uint8(l + 1), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
		n++
	}
	for t := ((men & notFileH) << 1) & empty; t != 0; t &= t - 1 {
		l := lsb(t)
		ml.Moves[n] = Move{From: uint8(l - 1), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
		n++
	}
	for k := own & p.Kings; k != 0; k &= k - 1 {
		s := k & -k
		from := uint8(lsb(s))
		for d := 0; d < 4; d++ {
			for x := tStep(s, d) & empty; x != 0; x = tStep(x, d) & empty {
				ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
				n++
			}
		}
	}
	ml.N = n
}

// turkishCaptures lists the legal captures of the men jm and kings jk.
func turkishCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := tGen{ml: ml, us: us, far: RowTTop}
	if us == Black {
		g.far = RowTBot
	}
	ml.N = 0
	empty := ^(own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.kingJump(s, empty|s, opp, 0, -1)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.manJump(s, empty|s, opp, 0)
	}
}

// countTurkish returns the number of legal moves of p, listing them in
// scratch only when a capture can take more than one piece.
func countTurkish(p *Position, scratch *MoveList) int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := ^(own | opp)
	men := own &^ p.Kings
	lf, ll, lr := turkishManJumps(men, opp, empty, us)
	jk := turkishKingJumpers(own&p.Kings, opp, empty)
	if all := lf | ll | lr; all|jk != 0 {
		// Single jumps by men, none going on, all take one piece and are
		// all legal; each (from, to) is a different move.
		if jk == 0 && !turkishMore(all, opp, empty, us) {
			return popcount(lf) + popcount(ll) + popcount(lr)
		}
		turkishCaptures(p, scratch, turkishFrom(lf, ll, lr, us), jk)
		return scratch.N
	}
	n := popcount(((men&notFileA)>>1)&empty) + popcount(((men&notFileH)<<1)&empty)
	if us == White {
		n += popcount((men >> 8) & empty)
	} else {
		n += popcount((men << 8) & empty)
	}
	kings := own & p.Kings
	if kings == 0 {
		return n
	}
	for x := (kings >> 8) & empty; x != 0; x = (x >> 8) & empty {
		n += popcount(x)
	}
	for x := (kings << 8) & empty; x != 0; x = (x << 8) & empty {
		n += popcount(x)
	}
	for x := ((kings & notFileA) >> 1) & empty; x != 0; x = ((x & notFileA) >> 1) & empty {
		n += popcount(x)
	}
	for x := ((kings & notFileH) << 1) & empty; x != 0; x = ((x & notFileH) << 1) & empty {
		n += popcount(x)
	}
	return n
}

// manJump extends a man's capture from s. empty and opp are the board as
// it now stands: pieces taken so far (cap, n of them) are already gone.
// The three directions are written out: forward, left, right.
func (g *tGen) manJump(s, empty, opp, cap uint64) {
	ended := true
	var o, l uint64
	if g.us == White {
		o = (s >> 8) & opp
		l = (o >> 8) & empty
	} else {
		o = (s << 8) & opp
		l = (o << 8) & empty
	}
	if l != 0 {
		ended = false
		g.manJump(l, empty|o, opp&^o, cap|o)
	}
	if o := ((s & notFileA) >> 1) & opp; o != 0 {
		if l := ((o & notFileA) >> 1) & empty; l != 0 {
			ended = false
			g.manJump(l, empty|o, opp&^o, cap|o)
		}
	}
	if o := ((s & notFileH) << 1) & opp; o != 0 {
		if l := ((o & notFileH) << 1) & empty; l != 0 {
			ended = false
			g.manJump(l, empty|o, opp&^o, cap|o)
		}
	}
	if ended && cap != 0 {
		g.add(s, cap, s&g.far != 0)
	}
}

// kingJump extends a king's capture from s; last is the direction of the
// previous jump (-1 before the first), which the king may not reverse.
func (g *tGen) kingJump(s, empty, opp, cap uint64, last int) {
	ended := true
	for d := 0; d < 4; d++ {
		if last >= 0 && d == tOpposite(last) {
			continue
		}
		x := tStep(s, d)
		for x&empty != 0 {
			x = tStep(x, d)
		}
		o := x & opp
		if o == 0 {
			continue
		}
		e2, opp2 := empty|o, opp&^o
		for l := tStep(o, d) & empty; l != 0; l = tStep(l, d) & e2 {
			ended = false
			g.kingJump(l, e2, opp2, cap|o, d)
		}
	}
	if ended && cap != 0 {
		g.add(s, cap, false)
	}
}

// add records a finished capture if it takes at least as many pieces as
// the best so far, dropping duplicates.
func (g *tGen) add(to, cap uint64, promote bool) {
	g.ml.keepCapture(&g.best, uint32(popcount(cap)), Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}

// newGeometryT builds the Turkish board: algebraic names, numbers 1 = a1
// … 8 = h1 … 64 = h8.
func newGeometryT() *geometry {
	g := &geometry{files: 8, ranks: 8, diagonal: false, board: BoardT, rot: 63, algebraic: true}
	for b := 0; b < 64; b++ {
		g.coord[b] = [2]int8{int8(b % 8), int8(7 - b/8)}
	}
	g.finish(false, true)
	return g
}
