package movegen

// Italian draughts (rules.md §1).
//
// Men step and capture forward only and never capture a king; kings step
// and capture one square in the four diagonals. Captured pieces stay on the
// board until the move ends: they block their squares and are never jumped
// twice. A man that lands on the far rank during a capture is crowned and
// the move ends there.
//
// Capture priority is a lexicographic comparison of four keys, packed into
// one score so that the best capture is simply the largest score:
//
//	bits 24..31  number of pieces captured          (rule 1: most pieces)
//	bit  20      the capturing piece is a king      (rule 2: king beats man)
//	bits 16..19  number of kings captured           (rule 3: most kings)
//	bits  0..15  bit 15-j set when jump j takes a king (rule 4: kings met earliest)
//
// For rule 4, comparing these masks as integers compares the jump indexes at
// which kings are taken, first king first, then second, and so on (the
// project's Reading of the rule): at the first index where the two lines
// differ, the line that takes a king there has the larger mask. Rule 4 only
// decides between captures that tie on rules 1-3, so both lines hold the same
// number of kings. Captures left equal are all legal.
//
// When two paths give the same (from, to, captured set) — only a king can do
// that, by going round a cycle either way — the move is kept once, with the
// score of its best path.

// Score fields of an Italian capture.
const (
	itCount = 24
	itKing  = 20
	itKings = 16
)

// itGen is the state of one Italian capture search. Squares are handled as
// one-bit masks: thanks to the ghost bits a diagonal step is a plain shift,
// and a step off the board lands outside every mask.
type itGen struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	oppM  uint64 // enemy men not yet captured
	opp   uint64 // every enemy piece
	oppK  uint64 // enemy kings
	far   uint64 // the rank where the mover's men are crowned
	up    bool   // the mover's men go up the board (White)
	from  uint8
}

// fwd steps the mask b k bits forward for a side whose men go up (right
// shift) or down (left shift).
func fwd(b uint64, k uint, up bool) uint64 {
	if up {
		return b >> k
	}
	return b << k
}

// italianJumpers returns the men and the kings of the side to move that
// have a capture.
func italianJumpers(p *Position) (men, kings uint64) {
	us := p.Side
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	oppM := opp &^ p.Kings
	if us == White {
		men = ((empty<<4)&oppM)<<4 | ((empty<<5)&oppM)<<5
	} else {
		men = ((empty>>4)&oppM)>>4 | ((empty>>5)&oppM)>>5
	}
	men &= own &^ p.Kings
	kings = (((empty<<4)&opp)<<4 | ((empty<<5)&opp)<<5 |
		((empty>>4)&opp)>>4 | ((empty>>5)&opp)>>5) & own & p.Kings
	return men, kings
}

// italianHasCapture reports whether the side to move in p has a capture:
// italianJumpers(p) not both empty, the kings looked at only when no man
// can capture.
func italianHasCapture(p *Position) bool {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	oppM := opp &^ p.Kings
	var j uint64
	if us == White {
		j = ((empty<<4)&oppM)<<4 | ((empty<<5)&oppM)<<5
	} else {
		j = ((empty>>4)&oppM)>>4 | ((empty>>5)&oppM)>>5
	}
	if j&own&^p.Kings != 0 {
		return true
	}
	k := own & p.Kings
	return k != 0 && itKingJumpers(k, opp, empty) != 0
}

