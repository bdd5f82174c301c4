package movegen

import "math/bits"

// One generator serves the five diagonal rule sets other than Italian
// (International, Brazilian, Russian, Spanish, English): diagMoves (the
// generator and the counter), diagPerft2, diagJumpers and the capture
// search diagGen, each written once and instantiated per rule set. The
// rules and the board are the type argument R, an array type whose length
// is the rule set's bits (rBoard10 | rFlying | …, below). Go compiles a
// generic function once per distinct underlying type, so each rule set gets
// its own copy, and in that copy len(R) is a constant: every test of the
// rule bits folds away and every shift is a constant, as in a generator
// written out by hand. (A method on the type argument would not do: it is
// called through a table at run time.) Each instantiation lists the same
// moves in the same order as the per-variant generators it replaces.
//
// Directions are rotations (see rot8): r < 0 is a step up (towards the low
// bits) and r > 0 a step down, by the board's short step a (up-right −a,
// down-left +a) or by a+1 (up-left, down-right), in the order 0 up-right,
// 1 up-left, 2 down-left, 3 down-right. A step that leaves the board
// lands off it and is masked away by empty or opp.

// The rule bits of a diagonal rule set (the length of its type).
const (
	rBoard10       = 1 << iota // the 10x10 board, short step 5 (else 8x8, short step 4)
	rFlying                    // kings fly
	rManBack                   // men capture backward too
	rCrownContinue             // a man crowned during a capture goes on as a king (else crownStop)
	rCrownPass                 // a man passing the far rank during a capture goes on as a man
	rPrioMax                   // only the captures taking the most pieces are legal
	rPrioSpanish               // the most pieces, then the most kings (else any capture is legal)
)

// The rule sets. Men may take kings in all of them.
type (
	intlRules      [rBoard10 | rFlying | rManBack | rCrownPass | rPrioMax]byte
	brazilianRules [rFlying | rManBack | rCrownPass | rPrioMax]byte
	russianRules   [rFlying | rManBack | rCrownContinue]byte
	spanishRules   [rFlying | rPrioSpanish]byte
	englishRules   [0]byte
)

// diagRuleSet is the type argument of the diagonal generator.
type diagRuleSet interface {
	intlRules | brazilianRules | russianRules | spanishRules | englishRules
}

// rulesOf returns the rule bits of R: a constant in each instantiation.
// The helpers below take them as an argument rb and are small enough to be
// inlined, so their tests on rb fold away too. (A generic helper would not
// do: one generic function calling another is not inlined.)
func rulesOf[R diagRuleSet]() int {
	var r R
	return len(r)
}

// shortStep returns the board's short diagonal step: 4 on 8x8, 5 on 10x10.
func shortStep(rb int) int { return 4 + rb&rBoard10 }

// boardOf returns the playable bits of the board.
func boardOf(rb int) uint64 {
	if rb&rBoard10 != 0 {
		return Board10
	}
	return Board8
}

// farOf returns the rank where the men of us are crowned.
func farOf(rb int, us Color) uint64 {
	if rb&rBoard10 != 0 {
		if us == Black {
			return Row10Bottom
		}
		return Row10Top
	}
	if us == Black {
		return Row8Bottom
	}
	return Row8Top
}

// rots returns the four steps of the board as rotations.
func rots(rb int) *[4]int {
	if rb&rBoard10 != 0 {
		return &rot10
	}
	return &rot8
}

// rot10 are the four diagonal steps of the 10x10 layout as rotations: a
// square's bit is at most 53, so a step down (at most +6) never wraps, and
// a step up from the top row wraps to bit 58 or above (see rot8).
var rot10 = [4]int{-5, -6, 5, 6}

// rot turns x by r: a step of every bit of x in direction r.
func rot(x uint64, r int) uint64 { return bits.RotateLeft64(x, r) }

// hop returns where the pieces s land that jump one of caps onto empty in
// direction r.
func hop(s, caps, empty uint64, r int) uint64 {
	return bits.RotateLeft64(bits.RotateLeft64(s, r)&caps, r) & empty
}

