package movegen

// A slow, independent reference generator for Italian draughts (rules.md §1)
// and a differential test of the bitboard generator against it.
//
// The reference uses none of the package's geometry or generator code: the
// board is a plain [8][8] array indexed by file and rank, the square numbers
// are derived from rules.md ("1 = a8, 2 = c8 … 29 = b1, 32 = h1, left to
// right, top to bottom, seen from White; h1 dark"), and captures are found by
// a plain recursive search that lists every capture path with its data,
// keeps the best paths by the four priority rules, and only then merges paths
// into moves identified by (from, to, captured set). The only package API it
// touches is the public surface: Position, Move, Italian.Bit/SquareNumber,
// Generate, Count, Play, ParseFEN, FEN, Start, ComputeKey.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// ---------------------------------------------------------------------------
// Geometry, from rules.md §1.

// refSquare returns file (0 = a) and rank (0 = rank 1) of Italian square n.
// Row 0 (from the top, seen from White) is rank 8: a8 c8 e8 g8 = 1..4;
// row 1 is rank 7: b7 d7 f7 h7 = 5..8; and so on down to row 7 = rank 1:
// b1 d1 f1 h1 = 29..32.
func refSquare(n int) (f, r int) {
	row := (n - 1) / 4
	col := (n - 1) % 4
	r = 7 - row
	f = 2 * col
	if row%2 == 1 {
		f++
	}
	return f, r
}

// refNumber returns the Italian square number of file f, rank r, or 0 when
// the square is off the board or light (a1 light, h1 dark: dark squares have
// file+rank odd).
func refNumber(f, r int) int {
	if f < 0 || f > 7 || r < 0 || r > 7 || (f+r)%2 == 0 {
		return 0
	}
	return (7-r)*4 + f/2 + 1
}

// ---------------------------------------------------------------------------
// The reference board.

// Cell values. A captured piece still on the board during a capture is
// refDead: it blocks its square and cannot be jumped again.
const (
	refEmpty int8 = 0
	refWMan  int8 = 1
	refWKing int8 = 2
	refBMan  int8 = -1
	refBKing int8 = -2
	refDead  int8 = 9
)

// refBoard is a position: cells indexed [file][rank] and the side to move.
type refBoard struct {
	c     [8][8]int8
	white bool // White to move
}

func (b *refBoard) at(n int) int8 {
	f, r := refSquare(n)
	return b.c[f][r]
}

func (b *refBoard) set(n int, v int8) {
	f, r := refSquare(n)
	b.c[f][r] = v
}

