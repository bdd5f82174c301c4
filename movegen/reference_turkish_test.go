package movegen

// A slow, independent reference generator for Turkish draughts (rules.md §3)
// and a differential test of the bitboard generator (turkish.go) against it.
//
// The reference uses none of the package's geometry or generator code: the
// board is a plain [8][8] array indexed by file and rank, square numbers come
// from rules.md ("1 = a1, 2 = b1 … 8 = h1, 9 = a2 … 64 = h8") and captures
// are found by a plain recursive search that lists every capture path, keeps
// the longest, and only then merges paths into moves identified by (from,
// to, captured set). The only package API it touches is the public surface:
// Position, Move, Turkish.Bit/SquareNumber/Coord/SquareName, Generate,
// Count, HasCapture, Play, ParseFEN, FEN, Start, ComputeKey.
//
// The rules, as the reference implements them:
//   - men step one square forward or sideways; they capture forward or
//     sideways by a short jump, never backward;
//   - kings slide along ranks and files; a king captures from afar: over the
//     first piece on the line if it is an enemy, landing on any empty square
//     beyond it;
//   - captured pieces leave the board at once: their squares are free for
//     the rest of the sequence (the mover may pass over or land on them),
//     and the mover's origin is empty during its capture;
//   - within one sequence a king never jumps in the direction opposite to its
//     previous jump (no 180° turn);
//   - the most pieces must be taken (a king counts as one); equal maxima are
//     free choices;
//   - a man that reaches the far rank during a capture goes on capturing as
//     a man (sideways along that rank) and is crowned only if the move ends
//     there;
//   - paths with the same (from, to, captured set) are one move.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ---------------------------------------------------------------------------
// Geometry, from rules.md §3.

// tkNum is the square number of file f, rank r (0-based): 1 = a1 … 64 = h8.
func tkNum(f, r int) int { return r*8 + f + 1 }

// tkSq returns the file and rank of square n.
func tkSq(n int) (f, r int) { return (n - 1) % 8, (n - 1) / 8 }

// tkName is the algebraic name of square n.
func tkName(n int) string {
	f, r := tkSq(n)
	return fmt.Sprintf("%c%d", 'a'+f, r+1)
}

func tkOn(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// tkDirs are the four orthogonal unit steps; the opposite of tkDirs[i] is
// tkDirs[i^1].
var tkDirs = [4][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}} // up, down, left, right

// tkForward is the rank step of the men of a side: White goes up.
func tkForward(white bool) int {
	if white {
		return 1
	}
	return -1
}

// tkCrownRank is the rank (0-based) where a side's men are crowned.
func tkCrownRank(white bool) int {
	if white {
		return 7
	}
	return 0
}

// ---------------------------------------------------------------------------
// The reference board.

const (
	tkEmpty int8 = 0
	tkWMan  int8 = 1
	tkWKing int8 = 2
	tkBMan  int8 = -1
	tkBKing int8 = -2
	tkDead  int8 = 9 // a captured piece left on the board (experiment only)
)

type tkBoard struct {
	c     [8][8]int8 // [file][rank]
	white bool       // White to move
}

func (b *tkBoard) at(n int) int8 {
	f, r := tkSq(n)
	return b.c[f][r]
}

func (b *tkBoard) set(n int, v int8) {
	f, r := tkSq(n)
	b.c[f][r] = v
}

