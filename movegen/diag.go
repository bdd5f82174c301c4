package movegen

import "math/bits"

// The generic diagonal generator, used for English draughts on the 8x8
// layout (Italian, Russian, Brazilian, Spanish and International have their
// own, specialised generators in italian.go, russian.go, brazilian.go,
// spanish.go and intl.go, which list the same moves in the same order; their
// diagRules are still read by the notation). A variant's diagRules say how
// its pieces move and capture.
//
// Captured pieces stay on the board until the move ends in every one of
// these rule sets: they block their squares (a flying king's slide stops at
// them) and are never jumped twice. The mover's origin counts as empty.

// crownRule says what a man does when a capture takes it onto its far rank
// with more pieces to take.
type crownRule uint8

const (
	crownStop     crownRule = iota // the move ends and the man is crowned (men capturing only forward end there anyway)
	crownContinue                  // crowned at once, it goes on capturing as a king (Russian)
	crownPass                      // it goes on capturing as a man; crowned only if the move ends there (International, Brazilian)
)

// prioRule says which complete captures are legal.
type prioRule uint8

const (
	prioFree    prioRule = iota // any complete capture (English, Russian)
	prioMax                     // the most pieces, kings counting as one (International, Brazilian)
	prioSpanish                 // the most pieces, then the most kings
)

// diagRules is the rule data of a diagonal variant.
type diagRules struct {
	flying       bool // kings slide and capture at a distance
	manBack      bool // men capture backward too
	manTakesKing bool // men may capture kings
	crownMid     crownRule
	prio         prioRule
}

// diagBoard is the board data the generator needs: the playable bits and
// the crowning ranks. The board is the 8x8 layout (board.go), so the
// diagonal steps are the constant shifts dA (up-right/down-left) and dB
// (up-left/down-right).
type diagBoard struct {
	board uint64
	crown [2]uint64
}

// The two shift sizes of a diagonal step on the 8x8 layout.
const (
	dA uint = 4
	dB uint = 5
)

// rot8 are the four diagonal steps as rotations (0 up-right, 1 up-left, 2
// down-left, 3 down-right). A rotation is a shift whose bits leaving one
// end come in at the other, where they miss the board: a square's bit is
// at most 35, so a step down never wraps, and a step up from the top row
// wraps to bit 59 or above. So one instruction makes a step in any
// direction d, with no switch on d.
var rot8 = [4]int{-4, -5, 4, 5}

// step moves every bit of b one square in direction d (0 up-right, 1
// up-left, 2 down-left, 3 down-right). Bits leaving the board land on ghost
// bits or outside the layout, which every mask excludes.
func (db *diagBoard) step(b uint64, d int) uint64 {
	return bits.RotateLeft64(b, rot8[d&3])
}

// dGen is the state of one capture search.
type dGen struct {
	db      *diagBoard
	r       *diagRules
	ml      *MoveList
	best    uint32
	empty   uint64 // empty squares; the mover's origin counts as empty
	opp     uint64 // every enemy piece
	oppK    uint64 // enemy kings
	manCap  uint64 // enemy pieces a man may take
	far     uint64 // the mover's crowning rank
	manDirs [4]bool
	from    uint8
}

// manDirections returns the directions in which the men of side c capture.
func manDirections(r *diagRules, c Color) (d [4]bool) {
	fwd := [2]int{0, 1}
	if c == Black {
		fwd = [2]int{2, 3}
	}
	d[fwd[0]], d[fwd[1]] = true, true
	if r.manBack {
		d = [4]bool{true, true, true, true}
	}
	return d
}

// diagJumpers returns the men and kings of the side to move that can
// capture.
func diagJumpers(db *diagBoard, r *diagRules, p *Position) (men, kings uint64) {
	var s diagScan
	s.init(db, r, p)
	return s.jumpers(db), s.jk
}

