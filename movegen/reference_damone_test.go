package movegen

// A slow, independent reference generator for Italian Damone (rules.md §2)
// and a differential test of the package's Damone generator against it.
//
// The reference follows the model of reference_test.go but shares no code
// with it (nor with the package's generators): the board is a plain [8][8]
// array indexed by file and rank, the square numbers come from rules.md §1
// ("1 = a8, 2 = c8 … 32 = h1, left to right, top to bottom, seen from White;
// h1 dark"), the promotion squares are read off the start position of
// rules.md §2, and captures are found by a plain recursive search that
// lists every complete capture path with its data, keeps the best paths by
// the priority rules, and only then merges paths into moves identified by
// (from, to, captured set). The only package API it touches is the public
// surface: Position, Move, Damone.Bit/SquareNumber, Generate, Count,
// HasCapture, Play, ComputeKey, ParseFEN, FEN, Start, Lost.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// ---------------------------------------------------------------------------
// Geometry, from rules.md §1 (Damone uses the Italian board and numbering).

// drfSquare returns file (0 = a) and rank (0 = rank 1) of square n. Row 0
// (from the top, seen from White) is rank 8: a8 c8 e8 g8 = 1..4; row 1 is
// rank 7: b7 d7 f7 h7 = 5..8; … row 7 is rank 1: b1 d1 f1 h1 = 29..32.
func drfSquare(n int) (f, r int) {
	row := (n - 1) / 4
	f = 2 * ((n - 1) % 4)
	if row%2 == 1 {
		f++
	}
	return f, 7 - row
}

// drfNumber returns the square number of file f, rank r, or 0 when the
// square is off the board or light (h1 dark: dark squares have file+rank
// odd).
func drfNumber(f, r int) int {
	if f < 0 || f > 7 || r < 0 || r > 7 || (f+r)%2 == 0 {
		return 0
	}
	return (7-r)*4 + f/2 + 1
}

// The four diagonal steps (file, rank), seen from White.
var (
	drfUpRight   = [2]int{1, 1}   // towards h8
	drfUpLeft    = [2]int{-1, 1}  // towards a8
	drfDownLeft  = [2]int{-1, -1} // towards a1
	drfDownRight = [2]int{1, -1}  // towards h1
	drfAllDirs   = [][2]int{drfUpRight, drfUpLeft, drfDownLeft, drfDownRight}
)

// Piece ranks.
const (
	drfPedina = 0
	drfDama   = 1
	drfDamone = 2
)

var drfRankName = [3]string{"Pedina", "Dama", "Damone"}

// drfDirs returns the directions a piece of the given colour and rank
// moves and captures in. A Pedina: forward along the long diagonal a8–h1
// towards the enemy corner (White towards a8, Black towards h1) and the two
// sideways diagonals, up-right and down-left for both colours; never the
// fourth. Dama and Damone: all four.
func drfDirs(white bool, rank int) [][2]int {
	if rank > drfPedina {
		return drfAllDirs
	}
	if white {
		return [][2]int{drfUpLeft, drfUpRight, drfDownLeft}
	}
	return [][2]int{drfDownRight, drfUpRight, drfDownLeft}
}

// ---------------------------------------------------------------------------
// The reference board.

// A cell is 0 when empty, +(rank+1) for a White piece, -(rank+1) for a Black
// one. A piece captured during the move being searched is drfDead: it stays
// on its square (blocking it) and cannot be jumped again.
const (
	drfEmpty int8 = 0
	drfDead  int8 = 9
)

func drfCell(white bool, rank int) int8 {
	if white {
		return int8(rank + 1)
	}
	return -int8(rank + 1)
}

// drfRankOf returns the rank of a (live, non-empty) cell value.
func drfRankOf(v int8) int {
	if v < 0 {
		return int(-v) - 1
	}
	return int(v) - 1
}

type drfBoard struct {
	c     [8][8]int8 // [file][rank]
	white bool       // White to move
}

func (b *drfBoard) at(n int) int8 {
	f, r := drfSquare(n)
	return b.c[f][r]
}

func (b *drfBoard) set(n int, v int8) {
	f, r := drfSquare(n)
	b.c[f][r] = v
}

// fen writes b as PDN FEN with D before a Damone and K before a Dama.
func (b *drfBoard) fen() string {
	var list [2][]string
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == drfEmpty {
			continue
		}
		side := 0
		if v < 0 {
			side = 1
		}
		list[side] = append(list[side], [3]string{"", "K", "D"}[drfRankOf(v)]+fmt.Sprint(n))
	}
	s := "W"
	if !b.white {
		s = "B"
	}
	return s + ":W" + strings.Join(list[0], ",") + ":B" + strings.Join(list[1], ",")
}

func (b *drfBoard) count(white bool) int {
	k := 0
	for n := 1; n <= 32; n++ {
		if v := b.at(n); v != drfEmpty && (v > 0) == white {
			k++
		}
	}
	return k
}