// tally returns the tally n of a capture after it takes o: the pieces
// taken, and under the Spanish priority the pieces in bits 8 and up and the
// kings below them, so that the larger tally is the better capture.
func tally(rb int, n uint32, o, oppK uint64) uint32 {
	if rb&rPrioSpanish == 0 {
		return n + 1
	}
	if o&oppK != 0 {
		return n + 1<<8 + 1
	}
	return n + 1<<8
}

// menDirs returns the directions of the men's first two jumps (see
// jumps): up-right and up-left, or for Black's men that capture forward
// only (down), down-left and down-right.
func menDirs(a int, down bool) (d0, d1 int) {
	if down {
		return a, a + 1
	}
	return -a, -a - 1
}

// jumps returns where the men land that jump one of caps onto an empty
// square: l0 and l1 up-right and up-left, and where men capture backward
// too (back) l2 and l3 down-left and down-right; otherwise l2 = l3 = 0.
func jumps(a int, back bool, men, caps, empty uint64) (l0, l1, l2, l3 uint64) {
	l0 = bits.RotateLeft64(bits.RotateLeft64(men, -a)&caps, -a) & empty
	l1 = bits.RotateLeft64(bits.RotateLeft64(men, -a-1)&caps, -a-1) & empty
	if back {
		l2 = bits.RotateLeft64(bits.RotateLeft64(men, a)&caps, a) & empty
		l3 = bits.RotateLeft64(bits.RotateLeft64(men, a+1)&caps, a+1) & empty
	}
	return
}

// downJumps returns where men capturing down only land that jump one of
// caps onto an empty square, down-left and down-right: the first two jumps
// of Black's men that capture forward only (see menDirs). The callers
// write out the choice between jumps and downJumps: one helper making it
// would be too big to inline, and a direction chosen at run time costs a
// shift by a variable (about 17 instructions a count in English).
func downJumps(a int, men, caps, empty uint64) (l0, l1 uint64) {
	return bits.RotateLeft64(bits.RotateLeft64(men, a)&caps, a) & empty,
		bits.RotateLeft64(bits.RotateLeft64(men, a+1)&caps, a+1) & empty
}

// jumpFrom returns the men that make the jumps landing on l0 … l3 (in the
// directions d0, d1, a and a+1).
func jumpFrom(d0, d1, a int, l0, l1, l2, l3 uint64) uint64 {
	return rot(l0, -2*d0) | rot(l1, -2*d1) | rot(l2, -2*a) | rot(l3, -2*a-2)
}

// ray reports whether a flying king on s reaches one of opp in direction r
// across empty squares with an empty square behind it.
func ray(s, opp, empty uint64, r int) bool {
	x := rot(s, r)
	for x&empty != 0 {
		x = rot(x, r)
	}
	return x&opp != 0 && rot(x, r)&empty != 0
}

// stepKingJumpers returns the kings among ownK, kings that do not fly, that
// can capture one of opp.
func stepKingJumpers(a int, ownK, opp, empty uint64) uint64 {
	return (bits.RotateLeft64(bits.RotateLeft64(empty, a)&opp, a) |
		bits.RotateLeft64(bits.RotateLeft64(empty, a+1)&opp, a+1) |
		bits.RotateLeft64(bits.RotateLeft64(empty, -a)&opp, -a) |
		bits.RotateLeft64(bits.RotateLeft64(empty, -a-1)&opp, -a-1)) & ownK
}

// flyKingJumpers returns the flying kings among ownK that can capture one
// of opp.
func flyKingJumpers(a int, ownK, opp, empty uint64) (kings uint64) {
	for k := ownK; k != 0; k &= k - 1 {
		s := k & -k
		if ray(s, opp, empty, -a) || ray(s, opp, empty, -a-1) || ray(s, opp, empty, a) || ray(s, opp, empty, a+1) {
			kings |= s
		}
	}
	return kings
}