// fen writes b as algebraic PDN FEN, White first, squares in number order,
// K before kings: the form Turkish.FEN writes.
func (b *tkBoard) fen() string {
	var w, k []string
	for n := 1; n <= 64; n++ {
		switch b.at(n) {
		case tkWMan:
			w = append(w, tkName(n))
		case tkWKing:
			w = append(w, "K"+tkName(n))
		case tkBMan:
			k = append(k, tkName(n))
		case tkBKing:
			k = append(k, "K"+tkName(n))
		}
	}
	side := "W"
	if !b.white {
		side = "B"
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(k, ",")
}

func (b *tkBoard) count(sign int8) int {
	k := 0
	for n := 1; n <= 64; n++ {
		if b.at(n)*sign > 0 {
			k++
		}
	}
	return k
}

// tkParse reads a FEN such as "W:WKc4,a2:Bb4" or "W:W9-24:B41-56":
// algebraic squares, or numbers (1 = a1 … 64 = h8) and ranges of numbers.
func tkParse(t testing.TB, s string) tkBoard {
	t.Helper()
	var b tkBoard
	f := strings.Split(s, ":")
	if len(f) != 3 {
		t.Fatalf("tkParse %q: bad fen", s)
	}
	b.white = f[0] == "W"
	for _, part := range f[1:] {
		man, king := tkWMan, tkWKing
		if part[0] == 'B' {
			man, king = tkBMan, tkBKing
		}
		if len(part) == 1 {
			continue
		}
		for _, tok := range strings.Split(part[1:], ",") {
			v := man
			if tok[0] == 'K' {
				v, tok = king, tok[1:]
			}
			lo, hi := tok, tok
			if i := strings.IndexByte(tok, '-'); i > 0 {
				lo, hi = tok[:i], tok[i+1:]
			}
			sq := func(x string) int {
				if n, err := strconv.Atoi(x); err == nil && n >= 1 && n <= 64 {
					return n
				}
				if len(x) != 2 || x[0] < 'a' || x[0] > 'h' || x[1] < '1' || x[1] > '8' {
					t.Fatalf("tkParse %q: bad square %q", s, x)
				}
				return tkNum(int(x[0]-'a'), int(x[1]-'1'))
			}
			for n := sq(lo); n <= sq(hi); n++ {
				if b.at(n) != tkEmpty {
					t.Fatalf("tkParse %q: square %s twice", s, tkName(n))
				}
				b.set(n, v)
			}
		}
	}
	return b
}

// tkStart is the start position of rules.md §3: White men on ranks 2 and 3,
// Black men on ranks 6 and 7, White to move.
func tkStart() tkBoard {
	var b tkBoard
	b.white = true
	for f := 0; f < 8; f++ {
		b.c[f][1], b.c[f][2] = tkWMan, tkWMan
		b.c[f][5], b.c[f][6] = tkBMan, tkBMan
	}
	return b
}

// tkMove is a move as rules.md identifies it. Caps holds bit n-1 for each
// captured square n.
type tkMove struct {
	From, To int
	Caps     uint64
	Promote  bool
}

func (m tkMove) caps() []int {
	var out []int
	for n := 1; n <= 64; n++ {
		if m.Caps&(1<<(n-1)) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func (m tkMove) String() string {
	s := tkName(m.From) + "-" + tkName(m.To)
	if m.Caps != 0 {
		var cs []string
		for _, n := range m.caps() {
			cs = append(cs, tkName(n))
		}
		s = tkName(m.From) + "x" + tkName(m.To) + "{" + strings.Join(cs, ",") + "}"
	}
	if m.Promote {
		s += "(K)"
	}
	return s
}

func tkSort(ms []tkMove) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		if a.Caps != b.Caps {
			return a.Caps < b.Caps
		}
		return !a.Promote && b.Promote
	})
}

// tkPath is one complete capture path.
type tkPath struct {
	from, to int
	land     []int // landing squares, in order
	caps     []int // captured squares, in jump order
	king     bool  // made by a king
	promote  bool  // a man ends on its crowning rank
	farMid   bool  // a man jumped on from the far rank (reached mid-capture)
	recross  bool  // passed over a square emptied earlier in the same move
	landCap  bool  // landed on a square emptied earlier in the same move
	origin   bool  // passed over or landed on its own origin
}

func (p *tkPath) move() tkMove {
	m := tkMove{From: p.from, To: p.to, Promote: p.promote}
	for _, c := range p.caps {
		m.Caps |= 1 << (c - 1)
	}
	return m
}

// text is the path written like FormatMove: landing squares joined by x.
func (p *tkPath) text() string {
	parts := []string{tkName(p.from)}
	for _, l := range p.land {
		parts = append(parts, tkName(l))
	}
	return strings.Join(parts, "x")
}

// tkOptions selects rule changes for experiments that show a rule matters;
// the zero value is rules.md §3.
type tkOptions struct {
	turnBack bool // a king may jump back along the line it came on
	blocking bool // captured pieces stay on the board until the move ends
}

type tkSearch struct {
	b       tkBoard
	opt     tkOptions
	own     int8
	white   bool
	from    int
	of, or  int // origin
	emptied [8][8]bool
	land    []int
	caps    []int
	paths   []tkPath
	refused int // jumps the 180° rule refused
}

func (s *tkSearch) enemy(f, r int) bool {
	v := s.b.c[f][r]
	return v != tkEmpty && v != tkDead && v*s.own < 0
}

// take removes (or, blocking, kills) the piece on (f, r) and returns it.
func (s *tkSearch) take(f, r int) int8 {
	v := s.b.c[f][r]
	if s.opt.blocking {
		s.b.c[f][r] = tkDead
	} else {
		s.b.c[f][r] = tkEmpty
	}
	s.emptied[f][r] = true
	s.caps = append(s.caps, tkNum(f, r))
	return v
}

func (s *tkSearch) untake(f, r int, v int8) {
	s.b.c[f][r] = v
	s.emptied[f][r] = false
	s.caps = s.caps[:len(s.caps)-1]
}

func (s *tkSearch) record(f, r int, king, farMid, recross, landCap, origin bool) {
	s.paths = append(s.paths, tkPath{
		from: s.from, to: tkNum(f, r),
		land: slices.Clone(s.land), caps: slices.Clone(s.caps),
		king: king, promote: !king && r == tkCrownRank(s.white),
		farMid: farMid, recross: recross, landCap: landCap, origin: origin,
	})
}