// drfStart is the start position of rules.md §2, White to move:
// White Damone 32, Dame 24 and 31, Pedine 16, 20, 23, 27, 30;
// Black Damone 1, Dame 2 and 9, Pedine 3, 6, 10, 13, 17.
func drfStart() drfBoard {
	var b drfBoard
	b.white = true
	b.set(32, drfCell(true, drfDamone))
	for _, n := range []int{24, 31} {
		b.set(n, drfCell(true, drfDama))
	}
	for _, n := range []int{16, 20, 23, 27, 30} {
		b.set(n, drfCell(true, drfPedina))
	}
	b.set(1, drfCell(false, drfDamone))
	for _, n := range []int{2, 9} {
		b.set(n, drfCell(false, drfDama))
	}
	for _, n := range []int{3, 6, 10, 13, 17} {
		b.set(n, drfCell(false, drfPedina))
	}
	return b
}

// drfPromoteSq[white][rank][n] is true when a piece of that colour and rank
// landing on square n is promoted to rank+1: the squares where the enemy's
// pieces of rank+1 stand in the start position (a Pedina on the enemy Dame's
// squares, a Dama on the enemy Damone's square). A Damone is never promoted.
var drfPromoteSq = func() (t [2][3][33]bool) {
	s := drfStart()
	for n := 1; n <= 32; n++ {
		v := s.at(n)
		if v == drfEmpty {
			continue
		}
		r := drfRankOf(v)
		if r == drfPedina {
			continue
		}
		// v is an enemy piece of rank r for the other colour.
		other := 0 // White promotes on Black's squares
		if v > 0 {
			other = 1
		}
		t[other][r-1][n] = true
	}
	return t
}()

func drfPromotes(white bool, rank, n int) bool {
	c := 0
	if !white {
		c = 1
	}
	return drfPromoteSq[c][rank][n]
}

// drfMove is a move as rules.md identifies it: from, to, the set of
// captured squares (bit n = square n), and whether the mover is promoted.
type drfMove struct {
	From, To int
	Caps     uint64
	Promote  bool
}

func (m drfMove) String() string {
	s := fmt.Sprintf("%d-%d", m.From, m.To)
	if m.Caps != 0 {
		var cs []string
		for n := 0; n < 64; n++ {
			if m.Caps&(1<<n) != 0 {
				cs = append(cs, fmt.Sprint(n))
			}
		}
		s = fmt.Sprintf("%dx%d{%s}", m.From, m.To, strings.Join(cs, ","))
	}
	if m.Promote {
		s += "(+)"
	}
	return s
}

// drfPath is one complete capture path and what the priority rules use.
type drfPath struct {
	from, to  int
	landings  []int  // squares landed on, in order (not counting from)
	caps      []int  // captured squares, in jump order
	rank      int    // rank of the capturing piece
	taken     [3]int // captured pieces by rank
	promote   bool   // the mover was promoted on landing (and so stopped)
	couldJump bool   // promoted, and as the new rank it could have jumped on
}

func (p *drfPath) move() drfMove {
	m := drfMove{From: p.from, To: p.to, Promote: p.promote}
	for _, c := range p.caps {
		m.Caps |= 1 << c
	}
	return m
}

// text writes the path as FormatMove does: "22x15x6".
func (p *drfPath) text() string {
	s := fmt.Sprint(p.from)
	for _, l := range p.landings {
		s += fmt.Sprintf("x%d", l)
	}
	return s
}

// drfCompare orders capture paths by the priority rules of rules.md §2:
// >0 when a is better than b, <0 when worse, 0 when equal (both legal).
func drfCompare(a, b *drfPath) int {
	// (i) the most pieces.
	if len(a.caps) != len(b.caps) {
		return len(a.caps) - len(b.caps)
	}
	// (ii) the capture made by the higher-ranked piece.
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	// (iii) the most Damoni captured.
	if a.taken[drfDamone] != b.taken[drfDamone] {
		return a.taken[drfDamone] - b.taken[drfDamone]
	}
	// (iv) the most Dame captured.
	return a.taken[drfDama] - b.taken[drfDama]
}

// drfSearch is the state of one recursive capture search.
type drfSearch struct {
	b        drfBoard // working copy, mutated and restored
	from     int
	rank     int
	landings []int
	caps     []int
	taken    [3]int
	paths    []drfPath
	refusals int // jumps that only the rank rule forbade
}

// canTake reports whether a piece of rank r of the side to move, standing
// on (f, r0), has a jump over a live enemy piece it may capture.
func (s *drfSearch) canTake(f, r0, rank int) bool {
	for _, d := range drfDirs(s.b.white, rank) {
		of, or := f+d[0], r0+d[1]
		lf, lr := f+2*d[0], r0+2*d[1]
		if lf < 0 || lf > 7 || lr < 0 || lr > 7 || s.b.c[lf][lr] != drfEmpty {
			continue
		}
		v := s.b.c[of][or]
		if v != drfEmpty && v != drfDead && (v > 0) != s.b.white && drfRankOf(v) <= rank {
			return true
		}
	}
	return false
}