// diagJumpers returns the men and kings of the side to move that can
// capture.
func diagJumpers[R diagRuleSet](p *Position) (men, kings uint64) {
	rb := rulesOf[R]()
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := boardOf(rb) ^ (own | opp) // pieces stand on the board: &^ as ^, which the compiler keeps whole
	a := shortStep(rb)
	back, down := rb&rManBack != 0, rb&rManBack == 0 && us == Black
	var l0, l1, l2, l3 uint64
	if down {
		l0, l1 = downJumps(a, own&^p.Kings, opp, empty)
	} else {
		l0, l1, l2, l3 = jumps(a, back, own&^p.Kings, opp, empty)
	}
	if k := own & p.Kings; k == 0 {
	} else if rb&rFlying != 0 {
		kings = flyKingJumpers(a, k, opp, empty)
	} else {
		kings = stepKingJumpers(a, k, opp, empty)
	}
	d0, d1 := menDirs(a, down)
	return jumpFrom(d0, d1, a, l0, l1, l2, l3), kings
}

// diagHasCapture reports whether the side to move in p has a capture:
// diagJumpers(p) not both empty, without turning the men's landings back
// into their origins, and the kings looked at only when no man can
// capture.
func diagHasCapture[R diagRuleSet](p *Position) bool {
	rb := rulesOf[R]()
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := boardOf(rb) ^ (own | opp)
	a := shortStep(rb)
	back, down := rb&rManBack != 0, rb&rManBack == 0 && us == Black
	if down {
		if l0, l1 := downJumps(a, own&^p.Kings, opp, empty); l0|l1 != 0 {
			return true
		}
	} else if l0, l1, l2, l3 := jumps(a, back, own&^p.Kings, opp, empty); l0|l1|l2|l3 != 0 {
		return true
	}
	k := own & p.Kings
	switch {
	case k == 0:
		return false
	case rb&rFlying != 0:
		return flyKingJumpers(a, k, opp, empty) != 0
	}
	return stepKingJumpers(a, k, opp, empty) != 0
}

// listJumps lists from n the single jumps landing on l in direction r
// (promoting on far) and returns the new count.
func listJumps(ml *MoveList, n int, l uint64, r int, far uint64) int {
	for ; l != 0; l &= l - 1 {
		t := lsb(l)
		ml.Moves[n] = Move{Captured: 1 << (uint(t-r) & 63), From: uint8(t - 2*r), To: uint8(t), Promote: far&(1<<(uint(t)&63)) != 0}
		n++
	}
	return n
}

// listSteps lists from n the one-step moves landing on t in direction r
// (promoting on far) and returns the new count.
func listSteps(ml *MoveList, n int, t uint64, r int, far uint64) int {
	for ; t != 0; t &= t - 1 {
		l := lsb(t)
		ml.Moves[n] = Move{From: uint8(l - r), To: uint8(l), Promote: far&(1<<(uint(l)&63)) != 0}
		n++
	}
	return n
}

// listSlides lists from n the moves of the king from on the empty squares
// of x and, if slide, beyond them in direction r, and returns the new count.
func listSlides(ml *MoveList, n int, from uint8, x, empty uint64, r int, slide bool) int {
	for x &= empty; x != 0; x = rot(x, r) & empty {
		ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
		n++
		if !slide {
			break
		}
	}
	return n
}

// countSlides returns the number of moves of the kings in direction r.
func countSlides(kings, empty uint64, r int) (n int) {
	for x := rot(kings, r) & empty; x != 0; x = rot(x, r) & empty {
		n += popcount(x)
	}
	return n
}

// The two modes of diagMoves: listing the moves or counting them.
type (
	listing  [0]byte
	counting [1]byte
)

// moveMode is diagMoves' second type argument.
type moveMode interface{ listing | counting }

// counts reports whether M is counting: a constant in each instantiation.
func counts[M moveMode]() bool {
	var m M
	return len(m) != 0
}