// manJump extends a man's capture from (f, r). A man on its far rank keeps
// the man's directions: forward is off the board, so only sideways jumps
// remain.
func (s *tkSearch) manJump(f, r int, farMid bool) {
	ended := true
	for _, d := range tkDirs {
		if d[1] == -tkForward(s.white) {
			continue // never backward
		}
		of, or := f+d[0], r+d[1]
		lf, lr := f+2*d[0], r+2*d[1]
		if !tkOn(lf, lr) || !s.enemy(of, or) || s.b.c[lf][lr] != tkEmpty {
			continue
		}
		ended = false
		v := s.take(of, or)
		s.land = append(s.land, tkNum(lf, lr))
		s.manJump(lf, lr, farMid || r == tkCrownRank(s.white))
		s.land = s.land[:len(s.land)-1]
		s.untake(of, or, v)
	}
	if ended && len(s.caps) > 0 {
		s.record(f, r, false, farMid, false, false, false)
	}
}

// kingJump extends a king's capture from (f, r); last is the index of the
// previous jump's direction, -1 before the first.
func (s *tkSearch) kingJump(f, r, last int, recross, landCap, origin bool) {
	ended := true
	for di, d := range tkDirs {
		// Walk over empty squares to the first piece on the line.
		xf, xr := f+d[0], r+d[1]
		passEmptied, passOrigin := false, false
		for tkOn(xf, xr) && s.b.c[xf][xr] == tkEmpty {
			passEmptied = passEmptied || s.emptied[xf][xr]
			passOrigin = passOrigin || (xf == s.of && xr == s.or)
			xf, xr = xf+d[0], xr+d[1]
		}
		if !tkOn(xf, xr) || !s.enemy(xf, xr) {
			continue
		}
		lf, lr := xf+d[0], xr+d[1]
		if !tkOn(lf, lr) || s.b.c[lf][lr] != tkEmpty {
			continue // no empty square just beyond: no jump
		}
		if last >= 0 && di == last^1 && !s.opt.turnBack {
			s.refused++
			continue // no 180° turn
		}
		v := s.take(xf, xr)
		for ; tkOn(lf, lr) && s.b.c[lf][lr] == tkEmpty; lf, lr = lf+d[0], lr+d[1] {
			ended = false
			s.land = append(s.land, tkNum(lf, lr))
			s.kingJump(lf, lr, di,
				recross || passEmptied,
				landCap || s.emptied[lf][lr],
				origin || passOrigin || (lf == s.of && lr == s.or))
			s.land = s.land[:len(s.land)-1]
			// The squares walked over to reach the next landing square.
			passEmptied = passEmptied || s.emptied[lf][lr]
			passOrigin = passOrigin || (lf == s.of && lr == s.or)
		}
		s.untake(xf, xr, v)
	}
	if ended && len(s.caps) > 0 {
		s.record(f, r, true, false, recross, landCap, origin)
	}
}

// tkCapturePaths lists every complete capture path of the side to move,
// before the maximum rule, and how many jumps the 180° rule refused.
func tkCapturePaths(b *tkBoard, opt tkOptions) ([]tkPath, int) {
	s := tkSearch{b: *b, opt: opt, own: 1, white: b.white}
	if !b.white {
		s.own = -1
	}
	for n := 1; n <= 64; n++ {
		v := b.at(n)
		if v == tkEmpty || v*s.own < 0 {
			continue
		}
		f, r := tkSq(n)
		s.from, s.of, s.or = n, f, r
		s.b.c[f][r] = tkEmpty // the origin is empty during the capture
		if v == tkWKing || v == tkBKing {
			s.kingJump(f, r, -1, false, false, false)
		} else {
			s.manJump(f, r, false)
		}
		s.b.c[f][r] = v
	}
	return s.paths, s.refused
}

// tkBest keeps the paths that take the most pieces.
func tkBest(paths []tkPath) []tkPath {
	most := 0
	for i := range paths {
		most = max(most, len(paths[i].caps))
	}
	var best []tkPath
	for i := range paths {
		if len(paths[i].caps) == most {
			best = append(best, paths[i])
		}
	}
	return best
}

// tkResult is the reference's answer for one position.
type tkResult struct {
	moves   []tkMove       // legal moves, sorted
	paths   map[tkMove]int // capture moves: the number of paths of each
	seqs    map[tkMove]int // capture moves: the number of distinct capture orders
	best    []tkPath       // the paths of the legal captures
	all     []tkPath       // every capture path, before the maximum rule
	refused int
}

// tkGenerate returns the legal moves of b under options opt.
func tkGenerate(b *tkBoard, opt tkOptions) tkResult {
	var res tkResult
	all, refused := tkCapturePaths(b, opt)
	res.all, res.refused = all, refused
	if len(all) > 0 {
		res.best = tkBest(all)
		res.paths = map[tkMove]int{}
		res.seqs = map[tkMove]int{}
		seqSeen := map[string]bool{}
		for i := range res.best {
			p := &res.best[i]
			m := p.move()
			if res.paths[m] == 0 {
				res.moves = append(res.moves, m)
			}
			res.paths[m]++
			key := fmt.Sprint(m, p.caps)
			if !seqSeen[key] {
				seqSeen[key] = true
				res.seqs[m]++
			}
		}
		tkSort(res.moves)
		return res
	}
	own := int8(1)
	if !b.white {
		own = -1
	}
	for n := 1; n <= 64; n++ {
		v := b.at(n)
		if v == tkEmpty || v*own < 0 {
			continue
		}
		king := v == tkWKing || v == tkBKing
		f, r := tkSq(n)
		for _, d := range tkDirs {
			if !king && d[1] == -tkForward(b.white) {
				continue
			}
			for tf, tr := f+d[0], r+d[1]; tkOn(tf, tr) && b.c[tf][tr] == tkEmpty; tf, tr = tf+d[0], tr+d[1] {
				res.moves = append(res.moves, tkMove{From: n, To: tkNum(tf, tr),
					Promote: !king && tr == tkCrownRank(b.white)})
				if !king {
					break // men step one square
				}
			}
		}
	}
	tkSort(res.moves)
	return res
}

