package movegen

// Italian Damone (rules.md §2) on the Italian board and numbering. Three
// ranks of piece: Pedina (a man), Dama (in Position.Kings) and Damone (in
// Position.Super as well as Kings).
//
// A Pedina steps and captures in three directions: forward along the long
// diagonal towards the enemy corner (White towards a8: up-left; Black
// towards h1: down-right) and the two sideways diagonals, up-right and
// down-left as seen from White, for both colours. Dame and Damoni step and
// capture one square in all four directions. A piece captures only enemy
// pieces of the same or a lower rank. Captured pieces stay until the move
// ends (the project's Reading), and landing on a promotion square during a
// capture ends the move: a Pedina becomes a Dama on the squares where the
// enemy Dame started (White 2 or 9, Black 24 or 31), a Dama becomes a
// Damone on the square where the enemy Damone started (White 1, Black 32).
//
// Capture priority, packed into one score like Italian's: the most pieces;
// then the capture by the higher-ranked piece; then the most Damoni taken;
// then the most Dame taken. Captures still equal are free choices.

// damoneRules holds the promotion squares of each colour.
type damoneRules struct {
	toDama   [2]uint64 // a Pedina of this colour landing here becomes a Dama
	toDamone [2]uint64 // a Dama of this colour landing here becomes a Damone
}

// pedinaDirs are the three directions of a Pedina of each colour (0
// up-right, 1 up-left, 2 down-left, 3 down-right).
var pedinaDirs = [2][3]int{{0, 1, 2}, {0, 2, 3}}

// step8 moves the bits of b one step in direction d on the 8x8 layout.
func step8(b uint64, d int) uint64 {
	switch d {
	case 0:
		return b >> 4
	case 1:
		return b >> 5
	case 2:
		return b << 4
	}
	return b << 5
}

type dmGen struct {
	ml       *MoveList
	best     uint32
	empty    uint64
	oppP     uint64 // enemy Pedine
	oppD     uint64 // enemy Dame
	oppS     uint64 // enemy Damoni
	toDama   uint64
	toDamone uint64
	us       Color
	from     uint8
}

// damoneCapturable returns what a piece of rank r (0 Pedina, 1 Dama, 2
// Damone) may take.
func (g *dmGen) capturable(r int) uint64 {
	switch r {
	case 0:
		return g.oppP
	case 1:
		return g.oppP | g.oppD
	}
	return g.oppP | g.oppD | g.oppS
}

func newDmGen(dr *damoneRules, p *Position, ml *MoveList) dmGen {
	us := p.Side
	opp := p.Pieces[us^1]
	return dmGen{
		ml:       ml,
		oppP:     opp &^ p.Kings,
		oppD:     opp & p.Kings &^ p.Super,
		oppS:     opp & p.Super,
		toDama:   dr.toDama[us],
		toDamone: dr.toDamone[us],
		us:       us,
		empty:    Board8 &^ p.Occupied(),
	}
}

// damoneJumpers returns the pieces of the side to move that can capture.
func damoneJumpers(p *Position) uint64 {
	g := newDmGen(&damoneRules{}, p, nil)
	own := p.Pieces[p.Side]
	var j uint64
	for d := 0; d < 4; d++ {
		back := d ^ 2
		j |= step8(step8(g.empty, back)&g.capturable(2), back) & own & p.Super
		j |= step8(step8(g.empty, back)&g.capturable(1), back) & own & p.Kings &^ p.Super
	}
	for _, d := range pedinaDirs[p.Side] {
		back := d ^ 2
		j |= step8(step8(g.empty, back)&g.oppP, back) & own &^ p.Kings
	}
	return j
}

// genDamone fills ml with the legal moves of p.
func genDamone(dr *damoneRules, p *Position, ml *MoveList) {
	ml.N = 0
	us := p.Side
	own := p.Pieces[us]
	g := newDmGen(dr, p, ml)
	if j := damoneJumpers(p); j != 0 {
		base := g.empty
		for ; j != 0; j &= j - 1 {
			s := j & -j
			g.from = uint8(lsb(s))
			g.empty = base | s
			g.jump(s, 0, p.kind(lsb(s)), 0, 0, 0)
		}
		return
	}
	n := 0
	add := func(from, to uint64, promote bool) {
		ml.Moves[n] = Move{From: uint8(lsb(from)), To: uint8(lsb(to)), Promote: promote}
		n++
	}
	for b := own; b != 0; b &= b - 1 {
		s := b & -b
		r := p.kind(lsb(s))
		if r == 0 {
			for _, d := range pedinaDirs[us] {
				if t := step8(s, d) & g.empty; t != 0 {
					add(s, t, t&g.toDama != 0)
				}
			}
			continue
		}
		for d := 0; d < 4; d++ {
			if t := step8(s, d) & g.empty; t != 0 {
				add(s, t, r == 1 && t&g.toDamone != 0)
			}
		}
	}
	ml.N = n
}

// countDamone returns the number of legal moves of p, listing them in
// scratch only when there are captures.
func countDamone(dr *damoneRules, p *Position, scratch *MoveList) int {
	if damoneJumpers(p) != 0 {
		genDamone(dr, p, scratch)
		return scratch.N
	}
	us := p.Side & 1
	own := p.Pieces[us]
	empty := Board8 &^ p.Occupied()
	men, kings := own&^p.Kings, own&p.Kings
	// A Pedina steps up-right and down-left as seen from White, and
	// forward along the long diagonal: up-left for White, down-right for
	// Black (pedinaDirs).
	n := popcount((men>>4)&empty) + popcount((men<<4)&empty)
	if us == White {
		n += popcount((men >> 5) & empty)
	} else {
		n += popcount((men << 5) & empty)
	}
	return n + popcount((kings>>4)&empty) + popcount((kings>>5)&empty) +
		popcount((kings<<4)&empty) + popcount((kings<<5)&empty)
}

// jump extends a capture by a piece of rank r from s, having taken cap: n
// pieces, ns Damoni and nd Dame among them.
func (g *dmGen) jump(s, cap uint64, r int, n, ns, nd uint32) {
	ended := true
	capt := g.capturable(r) &^ cap
	for d := 0; d < 4; d++ {
		if r == 0 && d == pedinaBack(g.us) {
			continue
		}
		o := step8(s, d) & capt
		if o == 0 {
			continue
		}
		l := step8(o, d) & g.empty
		if l == 0 {
			continue
		}
		ended = false
		s2, d2 := ns, nd
		switch {
		case o&g.oppS != 0:
			s2++
		case o&g.oppD != 0:
			d2++
		}
		if (r == 0 && l&g.toDama != 0) || (r == 1 && l&g.toDamone != 0) {
			g.add(l, cap|o, r, n+1, s2, d2, true)
			continue
		}
		g.jump(l, cap|o, r, n+1, s2, d2)
	}
	if ended && n > 0 {
		g.add(s, cap, r, n, ns, nd, false)
	}
}

// pedinaBack is the one direction a Pedina of colour c never takes.
func pedinaBack(c Color) int {
	if c == White {
		return 3 // down-right, away from a8
	}
	return 1 // up-left, away from h1
}

// add records a finished capture if the priority rules keep it.
func (g *dmGen) add(to, cap uint64, r int, n, ns, nd uint32, promote bool) {
	score := n<<24 | uint32(r)<<20 | ns<<12 | nd<<4
	g.ml.keepCapture(&g.best, score, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
