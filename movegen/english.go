package movegen

// English draughts (rules.md §4) has a generator of its own, written out
// for these rules only (see diag.go): on the 8x8
// layout the diagonal steps are the constant shifts 4 and 5 (board.go), men
// step and capture forward only and may take kings, a man reaching the far
// rank during a capture is crowned and the move ends there, kings step and
// jump one square in the four directions, and any complete capture may be
// chosen. Captured pieces stay on the board until the move ends.
//
// It lists the moves in the same order as the generic generator did
// (diag.go), so that the search sees the same tree.

// enJumps returns where the men of side us land that jump one of caps onto
// an empty square: by shift 4 and by shift 5, forward.
func enJumps(men, caps, empty uint64, us Color) (la, lb uint64) {
	if us == White {
		return ((men >> 4) & caps) >> 4 & empty, ((men >> 5) & caps) >> 5 & empty
	}
	return ((men << 4) & caps) << 4 & empty, ((men << 5) & caps) << 5 & empty
}

// enSingle reports whether the men's jumps landing on all are complete
// moves: a man crowned on the far rank stops there, and elsewhere none can
// jump again, judged on the board as it stands (see diag.go: exact
// for men).
func enSingle(all, far, opp, empty uint64, us Color) bool {
	all &^= far
	a, b := enJumps(all, opp, empty, us)
	return a|b == 0
}

// enFrom returns the men that make the jumps landing on la and lb.
func enFrom(la, lb uint64, us Color) uint64 {
	if us == White {
		return la<<8 | lb<<10
	}
	return la>>8 | lb>>10
}

// englishJumpers returns the men and kings of the side to move that can
// capture.
func englishJumpers(p *Position) (men, kings uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	la, lb := enJumps(own&^p.Kings, opp, empty, us)
	if k := own & p.Kings; k != 0 {
		kings = enKingJumpers(k, opp, empty)
	}
	return enFrom(la, lb, us), kings
}

// genEnglish fills ml with the legal moves of p.
func genEnglish(p *Position, ml *MoveList) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	la, lb := enJumps(men, opp, empty, us)
	var jk uint64
	if kings != 0 {
		jk = enKingJumpers(kings, opp, empty)
	}
	far := Row8Top
	if us == Black {
		far = Row8Bottom
	}
	n := 0
	if la|lb|jk != 0 {
		if jk != 0 || !enSingle(la|lb, far, opp, empty, us) {
			englishCaptures(p, ml, enFrom(la, lb, us), jk)
			return
		}
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
		if x := (s >> 4) & empty; x != 0 {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		if x := (s >> 5) & empty; x != 0 {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		if x := (s << 4) & empty; x != 0 {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
		if x := (s << 5) & empty; x != 0 {
			ml.Moves[n] = Move{From: from, To: uint8(lsb(x))}
			n++
		}
	}
	ml.N = n
}

// countEnglish returns the number of legal moves of p, listing them in
// scratch only when a capture can go on past its first jump.
func countEnglish(p *Position, scratch *MoveList) int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := Board8 &^ (own | opp)
	men, kings := own&^p.Kings, own&p.Kings
	la, lb := enJumps(men, opp, empty, us)
	var jk uint64
	if kings != 0 {
		jk = enKingJumpers(kings, opp, empty)
	}
	if la|lb|jk != 0 {
		far := Row8Top
		if us == Black {
			far = Row8Bottom
		}
		if jk != 0 || !enSingle(la|lb, far, opp, empty, us) {
			englishCaptures(p, scratch, enFrom(la, lb, us), jk)
			return scratch.N
		}
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
	return n + popcount((kings>>4)&empty) + popcount((kings>>5)&empty) +
		popcount((kings<<4)&empty) + popcount((kings<<5)&empty)
}

// eGen is the state of one English capture search.
type eGen struct {
	ml    *MoveList
	best  uint32
	empty uint64 // empty squares; the mover's origin counts as empty
	opp   uint64 // every enemy piece
	far   uint64 // the mover's crowning rank
	up    bool   // the mover's men capture up (White)
	from  uint8
}

// englishCaptures lists the legal captures of the men jm and kings jk.
func englishCaptures(p *Position, ml *MoveList, jm, jk uint64) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	g := eGen{ml: ml, opp: opp, far: Row8Top, up: us == White}
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
func (g *eGen) manJump(s, cap uint64, n uint32) {
	capt := g.opp &^ cap
	ended := true
	if g.up {
		if o := (s >> 4) & capt; o != 0 {
			if l := (o >> 4) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n)
			}
		}
		if o := (s >> 5) & capt; o != 0 {
			if l := (o >> 5) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n)
			}
		}
	} else {
		if o := (s << 4) & capt; o != 0 {
			if l := (o << 4) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n)
			}
		}
		if o := (s << 5) & capt; o != 0 {
			if l := (o << 5) & g.empty; l != 0 {
				ended = false
				g.manLand(l, o, cap, n)
			}
		}
	}
	if ended && n > 0 {
		g.add(s, cap, s&g.far != 0)
	}
}

// manLand goes on after a man's jump over o onto l: crowned on the far
// rank, where the move ends; jumping on elsewhere.
func (g *eGen) manLand(l, o, cap uint64, n uint32) {
	if l&g.far != 0 {
		g.add(l, cap|o, true)
		return
	}
	g.manJump(l, cap|o, n+1)
}

// kingJump extends a king's capture from s, having taken cap (n pieces).
// Kings do not fly: they jump the piece next to them.
func (g *eGen) kingJump(s, cap uint64, n uint32) {
	capt := g.opp &^ cap
	ended := true
	if o := (s >> 4) & capt; o != 0 {
		if l := (o >> 4) & g.empty; l != 0 {
			ended = false
			g.kingJump(l, cap|o, n+1)
		}
	}
	if o := (s >> 5) & capt; o != 0 {
		if l := (o >> 5) & g.empty; l != 0 {
			ended = false
			g.kingJump(l, cap|o, n+1)
		}
	}
	if o := (s << 4) & capt; o != 0 {
		if l := (o << 4) & g.empty; l != 0 {
			ended = false
			g.kingJump(l, cap|o, n+1)
		}
	}
	if o := (s << 5) & capt; o != 0 {
		if l := (o << 5) & g.empty; l != 0 {
			ended = false
			g.kingJump(l, cap|o, n+1)
		}
	}
	if ended && n > 0 {
		g.add(s, cap, false)
	}
}

// add records a finished capture ending on to, dropping duplicates (the
// same from, to and captured set by another path). Every complete capture
// is legal: the score is always 0.
func (g *eGen) add(to, cap uint64, promote bool) {
	g.ml.keepCapture(&g.best, 0, Move{Captured: cap, From: g.from, To: uint8(lsb(to)), Promote: promote}, true)
}

// enKingJumpers returns the kings among ownK that can capture one of opp.
func enKingJumpers(ownK, opp, empty uint64) uint64 {
	return (((empty<<4)&opp)<<4 | ((empty<<5)&opp)<<5 | ((empty>>4)&opp)>>4 | ((empty>>5)&opp)>>5) & ownK
}