// tkPlay makes move m on b: captured pieces leave, the mover goes to To
// (which may be a captured square) and is crowned if m says so.
func tkPlay(b *tkBoard, m tkMove) {
	v := b.at(m.From)
	b.set(m.From, tkEmpty)
	for _, n := range m.caps() {
		b.set(n, tkEmpty)
	}
	if m.Promote {
		v *= 2
	}
	b.set(m.To, v)
	b.white = !b.white
}

// tkPerft counts the leaves of the reference tree at depth under three
// conventions: [0] one per (from, to, captured set) — rules.md; [1] one per
// capture path (sequence of landing squares); [2] one per distinct capture
// order (the same captures in the same order, landing squares ignored).
func tkPerft(b *tkBoard, depth int) [3]uint64 {
	if depth == 0 {
		return [3]uint64{1, 1, 1}
	}
	res := tkGenerate(b, tkOptions{})
	var n [3]uint64
	for _, m := range res.moves {
		var sub [3]uint64
		if depth == 1 {
			sub = [3]uint64{1, 1, 1}
		} else {
			c := *b
			tkPlay(&c, m)
			sub = tkPerft(&c, depth-1)
		}
		mult := [3]uint64{1, 1, 1}
		if m.Caps != 0 {
			mult[1], mult[2] = uint64(res.paths[m]), uint64(res.seqs[m])
		}
		for i := range n {
			n[i] += mult[i] * sub[i]
		}
	}
	return n
}

// tkRotate turns b by 180° and swaps the colours (and the side to move):
// the same position seen from the other side.
func tkRotate(b *tkBoard) tkBoard {
	var m tkBoard
	m.white = !b.white
	for n := 1; n <= 64; n++ {
		m.set(65-n, -b.at(n))
	}
	return m
}

func tkRotateMove(m tkMove) tkMove {
	r := tkMove{From: 65 - m.From, To: 65 - m.To, Promote: m.Promote}
	for _, n := range m.caps() {
		r.Caps |= 1 << (65 - n - 1)
	}
	return r
}

// ---------------------------------------------------------------------------
// Conversion between the package's types and the reference.

func tkFromPosition(p *Position) tkBoard {
	var b tkBoard
	b.white = p.Side == White
	for n := 1; n <= 64; n++ {
		bit := uint64(1) << Turkish.Bit(n)
		king := p.Kings&bit != 0
		switch {
		case p.Pieces[White]&bit != 0 && king:
			b.set(n, tkWKing)
		case p.Pieces[White]&bit != 0:
			b.set(n, tkWMan)
		case p.Pieces[Black]&bit != 0 && king:
			b.set(n, tkBKing)
		case p.Pieces[Black]&bit != 0:
			b.set(n, tkBMan)
		}
	}
	return b
}

func tkToPosition(b *tkBoard) Position {
	var p Position
	if !b.white {
		p.Side = Black
	}
	for n := 1; n <= 64; n++ {
		bit := uint64(1) << Turkish.Bit(n)
		switch b.at(n) {
		case tkWMan:
			p.Pieces[White] |= bit
		case tkWKing:
			p.Pieces[White] |= bit
			p.Kings |= bit
		case tkBMan:
			p.Pieces[Black] |= bit
		case tkBKing:
			p.Pieces[Black] |= bit
			p.Kings |= bit
		}
	}
	p.Key = p.ComputeKey()
	return p
}

func tkOfMove(m Move) tkMove {
	r := tkMove{
		From:    Turkish.SquareNumber(int(m.From)),
		To:      Turkish.SquareNumber(int(m.To)),
		Promote: m.Promote,
	}
	for c := m.Captured; c != 0; c &= c - 1 {
		b := 0
		for c&(1<<b) == 0 {
			b++
		}
		r.Caps |= 1 << (Turkish.SquareNumber(b) - 1)
	}
	return r
}

// ---------------------------------------------------------------------------
// Sanity of the reference itself.