// fen writes b as PDN FEN (White's pieces first, ascending, K for kings).
func (b *refBoard) fen() string {
	var w, k []string
	for n := 1; n <= 32; n++ {
		switch b.at(n) {
		case refWMan:
			w = append(w, fmt.Sprint(n))
		case refWKing:
			w = append(w, fmt.Sprintf("K%d", n))
		case refBMan:
			k = append(k, fmt.Sprint(n))
		case refBKing:
			k = append(k, fmt.Sprintf("K%d", n))
		}
	}
	side := "W"
	if !b.white {
		side = "B"
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(k, ",")
}

func (b *refBoard) pieces() int {
	n := 0
	for s := 1; s <= 32; s++ {
		if b.at(s) != refEmpty {
			n++
		}
	}
	return n
}

// refMove is a move identified as rules.md says: from, to, the set of
// captured squares (bit n = square n), and whether the mover is crowned.
type refMove struct {
	From, To int
	Caps     uint64
	Promote  bool
}

func (m refMove) caps() []int {
	var out []int
	for n := 1; n <= 63; n++ {
		if m.Caps&(1<<n) != 0 {
			out = append(out, n)
		}
	}
	if m.Caps&1 != 0 { // bit 0 is no square: show it so a bad move is visible
		out = append([]int{0}, out...)
	}
	return out
}

func (m refMove) String() string {
	if m.Caps == 0 {
		s := fmt.Sprintf("%d-%d", m.From, m.To)
		if m.Promote {
			s += "(K)"
		}
		return s
	}
	cs := make([]string, 0, 12)
	for _, n := range m.caps() {
		cs = append(cs, fmt.Sprint(n))
	}
	s := fmt.Sprintf("%dx%d{%s}", m.From, m.To, strings.Join(cs, ","))
	if m.Promote {
		s += "(K)"
	}
	return s
}

// refPath is one complete capture path and the data the priority rules use.
type refPath struct {
	from, to int
	caps     []int // captured squares in jump order
	kingAt   []int // 0-based jump indexes at which a king was captured
	byKing   bool  // the capturing piece is a king
	promote  bool  // a man reached the far rank (and so stopped)
}

func (p *refPath) move() refMove {
	m := refMove{From: p.from, To: p.to, Promote: p.promote}
	for _, c := range p.caps {
		m.Caps |= 1 << c
	}
	return m
}

// refCompare orders capture paths by the priority rules: >0 when a is
// better than b, <0 when worse, 0 when equal (both legal).
func refCompare(a, b *refPath) int {
	// 1. most pieces.
	if len(a.caps) != len(b.caps) {
		return len(a.caps) - len(b.caps)
	}
	// 2. a king's capture beats a man's.
	if a.byKing != b.byKing {
		if a.byKing {
			return 1
		}
		return -1
	}
	// 3. most kings captured.
	if len(a.kingAt) != len(b.kingAt) {
		return len(a.kingAt) - len(b.kingAt)
	}
	// 4. kings met earliest: first king first, then the second, ...
	for i := range a.kingAt {
		if a.kingAt[i] != b.kingAt[i] {
			return b.kingAt[i] - a.kingAt[i]
		}
	}
	return 0
}

// refOptions selects variations of the capture rules for the experiments of
// TestFindBlockingExample; the rules of §1 are the zero value.
type refOptions struct {
	removeAtOnce   bool // captured pieces leave the board at once (not §1)
	originOccupied bool // the mover's origin stays blocked (not §1)
}

// refSearch is the state of one recursive capture search.
type refSearch struct {
	b      refBoard // working copy, mutated and restored
	opt    refOptions
	own    int8 // +1 for White, -1 for Black
	from   int
	king   bool
	caps   []int
	kingAt []int
	paths  []refPath
}

// refForward is the rank step of a man of the side to move.
func refForward(white bool) int {
	if white {
		return 1 // White men move towards rank 8
	}
	return -1
}

// refCrownRank is the rank on which the side's men are crowned.
func refCrownRank(white bool) int {
	if white {
		return 7
	}
	return 0
}

var refDirs = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// jump extends the current capture from (f, r).
func (s *refSearch) jump(f, r int) {
	white := s.own > 0
	extended := false
	for _, d := range refDirs {
		if !s.king && d[1] != refForward(white) {
			continue // men capture forward only
		}
		of, or := f+d[0], r+d[1]
		lf, lr := f+2*d[0], r+2*d[1]
		if lf < 0 || lf > 7 || lr < 0 || lr > 7 {
			continue
		}
		v := s.b.c[of][or]
		if v == refEmpty || v == refDead || v*s.own > 0 {
			continue // nothing to take, already taken, or our own piece
		}
		victimKing := v == refWKing || v == refBKing
		if !s.king && victimKing {
			continue // a man never captures a king
		}
		if s.b.c[lf][lr] != refEmpty {
			continue
		}
		extended = true
		if s.opt.removeAtOnce {
			s.b.c[of][or] = refEmpty
		} else {
			s.b.c[of][or] = refDead
		}
		s.caps = append(s.caps, refNumber(of, or))
		if victimKing {
			s.kingAt = append(s.kingAt, len(s.caps)-1)
		}
		if !s.king && lr == refCrownRank(white) {
			// Crowned during the capture: the move stops here.
			s.record(lf, lr, true)
		} else {
			s.jump(lf, lr)
		}
		s.caps = s.caps[:len(s.caps)-1]
		if victimKing {
			s.kingAt = s.kingAt[:len(s.kingAt)-1]
		}
		s.b.c[of][or] = v
	}
	if !extended && len(s.caps) > 0 {
		s.record(f, r, false)
	}
}

func (s *refSearch) record(f, r int, promote bool) {
	s.paths = append(s.paths, refPath{
		from:    s.from,
		to:      refNumber(f, r),
		caps:    slices.Clone(s.caps),
		kingAt:  slices.Clone(s.kingAt),
		byKing:  s.king,
		promote: promote,
	})
}

// refCapturePaths lists every complete capture path of the side to move,
// before any priority rule.
func refCapturePaths(b *refBoard, opt refOptions) []refPath {
	s := refSearch{b: *b, opt: opt, own: 1}
	if !b.white {
		s.own = -1
	}
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == refEmpty || v*s.own < 0 {
			continue
		}
		s.from = n
		s.king = v == refWKing || v == refBKing
		f, r := refSquare(n)
		if !opt.originOccupied {
			s.b.c[f][r] = refEmpty // the origin is empty during the capture
		}
		s.jump(f, r)
		s.b.c[f][r] = v
	}
	return s.paths
}

