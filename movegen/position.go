package movegen

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Position is a board position: a small value copied to make a move. Bits
// follow the layout of the variant's board family (board.go); the Position
// itself does not know its variant, so it always travels with one.
type Position struct {
	// Pieces holds every piece of each colour, indexed by Color.
	Pieces [2]uint64
	// Kings marks the kings of both colours (a subset of the pieces). In
	// Italian Damone the Dame and the Damoni are both in Kings.
	Kings uint64
	// Super marks the Damoni of Italian Damone, the highest rank of piece
	// (a subset of Kings); it is zero in every other variant.
	Super uint64
	// Key is the Zobrist key of the pieces and side to move, kept up to
	// date incrementally by Play.
	Key uint64
	// Side is the colour to move.
	Side Color
}

// Occupied returns every occupied bit.
func (p *Position) Occupied() uint64 { return p.Pieces[White] | p.Pieces[Black] }

// Men returns the men of colour c.
func (p *Position) Men(c Color) uint64 { return p.Pieces[c] &^ p.Kings }

// KingsOf returns the kings of colour c.
func (p *Position) KingsOf(c Color) uint64 { return p.Pieces[c] & p.Kings }

// Play makes move m, which must be legal in p (a move produced by the
// generator for p, or parsed against p). Captured pieces are removed, the
// mover promotes when m says so (a man to a king; in Damone a Dama to a
// Damone), the side to move changes, and the Zobrist key is updated
// incrementally.
func (p *Position) Play(m Move) {
	// "&1" and "&63" cost nothing for a legal move and spare the bounds
	// checks on the tables and the guards on the shifts (Go defines shifts
	// by 64 or more, so an unmasked count costs a compare).
	us := p.Side & 1
	them := us ^ 1
	mf, mt := m.From&63, m.To&63
	from := uint64(1) << mf
	to := uint64(1) << mt
	key := p.Key ^ zobSide
	// Captures first: in Turkish a king may end on the square of a piece
	// it took earlier in the same move.
	if c := m.Captured; c != 0 {
		ck := c & p.Kings
		cs := c & p.Super
		p.Pieces[them] &^= c
		p.Kings &^= c
		p.Super &^= c
		for c &^= ck; c != 0; c &= c - 1 {
			key ^= zob[them][0][lsb(c)&63]
		}
		for ck &^= cs; ck != 0; ck &= ck - 1 {
			key ^= zob[them][1][lsb(ck)&63]
		}
		for ; cs != 0; cs &= cs - 1 {
			key ^= zob[them][2][lsb(cs)&63]
		}
	}
	p.Pieces[us] = p.Pieces[us]&^from | to
	switch {
	case p.Super&from != 0:
		p.Super = p.Super&^from | to
		p.Kings = p.Kings&^from | to
		key ^= zob[us][2][mf] ^ zob[us][2][mt]
	case p.Kings&from != 0:
		p.Kings = p.Kings&^from | to
		if m.Promote {
			p.Super |= to
			key ^= zob[us][1][mf] ^ zob[us][2][mt]
		} else {
			key ^= zob[us][1][mf] ^ zob[us][1][mt]
		}
	case m.Promote:
		p.Kings |= to
		key ^= zob[us][0][mf] ^ zob[us][1][mt]
	default:
		key ^= zob[us][0][mf] ^ zob[us][0][mt]
	}
	p.Key = key
	p.Side = them
}

// KeyAfter returns the Zobrist key of p after move m (legal in p), as
// Play would set it, without making the move: the search uses it to start
// loading a child's table entry before it gets there.
func (p *Position) KeyAfter(m Move) uint64 {
	us := p.Side & 1
	them := us ^ 1
	mf, mt := m.From&63, m.To&63
	from := uint64(1) << mf
	key := p.Key ^ zobSide
	if c := m.Captured; c != 0 {
		ck := c & p.Kings
		cs := c & p.Super
		for c &^= ck; c != 0; c &= c - 1 {
			key ^= zob[them][0][lsb(c)&63]
		}
		for ck &^= cs; ck != 0; ck &= ck - 1 {
			key ^= zob[them][1][lsb(ck)&63]
		}
		for ; cs != 0; cs &= cs - 1 {
			key ^= zob[them][2][lsb(cs)&63]
		}
	}
	k := 0 // the mover's kind before and after
	switch {
	case p.Super&from != 0:
		k = 2
	case p.Kings&from != 0:
		k = 1
	}
	k2 := k
	if m.Promote {
		k2 = min(k+1, 2)
	}
	return key ^ zob[us][k][mf] ^ zob[us][k2][mt]
}

// kind returns 0 for a man, 1 for a king (Dama), 2 for a Damone on bit s.
func (p *Position) kind(s int) int {
	switch {
	case p.Super&(1<<s) != 0:
		return 2
	case p.Kings&(1<<s) != 0:
		return 1
	}
	return 0
}

// ComputeKey returns the Zobrist key of p computed from scratch.
func (p *Position) ComputeKey() uint64 {
	var k uint64
	if p.Side == Black {
		k = zobSide
	}
	for c := White; c <= Black; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			s := lsb(b)
			k ^= zob[c][p.kind(s)][s]
		}
	}
	return k
}

// Flip8 returns the colour-flipped position for an 8x8 board: the board
// turned 180°, colours swapped, the other side to move (Italian.Flip).
func (p Position) Flip8() Position { return Italian.Flip(&p) }

// Zobrist keys: zob[colour][kind][bit] (kind 0 man, 1 king, 2 Damone),
// and zobSide for Black to move.
// They come from a fixed-seed splitmix64 sequence, so keys are the same in
// every run and on every machine.
var zob, zobSide = func() (t [2][3][64]uint64, side uint64) {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for c := range t {
		for k := range t[c] {
			for s := range t[c][k] {
				t[c][k][s] = next()
			}
		}
	}
	return t, next()
}()