func TestReferenceTurkishGeometry(t *testing.T) {
	for n := 1; n <= 64; n++ {
		f, r := tkSq(n)
		if tkNum(f, r) != n {
			t.Fatalf("square %d -> %s -> %d", n, tkName(n), tkNum(f, r))
		}
		// The package's layout: bit = (7-rank)*8 + file.
		b := Turkish.Bit(n)
		if b != (7-r)*8+f {
			t.Errorf("Turkish.Bit(%d) = %d, want %d (%s)", n, b, (7-r)*8+f, tkName(n))
		}
		if Turkish.SquareNumber(b) != n {
			t.Errorf("Turkish.SquareNumber(%d) = %d, want %d", b, Turkish.SquareNumber(b), n)
		}
		if gf, gr := Turkish.Coord(b); gf != f || gr != r {
			t.Errorf("Turkish.Coord(%d) = %d,%d, want %d,%d", b, gf, gr, f, r)
		}
		if Turkish.SquareName(b) != tkName(n) {
			t.Errorf("Turkish.SquareName(%d) = %s, want %s", b, Turkish.SquareName(b), tkName(n))
		}
	}
	for n, want := range map[int]string{1: "a1", 8: "h1", 9: "a2", 57: "a8", 64: "h8"} {
		if tkName(n) != want {
			t.Errorf("square %d is %s, want %s", n, tkName(n), want)
		}
	}
	if Turkish.Bit(57) != 0 || Turkish.Bit(8) != 63 {
		t.Errorf("a8 must be bit 0 and h1 bit 63")
	}
	start := tkStart()
	p := Turkish.Start()
	if got := tkFromPosition(&p); got != start {
		t.Errorf("Turkish.Start() is %s, want %s", got.fen(), start.fen())
	}
	if got := Turkish.FEN(&p); got != start.fen() {
		t.Errorf("Turkish.FEN(start) = %s, reference writes %s", got, start.fen())
	}
}

// tkStartPerft is rules.md §3's reference perft from the start.
var tkStartPerft = []uint64{8, 64, 708, 7538, 85090, 931312, 10782382, 123290300}

func TestReferenceTurkishPerft(t *testing.T) {
	b := tkStart()
	depth := 5
	if testing.Short() {
		depth = 4
	}
	for d := 1; d <= depth; d++ {
		got := tkPerft(&b, d)
		if got[0] != tkStartPerft[d-1] {
			t.Errorf("reference perft(%d) = %d, rules.md says %d", d, got[0], tkStartPerft[d-1])
		}
		if got[1] != got[0] || got[2] != got[0] {
			t.Errorf("perft(%d): the conventions should agree this shallow: %v", d, got)
		}
	}
}

// TestReferenceTurkishPerftDeep runs the reference perft from the start at
// a depth given by TURKISH_PERFT_DEEP (6, 7 or 8) under the three counting
// conventions of tkPerft, in parallel over the root moves, and compares
// with rules.md and testdata/perft-start.json:
//
//	TURKISH_PERFT_DEEP=7 go test ./movegen -run TurkishPerftDeep -v -timeout 0
func TestReferenceTurkishPerftDeep(t *testing.T) {
	d, err := strconv.Atoi(os.Getenv("TURKISH_PERFT_DEEP"))
	if err != nil || d < 3 {
		t.Skip("set TURKISH_PERFT_DEEP=depth to run")
	}
	start := time.Now()
	b := tkStart()
	root := tkGenerate(&b, tkOptions{})
	var total [3]uint64
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Two plies of parallelism: 64 independent subtrees.
	for _, m := range root.moves {
		c := b
		tkPlay(&c, m)
		for _, m2 := range tkGenerate(&c, tkOptions{}).moves {
			wg.Add(1)
			go func(c tkBoard, m2 tkMove) {
				defer wg.Done()
				// The start has no captures in its first two plies.
				tkPlay(&c, m2)
				n := tkPerft(&c, d-2)
				mu.Lock()
				for i := range total {
					total[i] += n[i]
				}
				mu.Unlock()
			}(c, m2)
		}
	}
	wg.Wait()
	json := map[int]uint64{6: 931312, 7: 10782308, 8: 123285642}
	t.Logf("reference perft(%d) from the start in %v:\n\tone per (from, to, captured set): %d\n\tone per path (landing squares):   %d\n\tone per capture order:            %d\n\trules.md: %d, perft-start.json: %d",
		d, time.Since(start).Round(time.Millisecond), total[0], total[1], total[2], tkStartPerft[d-1], json[d])
}

// ---------------------------------------------------------------------------
// The differential test.