// jump extends the current capture from (f, r).
func (s *drfSearch) jump(f, r int) {
	extended := false
	for _, d := range drfDirs(s.b.white, s.rank) {
		of, or := f+d[0], r+d[1]
		lf, lr := f+2*d[0], r+2*d[1]
		if lf < 0 || lf > 7 || lr < 0 || lr > 7 {
			continue
		}
		v := s.b.c[of][or]
		if v == drfEmpty || v == drfDead || (v > 0) == s.b.white {
			continue // nothing to take, already taken, or our own piece
		}
		if s.b.c[lf][lr] != drfEmpty {
			continue
		}
		vr := drfRankOf(v)
		if vr > s.rank {
			s.refusals++ // the rank rule: only the same or a lower rank
			continue
		}
		extended = true
		s.b.c[of][or] = drfDead
		s.caps = append(s.caps, drfNumber(of, or))
		s.landings = append(s.landings, drfNumber(lf, lr))
		s.taken[vr]++
		if to := drfNumber(lf, lr); drfPromotes(s.b.white, s.rank, to) {
			// Promoted during the capture: the move ends here.
			s.record(to, true, s.canTake(lf, lr, s.rank+1))
		} else {
			s.jump(lf, lr)
		}
		s.taken[vr]--
		s.landings = s.landings[:len(s.landings)-1]
		s.caps = s.caps[:len(s.caps)-1]
		s.b.c[of][or] = v
	}
	if !extended && len(s.caps) > 0 {
		s.record(drfNumber(f, r), false, false)
	}
}

func (s *drfSearch) record(to int, promote, couldJump bool) {
	s.paths = append(s.paths, drfPath{
		from:      s.from,
		to:        to,
		landings:  slices.Clone(s.landings),
		caps:      slices.Clone(s.caps),
		rank:      s.rank,
		taken:     s.taken,
		promote:   promote,
		couldJump: couldJump,
	})
}

// drfCapturePaths lists every complete capture path of the side to move,
// before any priority rule, and the number of jumps the rank rule refused.
func drfCapturePaths(b *drfBoard) ([]drfPath, int) {
	s := drfSearch{b: *b}
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == drfEmpty || (v > 0) != b.white {
			continue
		}
		s.from = n
		s.rank = drfRankOf(v)
		f, r := drfSquare(n)
		s.b.c[f][r] = drfEmpty // the origin is empty during the capture
		s.jump(f, r)
		s.b.c[f][r] = v
	}
	return s.paths, s.refusals
}

// drfBestPaths keeps the paths that are best by the priority rules.
func drfBestPaths(paths []drfPath) []drfPath {
	var best []drfPath
	for i := range paths {
		if len(best) == 0 {
			best = append(best, paths[i])
			continue
		}
		switch c := drfCompare(&paths[i], &best[0]); {
		case c > 0:
			best = append(best[:0], paths[i])
		case c == 0:
			best = append(best, paths[i])
		}
	}
	return best
}

// drfGenerate returns the legal moves of b, sorted, and the best capture
// paths they come from (nil for quiet moves).
func drfGenerate(b *drfBoard) ([]drfMove, []drfPath) {
	if paths, _ := drfCapturePaths(b); len(paths) > 0 {
		best := drfBestPaths(paths)
		seen := map[drfMove]bool{}
		var moves []drfMove
		for i := range best {
			m := best[i].move()
			if !seen[m] { // same (from, to, captured set): one move
				seen[m] = true
				moves = append(moves, m)
			}
		}
		drfSort(moves)
		return moves, best
	}
	var moves []drfMove
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == drfEmpty || (v > 0) != b.white {
			continue
		}
		rank := drfRankOf(v)
		f, r := drfSquare(n)
		for _, d := range drfDirs(b.white, rank) {
			tf, tr := f+d[0], r+d[1]
			if tf < 0 || tf > 7 || tr < 0 || tr > 7 || b.c[tf][tr] != drfEmpty {
				continue
			}
			to := drfNumber(tf, tr)
			moves = append(moves, drfMove{From: n, To: to, Promote: drfPromotes(b.white, rank, to)})
		}
	}
	drfSort(moves)
	return moves, nil
}