// diagGenerators returns the generator, the counter and perft2 (see
// Variant) of rule set R.
//
// A generic function called through a function value goes through a
// wrapper that hands it its dictionary (about 11 instructions a call).
// diagPerft2 calls the generator and the counter directly, so perft pays
// that once per position two plies above the leaves, not once per leaf and
// per position one ply above them.
func diagGenerators[R diagRuleSet]() (func(*Position, *MoveList), func(*Position, *MoveList) int, func(*Position, *MoveList, *Position, *MoveList) uint64) {
	return func(p *Position, ml *MoveList) { diagMoves[R, listing](p, ml) }, diagMoves[R, counting], diagPerft2[R]
}

// diagPerft2 returns the number of leaves two plies below p: it lists the
// moves of p in ml, makes each in c in turn and counts the moves of c,
// using scratch.
func diagPerft2[R diagRuleSet](p *Position, ml *MoveList, c *Position, scratch *MoveList) (n uint64) {
	diagMoves[R, listing](p, ml)
	for _, m := range ml.Moves[:ml.N] {
		*c = *p
		c.Play(m)
		n += uint64(diagMoves[R, counting](c, scratch))
	}
	return n
}

// diagMoves lists the legal moves of p in ml, or counts them (M), listing
// them in ml only when a capture can go on past its first jump; it returns
// their number.
func diagMoves[R diagRuleSet, M moveMode](p *Position, ml *MoveList) int {
	rb, count := rulesOf[R](), counts[M]()
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := boardOf(rb) ^ (own | opp) // pieces stand on the board: &^ as ^, which the compiler keeps whole
	men, kings := own&^p.Kings, own&p.Kings
	a := shortStep(rb)
	back, down := rb&rManBack != 0, rb&rManBack == 0 && us == Black
	var l0, l1, l2, l3 uint64
	if down {
		l0, l1 = downJumps(a, men, opp, empty)
	} else {
		l0, l1, l2, l3 = jumps(a, back, men, opp, empty)
	}
	var jk uint64
	if kings == 0 {
	} else if rb&rFlying != 0 {
		jk = flyKingJumpers(a, kings, opp, empty)
	} else {
		jk = stepKingJumpers(a, kings, opp, empty)
	}
	if all := l0 | l1 | l2 | l3; all|jk != 0 {
		far := farOf(rb, us)
		// Only men capture: are their first jumps complete moves (see
		// diag.go)? Not where one can jump on, judged on the board as it
		// stands, nor where a man crowned on the way goes on as a king;
		// where a crowned man stops, those landing on the far rank are.
		single := jk == 0 && (rb&rCrownContinue == 0 || all&far == 0)
		if single {
			if rb&(rCrownContinue|rCrownPass) == 0 {
				all &^= far
			}
			if down {
				m0, m1 := downJumps(a, all, opp, empty)
				single = m0|m1 == 0
			} else {
				m0, m1, m2, m3 := jumps(a, back, all, opp, empty)
				single = m0|m1|m2|m3 == 0
			}
		}
		if !single {
			d0, d1 := menDirs(a, down)
			diagCaptures[R](p, ml, jumpFrom(d0, d1, a, l0, l1, l2, l3), jk)
			return ml.N
		}
		if rb&rPrioSpanish != 0 { // those taking a king, if any
			if down {
				if k0, k1 := downJumps(a, men, opp&p.Kings, empty); k0|k1 != 0 {
					l0, l1 = k0, k1
				}
			} else if k0, k1, k2, k3 := jumps(a, back, men, opp&p.Kings, empty); k0|k1|k2|k3 != 0 {
				l0, l1, l2, l3 = k0, k1, k2, k3
			}
		}
		if count {
			n := popcount(l0) + popcount(l1)
			if back {
				n += popcount(l2) + popcount(l3)
			}
			return n
		}
		if rb&rCrownContinue != 0 {
			far = 0 // none lands on the far rank
		}
		d0, d1 := menDirs(a, down)
		n := listJumps(ml, 0, l0, d0, far)
		n = listJumps(ml, n, l1, d1, far)
		if back {
			n = listJumps(ml, n, l2, a, far)
			n = listJumps(ml, n, l3, a+1, far)
		}
		ml.N = n
		return n
	}
	var n int
	if count {
		if us == White {
			n = popcount(rot(men, -a)&empty) + popcount(rot(men, -a-1)&empty)
		} else {
			n = popcount(rot(men, a)&empty) + popcount(rot(men, a+1)&empty)
		}
		if kings == 0 {
			return n
		}
		if rb&rFlying == 0 {
			return n + popcount(rot(kings, -a)&empty) + popcount(rot(kings, -a-1)&empty) +
				popcount(rot(kings, a)&empty) + popcount(rot(kings, a+1)&empty)
		}
		return n + countSlides(kings, empty, -a) + countSlides(kings, empty, -a-1) +
			countSlides(kings, empty, a) + countSlides(kings, empty, a+1)
	}
	far := farOf(rb, us)
	if us == White {
		n = listSteps(ml, 0, rot(men, -a)&empty, -a, far)
		n = listSteps(ml, n, rot(men, -a-1)&empty, -a-1, far)
	} else {
		n = listSteps(ml, 0, rot(men, a)&empty, a, far)
		n = listSteps(ml, n, rot(men, a+1)&empty, a+1, far)
	}
	fly := rb&rFlying != 0
	for ; kings != 0; kings &= kings - 1 {
		s := kings & -kings
		from := uint8(lsb(s))
		n = listSlides(ml, n, from, rot(s, -a), empty, -a, fly)
		n = listSlides(ml, n, from, rot(s, -a-1), empty, -a-1, fly)
		n = listSlides(ml, n, from, rot(s, a), empty, a, fly)
		n = listSlides(ml, n, from, rot(s, a+1), empty, a+1, fly)
	}
	ml.N = n
	return n
}