// tkDiff compares the package's moves of p with the reference's result and
// returns a description of every difference, or "".
func tkDiff(p *Position, res *tkResult) string {
	b := tkFromPosition(p)
	want := res.moves
	var ml MoveList
	Turkish.Generate(p, &ml)
	var problems []string
	got := map[tkMove]int{}
	var gotList []tkMove
	for _, m := range ml.Slice() {
		r := tkOfMove(m)
		if got[r] == 0 {
			gotList = append(gotList, r)
		}
		got[r]++
	}
	wantSet := map[tkMove]bool{}
	for _, m := range want {
		wantSet[m] = true
	}
	var missing, extra, dup []string
	for _, m := range want {
		if got[m] == 0 {
			missing = append(missing, m.String())
		}
	}
	tkSort(gotList)
	for _, m := range gotList {
		if got[m] > 1 {
			dup = append(dup, fmt.Sprintf("%s (x%d)", m, got[m]))
		}
		if !wantSet[m] {
			extra = append(extra, m.String())
		}
	}
	if len(missing) > 0 {
		problems = append(problems, "missing (reference only): "+strings.Join(missing, " "))
	}
	if len(extra) > 0 {
		problems = append(problems, "extra (package only): "+strings.Join(extra, " "))
	}
	if len(dup) > 0 {
		problems = append(problems, "listed more than once: "+strings.Join(dup, " "))
	}
	var scratch MoveList
	if n := Turkish.Count(p, &scratch); n != len(want) {
		problems = append(problems, fmt.Sprintf("Count = %d, reference has %d moves", n, len(want)))
	}
	if hc := Turkish.HasCapture(p); hc != (len(res.best) > 0) {
		problems = append(problems, fmt.Sprintf("HasCapture = %v, reference captures: %v", hc, len(res.best) > 0))
	}
	// Play every generated move: the incremental key and the resulting
	// position must match the reference's own move making.
	for _, m := range ml.Slice() {
		q := *p
		q.Play(m)
		rb := b
		tkPlay(&rb, tkOfMove(m))
		if got := tkFromPosition(&q); got != rb {
			problems = append(problems, fmt.Sprintf("Play(%s) gives %s, reference %s", tkOfMove(m), got.fen(), rb.fen()))
		}
		if q.Key != q.ComputeKey() {
			problems = append(problems, fmt.Sprintf("Play(%s): incremental key %x, ComputeKey %x", tkOfMove(m), q.Key, q.ComputeKey()))
		}
		if q.Pieces[White]&q.Pieces[Black] != 0 || q.Kings&^(q.Pieces[White]|q.Pieces[Black]) != 0 || q.Super != 0 {
			problems = append(problems, fmt.Sprintf("Play(%s): inconsistent bitboards W=%#x B=%#x K=%#x", tkOfMove(m), q.Pieces[White], q.Pieces[Black], q.Kings))
		}
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\n\treference: %v\n\tpackage:   %v\n\t%s",
		Turkish.FEN(p), want, gotList, strings.Join(problems, "\n\t"))
}

// tkStats counts what the checked positions exercised, so that a test that
// silently stopped covering the hard cases would show it. Each counter is a
// number of positions.
type tkStats struct {
	positions, captures, kingCaptures, multi, longest int
	turnBackRefused                                   int // the 180° rule refused a possible jump
	turnBackMattered                                  int // the legal moves change without the 180° rule
	atOnceMattered                                    int // the legal moves change if captured pieces blocked
	farMid                                            int // a legal move: a man reaches the far rank and jumps on as a man
	recross                                           int // a legal move passes over a square emptied earlier in it
	landCaptured                                      int // a legal move lands (mid-way or at the end) on such a square
	endOnCaptured                                     int // a legal move ends on a captured square (To in Captured)
	crossOrigin                                       int // a legal move passes over or lands on its origin
	forcedLanding                                     int // a landing square beyond a piece is excluded by the maximum rule
	merged                                            int // several paths make one move
	promoteCapture                                    int // a capture that crowns
}

func (st *tkStats) note(b *tkBoard, res *tkResult) {
	st.positions++
	if res.refused > 0 {
		st.turnBackRefused++
	}
	if len(res.best) == 0 {
		return
	}
	st.captures++
	n := len(res.best[0].caps)
	if n > 1 {
		st.multi++
	}
	st.longest = max(st.longest, n)
	var king, far, rec, land, endCap, orig, merged, prom bool
	for i := range res.best {
		p := &res.best[i]
		king = king || p.king
		far = far || p.farMid
		rec = rec || p.recross
		land = land || p.landCap
		orig = orig || p.origin
		m := p.move()
		endCap = endCap || m.Caps&(1<<(m.To-1)) != 0
		prom = prom || m.Promote
	}
	for _, k := range res.paths {
		merged = merged || k > 1
	}
	count := func(c *int, ok bool) {
		if ok {
			*c++
		}
	}
	count(&st.kingCaptures, king)
	count(&st.farMid, far)
	count(&st.recross, rec)
	count(&st.landCaptured, land)
	count(&st.endOnCaptured, endCap)
	count(&st.crossOrigin, orig)
	count(&st.merged, merged)
	count(&st.promoteCapture, prom)
	if res.refused > 0 {
		alt := tkGenerate(b, tkOptions{turnBack: true})
		count(&st.turnBackMattered, !slices.Equal(alt.moves, res.moves))
	}
	if n > 1 {
		alt := tkGenerate(b, tkOptions{blocking: true})
		count(&st.atOnceMattered, !slices.Equal(alt.moves, res.moves))
	}
	count(&st.forcedLanding, tkForcedLanding(res.all, n))
}

