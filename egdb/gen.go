package egdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
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
// slice. It solves on one thread: BuildThreads uses more.
func (db *DB) Build(v *movegen.Variant, pieces int, dir string, progress func(Progress)) error {
	return db.BuildThreads(v, pieces, dir, 1, progress)
}

// BuildThreads is Build on threads goroutines (at least 1): the files and
// tables are the same for any number.
func (db *DB) BuildThreads(v *movegen.Variant, pieces int, dir string, threads int, progress func(Progress)) error {
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
		codes, dists, err := vt.solve(db, group, &sc, threads, step)
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
				raw, err := write(dir, v, g, dists[i], true, threads)
				if err != nil {
					return err
				}
				if t.dist, err = db.decodeNew(vt, path(dir, v, g, true), raw, g, true); err != nil {
					return err
				}
				if _, err := write(dir, v, g, codes[i], false, threads); err != nil {
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
// file in dir and returns the file's bytes, compressed on threads
// goroutines.
func write(dir string, v *movegen.Variant, s Slice, codes []uint8, wide bool, threads int) ([]byte, error) {
	raw, err := encode(v, s, codes, wide, threads)
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
// distance), the lists of the positions decided at the current and the
// next distance (a list per thread), and each thread's buffers.
type scratch struct {
	st, left, dist []uint8
	cur, next      [][]uint32
	work           []*worker
}

// worker is one thread's buffers: the move generator's positions and
// list (they escape: allocated once, not per position), and the
// predecessors it found in a batch, by the thread that owns them.
type worker struct {
	p, c movegen.Position
	ml   movegen.MoveList
	out  [][]uint32
}

func grow(b []uint8, n int) []uint8 {
	if cap(b) < n {
		return make([]uint8, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// run calls f(0), ..., f(threads-1) each on a goroutine of its own (f(0)
// on the caller's when threads is 1) and waits for them.
func run(threads int, f func(w int)) {
	if threads == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for w := range threads {
		wg.Go(func() { f(w) })
	}
	wg.Wait()
}

// Work sizes: index values per chunk of the counting pass, decided
// positions per thread and batch of the propagation.
const (
	countChunk = 1 << 14
	batchPer   = 1 << 13
)

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
// so the memory is three bytes an index value of the group.
//
// threads goroutines share the work: the first pass by chunks of index
// values, each level of the propagation by batches of the positions
// decided at that distance, whose predecessors are found by all the
// threads and then updated by the thread owning their part of the index
// values. What a level decides, and at which distance, does not depend on
// the order its positions are taken in (a position with a lost successor
// is won, and its count of undecided moves cannot reach zero before), so
// the codes and distances are the same for any number of threads. step,
// if not nil, is told how far the solve is from time to time.
func (vt *varTables) solve(db *DB, group []Slice, sc *scratch, threads int, step func(string)) ([][]uint8, [][]uint8, error) {
	ix := vt.ix
	threads = max(threads, 1)
	base := make([]int, len(group)+1)
	sis := make([]sliceIndex, len(group))
	for i, s := range group {
		base[i+1] = base[i] + ix.size(s)
		sis[i] = ix.sliceIndex(s)
	}
	n := base[len(group)]
	if n > 1<<31-1 {
		return nil, nil, fmt.Errorf("egdb: %s %s: %d index values, over the 2^31-1 the solver numbers", vt.v.Name, group[0], n)
	}
	vt.moves()
	sc.st, sc.left, sc.dist = grow(sc.st, n), grow(sc.left, n), grow(sc.dist, n)
	st, left, dist := sc.st, sc.left, sc.dist
	for len(sc.work) < threads {
		sc.work = append(sc.work, new(worker))
	}
	sc.cur, sc.next = lists(sc.cur, threads), lists(sc.next, threads)
	cur, next := sc.cur, sc.next // decided at distance 0, at 1
	tick := newTicker(step)

	// The first pass, a chunk of index values at a time.
	var (
		chunks = (n + countChunk - 1) / countChunk
		taken  atomic.Int64
		errMu  sync.Mutex
		first  error
		firstC = chunks
	)
	run(threads, func(w int) {
		wk := sc.work[w]
		for {
			c := int(taken.Add(1) - 1)
			if c >= chunks {
				return
			}
			if c&63 == 0 {
				tick(func() string { return fmt.Sprintf("moves %.0f%%", 100*float64(c)/float64(chunks)) })
			}
			var err error
			for gi, s := range group {
				lo, hi := max(c*countChunk, base[gi]), min((c+1)*countChunk, base[gi+1])
				if lo < hi && err == nil {
					cur[w], next[w], err = vt.count(db, s, base[gi], lo, hi, wk, st, left, dist, cur[w], next[w])
				}
			}
			if err != nil {
				errMu.Lock()
				if c < firstC {
					first, firstC = err, c
				}
				errMu.Unlock()
				return
			}
		}
	})
	if first != nil {
		return nil, nil, first
	}

	// Breadth first, a distance at a time: cur holds the positions decided
	// at distance d, next those found at d+1.
	span := (n + threads - 1) / threads // index values a thread owns
	bound := make([]uint32, threads)    // the first of each thread's
	for o := range bound {
		bound[o] = uint32(min(n, o*span))
	}
	for _, wk := range sc.work[:threads] {
		wk.out = lists(wk.out, threads)
	}
	for d := 0; size(cur) > 0 || size(next) > 0; d++ {
		tick(func() string { return fmt.Sprintf("distance %d: %d positions", d, size(cur)) })
		var over atomic.Bool
		for _, seg := range cur {
			for off := 0; off < len(seg); off += threads * batchPer {
				batch := seg[off:min(len(seg), off+threads*batchPer)]
				part := (len(batch) + threads - 1) / threads
				run(threads, func(w int) {
					wk := sc.work[w]
					for o := range wk.out {
						wk.out[o] = wk.out[o][:0]
					}
					lo, hi := min(len(batch), w*part), min(len(batch), (w+1)*part)
					for _, x := range batch[lo:hi] {
						gx := 0
						if int(x) >= base[1] {
							gx = 1
						}
						gy := gx
						if len(group) == 2 {
							gy = 1 - gx
						}
						px, _ := ix.position(group[gx], int(x)-base[gx])
						var tag uint32
						if st[x]&stCode == codeLoss {
							tag = 1 << 31
						}
						cx := ix.flip(&px)
						if threads == 1 {
							wk.out[0] = vt.unmoveIndexes(&cx, &sis[gy], base[gy], tag, wk.out[0])
							continue
						}
						m := len(wk.out[0])
						wk.out[0] = vt.unmoveIndexes(&cx, &sis[gy], base[gy], tag, wk.out[0])
						// Moved to their owner's list.
						keep := wk.out[0][:m]
						for _, e := range wk.out[0][m:] {
							o := 0
							for y := e & (1<<31 - 1); o+1 < threads && y >= bound[o+1]; o++ {
							}
							if o == 0 {
								keep = append(keep, e)
							} else {
								wk.out[o] = append(wk.out[o], e)
							}
						}
						wk.out[0] = keep
					}
				})
				run(threads, func(o int) {
					nx := next[o]
					dd := uint8(d + 1)
					for w := range threads {
						for _, e := range sc.work[w].out[o] {
							y := e & (1<<31 - 1)
							f := st[y]
							if f&stCode != 0 {
								continue // decided, a capture pending among them
							}
							if e>>31 != 0 {
								st[y] = f | codeWin
							} else {
								l := left[y] - 1
								left[y] = l
								if l != 0 {
									continue
								}
								if f&stDrawOut != 0 {
									st[y] = f | codeDraw
									continue
								}
								st[y] = f | codeLoss
							}
							dist[y] = dd
							nx = append(nx, y)
						}
					}
					if d+1 > MaxDistance && len(nx) > len(next[o]) {
						over.Store(true)
					}
					next[o] = nx
				})
				if over.Load() {
					return nil, nil, fmt.Errorf("egdb: %s %s: a distance to conversion of %d plies, over the %d a distance file holds", vt.v.Name, group[0], d+1, MaxDistance)
				}
			}
		}
		for i := range cur {
			cur[i] = cur[i][:0]
		}
		cur, next = next, cur
	}
	sc.cur, sc.next = cur, next
	// The codes and distances as stored, in place.
	out := make([][]uint8, len(group))
	dists := make([][]uint8, len(group))
	run(threads, func(w int) {
		lo, hi := min(n, w*span), min(n, (w+1)*span)
		for id := lo; id < hi; id++ {
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
	})
	for gi := range group {
		out[gi], dists[gi] = st[base[gi]:base[gi+1]], dist[base[gi]:base[gi+1]]
	}
	return out, dists, nil
}

// lists returns l with k empty lists.
func lists(l [][]uint32, k int) [][]uint32 {
	for len(l) < k {
		l = append(l, nil)
	}
	l = l[:k]
	for i := range l {
		l[i] = l[i][:0]
	}
	return l
}

// size returns the number of entries of the lists l.
func size(l [][]uint32) int {
	n := 0
	for _, s := range l {
		n += len(s)
	}
	return n
}

// count is the solver's first pass over the index values lo to hi of its
// group (numbered from 0; those of slice s start at base): it sets each
// position's state and, for a position whose moves stay in the group, the
// number of them, and appends to zero the positions decided at distance 0
// (no move) and to one those decided at distance 1 (by a capture or a
// promotion).
func (vt *varTables) count(db *DB, s Slice, base, lo, hi int, wk *worker, st, left, dist []uint8, zero, one []uint32) ([]uint32, []uint32, error) {
	ix, mt := vt.ix, vt.mt
	p, c, ml := &wk.p, &wk.c, &wk.ml
	cu := ix.cursor(s, lo-base)
	for id := lo; id < hi; id++ {
		var ok bool
		*p, ok = cu.position()
		cu.next()
		if !ok {
			st[id] = stEmpty
			continue
		}
		// A position with no capture and no piece that could promote: its
		// moves all stay in the group, and only their number is needed.
		ks := kindsOf(p, movegen.White)
		if ks[0]&mt.promo[0]|ks[1]&mt.promo[1]|ks[2]&mt.promo[2] == 0 && !vt.v.HasCapture(p) {
			switch cnt := vt.v.Count(p, ml); {
			case cnt == 0:
				st[id] = codeLoss
				zero = append(zero, uint32(id))
			case cnt > 255:
				return zero, one, fmt.Errorf("egdb: %s %s: %d moves, over the 255 the solver counts", vt.v.Name, s, cnt)
			default:
				left[id] = uint8(cnt)
			}
			continue
		}
		vt.v.Generate(p, ml)
		if ml.N == 0 {
			st[id] = codeLoss
			zero = append(zero, uint32(id)) // distance 0
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
				return zero, one, fmt.Errorf("egdb: %s: %s leads outside the solved slices", vt.v.Name, s)
			}
			if best = max(best, -w); best == Win {
				break // decided: the moves left need no count
			}
		}
		switch {
		case best == Win:
			st[id], dist[id] = codeWin|flags, 1
			one = append(one, uint32(id))
		case cnt == 0 && best == Draw:
			st[id] = codeDraw | flags
		case cnt == 0:
			st[id], dist[id] = codeLoss|flags, 1
			one = append(one, uint32(id))
		case cnt > 255:
			return zero, one, fmt.Errorf("egdb: %s %s: %d moves, over the 255 the solver counts", vt.v.Name, s, cnt)
		default:
			if best == Draw {
				flags |= stDrawOut
			}
			st[id], left[id] = flags, uint8(cnt)
		}
	}
	return zero, one, nil
}

// newTicker returns a function that passes step the line made by its
// argument at most every ten seconds (nothing when step is nil); several
// goroutines may call it.
func newTicker(step func(string)) func(func() string) {
	if step == nil {
		return func(func() string) {}
	}
	var mu sync.Mutex
	last := time.Now()
	return func(line func() string) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) >= 10*time.Second {
			last = time.Now()
			step(line())
		}
	}
}
