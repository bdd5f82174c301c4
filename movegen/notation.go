package movegen

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Moves as text. A quiet move is "22-19". A capture is written with its full
// path of landing squares, "29x22x15x6" (FormatMove), or in the Hub form
// "from x to x captured…" with the captured squares ascending, "28x19x23"
// (HubMove). ParseMove reads all of these: separators '-', 'x' and ':' are
// accepted, and a capture may be named by from and to alone when that is
// unambiguous.

// FormatMove writes m, legal in p, in the variant's usual notation: "22-19"
// or the full capture path "29x22x15x6".
func (v *Variant) FormatMove(p *Position, m Move) string {
	if m.Captured == 0 {
		return v.name(int(m.From)) + "-" + v.name(int(m.To))
	}
	path := v.capturePath(p, m)
	if path == nil { // not legal in p: fall back to from and to
		return v.name(int(m.From)) + v.capSep() + v.name(int(m.To))
	}
	parts := make([]string, len(path))
	for i, b := range path {
		parts[i] = v.name(b)
	}
	return strings.Join(parts, v.capSep())
}

// HubMove writes m in the Hub form with square numbers: "from-to", or
// "fromxto" followed by "x" and each captured square in ascending order.
func (v *Variant) HubMove(m Move) string {
	from, to := strconv.Itoa(v.SquareNumber(int(m.From))), strconv.Itoa(v.SquareNumber(int(m.To)))
	if m.Captured == 0 {
		return from + "-" + to
	}
	var sb strings.Builder
	sb.WriteString(from + "x" + to)
	for _, n := range v.squareNumbers(m.Captured) {
		sb.WriteString("x" + strconv.Itoa(n))
	}
	return sb.String()
}

// capSep is the separator of a written capture: ':' in Russian, else 'x'.
func (v *Variant) capSep() string {
	if v.colonCaptures {
		return ":"
	}
	return "x"
}

// name returns the square name of bit b.
func (v *Variant) name(b int) string { return v.geo.name(b) }

// squareNumbers returns the square numbers of the bits in set, ascending.
func (v *Variant) squareNumbers(set uint64) []int {
	out := make([]int, 0, bits.OnesCount64(set))
	for ; set != 0; set &= set - 1 {
		out = append(out, v.SquareNumber(lsb(set)))
	}
	sort.Ints(out)
	return out
}

// next returns the bit one step from b along dir, or -1 off the board.
func (v *Variant) next(b int, dir [2]int) int {
	c := v.geo.coord[b]
	return v.geo.bitAt(int(c[0])+dir[0], int(c[1])+dir[1])
}

// manMayJump reports whether a man of colour c captures in direction dir
// (a unit step in the variant's own coordinates).
func (v *Variant) manMayJump(c Color, dir [2]int) bool {
	fwd := 1
	if c == Black {
		fwd = -1
	}
	switch v.fam {
	case famTurkish:
		return dir[1] == fwd || dir[1] == 0
	case famDamone:
		// forward along the long diagonal, and up-right / down-left as seen
		// from White
		if dir == [2]int{1, 1} || dir == [2]int{-1, -1} {
			return true
		}
		if c == White {
			return dir == [2]int{-1, 1}
		}
		return dir == [2]int{1, -1}
	}
	return v.dr.manBack || dir[1] == fwd
}

// capturePath returns the bits of one legal path of landing squares of
// capture m in p, starting with m.From, or nil if no path takes exactly
// m.Captured. Captured pieces stay on the board while the path is searched,
// except in Turkish, where they leave at once and a king never turns back.
// A man jumps short in its own directions (until a Russian man is crowned on
// the way); kings fly where the variant's kings do.
func (v *Variant) capturePath(p *Position, m Move) []int {
	path := []int{int(m.From)}
	dirs := v.geo.dirs()
	atOnce := v.fam == famTurkish
	var walk func(s int, left, empty uint64, king bool, last int) bool
	walk = func(s int, left, empty uint64, king bool, last int) bool {
		if left == 0 {
			return s == int(m.To)
		}
		fly := king && v.flying
		for di, dir := range dirs {
			if !king && !v.manMayJump(p.Side, dir) {
				continue
			}
			if atOnce && last >= 0 && di == last^1 {
				continue
			}
			x := v.next(s, dir)
			for fly && x >= 0 && empty&(1<<x) != 0 {
				x = v.next(x, dir)
			}
			if x < 0 || left&(1<<x) == 0 {
				continue
			}
			e := empty
			if atOnce {
				e |= 1 << x
			}
			for l := v.next(x, dir); l >= 0 && e&(1<<l) != 0; l = v.next(l, dir) {
				k := king || (v.dr.crownMid == crownContinue && v.crown[p.Side]&(1<<l) != 0)
				path = append(path, l)
				if walk(l, left&^(1<<x), e, k, di) {
					return true
				}
				path = path[:len(path)-1]
				if !fly {
					break
				}
			}
		}
		return false
	}
	empty := v.board&^p.Occupied() | 1<<m.From
	if !walk(int(m.From), m.Captured, empty, p.Kings&(1<<m.From) != 0, -1) {
		return nil
	}
	return path
}

