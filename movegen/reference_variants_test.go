package movegen

// A slow, independent reference generator for the diagonal variants other
// than Italian — English (rules.md §4), International (§5), Brazilian (§6),
// Russian (§7) and Spanish (§8) — and a differential test of the bitboard
// generators (english.go, intl.go, brazilian.go, russian.go, spanish.go; see
// diag.go) against it.
//
// The reference is written from rules.md alone: the board is a plain
// [10][10] array indexed by file and rank (file 0 = a at White's left, rank
// 0 = White's first rank), each variant's dark squares, numbering and start
// position are derived here from the text, and captures are found by a plain
// recursion that lists every complete capture path, applies the priority
// rule to the paths, and only then merges paths into moves identified by
// (from, to, captured set). It uses none of the package's geometry,
// generator code or tables; the package is only touched through its public
// surface (Coord/BitAt to translate squares, SquareNumber/Bit for the
// numbering checks, Start, ParseFEN, FEN, Generate, Count, HasCapture, Play,
// ComputeKey).

import (
	"encoding/json"
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
// The rule sets, from rules.md.

// vrCrown says what a man does when a capture takes it onto its far rank.
type vrCrown int

const (
	vrCrownStop     vrCrown = iota // the move ends there, the man is crowned (English)
	vrCrownContinue                // crowned at once, goes on capturing as a king (Russian)
	vrCrownPass                    // goes on as a man, crowned only if the move ends there (Brazilian, International; Spanish men, which capture forward only, can never go on anyway)
)

// vrPrio is the priority rule among complete captures.
type vrPrio int

const (
	vrFree     vrPrio = iota // any complete capture (English, Russian)
	vrMax                    // most pieces, kings count as one (Brazilian, International)
	vrMaxKings               // most pieces, then most kings (Spanish)
)

// vrRules is one variant as rules.md describes it.
type vrRules struct {
	name        string
	v           *Variant // the package's variant, only for the conversions
	size        int      // 8 or 10
	darkParity  int      // (file+rank)%2 of the dark squares: 0 when a1 is dark, 1 when h1 is
	topDown     bool     // numbering starts at White's far rank
	leftToRight bool     // numbering runs from file a within a rank
	blackFirst  bool     // Black moves first from the start position
	flying      bool     // kings fly
	manBack     bool     // men capture backward too
	crown       vrCrown
	prio        vrPrio
	maxPieces   int
	// numbering, derived by vrNewRules
	sq  [][2]int // square number → file, rank (index 0 unused)
	num [10][10]int
}

func vrNewRules(r vrRules) *vrRules {
	r.sq = [][2]int{{-1, -1}}
	for i := 0; i < r.size; i++ {
		rank := i
		if r.topDown {
			rank = r.size - 1 - i
		}
		for j := 0; j < r.size; j++ {
			file := j
			if !r.leftToRight {
				file = r.size - 1 - j
			}
			if (file+rank)%2 != r.darkParity {
				continue
			}
			r.sq = append(r.sq, [2]int{file, rank})
			r.num[file][rank] = len(r.sq) - 1
		}
	}
	r.maxPieces = 12
	if r.size == 10 {
		r.maxPieces = 20
	}
	return &r
}

var (
	// §4: a1 dark; 1 = b8, 2 = d8 … 5 = a7 … 29 = a1 … 32 = g1; Black
	// first; men forward only; kings one square; free choice; a man
	// crowned in a capture stops.
	vrEnglish = vrNewRules(vrRules{name: "english", v: English, size: 8, darkParity: 0, topDown: true, leftToRight: true,
		blackFirst: true, crown: vrCrownStop, prio: vrFree})
	// §7: board and start as Brazilian; men capture backward; flying
	// kings; free choice; a man crowned mid-capture goes on as a king.
	// Numeric form 1 = a1, 2 = c1 … 32 = h8 (protocol.md).
	vrRussian = vrNewRules(vrRules{name: "russian", v: Russian, size: 8, darkParity: 0, topDown: false, leftToRight: true,
		flying: true, manBack: true, crown: vrCrownContinue, prio: vrFree})
	// §6: International rules on 8x8, a1 dark, numeric 1 = a1.
	vrBrazilian = vrNewRules(vrRules{name: "brazilian", v: Brazilian, size: 8, darkParity: 0, topDown: false, leftToRight: true,
		flying: true, manBack: true, crown: vrCrownPass, prio: vrMax})
	// §8: h1 dark; 1 = h1, 2 = f1 … 5 = g2 … 32 = a8 (right to left,
	// bottom to top); men forward only; flying kings; most pieces then
	// most kings.
	vrSpanish = vrNewRules(vrRules{name: "spanish", v: Spanish, size: 8, darkParity: 1, topDown: false, leftToRight: false,
		flying: true, crown: vrCrownPass, prio: vrMaxKings})
	// §5: 10x10, a1 dark; 1 = b10 … 46 = a1 … 50 = i1; men capture
	// backward; flying kings; maximum capture; a man passing the far rank
	// stays a man.
	vrInternational = vrNewRules(vrRules{name: "international", v: International, size: 10, darkParity: 0, topDown: true, leftToRight: true,
		flying: true, manBack: true, crown: vrCrownPass, prio: vrMax})

	vrAll = []*vrRules{vrEnglish, vrRussian, vrBrazilian, vrSpanish, vrInternational}
)

func (rl *vrRules) on(f, r int) bool { return f >= 0 && r >= 0 && f < rl.size && r < rl.size }

func (rl *vrRules) dark(f, r int) bool { return rl.on(f, r) && (f+r)%2 == rl.darkParity }

func (rl *vrRules) squares() int { return len(rl.sq) - 1 }

// crownRank is the rank where the men of a colour are crowned.
func (rl *vrRules) crownRank(white bool) int {
	if white {
		return rl.size - 1
	}
	return 0
}

// vrAlg is the algebraic name of file f, rank r.
func vrAlg(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }

// ---------------------------------------------------------------------------
// The reference board.

// Cell values. A piece captured during the move being searched is vrDead:
// it blocks its square and cannot be jumped again.
const (
	vrEmpty int8 = 0
	vrWMan  int8 = 1
	vrWKing int8 = 2
	vrBMan  int8 = -1
	vrBKing int8 = -2
	vrDead  int8 = 9
)

// vrBoard is a position: cells [file][rank] and the side to move.
type vrBoard struct {
	c     [10][10]int8
	white bool
}

func (b *vrBoard) at(rl *vrRules, n int) int8 {
	s := rl.sq[n]
	return b.c[s[0]][s[1]]
}

func (b *vrBoard) set(rl *vrRules, n int, v int8) {
	s := rl.sq[n]
	b.c[s[0]][s[1]] = v
}

func (b *vrBoard) count(rl *vrRules, sign int8) int {
	k := 0
	for n := 1; n <= rl.squares(); n++ {
		if b.at(rl, n)*sign > 0 {
			k++
		}
	}
	return k
}

// fen writes b as PDN FEN with the reference's own square numbers (the
// package reads numbers for every variant).
func (b *vrBoard) fen(rl *vrRules) string {
	var w, k []string
	for n := 1; n <= rl.squares(); n++ {
		switch b.at(rl, n) {
		case vrWMan:
			w = append(w, fmt.Sprint(n))
		case vrWKing:
			w = append(w, fmt.Sprintf("K%d", n))
		case vrBMan:
			k = append(k, fmt.Sprint(n))
		case vrBKing:
			k = append(k, fmt.Sprintf("K%d", n))
		}
	}
	side := "W"
	if !b.white {
		side = "B"
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(k, ",")
}

// vrStart builds each start position from rules.md.
func vrStart(rl *vrRules) vrBoard {
	var b vrBoard
	b.white = !rl.blackFirst
	fill := func(lo, hi int, v int8) {
		for n := lo; n <= hi; n++ {
			b.set(rl, n, v)
		}
	}
	switch rl.name {
	case "english": // Black men on 1–12, White men on 21–32
		fill(1, 12, vrBMan)
		fill(21, 32, vrWMan)
	case "spanish": // White men 1–12, Black men 21–32
		fill(1, 12, vrWMan)
		fill(21, 32, vrBMan)
	case "international": // Black men 1–20, White men 31–50
		fill(1, 20, vrBMan)
		fill(31, 50, vrWMan)
	default: // Russian, Brazilian: White on the dark squares of ranks 1–3, Black on 6–8
		for f := 0; f < 8; f++ {
			for r := 0; r < 8; r++ {
				if !rl.dark(f, r) {
					continue
				}
				if r <= 2 {
					b.c[f][r] = vrWMan
				} else if r >= 5 {
					b.c[f][r] = vrBMan
				}
			}
		}
	}
	return b
}

// vrMove is a move as rules.md identifies it: from, to and the captured
// set (bit n = square n, the reference's numbering), and whether the man
// ends the move as a king.
type vrMove struct {
	From, To int
	Caps     uint64
	Promote  bool
}

func (m vrMove) String() string {
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
		s += "(K)"
	}
	return s
}

func vrSort(ms []vrMove) {
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

// vrPath is one complete capture path.
type vrPath struct {
	from, to int
	caps     []int // captured squares in jump order
	kings    int   // how many of them were kings
	byKing   bool  // the mover started as a king
	promote  bool  // the man ends the move as a king
	// what the coverage counters want to know
	crownedAt  int  // Russian: number of pieces taken when the man was crowned (-1: never)
	passedFar  bool // a man stood on its far rank in the middle of the capture
	manBack    bool // a man captured backward
	maxLanding int  // the most landing squares any jump of this path had to choose from
}

func (p *vrPath) move() vrMove {
	m := vrMove{From: p.from, To: p.to, Promote: p.promote}
	for _, c := range p.caps {
		m.Caps |= 1 << c
	}
	return m
}

// vrSearch is the state of one recursive capture search.
type vrSearch struct {
	rl         *vrRules
	b          vrBoard // working copy, mutated and restored
	own        int8    // +1 White, -1 Black
	from       int
	byKing     bool
	caps       []int
	kings      int
	crownedAt  int
	manBack    bool
	maxLanding int
	paths      []vrPath
	goOnPruned int // flying-king landings excluded because another landing goes on
}

var vrDirs = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

func (s *vrSearch) live(f, r int) bool {
	v := s.b.c[f][r]
	return v != vrEmpty && v != vrDead && v*s.own < 0
}

func (s *vrSearch) empty(f, r int) bool { return s.rl.on(f, r) && s.b.c[f][r] == vrEmpty }

func (s *vrSearch) take(f, r int) int8 {
	v := s.b.c[f][r]
	s.b.c[f][r] = vrDead // stays on the board until the move ends
	s.caps = append(s.caps, s.rl.num[f][r])
	if v == vrWKing || v == vrBKing {
		s.kings++
	}
	return v
}

func (s *vrSearch) untake(f, r int, v int8) {
	s.b.c[f][r] = v
	s.caps = s.caps[:len(s.caps)-1]
	if v == vrWKing || v == vrBKing {
		s.kings--
	}
}

func (s *vrSearch) record(f, r int, promote bool) {
	s.paths = append(s.paths, vrPath{
		from: s.from, to: s.rl.num[f][r], caps: slices.Clone(s.caps), kings: s.kings,
		byKing: s.byKing, promote: promote, crownedAt: s.crownedAt,
		manBack: s.manBack, maxLanding: s.maxLanding,
	})
}

// manJump extends the capture of a man standing on (f, r).
func (s *vrSearch) manJump(f, r int) {
	white := s.own > 0
	fwd := 1
	if !white {
		fwd = -1
	}
	far := s.rl.crownRank(white)
	extended := false
	for _, d := range vrDirs {
		back := d[1] != fwd
		if back && !s.rl.manBack {
			continue
		}
		of, or := f+d[0], r+d[1]
		lf, lr := f+2*d[0], r+2*d[1]
		if !s.empty(lf, lr) || !s.live(of, or) {
			continue
		}
		extended = true
		v := s.take(of, or)
		saveBack := s.manBack
		if back {
			s.manBack = true
		}
		switch {
		case lr != far:
			s.manJump(lf, lr)
		case s.rl.crown == vrCrownStop:
			s.record(lf, lr, true)
		case s.rl.crown == vrCrownContinue:
			s.crownedAt = len(s.caps)
			s.kingJump(lf, lr, true)
			s.crownedAt = -1
		default: // vrCrownPass: it goes on as a man
			s.manJump(lf, lr)
		}
		s.manBack = saveBack
		s.untake(of, or, v)
	}
	if !extended && len(s.caps) > 0 {
		s.record(f, r, r == far)
	}
}

// kingCanCapture reports whether a king on (f, r) has a capture with the
// board as it stands (captured pieces still blocking).
func (s *vrSearch) kingCanCapture(f, r int) bool {
	for _, d := range vrDirs {
		x, y := f+d[0], r+d[1]
		if s.rl.flying {
			for s.empty(x, y) {
				x, y = x+d[0], y+d[1]
			}
		}
		if s.rl.on(x, y) && s.live(x, y) && s.empty(x+d[0], y+d[1]) {
			return true
		}
	}
	return false
}

// kingJump extends the capture of a king (or of a Russian man crowned
// during this capture: promoted) standing on (f, r).
func (s *vrSearch) kingJump(f, r int, promoted bool) {
	extended := false
	for _, d := range vrDirs {
		x, y := f+d[0], r+d[1]
		if s.rl.flying {
			for s.empty(x, y) {
				x, y = x+d[0], y+d[1]
			}
		}
		if !s.rl.on(x, y) || !s.live(x, y) {
			continue
		}
		var lands [][2]int
		for lf, lr := x+d[0], y+d[1]; s.empty(lf, lr); lf, lr = lf+d[0], lr+d[1] {
			lands = append(lands, [2]int{lf, lr})
			if !s.rl.flying {
				break
			}
		}
		if len(lands) == 0 {
			continue
		}
		extended = true
		v := s.take(x, y)
		// A capture must be continued while possible: if the capture can
		// go on from some landing square, the king must land on one of
		// those (under the maximum rules this also follows from the count).
		var goOn [][2]int
		for _, l := range lands {
			if s.kingCanCapture(l[0], l[1]) {
				goOn = append(goOn, l)
			}
		}
		if len(goOn) > 0 && len(goOn) < len(lands) {
			s.goOnPruned++
			lands = goOn
		}
		saveMax := s.maxLanding
		if len(lands) > s.maxLanding {
			s.maxLanding = len(lands)
		}
		for _, l := range lands {
			s.kingJump(l[0], l[1], promoted)
		}
		s.maxLanding = saveMax
		s.untake(x, y, v)
	}
	if !extended && len(s.caps) > 0 {
		s.record(f, r, promoted)
	}
}

// vrCapturePaths lists every complete capture path of the side to move,
// before the priority rule, and how many flying-king landings the
// must-go-on rule excluded.
func vrCapturePaths(rl *vrRules, b *vrBoard) ([]vrPath, int) {
	s := vrSearch{rl: rl, b: *b, own: 1, crownedAt: -1}
	if !b.white {
		s.own = -1
	}
	for n := 1; n <= rl.squares(); n++ {
		v := b.at(rl, n)
		if v == vrEmpty || v*s.own < 0 {
			continue
		}
		f, r := rl.sq[n][0], rl.sq[n][1]
		s.from = n
		s.byKing = v == vrWKing || v == vrBKing
		s.b.c[f][r] = vrEmpty // the origin is empty during the capture
		if s.byKing {
			s.kingJump(f, r, false)
		} else {
			s.manJump(f, r)
		}
		s.b.c[f][r] = v
	}
	// A man that passed its far rank: recompute from the path (cheap and
	// independent of the search bookkeeping).
	for i := range s.paths {
		p := &s.paths[i]
		if p.byKing || rl.crown != vrCrownPass {
			continue
		}
		p.passedFar = vrManPassedFar(rl, b, p)
	}
	return s.paths, s.goOnPruned
}

// vrManPassedFar replays a man's path (short jumps only) and reports
// whether it stood on its far rank before the last landing.
func vrManPassedFar(rl *vrRules, b *vrBoard, p *vrPath) bool {
	f, r := rl.sq[p.from][0], rl.sq[p.from][1]
	far := rl.crownRank(b.white)
	for i, c := range p.caps {
		cf, cr := rl.sq[c][0], rl.sq[c][1]
		f, r = 2*cf-f, 2*cr-r
		if r == far && i < len(p.caps)-1 {
			return true
		}
	}
	return false
}

// vrBest keeps the complete paths the priority rule allows.
func vrBest(rl *vrRules, paths []vrPath) []vrPath {
	if rl.prio == vrFree {
		return paths
	}
	score := func(p *vrPath) int {
		if rl.prio == vrMaxKings {
			return len(p.caps)*100 + p.kings
		}
		return len(p.caps)
	}
	bestScore := -1
	for i := range paths {
		bestScore = max(bestScore, score(&paths[i]))
	}
	var best []vrPath
	for i := range paths {
		if score(&paths[i]) == bestScore {
			best = append(best, paths[i])
		}
	}
	return best
}

// vrGenResult is the reference's answer for one position.
type vrGenResult struct {
	moves    []vrMove
	all      []vrPath // every complete capture path
	best     []vrPath // the paths the priority rule keeps
	pruned   int      // landings excluded by the must-go-on rule
	conflict bool     // two paths of one (from, to, captured set) disagree on crowning
}

// vrGenerate returns the legal moves of b, sorted.
func vrGenerate(rl *vrRules, b *vrBoard) vrGenResult {
	var res vrGenResult
	if paths, pruned := vrCapturePaths(rl, b); len(paths) > 0 {
		res.all, res.pruned = paths, pruned
		res.best = vrBest(rl, paths)
		type key struct {
			from, to int
			caps     uint64
		}
		seen := map[key]int{}
		for i := range res.best {
			m := res.best[i].move()
			k := key{m.From, m.To, m.Caps}
			if j, ok := seen[k]; ok { // same (from, to, captured set): one move
				if res.moves[j].Promote != m.Promote {
					res.conflict = true
				}
				continue
			}
			seen[k] = len(res.moves)
			res.moves = append(res.moves, m)
		}
		vrSort(res.moves)
		return res
	}
	own := int8(1)
	fwd := 1
	if !b.white {
		own, fwd = -1, -1
	}
	far := rl.crownRank(b.white)
	for n := 1; n <= rl.squares(); n++ {
		v := b.at(rl, n)
		if v == vrEmpty || v*own < 0 {
			continue
		}
		king := v == vrWKing || v == vrBKing
		f, r := rl.sq[n][0], rl.sq[n][1]
		for _, d := range vrDirs {
			if !king && d[1] != fwd {
				continue // men step forward only
			}
			for tf, tr := f+d[0], r+d[1]; rl.on(tf, tr) && b.c[tf][tr] == vrEmpty; tf, tr = tf+d[0], tr+d[1] {
				res.moves = append(res.moves, vrMove{From: n, To: rl.num[tf][tr], Promote: !king && tr == far})
				if !king || !rl.flying {
					break
				}
			}
		}
	}
	vrSort(res.moves)
	return res
}

// vrPlay makes move m on b.
func vrPlay(rl *vrRules, b *vrBoard, m vrMove) {
	v := b.at(rl, m.From)
	b.set(rl, m.From, vrEmpty)
	for n := 1; n <= rl.squares(); n++ {
		if m.Caps&(1<<n) != 0 {
			b.set(rl, n, vrEmpty)
		}
	}
	if m.Promote {
		v *= 2
	}
	b.set(rl, m.To, v)
	b.white = !b.white
}

func vrPerft(rl *vrRules, b *vrBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := vrGenerate(rl, b).moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := *b
		vrPlay(rl, &c, m)
		n += vrPerft(rl, &c, depth-1)
	}
	return n
}

// vrRotate turns b by 180° and swaps the colours and the side to move.
func vrRotate(rl *vrRules, b *vrBoard) vrBoard {
	var o vrBoard
	o.white = !b.white
	for f := 0; f < rl.size; f++ {
		for r := 0; r < rl.size; r++ {
			o.c[rl.size-1-f][rl.size-1-r] = -b.c[f][r]
		}
	}
	return o
}

// vrRotateMove is m on the board turned by 180°.
func vrRotateMove(rl *vrRules, m vrMove) vrMove {
	rot := func(n int) int {
		f, r := rl.sq[n][0], rl.sq[n][1]
		return rl.num[rl.size-1-f][rl.size-1-r]
	}
	o := vrMove{From: rot(m.From), To: rot(m.To), Promote: m.Promote}
	for n := 1; n <= rl.squares(); n++ {
		if m.Caps&(1<<n) != 0 {
			o.Caps |= 1 << rot(n)
		}
	}
	return o
}

// ---------------------------------------------------------------------------
// Conversion between the package and the reference, by coordinates only.

func vrFromPosition(rl *vrRules, p *Position) vrBoard {
	var b vrBoard
	b.white = p.Side == White
	for n := 1; n <= rl.squares(); n++ {
		f, r := rl.sq[n][0], rl.sq[n][1]
		bit := uint64(1) << rl.v.BitAt(f, r)
		king := p.Kings&bit != 0
		switch {
		case p.Pieces[White]&bit != 0 && king:
			b.c[f][r] = vrWKing
		case p.Pieces[White]&bit != 0:
			b.c[f][r] = vrWMan
		case p.Pieces[Black]&bit != 0 && king:
			b.c[f][r] = vrBKing
		case p.Pieces[Black]&bit != 0:
			b.c[f][r] = vrBMan
		}
	}
	return b
}

func vrToPosition(rl *vrRules, b *vrBoard) Position {
	var p Position
	if !b.white {
		p.Side = Black
	}
	for n := 1; n <= rl.squares(); n++ {
		f, r := rl.sq[n][0], rl.sq[n][1]
		bit := uint64(1) << rl.v.BitAt(f, r)
		switch b.c[f][r] {
		case vrWMan:
			p.Pieces[White] |= bit
		case vrWKing:
			p.Pieces[White] |= bit
			p.Kings |= bit
		case vrBMan:
			p.Pieces[Black] |= bit
		case vrBKing:
			p.Pieces[Black] |= bit
			p.Kings |= bit
		}
	}
	p.Key = p.ComputeKey()
	return p
}

// vrNumOfBit is the reference's square number of a package bit (0 when the
// bit is not a dark square of the reference board).
func vrNumOfBit(rl *vrRules, bit int) int {
	f, r := rl.v.Coord(bit)
	if !rl.dark(f, r) {
		return 0
	}
	return rl.num[f][r]
}

func vrOfMove(rl *vrRules, m Move) vrMove {
	r := vrMove{From: vrNumOfBit(rl, int(m.From)), To: vrNumOfBit(rl, int(m.To)), Promote: m.Promote}
	for c := m.Captured; c != 0; c &= c - 1 {
		b := 0
		for c&(1<<b) == 0 {
			b++
		}
		r.Caps |= 1 << vrNumOfBit(rl, b)
	}
	return r
}

// ---------------------------------------------------------------------------
// Sanity of the reference itself.

func TestReferenceVariantsGeometry(t *testing.T) {
	names := map[string]map[int]string{
		"english":       {1: "b8", 2: "d8", 4: "h8", 5: "a7", 29: "a1", 32: "g1"},
		"spanish":       {1: "h1", 2: "f1", 3: "d1", 4: "b1", 5: "g2", 32: "a8"},
		"international": {1: "b10", 5: "j10", 6: "a9", 46: "a1", 50: "i1"},
		"russian":       {1: "a1", 2: "c1", 4: "g1", 5: "b2", 32: "h8"},
		"brazilian":     {1: "a1", 2: "c1", 4: "g1", 5: "b2", 32: "h8"},
	}
	for _, rl := range vrAll {
		v := rl.v
		if v.Files() != rl.size || v.Ranks() != rl.size || v.Squares != rl.squares() {
			t.Errorf("%s: package board %dx%d with %d squares, reference %dx%d with %d",
				rl.name, v.Files(), v.Ranks(), v.Squares, rl.size, rl.size, rl.squares())
		}
		for n, want := range names[rl.name] {
			if got := vrAlg(rl.sq[n][0], rl.sq[n][1]); got != want {
				t.Errorf("%s: reference square %d is %s, rules.md says %s", rl.name, n, got, want)
			}
		}
		for f := 0; f < rl.size; f++ {
			for r := 0; r < rl.size; r++ {
				bit := v.BitAt(f, r)
				if !rl.dark(f, r) {
					if bit >= 0 {
						t.Errorf("%s: %s is light but the package has bit %d there", rl.name, vrAlg(f, r), bit)
					}
					continue
				}
				n := rl.num[f][r]
				if bit < 0 {
					t.Errorf("%s: dark square %s (%d) has no package bit", rl.name, vrAlg(f, r), n)
					continue
				}
				if gf, gr := v.Coord(bit); gf != f || gr != r {
					t.Errorf("%s: Coord(BitAt(%s)) = %s", rl.name, vrAlg(f, r), vrAlg(gf, gr))
				}
				if got := v.SquareNumber(bit); got != n {
					t.Errorf("%s: package numbers %s as %d, reference %d", rl.name, vrAlg(f, r), got, n)
				}
				if got := v.Bit(n); got != bit {
					t.Errorf("%s: Bit(%d) = %d, want %d", rl.name, n, got, bit)
				}
			}
		}
		b := vrStart(rl)
		p := v.Start()
		if got := vrFromPosition(rl, &p); got != b {
			t.Errorf("%s: package start %s, rules.md start %s", rl.name, got.fen(rl), b.fen(rl))
		}
		if q, err := v.ParseFEN(b.fen(rl)); err != nil || q != p {
			t.Errorf("%s: ParseFEN(%s) = %s, %v; want the start position", rl.name, b.fen(rl), v.FEN(&q), err)
		}
	}
}

// vrPerftData reads the start perft counts of testdata/perft-start.json.
func vrPerftData(t *testing.T) map[string][]uint64 {
	t.Helper()
	data, err := os.ReadFile("testdata/perft-start.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string][]uint64{}
	for k, v := range raw {
		var counts []uint64
		if json.Unmarshal(v, &counts) == nil {
			out[k] = counts
		}
	}
	return out
}

// TestReferenceVariantsPerft checks the reference against the published
// start perft counts, so that it is not only checked against the package.
func TestReferenceVariantsPerft(t *testing.T) {
	data := vrPerftData(t)
	depth := 6
	if testing.Short() {
		depth = 5
	}
	firsts := map[string]string{
		"english":       "9-13 9-14 10-14 10-15 11-15 11-16 12-16",
		"spanish":       "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
		"russian":       "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
		"brazilian":     "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
		"international": "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30",
	}
	for _, rl := range vrAll {
		want := data[rl.name]
		if len(want) < depth {
			t.Errorf("%s: no perft counts in testdata/perft-start.json", rl.name)
			continue
		}
		b := vrStart(rl)
		var got []string
		for _, m := range vrGenerate(rl, &b).moves {
			got = append(got, m.String())
		}
		if g := strings.Join(got, " "); g != firsts[rl.name] {
			t.Errorf("%s: reference first moves %s, want %s", rl.name, g, firsts[rl.name])
		}
		for d := 1; d <= depth; d++ {
			if n := vrPerft(rl, &b, d); n != want[d-1] {
				t.Errorf("%s: reference perft(%d) = %d, published %d", rl.name, d, n, want[d-1])
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The differential test.

// vrStats counts what the checked positions exercised.
type vrStats struct {
	positions, captures, multi, longest int
	long5                               int // a legal capture of 5 or more pieces
	crownCapture                        int // a man crowned by a capture
	crownContinue                       int // Russian: a man crowned mid-capture goes on capturing as a king
	passThrough                         int // a man passes its far rank mid-capture and ends elsewhere, uncrowned
	goOn                                int // must-go-on excluded a landing square
	goOnFree                            int // ... under free choice, where it is a rule of its own
	maxRule                             int // the maximum rule removed shorter complete captures
	kingsRule                           int // Spanish: equal counts decided by kings captured
	landingChoice                       int // a legal flying-king capture chose among 2+ landing squares
	manBack                             int // a legal capture by a man going backward
	kingByMan                           int // a man captures a king in a legal move
	merged                              int // paths merged into one move
	cycle                               int // a king's capture ends where it began
	conflicts                           int // paths of one move disagree on crowning
}

func (st *vrStats) note(rl *vrRules, res *vrGenResult) {
	st.positions++
	if res.conflict {
		st.conflicts++
	}
	if len(res.all) == 0 {
		return
	}
	st.captures++
	if res.pruned > 0 {
		st.goOn++
		if rl.prio == vrFree {
			st.goOnFree++
		}
	}
	if len(res.best) < len(res.all) {
		bestN := len(res.best[0].caps)
		shorter, fewerKings := false, false
		for i := range res.all {
			switch p := &res.all[i]; {
			case len(p.caps) < bestN:
				shorter = true
			case p.kings < res.best[0].kings:
				fewerKings = true
			}
		}
		if shorter {
			st.maxRule++
		}
		if fewerKings {
			st.kingsRule++
		}
	}
	var f struct{ multi, long5, crowned, crown, pass, choice, back, kingByMan, cycle bool }
	for i := range res.best {
		p := &res.best[i]
		n := len(p.caps)
		st.longest = max(st.longest, n)
		f.multi = f.multi || n > 1
		f.long5 = f.long5 || n >= 5
		f.crowned = f.crowned || (!p.byKing && p.promote)
		f.crown = f.crown || (p.crownedAt >= 0 && p.crownedAt < n)
		f.pass = f.pass || (p.passedFar && !p.promote)
		f.choice = f.choice || p.maxLanding >= 2
		f.back = f.back || p.manBack
		f.kingByMan = f.kingByMan || (!p.byKing && p.kings > 0)
		f.cycle = f.cycle || p.from == p.to
	}
	count := func(b bool, c *int) {
		if b {
			*c++
		}
	}
	count(f.multi, &st.multi)
	count(f.long5, &st.long5)
	count(f.crowned, &st.crownCapture)
	count(f.crown, &st.crownContinue)
	count(f.pass, &st.passThrough)
	count(f.choice, &st.landingChoice)
	count(f.back, &st.manBack)
	count(f.kingByMan, &st.kingByMan)
	count(f.cycle, &st.cycle)
	if len(res.moves) < len(res.best) {
		st.merged++
	}
}

func (st *vrStats) add(o vrStats) {
	st.positions += o.positions
	st.captures += o.captures
	st.multi += o.multi
	st.longest = max(st.longest, o.longest)
	st.long5 += o.long5
	st.crownCapture += o.crownCapture
	st.crownContinue += o.crownContinue
	st.passThrough += o.passThrough
	st.goOn += o.goOn
	st.goOnFree += o.goOnFree
	st.maxRule += o.maxRule
	st.kingsRule += o.kingsRule
	st.landingChoice += o.landingChoice
	st.manBack += o.manBack
	st.kingByMan += o.kingByMan
	st.merged += o.merged
	st.cycle += o.cycle
	st.conflicts += o.conflicts
}

func (st vrStats) String() string {
	return fmt.Sprintf("%d positions, %d with captures, %d multi (longest %d, %d of 5+); "+
		"crowned by a capture: %d; crowned mid-capture and went on: %d; passed the far rank as a man: %d; "+
		"must-go-on excluded landings: %d (under free choice: %d); maximum rule decided: %d; kings rule decided: %d; "+
		"landing choices: %d; men capturing backward: %d; men taking kings: %d; merged paths: %d; "+
		"king back on its origin: %d; crowning conflicts: %d",
		st.positions, st.captures, st.multi, st.longest, st.long5, st.crownCapture, st.crownContinue, st.passThrough,
		st.goOn, st.goOnFree, st.maxRule, st.kingsRule, st.landingChoice, st.manBack, st.kingByMan,
		st.merged, st.cycle, st.conflicts)
}

// vrDiff compares the package's moves of p with the reference's and
// returns a description of every difference, or "".
func vrDiff(rl *vrRules, p *Position, res *vrGenResult) string {
	v := rl.v
	b := vrFromPosition(rl, p)
	want := res.moves
	var ml MoveList
	v.Generate(p, &ml)
	var problems []string
	got := map[vrMove]int{}
	var gotList []vrMove
	for _, m := range ml.Slice() {
		r := vrOfMove(rl, m)
		if got[r] == 0 {
			gotList = append(gotList, r)
		}
		got[r]++
	}
	vrSort(gotList)
	wantSet := map[vrMove]bool{}
	for _, m := range want {
		wantSet[m] = true
	}
	var missing, extra, dup []string
	for _, m := range want {
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
	if n := v.Count(p, &scratch); n != len(want) {
		problems = append(problems, fmt.Sprintf("Count = %d, reference has %d moves", n, len(want)))
	}
	if hc := v.HasCapture(p); hc != (len(res.all) > 0) {
		problems = append(problems, fmt.Sprintf("HasCapture = %v, reference captures: %d paths", hc, len(res.all)))
	}
	// Every move played: the incremental key, and the board the reference
	// reaches with the same move.
	for _, m := range ml.Slice() {
		q := *p
		q.Play(m)
		if q.Key != q.ComputeKey() {
			problems = append(problems, fmt.Sprintf("after %s the incremental key differs from ComputeKey", vrOfMove(rl, m)))
		}
		rb := b
		vrPlay(rl, &rb, vrOfMove(rl, m))
		if got := vrFromPosition(rl, &q); got != rb {
			problems = append(problems, fmt.Sprintf("after %s the package has %s, the reference %s", vrOfMove(rl, m), got.fen(rl), rb.fen(rl)))
		}
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s\n\treference: %v\n\tpackage:   %v\n\t%s",
		rl.name, v.FEN(p), want, gotList, strings.Join(problems, "\n\t"))
}

// ---------------------------------------------------------------------------
// Random positions.

// vrPlace puts a piece of the given colour on a random empty dark square
// (men never on their own crowning rank), within the squares allowed by
// ok (nil: any). It returns false when there is no room.
func vrPlace(rl *vrRules, rng *rand.Rand, b *vrBoard, white, king bool, ok func(f, r int) bool) bool {
	sign := int8(1)
	if !white {
		sign = -1
	}
	if b.count(rl, sign) >= rl.maxPieces {
		return false
	}
	n0 := rng.IntN(rl.squares())
	for i := 0; i < rl.squares(); i++ {
		n := (n0+i)%rl.squares() + 1
		f, r := rl.sq[n][0], rl.sq[n][1]
		if b.c[f][r] != vrEmpty || (!king && r == rl.crownRank(white)) || (ok != nil && !ok(f, r)) {
			continue
		}
		v := vrWMan
		if king {
			v = vrWKing
		}
		b.c[f][r] = v * sign
		return true
	}
	return false
}

// vrRandomBoard places nMover pieces of the side to move and nOther of the
// other side; kingP is the chance that a piece is a king.
func vrRandomBoard(rl *vrRules, rng *rand.Rand, moverWhite bool, nMover, nOther int, kingP float64) vrBoard {
	var b vrBoard
	b.white = moverWhite
	for i := 0; i < nMover; i++ {
		vrPlace(rl, rng, &b, moverWhite, rng.Float64() < kingP, nil)
	}
	for i := 0; i < nOther; i++ {
		vrPlace(rl, rng, &b, !moverWhite, rng.Float64() < kingP, nil)
	}
	return b
}

// vrLatticeBoard favours long chains: White (the mover, before a possible
// rotation) stands on dark squares of one file parity, Black on the other
// parity away from the edges, so that most jumps land on empty squares.
func vrLatticeBoard(rl *vrRules, rng *rand.Rand) vrBoard {
	var b vrBoard
	b.white = true
	par := rng.IntN(2)
	interior := func(f, r int) bool {
		return f%2 != par && f > 0 && f < rl.size-1 && r > 0 && r < rl.size-1
	}
	nOpp := rl.size - 2 + rng.IntN(rl.size)
	for i := 0; i < nOpp; i++ {
		vrPlace(rl, rng, &b, false, rng.IntN(3) == 0, interior)
	}
	nOwn := 1 + rng.IntN(3)
	for i := 0; i < nOwn; i++ {
		vrPlace(rl, rng, &b, true, rng.IntN(2) == 0, func(f, r int) bool { return f%2 == par })
	}
	if rng.IntN(2) == 0 {
		b = vrRotate(rl, &b)
	}
	return b
}

// vrCrownBoard puts a White man one jump from its far rank, with an enemy
// piece in the way and more enemy pieces near the far rank, so the man
// reaches the far rank mid-capture with further captures available.
func vrCrownBoard(rl *vrRules, rng *rand.Rand) vrBoard {
	var b vrBoard
	b.white = true
	top := rl.size - 1
	for {
		f := rng.IntN(rl.size)
		r := top - 2
		d := 1 - 2*rng.IntN(2)
		if !rl.dark(f, r) || !rl.on(f+2*d, top) {
			continue
		}
		b.c[f][r] = vrWMan
		v := vrBMan
		if rng.IntN(4) == 0 {
			v = vrBKing
		}
		b.c[f+d][r+1] = v
		break
	}
	// Enemies on the rank below the far rank and near it.
	near := func(f, r int) bool { return r >= top-4 && r < top }
	for i := 2 + rng.IntN(4); i > 0; i-- {
		vrPlace(rl, rng, &b, false, rng.IntN(4) == 0, func(f, r int) bool { return r == top-1 })
	}
	for i := rng.IntN(4); i > 0; i-- {
		vrPlace(rl, rng, &b, false, rng.IntN(3) == 0, near)
	}
	for i := rng.IntN(5); i > 0; i-- {
		vrPlace(rl, rng, &b, false, rng.IntN(3) == 0, nil)
	}
	for i := rng.IntN(4); i > 0; i-- {
		vrPlace(rl, rng, &b, true, rng.IntN(3) == 0, nil)
	}
	if rng.IntN(2) == 0 {
		b = vrRotate(rl, &b)
	}
	return b
}

// vrKingsBoard is a board rich in kings of both colours: flying-king
// chains, kings capturing kings, landing choices.
func vrKingsBoard(rl *vrRules, rng *rand.Rand) vrBoard {
	b := vrRandomBoard(rl, rng, rng.IntN(2) == 0, 1+rng.IntN(4), 3+rng.IntN(rl.maxPieces-2), 0.6)
	return b
}

// vrRandomGame plays a random game from the start (moves of the package
// generator) and calls visit on every position; it stops when visit
// returns true.
func vrRandomGame(rl *vrRules, rng *rand.Rand, plies int, visit func(p *Position) bool) {
	p := rl.v.Start()
	for ply := 0; ply < plies; ply++ {
		if visit(&p) {
			return
		}
		var ml MoveList
		rl.v.Generate(&p, &ml)
		if ml.N == 0 {
			return
		}
		p.Play(ml.Moves[rng.IntN(ml.N)])
	}
}

func TestReferenceVariants(t *testing.T) {
	start := time.Now()
	games, plies, placements := 100, 160, 30000
	if testing.Short() {
		games, plies, placements = 10, 160, 2000
	}
	var total vrStats
	for vi, rl := range vrAll {
		t.Run(rl.name, func(t *testing.T) {
			vstart := time.Now()
			rng := rand.New(rand.NewPCG(20250101, uint64(vi)+1))
			failures := 0
			fail := func(format string, args ...any) bool {
				failures++
				t.Errorf(format, args...)
				if failures >= 10 {
					t.Errorf("%s: stopping after %d failures", rl.name, failures)
					return true
				}
				return false
			}
			var gameStats, placeStats vrStats
			check := func(p *Position, st *vrStats) bool {
				b := vrFromPosition(rl, p)
				res := vrGenerate(rl, &b)
				st.note(rl, &res)
				if d := vrDiff(rl, p, &res); d != "" {
					return fail("%s", d)
				}
				return false
			}
			// (a) random games from the start
			stop := false
			for g := 0; g < games && !stop; g++ {
				vrRandomGame(rl, rng, plies, func(p *Position) bool {
					stop = check(p, &gameStats)
					return stop
				})
			}
			if stop {
				return
			}
			// (b) random placements, both sides to move
			for i := 0; i < placements; i++ {
				moverWhite := rng.IntN(2) == 0
				var b vrBoard
				switch i % 8 {
				case 0: // anything, few kings
					b = vrRandomBoard(rl, rng, moverWhite, 1+rng.IntN(rl.maxPieces), 1+rng.IntN(rl.maxPieces), 0.15)
				case 1: // anything, half kings
					b = vrRandomBoard(rl, rng, moverWhite, 1+rng.IntN(rl.maxPieces), 1+rng.IntN(rl.maxPieces), 0.5)
				case 2, 3: // many kings of both colours
					b = vrKingsBoard(rl, rng)
				case 4: // only kings
					b = vrRandomBoard(rl, rng, moverWhite, 1+rng.IntN(4), 1+rng.IntN(rl.maxPieces), 1)
				case 5: // lattices: long chains by men and kings
					b = vrLatticeBoard(rl, rng)
				case 6, 7: // men crowning mid-capture
					b = vrCrownBoard(rl, rng)
				}
				p := vrToPosition(rl, &b)
				fen := rl.v.FEN(&p)
				if q, err := rl.v.ParseFEN(fen); err != nil || q != p {
					if fail("%s: FEN round trip of %s: %s, %v", rl.name, b.fen(rl), rl.v.FEN(&q), err) {
						return
					}
					continue
				}
				if check(&p, &placeStats) {
					return
				}
				// The reference must be colour-symmetric: the rotated board
				// has the rotated moves.
				rb := vrRotate(rl, &b)
				w := vrGenerate(rl, &b).moves
				for j := range w {
					w[j] = vrRotateMove(rl, w[j])
				}
				vrSort(w)
				if o := vrGenerate(rl, &rb).moves; !slices.Equal(w, o) {
					if fail("%s: reference not colour-symmetric: %s rotated gives %v, %s gives %v",
						rl.name, b.fen(rl), w, rb.fen(rl), o) {
						return
					}
				}
			}
			t.Logf("random games: %v", gameStats)
			t.Logf("random placements: %v", placeStats)
			var all vrStats
			all.add(gameStats)
			all.add(placeStats)
			total.add(all)
			t.Logf("%s: %d positions in %v", rl.name, all.positions, time.Since(vstart).Round(time.Millisecond))
			if all.conflicts > 0 {
				t.Errorf("%s: %d positions where paths of one move disagree on crowning", rl.name, all.conflicts)
			}
			if testing.Short() {
				return
			}
			if all.positions < 5000 {
				t.Errorf("%s: only %d positions checked", rl.name, all.positions)
			}
			// The random positions must keep exercising each rule.
			need := func(what string, n int) {
				if n == 0 {
					t.Errorf("%s: the random positions never exercised %s: %v", rl.name, what, all)
				}
			}
			need("multi-captures", all.multi)
			need("captures in random games", gameStats.captures)
			switch rl.name {
			case "english":
				need("a man crowned by a capture", all.crownCapture)
			case "russian":
				need("a man crowned mid-capture that goes on as a king", all.crownContinue)
				need("the must-go-on landing rule under free choice", all.goOnFree)
				need("flying-king landing choices", all.landingChoice)
				need("men capturing backward", all.manBack)
			case "brazilian":
				need("a man passing the far rank mid-capture", all.passThrough)
				need("the maximum rule", all.maxRule)
				need("men capturing backward", all.manBack)
			case "spanish":
				need("the most-kings rule", all.kingsRule)
				need("the maximum rule", all.maxRule)
				need("flying-king landing choices", all.landingChoice)
			case "international":
				need("captures of 5 or more pieces", all.long5)
				need("a man passing the far rank mid-capture", all.passThrough)
				need("the maximum rule", all.maxRule)
				need("men capturing backward", all.manBack)
				need("flying-king landing choices", all.landingChoice)
			}
		})
	}
	t.Logf("all variants: %v", total)
	t.Logf("total time %v", time.Since(start).Round(time.Millisecond))
}