// refBestPaths keeps the paths that are best by the priority rules.
func refBestPaths(paths []refPath) []refPath {
	var best []refPath
	for i := range paths {
		if len(best) == 0 {
			best = append(best, paths[i])
			continue
		}
		switch c := refCompare(&paths[i], &best[0]); {
		case c > 0:
			best = append(best[:0], paths[i])
		case c == 0:
			best = append(best, paths[i])
		}
	}
	return best
}

// refGenerate returns the legal moves of b under options opt, sorted, and
// the best capture paths they come from (nil for quiet moves).
func refGenerate(b *refBoard, opt refOptions) ([]refMove, []refPath) {
	if paths := refCapturePaths(b, opt); len(paths) > 0 {
		best := refBestPaths(paths)
		seen := map[refMove]bool{}
		var moves []refMove
		for i := range best {
			m := best[i].move()
			if !seen[m] { // two paths, same (from, to, captured set): one move
				seen[m] = true
				moves = append(moves, m)
			}
		}
		refSort(moves)
		return moves, best
	}
	var moves []refMove
	own := int8(1)
	if !b.white {
		own = -1
	}
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == refEmpty || v*own < 0 {
			continue
		}
		king := v == refWKing || v == refBKing
		f, r := refSquare(n)
		for _, d := range refDirs {
			if !king && d[1] != refForward(b.white) {
				continue
			}
			tf, tr := f+d[0], r+d[1]
			if tf < 0 || tf > 7 || tr < 0 || tr > 7 || b.c[tf][tr] != refEmpty {
				continue
			}
			moves = append(moves, refMove{
				From:    n,
				To:      refNumber(tf, tr),
				Promote: !king && tr == refCrownRank(b.white),
			})
		}
	}
	refSort(moves)
	return moves, nil
}

func refSort(ms []refMove) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		return a.Caps < b.Caps
	})
}

// refPlay makes move m on b.
func refPlay(b *refBoard, m refMove) {
	v := b.at(m.From)
	b.set(m.From, refEmpty)
	for n := 1; n <= 32; n++ {
		if m.Caps&(1<<n) != 0 {
			b.set(n, refEmpty)
		}
	}
	if m.Promote {
		v *= 2
	}
	b.set(m.To, v)
	b.white = !b.white
}

// refPerft counts the leaves of the reference move tree.
func refPerft(b *refBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves, _ := refGenerate(b, refOptions{})
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := *b
		refPlay(&c, m)
		n += refPerft(&c, depth-1)
	}
	return n
}

// refStart is the start position built from rules.md: Black men on 1-12,
// White men on 21-32, White to move.
func refStart() refBoard {
	var b refBoard
	b.white = true
	for n := 1; n <= 12; n++ {
		b.set(n, refBMan)
	}
	for n := 21; n <= 32; n++ {
		b.set(n, refWMan)
	}
	return b
}

// refParse reads a PDN FEN such as "W:W21-32,K5:B1,K9" (no tags).
func refParse(t *testing.T, s string) refBoard {
	t.Helper()
	var b refBoard
	f := strings.Split(s, ":")
	if len(f) != 3 {
		t.Fatalf("refParse %q: bad fen", s)
	}
	b.white = f[0] == "W"
	for _, part := range f[1:] {
		man, king := refWMan, refWKing
		if part[0] == 'B' {
			man, king = refBMan, refBKing
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
			var a, z int
			_, err1 := fmt.Sscan(lo, &a)
			_, err2 := fmt.Sscan(hi, &z)
			if err1 != nil || err2 != nil || a < 1 || z > 32 || a > z {
				t.Fatalf("refParse %q: bad square %q", s, tok)
			}
			for n := a; n <= z; n++ {
				if b.at(n) != refEmpty {
					t.Fatalf("refParse %q: square %d twice", s, n)
				}
				b.set(n, v)
			}
		}
	}
	return b
}

// ---------------------------------------------------------------------------
// Conversion between the package's types and the reference.

// refFromPosition reads p through the public API (Italian.Bit per square).
func refFromPosition(p *Position) refBoard {
	var b refBoard
	b.white = p.Side == White
	for n := 1; n <= 32; n++ {
		bit := uint64(1) << Italian.Bit(n)
		king := p.Kings&bit != 0
		switch {
		case p.Pieces[White]&bit != 0 && king:
			b.set(n, refWKing)
		case p.Pieces[White]&bit != 0:
			b.set(n, refWMan)
		case p.Pieces[Black]&bit != 0 && king:
			b.set(n, refBKing)
		case p.Pieces[Black]&bit != 0:
			b.set(n, refBMan)
		}
	}
	return b
}