// tkForcedLanding reports whether the maximum rule decides where a king
// lands: some jump that is part of a longest capture has a landing square
// beyond its piece from which no longest capture continues.
func tkForcedLanding(all []tkPath, most int) bool {
	jump := map[string]int{} // from, captures so far, landings before the last: best length
	land := map[string]int{} // the same with the last landing square
	for i := range all {
		p := &all[i]
		key := []byte{byte(p.from)}
		for j := range p.caps {
			key = append(key, byte(p.caps[j]))
			jump[string(key)] = max(jump[string(key)], len(p.caps))
			key = append(key, byte(p.land[j]+100))
			land[string(key)] = max(land[string(key)], len(p.caps))
		}
	}
	for k, n := range land {
		if n < most && jump[k[:len(k)-1]] == most {
			return true
		}
	}
	return false
}

func (st tkStats) String() string {
	return fmt.Sprintf("%d positions: %d with captures (%d by a king), %d multi-captures (longest %d); "+
		"180° turn refused: %d, and it changed the moves: %d; removal at once changed the moves: %d; "+
		"man jumps on from the far rank: %d; re-crosses an emptied square: %d, lands on one: %d, ends on one: %d; "+
		"crosses its origin: %d; landing forced by the maximum: %d; paths merged: %d; crowning captures: %d",
		st.positions, st.captures, st.kingCaptures, st.multi, st.longest,
		st.turnBackRefused, st.turnBackMattered, st.atOnceMattered,
		st.farMid, st.recross, st.landCaptured, st.endOnCaptured,
		st.crossOrigin, st.forcedLanding, st.merged, st.promoteCapture)
}

// tkPlace puts one piece on a random square allowed by ok (and, for a man,
// not on its own crowning rank). It reports whether it found a square.
func tkPlace(rng *rand.Rand, b *tkBoard, white, king bool, ok func(f, r int) bool) bool {
	v := tkWMan
	if !white {
		v = tkBMan
	}
	if king {
		v *= 2
	}
	for try := 0; try < 200; try++ {
		f, r := rng.IntN(8), rng.IntN(8)
		if b.c[f][r] != tkEmpty || (!king && r == tkCrownRank(white)) || (ok != nil && !ok(f, r)) {
			continue
		}
		b.c[f][r] = v
		return true
	}
	return false
}

// tkRandomBoard places nMover pieces of the side to move and nOther of the
// other side; kingP is the chance that a piece is a king.
func tkRandomBoard(rng *rand.Rand, moverWhite bool, nMover, nOther int, kingP float64) tkBoard {
	var b tkBoard
	b.white = moverWhite
	for i := 0; i < nMover; i++ {
		tkPlace(rng, &b, moverWhite, rng.Float64() < kingP, nil)
	}
	for i := 0; i < nOther; i++ {
		tkPlace(rng, &b, !moverWhite, rng.Float64() < kingP, nil)
	}
	return b
}

// tkLatticeBoard scatters enemy pieces on squares of one parity class, with
// gaps, and gives the mover kings: long king chains with many landing
// choices, loops that re-cross emptied squares and merged paths.
func tkLatticeBoard(rng *rand.Rand) tkBoard {
	moverWhite := rng.IntN(2) == 0
	var b tkBoard
	b.white = moverWhite
	pf, pr := rng.IntN(2), rng.IntN(2)
	lattice := func(f, r int) bool { return f%2 == pf || r%2 == pr }
	nOther := 4 + rng.IntN(13)
	for i := 0; i < nOther; i++ {
		tkPlace(rng, &b, !moverWhite, rng.IntN(3) == 0, lattice)
	}
	for i := 0; i < 1+rng.IntN(3); i++ {
		tkPlace(rng, &b, moverWhite, true, nil)
	}
	for i := 0; i < rng.IntN(6); i++ {
		tkPlace(rng, &b, moverWhite, rng.IntN(4) == 0, nil)
	}
	return b
}

// tkCrownBoard puts the mover's men two ranks from their crowning rank and
// enemy pieces on the last two ranks: men that reach the far rank during a
// capture and go on along it.
func tkCrownBoard(rng *rand.Rand) tkBoard {
	moverWhite := rng.IntN(2) == 0
	var b tkBoard
	b.white = moverWhite
	cr := tkCrownRank(moverWhite)
	near := func(k int) func(f, r int) bool {
		return func(f, r int) bool { return r == cr-k*tkForward(moverWhite) }
	}
	for i := 0; i < 1+rng.IntN(4); i++ {
		tkPlace(rng, &b, moverWhite, false, near(1+rng.IntN(2)))
	}
	for i := 0; i < 2+rng.IntN(8); i++ {
		tkPlace(rng, &b, !moverWhite, rng.IntN(3) == 0, near(rng.IntN(3)))
	}
	for i := 0; i < rng.IntN(6); i++ {
		tkPlace(rng, &b, rng.IntN(2) == 0, rng.IntN(2) == 0, nil)
	}
	return b
}

