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

// itGen is the state of one Italian capture search.
type itGen struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	oppM  uint64 // enemy men
	opp   uint64 // every enemy piece
	oppK  uint64 // enemy kings
	far   uint64 // the rank where the mover's men are crowned
	dirs  [2]int // the men's forward directions
	from  uint8
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

// genItalian fills ml with the legal moves of p under the Italian rules.
func genItalian(p *Position, ml *MoveList) {
	ml.N = 0
	if jm, jk := italianJumpers(p); jm|jk != 0 {
		italianCaptures(p, ml, jm, jk)
		return
	}
	us := p.Side
	own := p.Pieces[us]
	empty := Board8 &^ (own | p.Pieces[us^1])
	men := own &^ p.Kings
	kings := own & p.Kings
	n := 0
	if us == White {
		n = addSteps(ml, n, (men>>4)&empty, -4, Row8Top)
		n = addSteps(ml, n, (men>>5)&empty, -5, Row8Top)
	} else {
		n = addSteps(ml, n, (men<<4)&empty, 4, Row8Bottom)
		n = addSteps(ml, n, (men<<5)&empty, 5, Row8Bottom)
	}
	n = addSteps(ml, n, (kings>>4)&empty, -4, 0)
	n = addSteps(ml, n, (kings>>5)&empty, -5, 0)
	n = addSteps(ml, n, (kings<<4)&empty, 4, 0)
	n = addSteps(ml, n, (kings<<5)&empty, 5, 0)
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
	if jm, jk := italianJumpers(p); jm|jk != 0 {
		scratch.N = 0
		italianCaptures(p, scratch, jm, jk)
		return scratch.N
	}
	us := p.Side
	own := p.Pieces[us]
	empty := Board8 &^ (own | p.Pieces[us^1])
	men := own &^ p.Kings
	kings := own & p.Kings
	var n int
	if us == White {
		n = popcount((men>>4)&empty) + popcount((men>>5)&empty)
	} else {
		n = popcount((men<<4)&empty) + popcount((men<<5)&empty)
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
		dirs: [2]int{dirUR, dirUL},
	}
	if us == Black {
		g.far = Row8Bottom
		g.dirs = [2]int{dirDL, dirDR}
	}
	base := Board8 &^ (own | opp)
	// Kings first: with equal counts their captures outrank the men's, so
	// men's shorter lines are rejected at once.
	for ; jk != 0; jk &= jk - 1 {
		s := lsb(jk)
		g.from = uint8(s)
		g.empty = base | 1<<s
		g.kingJump(s, 0, 0, 0, 0)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := lsb(jm)
		g.from = uint8(s)
		g.empty = base | 1<<s
		g.manJump(s, 0, 0)
	}
}

// manJump extends a man's capture from s, having taken cap (n pieces).
func (g *itGen) manJump(s int, cap uint64, n uint32) {
	ended := true
	for _, d := range g.dirs {
		o := nb8[d][s]
		if o < 0 || (g.oppM&^cap)&(1<<o) == 0 {
			continue
		}
		l := nb8[d][o]
		if l < 0 || g.empty&(1<<l) == 0 {
			continue
		}
		ended = false
		c := cap | 1<<o
		if g.far&(1<<l) != 0 {
			g.add(l, c, (n+1)<<itCount, false, true)
			continue
		}
		g.manJump(int(l), c, n+1)
	}
	if ended && n > 0 {
		g.add(int8(s), cap, n<<itCount, false, false)
	}
}

// kingJump extends a king's capture from s, having taken cap: n pieces, nk
// of them kings, order the rule-4 mask.
func (g *itGen) kingJump(s int, cap uint64, n, nk, order uint32) {
	ended := true
	for d := 0; d < 4; d++ {
		o := nb8[d][s]
		if o < 0 || (g.opp&^cap)&(1<<o) == 0 {
			continue
		}
		l := nb8[d][o]
		if l < 0 || g.empty&(1<<l) == 0 {
			continue
		}
		ended = false
		if g.oppK&(1<<o) != 0 {
			g.kingJump(int(l), cap|1<<o, n+1, nk+1, order|1<<(15-n))
		} else {
			g.kingJump(int(l), cap|1<<o, n+1, nk, order)
		}
	}
	if ended && n > 0 {
		g.add(int8(s), cap, n<<itCount|1<<itKing|nk<<itKings|order, true, false)
	}
}

// add records a finished capture if it is at least as good as the best so
// far, dropping worse ones and duplicates.
func (g *itGen) add(to int8, cap uint64, score uint32, king, promote bool) {
	if score < g.best {
		return
	}
	ml := g.ml
	if score > g.best {
		g.best = score
		ml.N = 0
	} else if king {
		for i := 0; i < ml.N; i++ {
			if m := &ml.Moves[i]; m.Captured == cap && m.To == uint8(to) && m.From == g.from {
				return
			}
		}
	}
	ml.Moves[ml.N] = Move{Captured: cap, From: g.from, To: uint8(to), Promote: promote}
	ml.N++
}