// refToPosition builds the package position of b.
func refToPosition(b *refBoard) Position {
	var p Position
	if !b.white {
		p.Side = Black
	}
	for n := 1; n <= 32; n++ {
		bit := uint64(1) << Italian.Bit(n)
		switch b.at(n) {
		case refWMan:
			p.Pieces[White] |= bit
		case refWKing:
			p.Pieces[White] |= bit
			p.Kings |= bit
		case refBMan:
			p.Pieces[Black] |= bit
		case refBKing:
			p.Pieces[Black] |= bit
			p.Kings |= bit
		}
	}
	p.Key = p.ComputeKey()
	return p
}

// refOfMove maps a package move to the reference form via SquareNumber.
func refOfMove(m Move) refMove {
	r := refMove{
		From:    Italian.SquareNumber(int(m.From)),
		To:      Italian.SquareNumber(int(m.To)),
		Promote: m.Promote,
	}
	for c := m.Captured; c != 0; c &= c - 1 {
		b := 0
		for c&(1<<b) == 0 {
			b++
		}
		r.Caps |= 1 << Italian.SquareNumber(b)
	}
	return r
}

// refBoardBits is the set of bits the 32 squares map to.
func refBoardBits() uint64 {
	var all uint64
	for n := 1; n <= 32; n++ {
		all |= 1 << Italian.Bit(n)
	}
	return all
}

// ---------------------------------------------------------------------------
// Sanity of the reference itself.

func TestReferenceGeometry(t *testing.T) {
	names := map[int]string{1: "a8", 2: "c8", 3: "e8", 4: "g8", 5: "b7", 8: "h7", 9: "a6",
		21: "b3", 22: "d3", 26: "c2", 29: "b1", 30: "d1", 31: "f1", 32: "h1"}
	for n := 1; n <= 32; n++ {
		f, r := refSquare(n)
		if refNumber(f, r) != n {
			t.Fatalf("square %d -> %c%d -> %d", n, 'a'+f, r+1, refNumber(f, r))
		}
		if want, ok := names[n]; ok && fmt.Sprintf("%c%d", 'a'+f, r+1) != want {
			t.Errorf("square %d is %c%d, want %s", n, 'a'+f, r+1, want)
		}
	}
	if refNumber(0, 0) != 0 || refNumber(7, 0) != 32 {
		t.Errorf("a1 must be light and h1 dark (=32)")
	}
}

func TestReferenceStart(t *testing.T) {
	b := refStart()
	moves, _ := refGenerate(&b, refOptions{})
	var got []string
	for _, m := range moves {
		got = append(got, m.String())
	}
	want := "21-17 21-18 22-18 22-19 23-19 23-20 24-20"
	if strings.Join(got, " ") != want {
		t.Errorf("reference start moves: %v, want %s", got, want)
	}
	for d, want := range []uint64{1, 7, 49, 302, 1469, 7361} {
		if got := refPerft(&b, d); got != want {
			t.Errorf("reference perft(%d) = %d, want %d", d, got, want)
		}
	}
	// The package's start position is the same board.
	p := Italian.Start()
	if got := refFromPosition(&p); got != b {
		t.Errorf("Italian.Start() is %s, want %s", got.fen(), b.fen())
	}
}

// TestReferencePerftVectors checks the reference against the perft vectors
// of testdata/italian-perft.txt (counted by other generators), so the
// reference is not only checked against the package it is meant to check.
func TestReferencePerftVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/italian-perft.txt")
	if err != nil {
		t.Skipf("no perft vectors: %v", err)
	}
	maxDepth := 5
	if testing.Short() {
		maxDepth = 3
	}
	lines := 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fen, counts, ok := strings.Cut(line, ";")
		if !ok {
			t.Fatalf("bad vector line %q", line)
		}
		lines++
		b := refParse(t, strings.TrimSpace(fen))
		for i, f := range strings.Fields(counts) {
			var want uint64
			if _, err := fmt.Sscan(f, &want); err != nil {
				t.Fatalf("bad count in %q", line)
			}
			if i+1 > maxDepth {
				break
			}
			if got := refPerft(&b, i+1); got != want {
				t.Errorf("%s: reference perft(%d) = %d, vector says %d", strings.TrimSpace(fen), i+1, got, want)
			}
		}
	}
	if lines == 0 {
		t.Errorf("no vectors read")
	}
}