// tkLineBoard puts a king of the mover between enemy pieces on one line, so
// that after jumping one way it could only go on by turning back.
func tkLineBoard(rng *rand.Rand) tkBoard {
	moverWhite := rng.IntN(2) == 0
	var b tkBoard
	b.white = moverWhite
	horizontal := rng.IntN(2) == 0
	line := rng.IntN(8)
	on := func(f, r int) bool {
		if horizontal {
			return r == line
		}
		return f == line
	}
	tkPlace(rng, &b, moverWhite, true, on)
	for i := 0; i < 2+rng.IntN(3); i++ {
		tkPlace(rng, &b, !moverWhite, rng.IntN(3) == 0, on)
	}
	for i := 0; i < rng.IntN(10); i++ {
		tkPlace(rng, &b, !moverWhite, rng.IntN(3) == 0, nil)
	}
	for i := 0; i < rng.IntN(4); i++ {
		tkPlace(rng, &b, moverWhite, rng.IntN(3) == 0, nil)
	}
	return b
}

func TestReferenceTurkish(t *testing.T) {
	start := time.Now()
	games, maxPlies, placements := 100, 200, 18000
	if testing.Short() {
		games, maxPlies, placements = 10, 200, 2500
	}
	rng := rand.New(rand.NewPCG(20250301, 90))
	failures := 0
	fail := func(format string, args ...any) bool {
		failures++
		t.Errorf(format, args...)
		if failures >= 10 {
			t.Errorf("stopping after %d failures", failures)
			return true
		}
		return false
	}
	check := func(p *Position, st *tkStats) bool {
		b := tkFromPosition(p)
		res := tkGenerate(&b, tkOptions{})
		st.note(&b, &res)
		if d := tkDiff(p, &res); d != "" {
			return fail("%s", d)
		}
		return false
	}

	// (a) Random games from the start; every position along each game.
	var gameStats tkStats
	for g := 0; g < games; g++ {
		p := Turkish.Start()
		rb := tkFromPosition(&p)
		for ply := 0; ply < maxPlies; ply++ {
			if check(&p, &gameStats) {
				return
			}
			var ml MoveList
			Turkish.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			p.Play(m)
			tkPlay(&rb, tkOfMove(m))
			if got := tkFromPosition(&p); got != rb {
				if fail("game %d ply %d: after %s the board is %s, reference %s", g, ply, tkOfMove(m), got.fen(), rb.fen()) {
					return
				}
				break
			}
		}
	}
	t.Logf("random games: %v", gameStats)

	// (b) Random placements rich in kings, both sides to move.
	var placeStats tkStats
	for i := 0; i < placements; i++ {
		moverWhite := rng.IntN(2) == 0
		var b tkBoard
		switch i % 7 {
		case 0: // anything, few kings
			b = tkRandomBoard(rng, moverWhite, 1+rng.IntN(16), 1+rng.IntN(16), 0.15)
		case 1: // half kings
			b = tkRandomBoard(rng, moverWhite, 1+rng.IntN(16), 1+rng.IntN(16), 0.5)
		case 2: // few mover pieces, many of them kings, against many pieces
			b = tkRandomBoard(rng, moverWhite, 1+rng.IntN(4), 6+rng.IntN(11), 0.7)
		case 3: // only kings
			b = tkRandomBoard(rng, moverWhite, 1+rng.IntN(6), 1+rng.IntN(16), 1)
		case 4:
			b = tkLatticeBoard(rng)
		case 5:
			b = tkCrownBoard(rng)
		case 6:
			b = tkLineBoard(rng)
		}
		if b.count(1) > 16 || b.count(-1) > 16 {
			t.Fatalf("placement with more than 16 pieces a side: %s", b.fen())
		}
		p := tkToPosition(&b)
		fen := Turkish.FEN(&p)
		if fen != b.fen() {
			if fail("Turkish.FEN writes %s, reference %s", fen, b.fen()) {
				return
			}
			continue
		}
		if q, err := Turkish.ParseFEN(fen); err != nil || q != p {
			if fail("FEN round trip of %s: %v, got %s", fen, err, Turkish.FEN(&q)) {
				return
			}
			continue
		}
		if check(&p, &placeStats) {
			return
		}
		// The reference must be colour-symmetric.
		if i%4 == 0 {
			want := tkGenerate(&b, tkOptions{}).moves
			rb := tkRotate(&b)
			rot := tkGenerate(&rb, tkOptions{}).moves
			for j := range want {
				want[j] = tkRotateMove(want[j])
			}
			tkSort(want)
			if !slices.Equal(want, rot) {
				if fail("reference is not colour-symmetric: %s gives %v, rotated %s gives %v", b.fen(), want, rb.fen(), rot) {
					return
				}
			}
		}
	}
	t.Logf("random placements: %v", placeStats)
	total := gameStats.positions + placeStats.positions
	t.Logf("%d positions checked in %v", total, time.Since(start).Round(time.Millisecond))
	if !testing.Short() {
		s := placeStats
		if total < 20000 || s.turnBackMattered == 0 || s.atOnceMattered == 0 || s.farMid == 0 ||
			s.recross == 0 || s.endOnCaptured == 0 || s.forcedLanding == 0 || s.merged == 0 ||
			s.promoteCapture == 0 || s.longest < 6 || gameStats.captures == 0 {
			t.Errorf("random positions no longer cover the hard cases: %v / %v", gameStats, s)
		}
	}
}