// pathCaptures follows the landing squares path (bits, path[0] the start) in
// p and returns the pieces it jumps, or false if some step is not a jump
// along a line over exactly one uncaptured enemy piece onto an empty square.
// Whether the mover may make that jump is left to the legal-move match.
func (v *Variant) pathCaptures(p *Position, path []int) (uint64, bool) {
	if len(path) < 2 {
		return 0, false
	}
	empty := v.board&^p.Occupied() | 1<<path[0]
	opp := p.Pieces[p.Side^1]
	atOnce := v.fam == famTurkish
	var cap uint64
	for i := 0; i+1 < len(path); i++ {
		s, t := path[i], path[i+1]
		fs, rs := v.Coord(s)
		ft, rt := v.Coord(t)
		df, dr := sign(ft-fs), sign(rt-rs)
		dist := max(abs(ft-fs), abs(rt-rs))
		straight := (v.geo.diagonal && abs(ft-fs) == abs(rt-rs)) || (!v.geo.diagonal && (ft == fs || rt == rs))
		if dist < 2 || !straight || empty&(1<<t) == 0 {
			return 0, false
		}
		var jumped uint64
		for x := v.next(s, [2]int{df, dr}); x != t; x = v.next(x, [2]int{df, dr}) {
			switch {
			case empty&(1<<x) != 0:
			case opp&^cap&(1<<x) != 0 && jumped == 0:
				jumped = 1 << x
			default:
				return 0, false
			}
		}
		if jumped == 0 {
			return 0, false
		}
		cap |= jumped
		if atOnce {
			empty |= jumped
		}
	}
	return cap, true
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ParseMove reads a move in any of the accepted forms and returns the legal
// move of p it names. The error says what was wrong: an unreadable square,
// a move that is not legal here, or text that fits several legal moves.
func (v *Variant) ParseMove(p *Position, s string) (Move, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return Move{}, fmt.Errorf("empty move")
	}
	var sqs []int
	tok := ""
	flush := func() error {
		if tok == "" {
			return fmt.Errorf("move %q: missing square", s)
		}
		b, err := v.parseSquare(tok)
		if err != nil {
			return fmt.Errorf("move %q: %v", s, err)
		}
		sqs = append(sqs, b)
		tok = ""
		return nil
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '-', 'x', 'X', ':':
			if err := flush(); err != nil {
				return Move{}, err
			}
		default:
			if len(tok) > 8 {
				return Move{}, fmt.Errorf("move %q: square name too long", s)
			}
			tok += string(c)
		}
	}
	if err := flush(); err != nil {
		return Move{}, err
	}
	if len(sqs) < 2 {
		return Move{}, fmt.Errorf("move %q: need at least a from and a to square", s)
	}
	var ml MoveList
	v.Generate(p, &ml)
	var found []Move
	for _, m := range ml.Slice() {
		if v.moveMatches(p, m, sqs) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		legal := make([]string, 0, ml.N)
		for _, m := range ml.Slice() {
			legal = append(legal, v.FormatMove(p, m))
		}
		if len(legal) == 0 {
			return Move{}, fmt.Errorf("move %q: no legal move in this position", s)
		}
		return Move{}, fmt.Errorf("move %q is not legal here (legal: %s)", s, strings.Join(legal, " "))
	}
	names := make([]string, len(found))
	for i, m := range found {
		names[i] = v.HubMove(m)
	}
	return Move{}, fmt.Errorf("move %q is ambiguous: it fits %s", s, strings.Join(names, ", "))
}

// moveMatches reports whether the squares sqs (bits) name the legal move m:
// from and to of a quiet move; for a capture, the Hub form (from, to, then
// the captured set, or from and to alone) or the path of landing squares.
func (v *Variant) moveMatches(p *Position, m Move, sqs []int) bool {
	if int(m.From) != sqs[0] {
		return false
	}
	if m.Captured == 0 {
		return len(sqs) == 2 && int(m.To) == sqs[1]
	}
	if int(m.To) == sqs[1] {
		var set uint64
		for _, b := range sqs[2:] {
			set |= 1 << b
		}
		if len(sqs) == 2 || (set == m.Captured && len(sqs)-2 == popcount(set)) {
			return true
		}
	}
	if int(m.To) != sqs[len(sqs)-1] || len(sqs)-1 != popcount(m.Captured) {
		return false
	}
	cap, ok := v.pathCaptures(p, sqs)
	return ok && cap == m.Captured
}