// TestReferenceSeedExamples checks the seed examples of rules.md §1 (in
// positions built here) on the reference and on the package generator.
func TestReferenceSeedExamples(t *testing.T) {
	cases := []struct {
		name, fen, want string
	}{
		{"29x22x15x6", "W:W29:B11,19,26", "29x6{11,19,26}"},
		{"11x2 crowns and stops", "W:W11:B5,6", "11x2{6}(K)"},
		{"a man cannot take a king", "W:W22,32:BK18", "22-19 32-28"},
		{"rule 1: 21x14x5 over 24x15", "W:W21,24:B10,18,20", "21x5{10,18}"},
		{"rule 2: 12x19 by the king over 22x13", "W:WK12,22:B15,18", "12x19{15}"},
		{"rule 3: 14x23 takes the king", "W:WK14:B10,K19", "14x23{19}"},
		{"rule 4: 14x7x16 over 14x21x30", "W:WK14:BK11,12,18,K26", "14x16{11,12}"},
		{"king cycle: two paths, one move", "W:WK22:B10,11,18,19", "22x22{10,11,18,19}"},
		{"origin is empty: the king comes back to it", "W:WK30:B18,19,26,27", "30x30{18,19,26,27}"},
	}
	for _, c := range cases {
		b := refParse(t, c.fen)
		moves, _ := refGenerate(&b, refOptions{})
		var got []string
		for _, m := range moves {
			got = append(got, m.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: reference gives %v in %s, want %s", c.name, got, c.fen, c.want)
		}
		p, err := Italian.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := refDiff(&p); diff != "" {
			t.Errorf("%s: %s", c.name, diff)
		}
		// The same example with the colours swapped (Black to move).
		mb := refMirror(&b)
		mirrored, _ := refGenerate(&mb, refOptions{})
		for i := range moves {
			moves[i] = refMirrorMove(moves[i])
		}
		refSort(moves)
		if !slices.Equal(moves, mirrored) {
			t.Errorf("%s mirrored (%s): reference gives %v, want %v", c.name, mb.fen(), mirrored, moves)
		}
		mp := refToPosition(&mb)
		if diff := refDiff(&mp); diff != "" {
			t.Errorf("%s mirrored: %s", c.name, diff)
		}
	}
}

// refMirror turns b by 180° and swaps the colours: the same position seen
// from the other side. Square n goes to 33-n.
func refMirror(b *refBoard) refBoard {
	var m refBoard
	m.white = !b.white
	for n := 1; n <= 32; n++ {
		m.set(33-n, -b.at(n))
	}
	return m
}

func refMirrorMove(m refMove) refMove {
	r := refMove{From: 33 - m.From, To: 33 - m.To, Promote: m.Promote}
	for n := 1; n <= 32; n++ {
		if m.Caps&(1<<n) != 0 {
			r.Caps |= 1 << (33 - n)
		}
	}
	return r
}

// ---------------------------------------------------------------------------
// The differential test.

// refDiff compares the package's moves of p with the reference's and
// returns a description of every difference, or "".
func refDiff(p *Position) string {
	b := refFromPosition(p)
	want, _ := refGenerate(&b, refOptions{})
	var ml MoveList
	Italian.Generate(p, &ml)
	var problems []string
	got := map[refMove]int{}
	for _, m := range ml.Slice() {
		r := refOfMove(m)
		got[r]++
		// Promote must say exactly "a man lands on its crowning rank".
		mover := b.at(r.From)
		man := mover == refWMan || mover == refBMan
		crown := (b.white && r.To >= 1 && r.To <= 4) || (!b.white && r.To >= 29 && r.To <= 32)
		if m.Promote != (man && crown) {
			problems = append(problems, fmt.Sprintf("move %s has Promote=%v (mover man=%v, lands on crowning rank=%v)", r, m.Promote, man, crown))
		}
	}
	wantSet := map[refMove]bool{}
	for _, m := range want {
		wantSet[m] = true
	}
	var missing, extra, dup []string
	for _, m := range want {
		if got[m] == 0 {
			missing = append(missing, m.String())
		}
	}
	var gotList []refMove
	for m, k := range got {
		gotList = append(gotList, m)
		if k > 1 {
			dup = append(dup, fmt.Sprintf("%s (x%d)", m, k))
		}
		if !wantSet[m] {
			extra = append(extra, m.String())
		}
	}
	refSort(gotList)
	sort.Strings(extra)
	sort.Strings(dup)
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
	if n := Italian.Count(p, &scratch); n != len(want) {
		problems = append(problems, fmt.Sprintf("Count = %d, reference has %d moves", n, len(want)))
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\n\treference: %v\n\tpackage:   %v\n\t%s",
		Italian.FEN(p), want, gotList, strings.Join(problems, "\n\t"))
}

// refStats counts what the checked positions exercised, so that a test
// which silently stopped covering the hard cases would show it.
type refStats struct {
	positions, captures, multi, longest    int
	rule2, rule3, rule4, merged, kingCycle int
	crownStop                              int
}

func (st *refStats) note(b *refBoard) {
	st.positions++
	paths := refCapturePaths(b, refOptions{})
	if len(paths) == 0 {
		return
	}
	st.captures++
	best := refBestPaths(paths)
	if len(best[0].caps) > 1 {
		st.multi++
	}
	if len(best[0].caps) > st.longest {
		st.longest = len(best[0].caps)
	}
	// Which rule decided between lines of the maximum length?
	var top []refPath
	for _, p := range paths {
		if len(p.caps) == len(best[0].caps) {
			top = append(top, p)
		}
	}
	r2, r3, r4 := false, false, false
	for i := range top {
		p := &top[i]
		switch {
		case p.byKing != best[0].byKing:
			r2 = true
		case len(p.kingAt) != len(best[0].kingAt):
			r3 = true
		case refCompare(p, &best[0]) != 0:
			r4 = true
		}
	}
	if r2 {
		st.rule2++
	}
	if r3 {
		st.rule3++
	}
	if r4 {
		st.rule4++
	}
	seen := map[refMove]bool{}
	merged, cycle, crown := false, false, false
	for i := range best {
		m := best[i].move()
		if seen[m] {
			merged = true
		}
		seen[m] = true
		if m.From == m.To {
			cycle = true
		}
		if m.Promote && len(m.caps()) > 0 {
			crown = true
		}
	}
	if merged {
		st.merged++
	}
	if cycle {
		st.kingCycle++
	}
	if crown {
		st.crownStop++
	}
}

func (st refStats) String() string {
	return fmt.Sprintf("%d positions: %d with captures, %d multi-captures (longest %d), "+
		"decided by rule 2: %d, rule 3: %d, rule 4: %d; paths merged into one move: %d; "+
		"king returns to its origin: %d; man crowned by a capture: %d",
		st.positions, st.captures, st.multi, st.longest, st.rule2, st.rule3, st.rule4,
		st.merged, st.kingCycle, st.crownStop)
}

// refRandomBoard places random pieces. The mover gets nMover pieces and the
// other side nOther; kingP is the chance that a piece is a king. Men are
// never placed on their own crowning rank.
func refRandomBoard(rng *rand.Rand, moverWhite bool, nMover, nOther int, kingP float64) refBoard {
	var b refBoard
	b.white = moverWhite
	perm := rng.Perm(32)
	place := func(white bool) {
		king := rng.Float64() < kingP
		for _, i := range perm {
			n := i + 1
			if b.at(n) != refEmpty {
				continue
			}
			if !king && white && n <= 4 || !king && !white && n >= 29 {
				continue
			}
			v := refWMan
			if !white {
				v = refBMan
			}
			if king {
				v *= 2
			}
			b.set(n, v)
			return
		}
	}
	for i := 0; i < nMover; i++ {
		place(moverWhite)
	}
	for i := 0; i < nOther; i++ {
		place(!moverWhite)
	}
	return b
}

// refRingBoard builds a position around a capture ring: the four diagonal
// neighbours of a random centre hold enemy pieces (so a king may go round
// them either way and come back), the mover has kings nearby, and more
// random pieces are added.
func refRingBoard(rng *rand.Rand) refBoard {
	moverWhite := rng.IntN(2) == 0
	var b refBoard
	b.white = moverWhite
	own, opp := int8(1), int8(-1)
	if !moverWhite {
		own, opp = -1, 1
	}
	cf, cr := 1+rng.IntN(6), 1+rng.IntN(6) // any square with four neighbours
	for _, d := range refDirs {
		nf, nr := cf+d[0], cr+d[1]
		v := opp
		if rng.IntN(3) == 0 || nr == refCrownRank(opp > 0) {
			v *= 2 // a king (men never stand on their own crowning rank)
		}
		if refNumber(nf, nr) == 0 {
			continue // a light centre: its neighbours are light as well
		}
		b.c[nf][nr] = v
	}
	// A king of the mover on a corner of the ring.
	d := refDirs[rng.IntN(4)]
	if kf, kr := cf+2*d[0], cr+2*d[1]; kf >= 0 && kf < 8 && kr >= 0 && kr < 8 && refNumber(kf, kr) != 0 {
		b.c[kf][kr] = 2 * own
	}
	extra := refRandomBoard(rng, moverWhite, rng.IntN(5), rng.IntN(8), 0.5)
	for n := 1; n <= 32; n++ {
		if b.at(n) == refEmpty {
			b.set(n, extra.at(n))
		}
	}
	// Trim to at most 12 pieces a side.
	count := func(sign int8) int {
		k := 0
		for n := 1; n <= 32; n++ {
			if b.at(n)*sign > 0 {
				k++
			}
		}
		return k
	}
	for _, sign := range []int8{1, -1} {
		for n := 32; n >= 1 && count(sign) > 12; n-- {
			if b.at(n)*sign > 0 {
				b.set(n, refEmpty)
			}
		}
	}
	return b
}

func TestReferenceItalian(t *testing.T) {
	start := time.Now()
	games, maxPlies, placements := 800, 200, 150000
	if testing.Short() {
		games, maxPlies, placements = 80, 200, 15000
	}
	rng := rand.New(rand.NewPCG(20240601, 7))
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
	check := func(p *Position, st *refStats) bool {
		b := refFromPosition(p)
		st.note(&b)
		if d := refDiff(p); d != "" {
			return fail("%s", d)
		}
		return false
	}
	allBits := refBoardBits()

	// (a) Random games from the start; every position along each game.
	var gameStats refStats
	for g := 0; g < games; g++ {
		p := Italian.Start()
		rb := refFromPosition(&p)
		for ply := 0; ply < maxPlies; ply++ {
			if check(&p, &gameStats) {
				return
			}
			var ml MoveList
			Italian.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			before := Italian.FEN(&p)
			p.Play(m)
			// Play must agree with the reference's own move making.
			refPlay(&rb, refOfMove(m))
			var bad []string
			if got := refFromPosition(&p); got != rb {
				bad = append(bad, "board "+got.fen()+", reference "+rb.fen())
			}
			if p.Key != p.ComputeKey() {
				bad = append(bad, "incremental key differs from ComputeKey")
			}
			if all := p.Pieces[White] | p.Pieces[Black]; all&^allBits != 0 || p.Kings&^all != 0 ||
				p.Pieces[White]&p.Pieces[Black] != 0 {
				bad = append(bad, fmt.Sprintf("inconsistent bitboards W=%#x B=%#x K=%#x", p.Pieces[White], p.Pieces[Black], p.Kings))
			}
			if len(bad) > 0 {
				if fail("Play(%s) from %s: %s", refOfMove(m), before, strings.Join(bad, "; ")) {
					return
				}
				break // this game's positions are no longer trustworthy
			}
		}
	}
	t.Logf("random games: %v", gameStats)

	// (b) Random placements, both sides to move.
	var placeStats refStats
	for i := 0; i < placements; i++ {
		moverWhite := rng.IntN(2) == 0
		var b refBoard
		switch i % 6 {
		case 0: // anything, few kings
			b = refRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 0.15)
		case 1: // anything, half kings
			b = refRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 0.5)
		case 2: // dense in kings: long king chains
			b = refRandomBoard(rng, moverWhite, 1+rng.IntN(4), 4+rng.IntN(9), 0.8)
		case 3: // only kings
			b = refRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 1)
		case 4: // men against mixed pieces: crowning captures, men vs kings
			b = refRandomBoard(rng, moverWhite, 1+rng.IntN(12), 1+rng.IntN(12), 0.05)
			for n := 1; n <= 32; n++ { // make some of the other side's pieces kings
				if v := b.at(n); (v == refWMan) != moverWhite && v != refEmpty && rng.IntN(3) == 0 {
					b.set(n, v*2/absInt8(v))
				}
			}
		case 5: // capture rings: cycles and paths merged into one move
			b = refRingBoard(rng)
		}
		p := refToPosition(&b)
		// The position must survive the package's FEN round trip.
		fen := Italian.FEN(&p)
		q, err := Italian.ParseFEN(fen)
		if err != nil || q != p {
			if fail("FEN round trip of %s: %v, got %s", b.fen(), err, Italian.FEN(&q)) {
				return
			}
			continue
		}
		if check(&p, &placeStats) {
			return
		}
		// And its mirror image must be the mirror of its moves.
		mb := refMirror(&b)
		want, _ := refGenerate(&b, refOptions{})
		mirrored, _ := refGenerate(&mb, refOptions{})
		for j := range want {
			want[j] = refMirrorMove(want[j])
		}
		refSort(want)
		if !slices.Equal(want, mirrored) {
			if fail("reference is not colour-symmetric: %s gives %v, mirrored %s gives %v",
				b.fen(), want, mb.fen(), mirrored) {
				return
			}
		}
	}
	t.Logf("random placements: %v", placeStats)
	total := gameStats.positions + placeStats.positions
	t.Logf("%d positions checked in %v", total, time.Since(start).Round(time.Millisecond))

	// The random sets must keep exercising the hard cases, or the test
	// would pass without testing them.
	if !testing.Short() {
		s := placeStats
		if s.rule2 == 0 || s.rule3 == 0 || s.rule4 == 0 || s.merged == 0 || s.kingCycle == 0 ||
			s.crownStop == 0 || s.longest < 5 || gameStats.captures == 0 {
			t.Errorf("random positions no longer cover the priority rules, cycles and crowning captures: %v / %v", gameStats, s)
		}
	}
}