// kingJumpers returns the kings among ownK that can capture one of opp.
func kingJumpers(db *diagBoard, r *diagRules, ownK, opp, empty uint64) (kings uint64) {
	a, b := dA, dB
	if !r.flying {
		kings = ((empty<<a)&opp)<<a | ((empty<<b)&opp)<<b | ((empty>>a)&opp)>>a | ((empty>>b)&opp)>>b
		return kings & ownK
	}
	for k := ownK; k != 0; k &= k - 1 {
		s := k & -k
		for d := 0; d < 4; d++ {
			x := db.step(s, d)
			for x&empty != 0 {
				x = db.step(x, d)
			}
			if x&opp != 0 && db.step(x, d)&empty != 0 {
				kings |= s
				break
			}
		}
	}
	return kings
}

// manJumps returns where the men land that jump one of caps onto an empty
// square, per direction: up by a, up by b, down by a, down by b (up:
// towards the low bits, White's forward).
func manJumps(men, caps, empty uint64, a, b uint, up, down bool) (land [4]uint64) {
	if up {
		land[0] = ((men >> a) & caps) >> a & empty
		land[1] = ((men >> b) & caps) >> b & empty
	}
	if down {
		land[2] = ((men << a) & caps) << a & empty
		land[3] = ((men << b) & caps) << b & empty
	}
	return land
}

// diagScan is what one pass over a position finds for the generator and
// the counter: the board, the first jumps of the men, the kings that can
// capture, and whether the captures are all single jumps by men.
type diagScan struct {
	land   [4]uint64 // landing squares of the men's first jumps, per direction (see manJumps)
	jk     uint64    // kings that can capture
	own    uint64
	empty  uint64
	men    uint64
	kings  uint64
	manCap uint64 // enemy pieces a man may take
	up     bool   // the side's men capture up (towards the low bits)
	down   bool
	single bool // only men capture and no capture goes on past its first jump: land lists the legal captures
}

// init scans p. When single is set, land holds exactly the landing squares
// of the legal captures: every such capture takes one piece, so the
// maximum rules keep all of them, and the Spanish rule keeps those taking a
// king if there are any.
//
// The continuation test uses the board as it stands: a man's next jump can
// never land on its origin (that would jump back over the piece just
// taken), and a false alarm only sends the position to the full search.
func (s *diagScan) init(db *diagBoard, r *diagRules, p *Position) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := db.board &^ (own | opp)
	s.own, s.empty = own, empty
	s.men, s.kings = own&^p.Kings, own&p.Kings
	manCap := opp
	if !r.manTakesKing {
		manCap &^= p.Kings
	}
	s.manCap = manCap
	a, b := dA, dB
	up := us == White || r.manBack
	down := us == Black || r.manBack
	s.up, s.down = up, down
	s.land = manJumps(s.men, manCap, empty, a, b, up, down)
	s.jk = 0
	if s.kings != 0 {
		s.jk = kingJumpers(db, r, s.kings, opp, empty)
	}
	s.single = false
	all := s.land[0] | s.land[1] | s.land[2] | s.land[3]
	if all == 0 || s.jk != 0 {
		return
	}
	far := db.crown[us]
	if r.crownMid == crownContinue && all&far != 0 {
		return // a crowned man may go on as a king
	}
	if r.crownMid == crownStop {
		all &^= far
	}
	var more uint64
	if up {
		more |= ((all>>a)&manCap)>>a | ((all>>b)&manCap)>>b
	}
	if down {
		more |= ((all<<a)&manCap)<<a | ((all<<b)&manCap)<<b
	}
	if more&empty != 0 {
		return
	}
	s.single = true
	if r.prio == prioSpanish {
		k := manJumps(s.men, opp&p.Kings, empty, a, b, up, down)
		if k[0]|k[1]|k[2]|k[3] != 0 {
			s.land = k
		}
	}
}

// jumpers returns the men that can capture (from land, before init
// narrows it under the Spanish rule, which happens only when single).
func (s *diagScan) jumpers(db *diagBoard) uint64 {
	a, b := dA, dB
	return s.land[0]<<a<<a | s.land[1]<<b<<b | s.land[2]>>a>>a | s.land[3]>>b>>b
}

