package egdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// Progress reports one slice built (or found already built) by Build.
type Progress struct {
	Slice     Slice
	Positions int // index values of the slice
	Done      int // index values of the slices finished so far
	Total     int // index values of every slice of the build
	Elapsed   time.Duration
	Skipped   bool // the slice was already on disk
	// Step, when not empty, says how far the solve of Slice (and its
	// mirror) is: a report from within it, Done not counting it yet.
	Step string
}

// Rate returns the positions per second of the build so far.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Done) / p.Elapsed.Seconds()
}

// ETA estimates the time left at the rate so far.
func (p Progress) ETA() time.Duration {
	r := p.Rate()
	if r == 0 {
		return 0
	}
	return time.Duration(float64(p.Total-p.Done) / r * float64(time.Second))
}

// Build makes v's tables of up to pieces pieces. With a directory, each
// slice is written there as soon as it is solved (to a temporary name,
// then renamed) and a slice already there is loaded instead of solved
// again, so an interrupted build resumes where it stopped; with dir "" the
// tables stay in memory only. progress, if not nil, is called after each
// slice.
func (db *DB) Build(v *movegen.Variant, pieces int, dir string, progress func(Progress)) error {
	vt, err := db.varOf(v)
	if err != nil {
		return err
	}
	if pieces < 2 {
		return fmt.Errorf("egdb: at least 2 pieces, not %d", pieces)
	}
	all := SlicesOf(v, pieces)
	total := 0
	for _, s := range all {
		total += vt.ix.size(s)
	}
	start := time.Now()
	done := 0
	report := func(s Slice, skipped bool) {
		done += vt.ix.size(s)
		if progress != nil {
			progress(Progress{Slice: s, Positions: vt.ix.size(s), Done: done, Total: total, Elapsed: time.Since(start), Skipped: skipped})
		}
	}
	var sc scratch
	for _, s := range all {
		if vt.tabs[s] != nil {
			continue // solved with its mirror, or loaded before
		}
		vt.pieces = max(vt.pieces, s.Pieces()) // a missing slice is reported by probe
		if dir != "" {
			// Resumed only with the distances (tables from before them
			// are solved again). The values are unpacked whole: the
			// solver probes them at random.
			if t, err := db.loadResumed(vt, dir, s); err == nil {
				vt.tabs[s] = t
				if m := s.Mirror(); m != s {
					if t, err := db.loadResumed(vt, dir, m); err == nil {
						vt.tabs[m] = t
						report(s, true)
						report(m, true)
						continue
					}
				} else {
					report(s, true)
					continue
				}
				delete(vt.tabs, s)
			}
		}
		group := []Slice{s}
		if m := s.Mirror(); m != s {
			group = append(group, m)
		}
		var step func(string)
		if progress != nil {
			step = func(line string) {
				progress(Progress{Slice: s, Positions: vt.ix.size(s), Done: done, Total: total, Elapsed: time.Since(start), Step: line})
			}
		}
		codes, dists, err := vt.solve(db, group, &sc, step)
		if err != nil {
			return err
		}
		for i, g := range group {
			t := &table{s: g, n: len(codes[i]), mem: pack(codes[i])}
			if dir == "" {
				t.dist = &table{s: g, n: len(dists[i]), wide: true, mem: slices.Clone(dists[i])}
			} else {
				// The distances first: a values file on disk always has
				// its distances next to it. They stay in memory as the
				// file's blocks, unpacked when probed.
				raw, err := write(dir, v, g, dists[i], true)
				if err != nil {
					return err
				}
				if t.dist, err = db.decodeNew(vt, path(dir, v, g, true), raw, g, true); err != nil {
					return err
				}
				if _, err := write(dir, v, g, codes[i], false); err != nil {
					return err
				}
			}
			vt.tabs[g] = t
		}
		for _, g := range group {
			report(g, false)
		}
	}
	vt.pieces = max(vt.pieces, pieces)
	return nil
}

// write writes the values (or with wide the distances) of slice s as its
// file in dir and returns the file's bytes.
func write(dir string, v *movegen.Variant, s Slice, codes []uint8, wide bool) ([]byte, error) {
	raw, err := encode(v, s, codes, wide)
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	f := path(dir, v, s, wide)
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	// A temporary file of its own, renamed over the final name: a reader
	// sees the whole file or none, and two processes building the same
	// slice at once (a match runs two engines) each rename a whole file.
	tmp, err := os.CreateTemp(filepath.Dir(f), filepath.Base(f)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	_, err = tmp.Write(raw)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("egdb: %w", err)
	}
	return raw, nil
}

