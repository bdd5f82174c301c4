package movegen

// MaxPly bounds the depth of a perft run (and of the per-ply move lists).
const MaxPly = 64

// Perfter counts the leaves of the move tree (perft). It owns one move list
// per ply, so a run allocates nothing; reuse one Perfter for many runs. The
// last ply is counted in bulk: the moves of a position at depth 1 are
// counted, not made. No hashing is used.
type Perfter struct {
	v     *Variant
	lists [MaxPly + 1]MoveList
	pos   [MaxPly + 1]Position
}

// Variant returns the variant the Perfter counts.
func (pf *Perfter) Variant() *Variant { return pf.v }

// NewPerfter returns a Perfter for variant v.
func NewPerfter(v *Variant) *Perfter { return &Perfter{v: v} }

// Perft returns the number of leaves of the move tree of p at depth plies
// (1 for depth 0). depth is clamped to MaxPly.
func (pf *Perfter) Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > MaxPly {
		depth = MaxPly
	}
	pf.pos[0] = *p
	return pf.run(depth, 0)
}

// run counts below pf.pos[ply]; children are made in pf.pos[ply+1] so that
// no position escapes to the heap.
func (pf *Perfter) run(depth, ply int) uint64 {
	p := &pf.pos[ply]
	ml := &pf.lists[ply]
	if depth == 1 {
		return uint64(pf.v.Count(p, ml))
	}
	c := &pf.pos[ply+1]
	if depth == 2 && pf.v.perft2 != nil {
		return pf.v.perft2(p, ml, c, &pf.lists[ply+1])
	}
	pf.v.Generate(p, ml)
	var n uint64
	if depth == 2 {
		// The children are counted here rather than by a call each.
		scratch := &pf.lists[ply+1]
		for _, m := range ml.Moves[:ml.N] {
			*c = *p
			c.Play(m)
			n += uint64(pf.v.Count(c, scratch))
		}
		return n
	}
	for _, m := range ml.Moves[:ml.N] {
		*c = *p
		c.Play(m)
		n += pf.run(depth-1, ply+1)
	}
	return n
}

// DivideEntry is one root move of a divided perft and its leaf count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each root move of p at depth plies
// (depth ≥ 1), in generation order.
func (pf *Perfter) Divide(p *Position, depth int) []DivideEntry {
	if depth < 1 {
		depth = 1
	}
	var root MoveList
	pf.v.Generate(p, &root)
	out := make([]DivideEntry, root.N)
	for i, m := range root.Slice() {
		c := *p
		c.Play(m)
		out[i] = DivideEntry{Move: m, Nodes: pf.Perft(&c, depth-1)}
	}
	return out
}