// captures reports whether the side to move must capture.
func (s *diagScan) captures() bool {
	return s.land[0]|s.land[1]|s.land[2]|s.land[3]|s.jk != 0
}

// genDiag fills ml with the legal moves of p.
func genDiag(db *diagBoard, r *diagRules, p *Position, ml *MoveList) {
	var s diagScan
	s.init(db, r, p)
	a, b := dA, dB
	if s.captures() {
		if !s.single {
			diagCaptures(db, r, p, ml, s.jumpers(db), s.jk)
			return
		}
		far := db.crown[p.Side&1]
		n := 0
		for t := s.land[0]; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{Captured: 1 << ((uint(l) + a) & 63), From: uint8((uint(l) + 2*a) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := s.land[1]; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{Captured: 1 << ((uint(l) + b) & 63), From: uint8((uint(l) + 2*b) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := s.land[2]; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{Captured: 1 << ((uint(l) - a) & 63), From: uint8((uint(l) - 2*a) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := s.land[3]; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{Captured: 1 << ((uint(l) - b) & 63), From: uint8((uint(l) - 2*b) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		ml.N = n
		return
	}
	us := p.Side & 1
	empty := s.empty
	far := db.crown[us]
	n := 0
	if us == White {
		for t := (s.men >> a) & empty; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{From: uint8((uint(l) + a) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := (s.men >> b) & empty; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{From: uint8((uint(l) + b) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
	} else {
		for t := (s.men << a) & empty; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{From: uint8((uint(l) - a) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
		for t := (s.men << b) & empty; t != 0; t &= t - 1 {
			l := lsb(t)
			ml.Moves[n] = Move{From: uint8((uint(l) - b) & 63), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
			n++
		}
	}
	for k := s.kings; k != 0; k &= k - 1 {
		sq := k & -k
		from := uint8(lsb(sq))
		for d := 0; d < 4; d++ {
			for x := db.step(sq, d) & empty; x != 0; x = db.step(x, d) & empty {
				ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
				n++
				if !r.flying {
					break
				}
			}
		}
	}
	ml.N = n
}

// countDiag returns the number of legal moves of p, listing them in
// scratch only when there are captures.
func countDiag(db *diagBoard, r *diagRules, p *Position, scratch *MoveList) int {
	var s diagScan
	s.init(db, r, p)
	if s.captures() {
		if s.single {
			return popcount(s.land[0]) + popcount(s.land[1]) + popcount(s.land[2]) + popcount(s.land[3])
		}
		diagCaptures(db, r, p, scratch, s.jumpers(db), s.jk)
		return scratch.N
	}
	empty := s.empty
	men, kings := s.men, s.kings
	a, b := dA, dB
	var n int
	if p.Side == White {
		n = popcount((men>>a)&empty) + popcount((men>>b)&empty)
	} else {
		n = popcount((men<<a)&empty) + popcount((men<<b)&empty)
	}
	if kings == 0 {
		return n
	}
	if !r.flying {
		return n + popcount((kings>>a)&empty) + popcount((kings>>b)&empty) +
			popcount((kings<<a)&empty) + popcount((kings<<b)&empty)
	}
	for x := (kings >> a) & empty; x != 0; x = (x >> a) & empty {
		n += popcount(x)
	}
	for x := (kings >> b) & empty; x != 0; x = (x >> b) & empty {
		n += popcount(x)
	}
	for x := (kings << a) & empty; x != 0; x = (x << a) & empty {
		n += popcount(x)
	}
	for x := (kings << b) & empty; x != 0; x = (x << b) & empty {
		n += popcount(x)
	}
	return n
}

// diagCaptures lists the legal captures of the men jm and kings jk.
func diagCaptures(db *diagBoard, r *diagRules, p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := dGen{
		db:      db,
		r:       r,
		ml:      ml,
		opp:     opp,
		oppK:    opp & p.Kings,
		manCap:  opp,
		far:     db.crown[us],
		manDirs: manDirections(r, us),
	}
	if !r.manTakesKing {
		g.manCap &^= p.Kings
	}
	ml.N = 0
	base := db.board &^ (own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.kingJump(s, 0, 0, 0, false)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.manJump(s, 0, 0, 0)
	}
}

// manJump extends a man's capture from s (a one-bit mask), having taken
// cap: n pieces, nk of them kings. The four directions are written out:
// this is the hottest loop of 10x10 perft.
func (g *dGen) manJump(s, cap uint64, n, nk uint32) {
	a, b := dA, dB
	capt := g.manCap &^ cap
	ended := true
	if g.manDirs[0] {
		if o := (s >> a) & capt; o != 0 {
			if l := (o >> a) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	}
	if g.manDirs[1] {
		if o := (s >> b) & capt; o != 0 {
			if l := (o >> b) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	}
	if g.manDirs[2] {
		if o := (s << a) & capt; o != 0 {
			if l := (o << a) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	}
	if g.manDirs[3] {
		if o := (s << b) & capt; o != 0 {
			if l := (o << b) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, nk, s&g.far != 0)
	}
}

// manLand goes on after a man's jump over o onto l: on the far rank the
// variant's crowning rule decides; elsewhere the man jumps on.
func (g *dGen) manLand(l, o, cap uint64, n, nk uint32) {
	if o&g.oppK != 0 {
		nk++
	}
	if l&g.far != 0 {
		switch g.r.crownMid {
		case crownStop:
			g.add(l, cap|o, n+1, nk, true)
			return
		case crownContinue:
			g.kingJump(l, cap|o, n+1, nk, true)
			return
		}
	}
	g.manJump(l, cap|o, n+1, nk)
}

// kingJump extends a king's capture from s, having taken cap (n pieces, nk
// kings); promoted marks a man crowned during this capture.
func (g *dGen) kingJump(s, cap uint64, n, nk uint32, promoted bool) {
	ended := true
	db := g.db
	for d := 0; d < 4; d++ {
		x := db.step(s, d)
		if g.r.flying {
			for x&g.empty != 0 {
				x = db.step(x, d)
			}
		}
		o := x & g.opp &^ cap
		if o == 0 {
			continue
		}
		k := nk
		if o&g.oppK != 0 {
			k++
		}
		// A flying king that can go on capturing from some square beyond o
		// must land on such a square (under the maximum rules this follows
		// from the count; under free choice it is a rule of its own).
		mustGoOn := false
		if g.r.flying && g.r.prio == prioFree {
			for l := db.step(o, d) & g.empty; l != 0; l = db.step(l, d) & g.empty {
				if g.kingCanCapture(l, cap|o) {
					mustGoOn = true
					break
				}
			}
		}
		for l := db.step(o, d) & g.empty; l != 0; l = db.step(l, d) & g.empty {
			if mustGoOn && !g.kingCanCapture(l, cap|o) {
				continue
			}
			ended = false
			g.kingJump(l, cap|o, n+1, k, promoted)
			if !g.r.flying {
				break
			}
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, nk, promoted)
	}
}

// kingCanCapture reports whether a flying king on s, having taken cap, has
// a further capture.
func (g *dGen) kingCanCapture(s, cap uint64) bool {
	db := g.db
	for d := 0; d < 4; d++ {
		x := db.step(s, d)
		for x&g.empty != 0 {
			x = db.step(x, d)
		}
		if x&g.opp&^cap != 0 && db.step(x, d)&g.empty != 0 {
			return true
		}
	}
	return false
}

// add records a finished capture ending on to if the priority rule keeps
// it, dropping duplicates (the same from, to and captured set by another
// path).
func (g *dGen) add(to, cap uint64, n, nk uint32, promote bool) {
	var score uint32
	switch g.r.prio {
	case prioMax:
		score = n
	case prioSpanish:
		score = n<<8 | nk
	}
	g.ml.keepCapture(&g.best, score, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
