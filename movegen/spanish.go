package movegen

import "math/bits"

// Spanish draughts (rules.md §8) has a generator of its own, written out
// for these rules only (see diag.go): on the 8x8
// layout the diagonal steps are the constant shifts 4 and 5 (board.go), men
// step and capture forward only and may take kings, a man reaching the far
// rank during a capture is crowned and the move ends there, kings fly, and
// the legal captures are those taking the most pieces, then of those the
// most kings. Captured pieces stay on the board until the move ends.
//
// It lists the moves in the same order as the generic generator did
// (diag.go), so that the search sees the same tree.

// esJumps returns where the men of side us land that jump one of caps onto
// an empty square: by shift 4 and by shift 5, forward.
func esJumps(men, caps, empty uint64, us Color) (la, lb uint64) {
	if us == White {
		return ((men >> 4) & caps) >> 4 & empty, ((men >> 5) & caps) >> 5 & empty
	}
	return ((men << 4) & caps) << 4 & empty, ((men << 5) & caps) << 5 & empty
}

// esSingle reports whether the men's jumps landing on all are complete
// moves: a man crowned on the far rank stops there, and elsewhere none can
// jump again, judged on the board as it stands (see diag.go: exact
// for men).
func esSingle(all, far, opp, empty uint64, us Color) bool {
	all &^= far
	a, b := esJumps(all, opp, empty, us)
	return a|b == 0
}

// esFrom returns the men that make the jumps landing on la and lb.
func esFrom(la, lb uint64, us Color) uint64 {
	if us == White {
		return la<<8 | lb<<10
	}
	return la>>8 | lb>>10
}

// spanishJumpers returns the men and kings of the side to move that can
// capture.
func spanishJumpers(p *Position) (men, kings uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	la, lb := esJumps(own&^p.Kings, opp, empty, us)
	if k := own & p.Kings; k != 0 {
		kings = ruKingJumpers(k, opp, empty)
	}
	return esFrom(la, lb, us), kings
}

// esSingleLands returns the landing squares of the legal single jumps: all
// of them, or those taking a king if there are any.
func esSingleLands(men, oppK, empty uint64, us Color, la, lb uint64) (uint64, uint64) {
	if ka, kb := esJumps(men, oppK, empty, us); ka|kb != 0 {
		return ka, kb
	}
	return la, lb
}

// genSpanish fills ml with the legal moves of p.
func genSpanish(p *Position, ml *MoveList) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	la, lb := esJumps(men, opp, empty, us)
	var jk uint64
	if kings != 0 {
		jk = ruKingJumpers(kings, opp, empty)
	}
	far := Row8Top
	if us == Black {
		far = Row8Bottom
	}
	n := 0
	if la|lb|jk != 0 {
		if jk != 0 || !esSingle(la|lb, far, opp, empty, us) {
			spanishCaptures(p, ml, esFrom(la, lb, us), jk)
			return
		}
		la, lb = esSingleLands(men, opp&p.Kings, empty, us, la, lb)
		if us == White {
			for ; la != 0; la &= la - 1 {
				l := uint(lsb(la))
				ml.Moves[n] = Move{Captured: 1 << ((l + 4) & 63), From: uint8(l + 8), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
				n++
			}
			for ; lb != 0; lb &= lb - 1 {
				l := uint(lsb(lb))
				ml.Moves[n] = Move{Captured: 1 << ((l + 5) & 63), From: uint8(l + 10), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
				n++
			}
		} else {
			for ; la != 0; la &= la - 1 {
				l := uint(lsb(la))
				ml.Moves[n] = Move{Captured: 1 << ((l - 4) & 63), From: uint8(l - 8), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
				n++
			}
			for ; lb != 0; lb &= lb - 1 {
				l := uint(lsb(lb))
				ml.Moves[n] = Move{Captured: 1 << ((l - 5) & 63), From: uint8(l - 10), To: uint8(l), Promote: far&(1<<(l&63)) != 0}
				n++
			}
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

// countSpanish returns the number of legal moves of p, listing them in
// scratch only when a capture can go on past its first jump.
func countSpanish(p *Position, scratch *MoveList) int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	la, lb := esJumps(men, opp, empty, us)
	var jk uint64
	if kings != 0 {
		jk = ruKingJumpers(kings, opp, empty)
	}
	if la|lb|jk != 0 {
		far := Row8Top
		if us == Black {
			far = Row8Bottom
		}
		if jk != 0 || !esSingle(la|lb, far, opp, empty, us) {
			spanishCaptures(p, scratch, esFrom(la, lb, us), jk)
			return scratch.N
		}
		la, lb = esSingleLands(men, opp&p.Kings, empty, us, la, lb)
		return popcount(la) + popcount(lb)
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

// sGen is the state of one Spanish capture search.
type sGen struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	opp   uint64 // every enemy piece
	oppK  uint64 // enemy kings
	far   uint64 // the mover's crowning rank
	up    bool   // the mover's men capture up (White)
	from  uint8
}

// spanishCaptures lists the legal captures of the men jm and kings jk.
func spanishCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := sGen{ml: ml, opp: opp, oppK: opp & p.Kings, far: Row8Top, up: us == White}
	if us == Black {
		g.far = Row8Bottom
	}
	ml.N = 0
	base := Board8 &^ (own | opp)
	for ; jk != 0; jk &= jk - 1 {
		s := jk & -jk
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.kingJump(s, 0, 0, 0)
	}
	for ; jm != 0; jm &= jm - 1 {
		s := jm & -jm
		g.from = uint8(lsb(s))
		g.empty = base | s
		g.manJump(s, 0, 0, 0)
	}
}

// manJump extends a man's capture from s (a one-bit mask), having taken
// cap: n pieces, nk of them kings.
func (g *sGen) manJump(s, cap uint64, n, nk uint32) {
	capt := g.opp &^ cap
	ended := true
	if g.up {
		if o := (s >> 4) & capt; o != 0 {
			if l := (o >> 4) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
		if o := (s >> 5) & capt; o != 0 {
			if l := (o >> 5) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	} else {
		if o := (s << 4) & capt; o != 0 {
			if l := (o << 4) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
		if o := (s << 5) & capt; o != 0 {
			if l := (o << 5) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n, nk)
			}
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, nk, s&g.far != 0)
	}
}

// manLand goes on after a man's jump over o onto l: crowned on the far
// rank, where the move ends; jumping on elsewhere.
func (g *sGen) manLand(l, o, cap uint64, n, nk uint32) {
	if o&g.oppK != 0 {
		nk++
	}
	if l&g.far != 0 {
		g.add(l, cap|o, n+1, nk, true)
		return
	}
	g.manJump(l, cap|o, n+1, nk)
}

// kingJump extends a flying king's capture from s, having taken cap: n
// pieces, nk of them kings.
func (g *sGen) kingJump(s, cap uint64, n, nk uint32) {
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
		k := nk
		if o&g.oppK != 0 {
			k++
		}
		for l := bits.RotateLeft64(o, r) & g.empty; l != 0; l = bits.RotateLeft64(l, r) & g.empty {
			ended = false
			g.kingJump(l, cap|o, n+1, k)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, n, nk, false)
	}
}

// add records a finished capture ending on to if the priority rule keeps
// it (the most pieces, then the most kings), dropping duplicates.
func (g *sGen) add(to, cap uint64, n, nk uint32, promote bool) {
	g.ml.keepCapture(&g.best, n<<8|nk, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}