// Solver states, a byte per index value: the low two bits are the value's
// code once decided (0 while undecided), the others flags.
const (
	stCode    = 3  // codeDraw, codeWin, codeLoss; 0: undecided
	stDrawOut = 4  // a capture or promotion reaches a draw
	stCapture = 8  // a capture is pending (decided from the smaller slices)
	stEmpty   = 16 // no position (pieces overlap)
)

// scratch is the solver's memory, kept from one slice group to the next:
// three bytes an index value of the group (state, moves left undecided,
// distance) and the lists of the positions decided at the current and the
// next distance.
type scratch struct {
	st, left, dist []uint8
	cur, next      []int32
}

func grow(b []uint8, n int) []uint8 {
	if cap(b) < n {
		return make([]uint8, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// solve computes the codes of a slice and its mirror (one slice when it is
// its own mirror), and their distances to conversion, a byte per index
// value each (slices of sc, valid until its next use). Moves out of the
// group (captures, promotions) are probed in the smaller slices, already
// solved; the moves inside it form a graph solved by propagation from the
// decided positions: a position with a successor lost for the opponent is
// won, one whose successors are all won for the opponent is lost, and what
// is never decided is a draw. The propagation runs breadth first from the
// positions decided at distance 0 (no move) and 1 (by a capture or a
// promotion), so a win is decided through its nearest lost successor and
// a loss through its farthest won one: the distance of a win is one more
// than the least distance of its lost successors, that of a loss one more
// than the greatest of its successors' (a move leaving the group counts
// as distance 0 after it).
//
// The graph is not stored: a first pass counts each position's moves
// inside the group, and the propagation finds the predecessors of a
// decided position by un-moving the side that has just moved (unmoves),
// so the memory is three bytes an index value of the group. step, if not
// nil, is told how far the solve is from time to time.
func (vt *varTables) solve(db *DB, group []Slice, sc *scratch, step func(string)) ([][]uint8, [][]uint8, error) {
	ix := vt.ix
	base := make([]int, len(group)+1)
	for i, s := range group {
		base[i+1] = base[i] + ix.size(s)
	}
	n := base[len(group)]
	sc.st, sc.left, sc.dist = grow(sc.st, n), grow(sc.left, n), grow(sc.dist, n)
	st, left, dist := sc.st, sc.left, sc.dist
	cur, next := sc.cur[:0], sc.next[:0] // decided at distance 0, at 1
	tick := newTicker(step)
	// The positions and move lists the move generator sees escape (it is
	// called through a function value): allocated once, not per position.
	buf := new(struct {
		p, c, b movegen.Position
		ml, un  movegen.MoveList
	})
	p, c, ml := &buf.p, &buf.c, &buf.ml
	for gi, s := range group {
		for idx := 0; idx < ix.size(s); idx++ {
			id := base[gi] + idx
			if id&0xffff == 0 {
				tick(func() string { return fmt.Sprintf("moves %.0f%%", 100*float64(id)/float64(n)) })
			}
			var ok bool
			if *p, ok = ix.position(s, idx); !ok {
				st[id] = stEmpty
				continue
			}
			vt.v.Generate(p, ml)
			if ml.N == 0 {
				st[id] = codeLoss
				cur = append(cur, int32(id)) // distance 0
				continue
			}
			var flags uint8
			isCap := ml.Moves[0].Captured != 0
			if isCap {
				flags = stCapture
			}
			best := Loss
			cnt := 0
			for _, m := range ml.Slice() {
				if !isCap && !m.Promote {
					cnt++
					continue
				}
				*c = *p
				c.Play(m)
				w, ok := vt.probe(db, c)
				if !ok {
					return nil, nil, fmt.Errorf("egdb: %s: %s leads outside the solved slices", vt.v.Name, s)
				}
				if best = max(best, -w); best == Win {
					break // decided: the moves left need no count
				}
			}
			switch {
			case best == Win:
				st[id], dist[id] = codeWin|flags, 1
				next = append(next, int32(id))
			case cnt == 0 && best == Draw:
				st[id] = codeDraw | flags
			case cnt == 0:
				st[id], dist[id] = codeLoss|flags, 1
				next = append(next, int32(id))
			case cnt > 255:
				return nil, nil, fmt.Errorf("egdb: %s %s: %d moves, over the 255 the solver counts", vt.v.Name, s, cnt)
			default:
				if best == Draw {
					flags |= stDrawOut
				}
				st[id], left[id] = flags, uint8(cnt)
			}
		}
	}
	// Breadth first, a distance at a time: cur holds the positions decided
	// at distance d, next those found at d+1.
	var ys []movegen.Position
	for d := 0; len(cur) > 0 || len(next) > 0; d++ {
		tick(func() string { return fmt.Sprintf("distance %d: %d positions", d, len(cur)) })
		for _, x := range cur {
			gx := 0
			if len(group) == 2 && int(x) >= base[1] {
				gx = 1
			}
			gy := gx
			if len(group) == 2 {
				gy = 1 - gx
			}
			px, _ := ix.position(group[gx], int(x)-base[gx])
			lost := st[x]&stCode == codeLoss
			cx := ix.flip(&px)
			ys = vt.unmoves(&cx, &buf.b, &buf.un, ys[:0])
			for _, y := range ys {
				yid := base[gy] + ix.index(group[gy], &y)
				if st[yid]&stCode != 0 {
					continue // decided, a capture pending among them
				}
				if lost {
					st[yid] |= codeWin
				} else if left[yid]--; left[yid] == 0 {
					if st[yid]&stDrawOut != 0 {
						st[yid] |= codeDraw
						continue
					}
					st[yid] |= codeLoss
				} else {
					continue
				}
				if d+1 > MaxDistance {
					return nil, nil, fmt.Errorf("egdb: %s %s: a distance to conversion of %d plies, over the %d a distance file holds", vt.v.Name, group[0], d+1, MaxDistance)
				}
				dist[yid] = uint8(d + 1)
				next = append(next, int32(yid))
			}
		}
		cur, next = next, cur[:0]
	}
	sc.cur, sc.next = cur, next
	// The codes and distances as stored, in place.
	out := make([][]uint8, len(group))
	dists := make([][]uint8, len(group))
	for gi := range group {
		for id := base[gi]; id < base[gi+1]; id++ {
			f := st[id]
			code := f & stCode
			switch {
			case f&(stCapture|stEmpty) != 0:
				st[id], dist[id] = codeNone, 0
			case code == 0 || code == codeDraw:
				st[id], dist[id] = codeDraw, 0 // undecided: a draw
			default:
				st[id], dist[id] = code, dist[id]+1
			}
		}
		out[gi], dists[gi] = st[base[gi]:base[gi+1]], dist[base[gi]:base[gi+1]]
	}
	return out, dists, nil
}

// unmoves appends to out the positions (White to move) from which a move of
// White that neither captures nor promotes leads to c (Black to move): a
// White man stepped back, a White king moved back along its path. They
// are found with the move generator, on a board where every piece is
// Black's (so nothing can be captured and every piece blocks as it
// does): a Black man moves the way a White man comes from, and kings move
// alike both ways. In Italian Damone this holds for every rank: a
// Pedina's three directions (forward along the long diagonal, the two
// sideways ones) turned round are the three of the other colour's Pedina,
// and Dame and Damoni step in all four; the rank rule only says which
// positions have a capture pending. An un-move that would put a piece where
// it cannot stand (indexer.valid) is dropped. b and ml are the generator's scratch. A position found may have a capture pending, and then
// it has no such move; the caller skips those (they are decided).
func (vt *varTables) unmoves(c, b *movegen.Position, ml *movegen.MoveList, out []movegen.Position) []movegen.Position {
	white := c.Pieces[movegen.White]
	*b = movegen.Position{Pieces: [2]uint64{0, white | c.Pieces[movegen.Black]}, Kings: c.Kings, Side: movegen.Black}
	vt.v.Generate(b, ml)
	for _, m := range ml.Slice() {
		from, to := uint64(1)<<m.From, uint64(1)<<m.To
		if white&from == 0 {
			continue
		}
		y := *c
		y.Pieces[movegen.White] ^= from | to
		if y.Kings&from != 0 {
			y.Kings ^= from | to
		}
		if y.Super&from != 0 {
			y.Super ^= from | to
		}
		y.Side = movegen.White
		if !vt.ix.valid(&y) {
			// In Damone a Pedina stepped back onto a square where it
			// would have promoted, or a Dama onto the Damone square: it
			// never stood there, so it did not come from there.
			continue
		}
		out = append(out, y)
	}
	return out
}

// newTicker returns a function that passes step the line made by its
// argument at most every ten seconds (nothing when step is nil).
func newTicker(step func(string)) func(func() string) {
	if step == nil {
		return func(func() string) {}
	}
	last := time.Now()
	return func(line func() string) {
		if time.Since(last) >= 10*time.Second {
			last = time.Now()
			step(line())
		}
	}
}