// diagCanStep reports whether a piece of the side to move in p can step to
// an empty square, or a king start a slide (the first squares of the
// moves diagMoves counts with no capture).
func diagCanStep[R diagRuleSet](p *Position) bool {
	rb := rulesOf[R]()
	us := p.Side & 1
	own := p.Pieces[us]
	empty := boardOf(rb) ^ (own | p.Pieces[us^1])
	men, kings := own&^p.Kings, own&p.Kings
	a := shortStep(rb)
	var t uint64
	if us == White {
		t = rot(men, -a) | rot(men, -a-1)
	} else {
		t = rot(men, a) | rot(men, a+1)
	}
	t |= rot(kings, -a) | rot(kings, -a-1) | rot(kings, a) | rot(kings, a+1)
	return t&empty != 0
}

// diagGen is the state of one capture search.
type diagGen[R diagRuleSet] struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	opp   uint64 // every enemy piece
	oppK  uint64 // the enemy kings (Spanish priority only)
	far   uint64 // the mover's crowning rank
	up    bool   // the mover's men capture up (White), where they capture forward only
	from  uint8
}

// diagCaptures lists the legal captures of the men jm and kings jk.
func diagCaptures[R diagRuleSet](p *Position, ml *MoveList, jm, jk uint64) {
	rb := rulesOf[R]()
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := diagGen[R]{ml: ml, opp: opp, far: farOf(rb, us), up: us == White}
	if rb&rPrioSpanish != 0 {
		g.oppK = opp & p.Kings
	}
	ml.N = 0
	base := boardOf(rb) ^ (own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		if rb&rFlying != 0 {
			g.flyJump(s, 0, 0, false)
		} else {
			g.stepJump(s, 0, 0)
		}
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.manJump(s, 0, 0)
	}
}