// addSingleJumps appends the man captures landing on a (shift 4) and b
// (shift 5), as found by itScan.
func addSingleJumps(p *Position, ml *MoveList, a, b uint64) {
	n := 0
	k, far := 1, Row8Top // landing = from - 2*shift for White
	if p.Side == Black {
		k, far = -1, Row8Bottom
	}
	for ; a != 0; a &= a - 1 {
		l := lsb(a)
		ml.Moves[n] = Move{Captured: 1 << ((l + 4*k) & 63), From: uint8(l + 8*k), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
		n++
	}
	for ; b != 0; b &= b - 1 {
		l := lsb(b)
		ml.Moves[n] = Move{Captured: 1 << ((l + 5*k) & 63), From: uint8(l + 10*k), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
		n++
	}
	ml.N = n
}

// itFrom returns the men that make the jumps landing on a and b.
func itFrom(a, b uint64, us Color) uint64 {
	if us == White {
		return a<<8 | b<<10
	}
	return a>>8 | b>>10
}

// itKingJumpers returns the kings among ownK that can capture one of opp.
func itKingJumpers(ownK, opp, empty uint64) uint64 {
	return (((empty<<4)&opp)<<4 | ((empty<<5)&opp)<<5 |
		((empty>>4)&opp)>>4 | ((empty>>5)&opp)>>5) & ownK
}

// itScan returns what the generator and the counter start from: the side
// to move us, its men and kings, the empty squares, the kings that can
// capture (jk), and the men's first jumps: where they land by shift 4 (a)
// and by shift 5 (b), and whether none of them can go on past its first
// jump (single). When single and only men can capture, those jumps are the
// legal captures: all take one man, so the priority rules keep every one
// of them. A man's next jump would lie further forward, away from its
// origin and the man it took, so the continuation test can use the board
// as it is.
func itScan(p *Position) (us Color, men, kings, empty, a, b, jk uint64, single bool) {
	us = p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty = Board8 &^ (own | opp)
	men, kings = own&^p.Kings, own&p.Kings
	oppM := opp &^ p.Kings
	var more uint64
	if us == White {
		a = ((men >> 4) & oppM) >> 4 & empty
		b = ((men >> 5) & oppM) >> 5 & empty
		c := (a | b) &^ Row8Top
		more = (((c>>4)&oppM)>>4 | ((c>>5)&oppM)>>5) & empty
	} else {
		a = ((men << 4) & oppM) << 4 & empty
		b = ((men << 5) & oppM) << 5 & empty
		c := (a | b) &^ Row8Bottom
		more = (((c<<4)&oppM)<<4 | ((c<<5)&oppM)<<5) & empty
	}
	if kings != 0 {
		jk = itKingJumpers(kings, opp, empty)
	}
	return us, men, kings, empty, a, b, jk, more == 0
}

// italianCanStep reports whether a piece of the side to move in p can step
// to an empty square (the squares countItalian counts with no capture).
func italianCanStep(p *Position) bool {
	us := p.Side & 1
	own := p.Pieces[us]
	empty := Board8 &^ (own | p.Pieces[us^1])
	men, kings := own&^p.Kings, own&p.Kings
	var t uint64
	if us == White {
		t = men>>4 | men>>5
	} else {
		t = men<<4 | men<<5
	}
	t |= kings>>4 | kings>>5 | kings<<4 | kings<<5
	return t&empty != 0
}

// genItalian fills ml with the legal moves of p under the Italian rules.
func genItalian(p *Position, ml *MoveList) {
	us, men, kings, empty, a, b, jk, single := itScan(p)
	if a|b|jk != 0 {
		if jk == 0 && single {
			addSingleJumps(p, ml, a, b)
			return
		}
		ml.N = 0
		italianCaptures(p, ml, itFrom(a, b, us), jk)
		return
	}
	n := 0
	if us == White {
		n = addSteps(ml, n, (men>>4)&empty, -4, Row8Top)
		n = addSteps(ml, n, (men>>5)&empty, -5, Row8Top)
	} else {
		n = addSteps(ml, n, (men<<4)&empty, 4, Row8Bottom)
		n = addSteps(ml, n, (men<<5)&empty, 5, Row8Bottom)
	}
	if kings != 0 {
		n = addSteps(ml, n, (kings>>4)&empty, -4, 0)
		n = addSteps(ml, n, (kings>>5)&empty, -5, 0)
		n = addSteps(ml, n, (kings<<4)&empty, 4, 0)
		n = addSteps(ml, n, (kings<<5)&empty, 5, 0)
	}
	ml.N = n
}

// addSteps appends one quiet step per bit of targets, each coming from
// target-shift; a man landing in promo is crowned.
func addSteps(ml *MoveList, n int, targets uint64, shift int, promo uint64) int {
	for ; targets != 0; targets &= targets - 1 {
		t := lsb(targets)
		ml.Moves[n] = Move{From: uint8(t - shift), To: uint8(t), Promote: promo&(1<<t) != 0}
		n++
	}
	return n
}

// countItalian returns the number of legal moves of p; scratch is used only
// when there are captures. Quiet moves are counted without listing them.
func countItalian(p *Position, scratch *MoveList) int {
	us, men, kings, empty, a, b, jk, single := itScan(p)
	if a|b|jk != 0 {
		if jk == 0 && single {
			return popcount(a) + popcount(b)
		}
		scratch.N = 0
		italianCaptures(p, scratch, itFrom(a, b, us), jk)
		return scratch.N
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
	return n + popcount((kings>>4)&empty) + popcount((kings>>5)&empty) +
		popcount((kings<<4)&empty) + popcount((kings<<5)&empty)
}

// italianCaptures lists the best captures (by the priority rules) of the men
// jm and kings jk of the side to move.
func italianCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := itGen{
		ml:   ml,
		oppM: opp &^ p.Kings,
		oppK: opp & p.Kings,
		opp:  opp,
		far:  Row8Top,
		up:   us == White,
	}
	if us == Black {
		g.far = Row8Bottom
	}
	base := Board8 &^ (own | opp)
	// Kings first: with equal counts their captures outrank the men's, so
	// men's lines are then rejected at once.
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.kingJump(s, 0, 0, 0, 0)
	}
	g.empty = base
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.manJump(s, 0, 0)
	}
}