func drfSort(ms []drfMove) {
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

// drfPlay makes move m on b.
func drfPlay(b *drfBoard, m drfMove) {
	v := b.at(m.From)
	b.set(m.From, drfEmpty)
	for n := 1; n <= 32; n++ {
		if m.Caps&(1<<n) != 0 {
			b.set(n, drfEmpty)
		}
	}
	if m.Promote {
		if v > 0 {
			v++
		} else {
			v--
		}
	}
	b.set(m.To, v)
	b.white = !b.white
}

// drfMirror turns b by 180° and swaps the colours (square n goes to 33-n):
// the Damone rules are symmetric under this map.
func drfMirror(b *drfBoard) drfBoard {
	var m drfBoard
	m.white = !b.white
	for n := 1; n <= 32; n++ {
		m.set(33-n, -b.at(n))
	}
	return m
}

func drfMirrorMove(m drfMove) drfMove {
	r := drfMove{From: 33 - m.From, To: 33 - m.To, Promote: m.Promote}
	for n := 1; n <= 32; n++ {
		if m.Caps&(1<<n) != 0 {
			r.Caps |= 1 << (33 - n)
		}
	}
	return r
}

// drfParse reads a PDN FEN such as "W:WD32,K24,16:BD1,3" (single squares
// only, D before a Damone, K before a Dama).
func drfParse(t *testing.T, s string) drfBoard {
	t.Helper()
	var b drfBoard
	f := strings.Split(s, ":")
	if len(f) != 3 || (f[0] != "W" && f[0] != "B") {
		t.Fatalf("drfParse %q: bad fen", s)
	}
	b.white = f[0] == "W"
	for _, part := range f[1:] {
		white := part[0] == 'W'
		if len(part) == 1 {
			continue
		}
		for _, tok := range strings.Split(part[1:], ",") {
			rank := drfPedina
			switch tok[0] {
			case 'K':
				rank, tok = drfDama, tok[1:]
			case 'D':
				rank, tok = drfDamone, tok[1:]
			}
			var n int
			if _, err := fmt.Sscan(tok, &n); err != nil || n < 1 || n > 32 || b.at(n) != drfEmpty {
				t.Fatalf("drfParse %q: bad square %q", s, tok)
			}
			b.set(n, drfCell(white, rank))
		}
	}
	return b
}

// ---------------------------------------------------------------------------
// Conversion between the package's types and the reference.

func drfFromPosition(p *Position) drfBoard {
	var b drfBoard
	b.white = p.Side == White
	for n := 1; n <= 32; n++ {
		bit := uint64(1) << Damone.Bit(n)
		rank := drfPedina
		if p.Kings&bit != 0 {
			rank = drfDama
		}
		if p.Super&bit != 0 {
			rank = drfDamone
		}
		switch {
		case p.Pieces[White]&bit != 0:
			b.set(n, drfCell(true, rank))
		case p.Pieces[Black]&bit != 0:
			b.set(n, drfCell(false, rank))
		}
	}
	return b
}

func drfToPosition(b *drfBoard) Position {
	var p Position
	if !b.white {
		p.Side = Black
	}
	for n := 1; n <= 32; n++ {
		v := b.at(n)
		if v == drfEmpty {
			continue
		}
		bit := uint64(1) << Damone.Bit(n)
		if v > 0 {
			p.Pieces[White] |= bit
		} else {
			p.Pieces[Black] |= bit
		}
		switch drfRankOf(v) {
		case drfDama:
			p.Kings |= bit
		case drfDamone:
			p.Kings |= bit
			p.Super |= bit
		}
	}
	p.Key = p.ComputeKey()
	return p
}

func drfOfMove(m Move) drfMove {
	r := drfMove{
		From:    Damone.SquareNumber(int(m.From)),
		To:      Damone.SquareNumber(int(m.To)),
		Promote: m.Promote,
	}
	for b := 0; b < 64; b++ {
		if m.Captured&(1<<b) != 0 {
			r.Caps |= 1 << Damone.SquareNumber(b) // bit 0 if b is no square
		}
	}
	return r
}

// ---------------------------------------------------------------------------
// The differential check of one position.

// drfDiff compares the package's moves of p with the reference's (and
// checks that FormatMove writes one of the legal paths of each capture),
// plays every move with Position.Play and compares the result with the
// reference's own move making, and returns a description of every
// difference, or "".
func drfDiff(p *Position) string {
	b := drfFromPosition(p)
	want, paths := drfGenerate(&b)
	var ml MoveList
	Damone.Generate(p, &ml)
	var problems []string
	// FormatMove must write a legal path of each capture.
	for _, pm := range ml.Slice() {
		if pm.Captured == 0 {
			continue
		}
		m, text := drfOfMove(pm), Damone.FormatMove(p, pm)
		var legal []string
		for i := range paths {
			if paths[i].move() == m {
				legal = append(legal, paths[i].text())
			}
		}
		if len(legal) > 0 && !slices.Contains(legal, text) {
			problems = append(problems, fmt.Sprintf("FormatMove(%s) = %s, not a legal path (%s)", m, text, strings.Join(legal, " ")))
		}
	}
	got := map[drfMove]int{}
	var gotList []drfMove
	for _, pm := range ml.Slice() {
		m := drfOfMove(pm)
		if got[m] == 0 {
			gotList = append(gotList, m)
		}
		got[m]++
	}
	drfSort(gotList)
	wantSet := map[drfMove]bool{}
	var missing, extra, dup []string
	for _, m := range want {
		wantSet[m] = true
		if got[m] == 0 {
			missing = append(missing, m.String())
		}
	}
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
	if n := Damone.Count(p, &scratch); n != ml.N {
		problems = append(problems, fmt.Sprintf("Count = %d, Generate lists %d moves", n, ml.N))
	}
	refCaptures := len(want) > 0 && want[0].Caps != 0
	if Damone.HasCapture(p) != refCaptures {
		problems = append(problems, fmt.Sprintf("HasCapture = %v, reference captures: %v", Damone.HasCapture(p), refCaptures))
	}
	// Play every generated move that the reference also has.
	for _, pm := range ml.Slice() {
		m := drfOfMove(pm)
		if !wantSet[m] {
			continue
		}
		q := *p
		q.Play(pm)
		rb := b
		drfPlay(&rb, m)
		if q.Key != q.ComputeKey() {
			problems = append(problems, fmt.Sprintf("after Play(%s): incremental key %#x, ComputeKey %#x", m, q.Key, q.ComputeKey()))
		}
		if q.Super&^q.Kings != 0 || q.Kings&^q.Occupied() != 0 || q.Pieces[White]&q.Pieces[Black] != 0 {
			problems = append(problems, fmt.Sprintf("after Play(%s): inconsistent bitboards W=%#x B=%#x K=%#x S=%#x",
				m, q.Pieces[White], q.Pieces[Black], q.Kings, q.Super))
		}
		if qb := drfFromPosition(&q); qb != rb {
			gotRank, wantRank := "empty", "empty"
			if v := qb.at(m.To); v != drfEmpty {
				gotRank = drfRankName[drfRankOf(v)]
			}
			if v := rb.at(m.To); v != drfEmpty {
				wantRank = drfRankName[drfRankOf(v)]
			}
			problems = append(problems, fmt.Sprintf("after Play(%s): board %s, reference %s (mover on %d: %s, reference %s)",
				m, qb.fen(), rb.fen(), m.To, gotRank, wantRank))
		}
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\n\treference: %v\n\tpackage:   %v\n\t%s",
		b.fen(), want, gotList, strings.Join(problems, "\n\t"))
}

// ---------------------------------------------------------------------------
// Coverage.

// drfStats counts what the checked positions exercised, so that a test
// which silently stopped covering the hard cases would show it.
type drfStats struct {
	positions, captures, multi, longest int
	refusals                            int // positions where the rank rule refused a jump
	refusedOnly                         int // ... and so left no capture at all
	byRank                              [3]int
	ruleII, ruleIII, ruleIV             int // positions where that rule discarded a line
	merged, cycle                       int
	pedinaCrownCapture, pedinaCrownStop int // a Pedina promoted by a capture; and it could have jumped on
	damoneCapture, damoneQuiet          int // a Dama promoted to Damone by a capture; by a quiet move
	damaQuiet                           int // a Pedina promoted by a quiet move
	noDamone                            int // positions whose side to move has no Damone
}

func (st *drfStats) note(b *drfBoard) {
	st.positions++
	if !drfHasDamone(b, b.white) {
		st.noDamone++
	}
	paths, refused := drfCapturePaths(b)
	if refused > 0 {
		st.refusals++
		if len(paths) == 0 {
			st.refusedOnly++
		}
	}
	if len(paths) == 0 {
		moves, _ := drfGenerate(b)
		da, do := false, false
		for _, m := range moves {
			if m.Promote && drfRankOf(b.at(m.From)) == drfPedina {
				da = true
			}
			if m.Promote && drfRankOf(b.at(m.From)) == drfDama {
				do = true
			}
		}
		if da {
			st.damaQuiet++
		}
		if do {
			st.damoneQuiet++
		}
		return
	}
	st.captures++
	best := drfBestPaths(paths)
	st.byRank[best[0].rank]++
	if len(best[0].caps) > 1 {
		st.multi++
	}
	st.longest = max(st.longest, len(best[0].caps))
	r2, r3, r4 := false, false, false
	for i := range paths {
		p := &paths[i]
		switch {
		case len(p.caps) != len(best[0].caps):
		case p.rank != best[0].rank:
			r2 = true
		case p.taken[drfDamone] != best[0].taken[drfDamone]:
			r3 = true
		case p.taken[drfDama] != best[0].taken[drfDama]:
			r4 = true
		}
	}
	st.ruleII += drfB2i(r2)
	st.ruleIII += drfB2i(r3)
	st.ruleIV += drfB2i(r4)
	seen := map[drfMove]bool{}
	merged, cycle, crown, stop, damone := false, false, false, false, false
	for i := range best {
		p := &best[i]
		m := p.move()
		merged = merged || seen[m]
		seen[m] = true
		cycle = cycle || m.From == m.To
		if p.promote && p.rank == drfPedina {
			crown = true
			stop = stop || p.couldJump
		}
		damone = damone || (p.promote && p.rank == drfDama)
	}
	st.merged += drfB2i(merged)
	st.cycle += drfB2i(cycle)
	st.pedinaCrownCapture += drfB2i(crown)
	st.pedinaCrownStop += drfB2i(stop)
	st.damoneCapture += drfB2i(damone)
}

func drfB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func drfHasDamone(b *drfBoard, white bool) bool {
	for n := 1; n <= 32; n++ {
		if v := b.at(n); v != drfEmpty && (v > 0) == white && drfRankOf(v) == drfDamone {
			return true
		}
	}
	return false
}

func (st drfStats) String() string {
	return fmt.Sprintf("%d positions: %d with captures (by Pedina/Dama/Damone %d/%d/%d), %d multi (longest %d); "+
		"rank rule refused a jump in %d (leaving no capture in %d); "+
		"decided by (ii) rank of capturer: %d, (iii) most Damoni: %d, (iv) most Dame: %d; "+
		"paths merged: %d; cycles: %d; Pedina promoted by capture: %d (stopped though it could jump on: %d); "+
		"Dama→Damone by capture: %d, by quiet move: %d; Pedina→Dama by quiet move: %d; side to move without Damone: %d",
		st.positions, st.captures, st.byRank[0], st.byRank[1], st.byRank[2], st.multi, st.longest,
		st.refusals, st.refusedOnly, st.ruleII, st.ruleIII, st.ruleIV, st.merged, st.cycle,
		st.pedinaCrownCapture, st.pedinaCrownStop, st.damoneCapture, st.damoneQuiet, st.damaQuiet, st.noDamone)
}

// ---------------------------------------------------------------------------
// Random positions.

// drfLegalPlace reports whether a piece may stand on n: no Pedina on its
// own promotion squares, no Dama on its own Damone square.
func drfLegalPlace(white bool, rank, n int) bool {
	return rank == drfDamone || !drfPromotes(white, rank, n)
}

// drfRandomBoard places nMover pieces of the side to move and nOther of
// the other side on random legal squares; pDama and pDamone are the
// chances of each rank.
func drfRandomBoard(rng *rand.Rand, moverWhite bool, nMover, nOther int, pDama, pDamone float64) drfBoard {
	var b drfBoard
	b.white = moverWhite
	drfAddRandom(rng, &b, moverWhite, nMover, pDama, pDamone)
	drfAddRandom(rng, &b, !moverWhite, nOther, pDama, pDamone)
	return b
}

// drfAddRandom adds up to k pieces of one colour, keeping at most 12.
func drfAddRandom(rng *rand.Rand, b *drfBoard, white bool, k int, pDama, pDamone float64) {
	for i := 0; i < k && b.count(white) < 12; i++ {
		rank := drfPedina
		switch x := rng.Float64(); {
		case x < pDamone:
			rank = drfDamone
		case x < pDamone+pDama:
			rank = drfDama
		}
		for _, j := range rng.Perm(32) {
			if n := j + 1; b.at(n) == drfEmpty && drfLegalPlace(white, rank, n) {
				b.set(n, drfCell(white, rank))
				break
			}
		}
	}
}

// drfPromotionBoard sets up a promoting capture: an enemy piece next to one
// of the mover's promotion squares and a mover's Pedina (or Dama, for the
// Damone square) behind it, plus random pieces.
func drfPromotionBoard(rng *rand.Rand) drfBoard {
	white := rng.IntN(2) == 0
	var b drfBoard
	b.white = white
	rank := drfPedina
	if rng.IntN(3) == 0 {
		rank = drfDama
	}
	var targets []int
	for n := 1; n <= 32; n++ {
		if drfPromotes(white, rank, n) {
			targets = append(targets, n)
		}
	}
	to := targets[rng.IntN(len(targets))]
	tf, tr := drfSquare(to)
	dirs := drfDirs(white, rank)
	d := dirs[rng.IntN(len(dirs))]
	// The mover jumps along d: from = to - 2d, victim = to - d.
	ff, fr := tf-2*d[0], tr-2*d[1]
	of, or := tf-d[0], tr-d[1]
	if from := drfNumber(ff, fr); from != 0 && drfLegalPlace(white, rank, from) {
		b.c[ff][fr] = drfCell(white, rank)
		vr := rng.IntN(rank + 1)
		if vr == drfPedina && drfPromotes(!white, drfPedina, drfNumber(of, or)) {
			vr = drfDama
		}
		if vr == drfDama && drfPromotes(!white, drfDama, drfNumber(of, or)) {
			vr = drfDamone
		}
		b.c[of][or] = drfCell(!white, vr)
	}
	drfAddRandom(rng, &b, !white, rng.IntN(9), 0.3, 0.15)
	drfAddRandom(rng, &b, white, rng.IntN(5), 0.3, 0.15)
	return b
}

// drfRingBoard builds a capture ring: the four diagonal neighbours of a
// random centre hold enemy pieces, and a mover's Dama or Damone stands on a
// corner of the ring, so it may go round either way and come back.
func drfRingBoard(rng *rand.Rand) drfBoard {
	white := rng.IntN(2) == 0
	var b drfBoard
	b.white = white
	var cf, cr int
	for {
		cf, cr = 1+rng.IntN(6), 1+rng.IntN(6)
		if drfNumber(cf-1, cr-1) != 0 { // the neighbours are dark
			break
		}
	}
	rank := drfDama + rng.IntN(2)
	for _, d := range drfAllDirs {
		n := drfNumber(cf+d[0], cr+d[1])
		vr := rng.IntN(rank + 1)
		for !drfLegalPlace(!white, vr, n) {
			vr++
		}
		b.set(n, drfCell(!white, vr))
	}
	d := drfAllDirs[rng.IntN(4)]
	if kf, kr := cf+2*d[0], cr+2*d[1]; kf >= 0 && kf < 8 && kr >= 0 && kr < 8 {
		if n := drfNumber(kf, kr); drfLegalPlace(white, rank, n) {
			b.set(n, drfCell(white, rank))
		}
	}
	drfAddRandom(rng, &b, white, rng.IntN(5), 0.4, 0.3)
	drfAddRandom(rng, &b, !white, rng.IntN(8), 0.4, 0.2)
	return b
}

// ---------------------------------------------------------------------------
// Tests.

// TestReferenceDamoneStart lists the 8 first moves of the start position on
// the reference and checks that the package's start is the same board.
func TestReferenceDamoneStart(t *testing.T) {
	b := drfStart()
	if rules := drfParse(t, "W:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17"); rules != b {
		t.Errorf("reference start %s, rules.md says %s", b.fen(), rules.fen())
	}
	// The promotion squares read off the start position are those of rules.md §2.
	wantPromo := map[string][]int{"white Pedina": {2, 9}, "white Dama": {1}, "black Pedina": {24, 31}, "black Dama": {32}}
	for name, want := range wantPromo {
		white := strings.HasPrefix(name, "white")
		rank := drfPedina
		if strings.HasSuffix(name, "Dama") {
			rank = drfDama
		}
		var got []int
		for n := 1; n <= 32; n++ {
			if drfPromotes(white, rank, n) {
				got = append(got, n)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s promotes on %v, want %v", name, got, want)
		}
	}
	moves, _ := drfGenerate(&b)
	var got []string
	for _, m := range moves {
		got = append(got, m.String())
	}
	want := "16-12 20-15 23-19 24-28 27-22 30-26 31-28 32-28"
	if strings.Join(got, " ") != want {
		t.Errorf("reference start moves: %v, want %s", got, want)
	}
	p := Damone.Start()
	if pb := drfFromPosition(&p); pb != b {
		t.Errorf("Damone.Start() is %s, want %s", pb.fen(), b.fen())
	}
	if p.Side != White {
		t.Errorf("Damone.Start(): %s to move, want white", p.Side)
	}
	// And the package's generator gives the same 8 moves.
	var ml MoveList
	Damone.Generate(&p, &ml)
	var pkg []string
	for _, m := range ml.Slice() {
		pkg = append(pkg, Damone.FormatMove(&p, m))
	}
	slices.Sort(pkg)
	if want := []string{"16-12", "20-15", "23-19", "24-28", "27-22", "30-26", "31-28", "32-28"}; !slices.Equal(pkg, want) {
		t.Errorf("Damone start moves %v, want %v", pkg, want)
	}
	if d := drfDiff(&p); d != "" {
		t.Errorf("start: %s", d)
	}
}

// TestReferenceDamoneSelf checks the reference itself on hand-made
// positions whose answers follow directly from rules.md §2 (worked out by
// hand on the board of rules.md §1; "(+)" marks a promotion).
func TestReferenceDamoneSelf(t *testing.T) {
	cases := []struct{ name, fen, want string }{
		{"white Pedina: up-left, up-right, down-left, never down-right", "W:W18:B", "18-13 18-14 18-21"},
		{"black Pedina: down-right, up-right, down-left, never up-left", "B:W:B15", "15-12 15-19 15-20"},
		{"white Pedina takes down-left", "W:W18:B21", "18x25{21}"},
		{"white Pedina never takes down-right", "W:W18:B22", "18-13 18-14 18-21"},
		{"black Pedina takes up-right", "B:W12:B15", "15x8{12}"},
		{"black Pedina never takes up-left", "B:W11:B15", "15-12 15-19 15-20"},
		{"a Pedina cannot take a Dama", "W:W18:BK14,K22", "18-13 18-21"},
		{"a Dama cannot take a Damone", "W:WK18:BD14", "18-13 18-21 18-22"},
		{"a Dama takes a Dama", "W:WK18:BK14", "18x11{14}"},
		{"a Damone takes a Damone", "W:WD18:BD14", "18x11{14}"},
		{"a white Pedina is promoted on 2 and stops", "W:W18:B14,6", "18x2{6,14}(+)"},
		{"a white Pedina is promoted on 9 and stops", "W:W18:B13,5", "18x9{13}(+)"},
		{"a black Pedina is promoted on 24, quietly", "B:W1:B20", "20-16 20-23 20-24(+)"},
		{"a white Dama is promoted on 1 and stops", "W:WK10:B5,6", "10x1{5}(+) 10x3{6}"},
		{"a black Dama is promoted on 32", "B:W1:BK28", "28-23 28-24 28-31 28-32(+)"},
		{"(ii) the Dama's capture over the Pedina's", "W:WK19,18:B14,15", "19x10{14} 19x12{15}"},
		{"(iii) most Damoni", "W:WD19:BD15,K23,K22", "19x12{15}"},
		{"(iv) most Dame", "W:WD19:B15,K23,22", "19x28{23}"},
	}
	for _, c := range cases {
		b := drfParse(t, c.fen)
		moves, _ := drfGenerate(&b)
		var got []string
		for _, m := range moves {
			got = append(got, m.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %s: reference gives %v, want %s", c.name, c.fen, got, c.want)
		}
	}
}

func TestReferenceDamone(t *testing.T) {
	start := time.Now()
	games, maxPlies, placements := 300, 200, 100000
	if testing.Short() {
		games, maxPlies, placements = 30, 200, 10000
	}
	rng := rand.New(rand.NewPCG(20250214, 2))
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
	check := func(p *Position, st *drfStats) bool {
		b := drfFromPosition(p)
		st.note(&b)
		if d := drfDiff(p); d != "" {
			return fail("%s", d)
		}
		if lost := DamoneAllDamoni.Lost(p); lost != !drfHasDamone(&b, b.white) {
			return fail("%s: DamoneAllDamoni.Lost = %v, side to move has a Damone: %v", b.fen(), lost, drfHasDamone(&b, b.white))
		}
		if Damone.Lost(p) {
			return fail("%s: Damone.Lost = true", b.fen())
		}
		return false
	}

	// (a) Random games from the start: every position along each game.
	var gameStats drfStats
	for g := 0; g < games; g++ {
		p := Damone.Start()
		rb := drfFromPosition(&p)
		for ply := 0; ply < maxPlies; ply++ {
			if check(&p, &gameStats) {
				return
			}
			var ml MoveList
			Damone.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			before := rb.fen()
			p.Play(m)
			drfPlay(&rb, drfOfMove(m))
			if got := drfFromPosition(&p); got != rb || p.Key != p.ComputeKey() {
				if fail("Play(%s) from %s: board %s (key ok: %v), reference %s",
					drfOfMove(m), before, got.fen(), p.Key == p.ComputeKey(), rb.fen()) {
					return
				}
				break
			}
		}
	}
	t.Logf("random games: %v", gameStats)

	// (b) Random placements, both sides to move, every rank for both colours.
	var placeStats drfStats
	for i := 0; i < placements; i++ {
		moverWhite := rng.IntN(2) == 0
		var b drfBoard
		switch i % 7 {
		case 0: // mostly Pedine
			b = drfRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 0.15, 0.05)
		case 1: // a third of each rank
			b = drfRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 0.33, 0.33)
		case 2: // few movers among many enemies: long chains, rank refusals
			b = drfRandomBoard(rng, moverWhite, 1+rng.IntN(4), 4+rng.IntN(9), 0.4, 0.3)
		case 3: // no Pedine
			b = drfRandomBoard(rng, moverWhite, rng.IntN(13), rng.IntN(13), 0.5, 0.5)
		case 4: // dense, mixed: priority (ii)-(iv)
			b = drfRandomBoard(rng, moverWhite, 6+rng.IntN(7), 6+rng.IntN(7), 0.35, 0.25)
		case 5:
			b = drfPromotionBoard(rng)
		case 6:
			b = drfRingBoard(rng)
		}
		p := drfToPosition(&b)
		fen := Damone.FEN(&p)
		q, err := Damone.ParseFEN(fen)
		if err != nil || q != p {
			if fail("FEN round trip of %s: wrote %s, read back %s (%v)", b.fen(), fen, Damone.FEN(&q), err) {
				return
			}
			continue
		}
		if check(&p, &placeStats) {
			return
		}
		// The reference must be colour-symmetric.
		mb := drfMirror(&b)
		want, _ := drfGenerate(&b)
		mirrored, _ := drfGenerate(&mb)
		for j := range want {
			want[j] = drfMirrorMove(want[j])
		}
		drfSort(want)
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

	if !testing.Short() {
		s := placeStats
		if total < 20000 || s.refusals == 0 || s.refusedOnly == 0 || s.ruleII == 0 || s.ruleIII == 0 || s.ruleIV == 0 ||
			s.pedinaCrownCapture == 0 || s.pedinaCrownStop == 0 || s.damoneCapture == 0 || s.damoneQuiet == 0 ||
			s.damaQuiet == 0 || s.cycle == 0 || s.merged == 0 || s.longest < 4 || s.noDamone == 0 ||
			s.byRank[0] == 0 || s.byRank[1] == 0 || s.byRank[2] == 0 || gameStats.captures == 0 {
			t.Errorf("random positions no longer cover the rank rule, the priority rules, promotions and cycles:\n\t%v\n\t%v",
				gameStats, s)
		}
	}
}

// TestDamoneAllDamoniLost checks the "all Damoni captured" option: the side
// to move has lost exactly when it has no Damone; plain Damone never says so.
func TestDamoneAllDamoniLost(t *testing.T) {
	if Damone.HasLossRule() || !DamoneAllDamoni.HasLossRule() {
		t.Errorf("HasLossRule: Damone %v, DamoneAllDamoni %v", Damone.HasLossRule(), DamoneAllDamoni.HasLossRule())
	}
	for _, c := range []struct {
		fen  string
		lost bool
	}{
		{"W:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17", false},
		{"B:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17", false},
		{"W:WK24,K31,16:BD1,K2", true},  // White has Dame but no Damone
		{"B:WK24,K31,16:BD1,K2", false}, // Black still has its Damone
		{"B:WD18:BK2,K9,3", true},
		{"W:WD18:BK2,K9,3", false},
		{"W:W18,22:B3", true},
		{"B:WD5,D6:BD27", false},
	} {
		p, err := Damone.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if got := DamoneAllDamoni.Lost(&p); got != c.lost {
			t.Errorf("%s: DamoneAllDamoni.Lost = %v, want %v", c.fen, got, c.lost)
		}
		if Damone.Lost(&p) {
			t.Errorf("%s: Damone.Lost = true, want false (no such rule)", c.fen)
		}
		// The option changes nothing in the moves.
		var a, b MoveList
		Damone.Generate(&p, &a)
		DamoneAllDamoni.Generate(&p, &b)
		if !slices.Equal(a.Slice(), b.Slice()) {
			t.Errorf("%s: Damone and DamoneAllDamoni generate different moves", c.fen)
		}
	}
	// Over random games and placements as well.
	rng := rand.New(rand.NewPCG(77, 78))
	n := 0
	for g := 0; g < 40; g++ {
		p := Damone.Start()
		for ply := 0; ply < 200; ply++ {
			b := drfFromPosition(&p)
			n++
			if got, want := DamoneAllDamoni.Lost(&p), !drfHasDamone(&b, b.white); got != want {
				t.Fatalf("%s: DamoneAllDamoni.Lost = %v, want %v", b.fen(), got, want)
			}
			if Damone.Lost(&p) {
				t.Fatalf("%s: Damone.Lost = true", b.fen())
			}
			var ml MoveList
			Damone.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[rng.IntN(ml.N)])
		}
	}
	seen := [2]int{}
	for i := 0; i < 2000; i++ {
		b := drfRandomBoard(rng, rng.IntN(2) == 0, rng.IntN(13), rng.IntN(13), 0.3, 0.15)
		p := drfToPosition(&b)
		want := !drfHasDamone(&b, b.white)
		seen[drfB2i(want)]++
		if got := DamoneAllDamoni.Lost(&p); got != want {
			t.Fatalf("%s: DamoneAllDamoni.Lost = %v, want %v", b.fen(), got, want)
		}
		if Damone.Lost(&p) {
			t.Fatalf("%s: Damone.Lost = true", b.fen())
		}
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Errorf("random placements did not cover both outcomes: %v", seen)
	}
	t.Logf("%d game positions and 2000 placements (%d lost, %d not)", n, seen[1], seen[0])
}