func absInt8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

// ---------------------------------------------------------------------------
// Blocking experiment.

// TestFindBlockingExample searches random positions for one where "captured
// pieces stay on the board until the move ends" and "captured pieces leave
// at once" give different legal moves, and, for comparison, one where an
// empty origin (§1: a king may pass over or land on it) and a blocked origin
// differ. Run with FIND_BLOCKING=1 go test ./movegen -run FindBlocking -v.
//
// With short jumps the first search cannot succeed: a piece only ever lands
// on squares whose file and rank have the same parities as its origin, and
// only ever captures on squares of the other parity class, so a captured
// square is never a landing square; and a piece taken earlier cannot be
// jumped again under either behaviour (blocked, or gone). The search is kept
// as evidence; it reports how many capture positions it examined.
func TestFindBlockingExample(t *testing.T) {
	if os.Getenv("FIND_BLOCKING") != "1" {
		t.Skip("set FIND_BLOCKING=1 to run")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type found struct {
		b      refBoard
		pieces int
	}
	var blocking, origin *found
	examined, multi := 0, 0
	const tries = 2000000
	for i := 0; i < tries; i++ {
		nMover := 1 + rng.IntN(3)
		nOther := 1 + rng.IntN(10)
		if i%2 == 0 {
			nOther = 1 + rng.IntN(5) // favour small positions
		}
		b := refRandomBoard(rng, rng.IntN(2) == 0, nMover, nOther, 0.7)
		if i%4 == 3 {
			b = refRingBoard(rng)
		}
		paths := refCapturePaths(&b, refOptions{})
		if len(paths) == 0 {
			continue
		}
		examined++
		if len(refBestPaths(paths)[0].caps) > 2 {
			multi++
		}
		std, _ := refGenerate(&b, refOptions{})
		rem, _ := refGenerate(&b, refOptions{removeAtOnce: true})
		if !slices.Equal(std, rem) && (blocking == nil || b.pieces() < blocking.pieces) {
			blocking = &found{b, b.pieces()}
		}
		occ, _ := refGenerate(&b, refOptions{originOccupied: true})
		if !slices.Equal(std, occ) && (origin == nil || b.pieces() < origin.pieces) {
			origin = &found{b, b.pieces()}
		}
	}
	const why = "; none can exist with short jumps: a piece lands only on squares of its " +
		"origin's file/rank parity and captures only on the other parity, so a captured square is never " +
		"a landing square, and a taken piece cannot be jumped again either way"
	report := func(what string, f *found, other refOptions, otherName string) {
		if f == nil {
			note := ""
			if other.removeAtOnce {
				note = why
			}
			t.Logf("%s: no position found among %d random positions with captures (%d with 3+ captures)%s",
				what, examined, multi, note)
			return
		}
		std, _ := refGenerate(&f.b, refOptions{})
		alt, _ := refGenerate(&f.b, other)
		t.Logf("%s: %s (%d pieces)\n\trules.md §1:  %v\n\t%s: %v", what, f.b.fen(), f.pieces, std, otherName, alt)
	}
	report("captured pieces blocking vs removed at once", blocking, refOptions{removeAtOnce: true}, "removed at once")
	report("origin empty vs origin blocked", origin, refOptions{originOccupied: true}, "origin blocked")
}