// manJump extends a man's capture from s (a one-bit mask), where it stands
// having taken cap (tally n). Landing on the far rank crowns it at once where crowned
// men stop there (the move ends) or go on as kings (Russian); elsewhere, and
// always where men pass through the far rank as men, it jumps on.
func (g *diagGen[R]) manJump(s, cap uint64, n uint32) {
	rb := rulesOf[R]()
	if rb&rCrownPass == 0 && s&g.far != 0 && n > 0 {
		if rb&rCrownContinue != 0 {
			g.flyJump(s, cap, n, true)
		} else {
			g.add(s, cap, n, true)
		}
		return
	}
	a := shortStep(rb)
	capt := g.opp &^ cap
	ended := true
	if rb&rManBack != 0 || g.up {
		if l := hop(s, capt, g.empty, -a); l != 0 {
			ended = false
			o := rot(l, a)
			g.manJump(l, cap|o, tally(rb, n, o, g.oppK))
		}
		if l := hop(s, capt, g.empty, -a-1); l != 0 {
			ended = false
			o := rot(l, a+1)
			g.manJump(l, cap|o, tally(rb, n, o, g.oppK))
		}
	}
	if rb&rManBack != 0 || !g.up {
		if l := hop(s, capt, g.empty, a); l != 0 {
			ended = false
			o := rot(l, -a)
			g.manJump(l, cap|o, tally(rb, n, o, g.oppK))
		}
		if l := hop(s, capt, g.empty, a+1); l != 0 {
			ended = false
			o := rot(l, -a-1)
			g.manJump(l, cap|o, tally(rb, n, o, g.oppK))
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, s&g.far != 0)
	}
}

// flyJump extends a flying king's capture from s, having taken cap (tally
// n); promoted marks a man crowned during this
// capture.
//
// Where any complete capture may be chosen (Russian), a king that takes a
// piece and could go on capturing from some square beyond it must land on
// such a square; under the priority rules the longer capture wins anyway.
func (g *diagGen[R]) flyJump(s, cap uint64, n uint32, promoted bool) {
	rb := rulesOf[R]()
	free := rb&(rPrioMax|rPrioSpanish) == 0
	ended := true
	for _, r := range rots(rb) {
		x := rot(s, r)
		for x&g.empty != 0 {
			x = rot(x, r)
		}
		o := x & g.opp &^ cap
		if o == 0 {
			continue
		}
		c2, k := cap|o, tally(rb, n, o, g.oppK)
		mustGoOn := false
		if free {
			for l := rot(o, r) & g.empty; l != 0; l = rot(l, r) & g.empty {
				if g.kingCan(l, c2) {
					mustGoOn = true
					break
				}
			}
		}
		for l := rot(o, r) & g.empty; l != 0; l = rot(l, r) & g.empty {
			if mustGoOn && !g.kingCan(l, c2) {
				continue
			}
			ended = false
			g.flyJump(l, c2, k, promoted)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, promoted)
	}
}

// kingCan reports whether a flying king on s, having taken cap, has a
// further capture.
func (g *diagGen[R]) kingCan(s, cap uint64) bool {
	for _, r := range rots(rulesOf[R]()) {
		if ray(s, g.opp&^cap, g.empty, r) {
			return true
		}
	}
	return false
}

// stepJump extends the capture of a king that does not fly from s, having
// taken cap (n pieces): it jumps the piece next to it.
func (g *diagGen[R]) stepJump(s, cap uint64, n uint32) {
	a := shortStep(rulesOf[R]())
	capt := g.opp &^ cap
	ended := true
	if l := hop(s, capt, g.empty, -a); l != 0 {
		ended = false
		g.stepJump(l, cap|rot(l, a), n+1)
	}
	if l := hop(s, capt, g.empty, -a-1); l != 0 {
		ended = false
		g.stepJump(l, cap|rot(l, a+1), n+1)
	}
	if l := hop(s, capt, g.empty, a); l != 0 {
		ended = false
		g.stepJump(l, cap|rot(l, -a), n+1)
	}
	if l := hop(s, capt, g.empty, a+1); l != 0 {
		ended = false
		g.stepJump(l, cap|rot(l, -a-1), n+1)
	}
	if ended && n > 0 {
		g.add(s, cap, n, false)
	}
}

// add records a finished capture (tally n) ending on to if the priority
// rule keeps it, dropping duplicates (the same from, to and captured set by
// another path). Where every complete capture is legal the score is always
// 0.
func (g *diagGen[R]) add(to, cap uint64, n uint32, promote bool) {
	if rulesOf[R]()&(rPrioMax|rPrioSpanish) == 0 {
		n = 0
	}
	g.ml.keepCapture(&g.best, n, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