// manJump extends a man's capture from square s (a one-bit mask), having
// taken cap (n pieces). Men cannot come back, so their origin need not be
// marked empty.
func (g *itGen) manJump(s, cap uint64, n uint32) {
	ended := true
	if o := fwd(s, 4, g.up) & g.oppM &^ cap; o != 0 {
		if l := fwd(o, 4, g.up) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o, n+1)
		}
	}
	if o := fwd(s, 5, g.up) & g.oppM &^ cap; o != 0 {
		if l := fwd(o, 5, g.up) & g.empty; l != 0 {
			ended = false
			g.manLand(l, cap|o, n+1)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n<<itCount, false, false)
	}
}

// manLand handles a man landing on l after its n-th jump: crowned and
// stopped on the far rank, jumping on otherwise.
func (g *itGen) manLand(l, cap uint64, n uint32) {
	if l&g.far != 0 {
		g.add(l, cap, n<<itCount, false, true)
		return
	}
	g.manJump(l, cap, n)
}

// kingJump extends a king's capture from square s (a one-bit mask), having
// taken cap: n pieces, nk of them kings, order the rule-4 mask.
func (g *itGen) kingJump(s, cap uint64, n, nk, order uint32) {
	ended := true
	free := g.opp &^ cap
	if o := s >> 4 & free; o != 0 {
		if l := o >> 4 & g.empty; l != 0 {
			ended = false
			g.kingLand(l, o, cap, n, nk, order)
		}
	}
	if o := s >> 5 & free; o != 0 {
		if l := o >> 5 & g.empty; l != 0 {
			ended = false
			g.kingLand(l, o, cap, n, nk, order)
		}
	}
	if o := s << 4 & free; o != 0 {
		if l := o << 4 & g.empty; l != 0 {
			ended = false
			g.kingLand(l, o, cap, n, nk, order)
		}
	}
	if o := s << 5 & free; o != 0 {
		if l := o << 5 & g.empty; l != 0 {
			ended = false
			g.kingLand(l, o, cap, n, nk, order)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n<<itCount|1<<itKing|nk<<itKings|order, true, false)
	}
}

// kingLand goes on after a king's jump over o (its jump number n) onto l.
func (g *itGen) kingLand(l, o, cap uint64, n, nk, order uint32) {
	if g.oppK&o != 0 {
		g.kingJump(l, cap|o, n+1, nk+1, order|1<<(15-n))
		return
	}
	g.kingJump(l, cap|o, n+1, nk, order)
}

// add records a finished capture ending on to (a one-bit mask) if it is at
// least as good as the best so far, dropping worse ones and duplicates.
func (g *itGen) add(to, cap uint64, score uint32, king, promote bool) {
	g.ml.keepCapture(&g.best, score, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, king)
}
