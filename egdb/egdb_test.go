package egdb

import (
	"bytes"
	"compress/flate"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// The 8x8 diagonal variants the tables are tested on.
var testVariants = []*movegen.Variant{movegen.Italian, movegen.English, movegen.Russian, movegen.Brazilian, movegen.Spanish}

var (
	builtMu sync.Mutex
	built   = map[string]*DB{}
)

// build returns v's in-memory tables of up to 3 pieces, built once per
// test binary.
func build(t *testing.T, v *movegen.Variant) *DB {
	t.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if db := built[v.Name]; db != nil {
		return db
	}
	db, err := New(8)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Build(v, 3, "", nil); err != nil {
		t.Fatal(err)
	}
	built[v.Name] = db
	return db
}

func probeFEN(t *testing.T, db *DB, v *movegen.Variant, fen string) WDL {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	w, ok := db.Probe(v, &p)
	if !ok {
		t.Fatalf("%s %s: not covered", v.Name, fen)
	}
	return w
}

// census counts the values of the quiet positions of slice s.
func census(db *DB, v *movegen.Variant, s Slice) (win, draw, loss int) {
	vt := db.vars[v.ID()]
	for i := 0; i < vt.ix.size(s); i++ {
		switch db.code(vt.tabs[s], i) {
		case codeWin:
			win++
		case codeDraw:
			draw++
		case codeLoss:
			loss++
		}
	}
	return
}

func TestKnownResults(t *testing.T) {
	cases := []struct {
		v    *movegen.Variant
		fen  string
		want WDL
	}{
		// Short kings: two kings beat one, one against one is a draw.
		{movegen.English, "W:WK1,K2:BK32", Win},
		{movegen.English, "B:WK1,K2:BK32", Loss},
		{movegen.English, "W:WK14:BK19", Draw},
		{movegen.Italian, "W:WK1,K2:BK32", Win},
		{movegen.Italian, "W:WK15:BK22", Draw},
		// A single corner traps a short king: zugzwang.
		{movegen.English, "W:WK4:BK3", Loss},
		{movegen.English, "W:WK4:BK12", Loss},
		// Flying kings: a lone king on the long diagonal holds two kings.
		{movegen.Russian, "W:WKa3,Kc1:BKh8", Draw},
		{movegen.Brazilian, "W:WKa3,Kc1:BKh8", Draw},
		{movegen.Spanish, "B:WK5,K10:BK30", Draw},
		// A side with a capture that wins all: resolved at probe time.
		{movegen.Russian, "W:WKa1:BKd4", Win},
	}
	for _, c := range cases {
		if got := probeFEN(t, build(t, c.v), c.v, c.fen); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.v.Name, c.fen, got, c.want)
		}
	}
}

func TestCensus(t *testing.T) {
	for _, v := range testVariants {
		db := build(t, v)
		// One king against one king is a draw but where a king is caught in
		// a corner (zugzwang).
		w1, d1, l1 := census(db, v, Slice{0, 1, 0, 1, 0, 0})
		t.Logf("%s 1k-1k: %d win, %d draw, %d loss", v.Name, w1, d1, l1)
		if w1+l1 == 0 || w1+l1 > d1 {
			t.Errorf("%s 1k-1k: %d wins and %d losses against %d draws", v.Name, w1, l1, d1)
		}
		w, d, l := census(db, v, Slice{0, 2, 0, 1, 0, 0})
		t.Logf("%s 2k-1k: %d win, %d draw, %d loss", v.Name, w, d, l)
		if l != 0 {
			t.Errorf("%s 2k-1k: %d losses for the side with two kings", v.Name, l)
		}
		short := v == movegen.English || v == movegen.Italian
		// Short kings win but for a few forks; flying kings mostly draw (the
		// long diagonal holds).
		if short && d*100 > w {
			t.Errorf("%s 2k-1k: %d draws against %d wins", v.Name, d, w)
		}
		if !short && d < w {
			t.Errorf("%s 2k-1k: %d draws against %d wins with flying kings", v.Name, d, w)
		}
	}
}

// TestConsistency checks every quiet position of up to 3 pieces against
// its successors: won iff some move reaches a position lost for the
// opponent, lost iff every move reaches one won for the opponent.
func TestConsistency(t *testing.T) {
	vs := append(append([]*movegen.Variant(nil), testVariants...), movegen.Damone)
	if !testing.Short() {
		// The other boards, whose tables the engine does not ship (yet).
		vs = append(vs, movegen.Turkish, movegen.International)
	}
	for _, v := range vs {
		db := build(t, v)
		vt := db.vars[v.ID()]
		var ml movegen.MoveList
		bad := 0
		for _, s := range SlicesOf(v, 3) {
			step := 1
			if testing.Short() {
				step = 7
			}
			for i := 0; i < vt.ix.size(s); i += step {
				p, ok := vt.ix.position(s, i)
				if !ok || v.HasCapture(&p) {
					continue
				}
				got, ok := db.Probe(v, &p)
				if !ok {
					t.Fatalf("%s %s #%d: not covered", v.Name, s, i)
				}
				v.Generate(&p, &ml)
				want := Loss
				for _, m := range ml.Slice() {
					c := p
					c.Play(m)
					w, ok := db.Probe(v, &c)
					if !ok {
						t.Fatalf("%s: successor not covered", v.Name)
					}
					want = max(want, -w)
				}
				if got != want && bad < 5 {
					bad++
					t.Errorf("%s %s: %s is %v, successors say %v", v.Name, s, v.FEN(&p), got, want)
				}
			}
		}
	}
}

// solveTo is a plain alpha-beta over win/loss: Win if the side to move
// wins within depth plies, Loss if it loses within depth, else Draw
// (unknown).
func solveTo(v *movegen.Variant, p *movegen.Position, depth int) WDL {
	var ml movegen.MoveList
	v.Generate(p, &ml)
	if ml.N == 0 {
		return Loss
	}
	if depth == 0 {
		return Draw
	}
	best := Loss
	for _, m := range ml.Slice() {
		c := *p
		c.Play(m)
		best = max(best, -solveTo(v, &c, depth-1))
		if best == Win {
			break
		}
	}
	return best
}

// TestAgreesWithSearch compares the tables with a plain search: a win or
// loss the search proves in a few plies must be in the table.
func TestAgreesWithSearch(t *testing.T) {
	for _, v := range testVariants {
		depth := 5 // flying kings have many moves: fewer plies
		if v == movegen.English || v == movegen.Italian {
			depth = 7
		}
		if testing.Short() {
			depth -= 2
		}
		db := build(t, v)
		w := agreeWithSearch(t, db, v, []Slice{{0, 1, 0, 1, 0, 0}, {1, 0, 0, 1, 0, 0}, {0, 1, 1, 0, 0, 0}, {1, 0, 1, 0, 0, 0}, {0, 1, 0, 2, 0, 0}, {1, 1, 0, 1, 0, 0}}, 211, depth)
		proved := w[Win] + w[Loss]
		if proved == 0 {
			t.Errorf("%s: the search proved nothing", v.Name)
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	v := movegen.English
	db, _ := New(1)
	var seen []Progress
	if err := db.Build(v, 3, dir, func(p Progress) { seen = append(seen, p) }); err != nil {
		t.Fatal(err)
	}
	if n := len(Slices(3, v.MaxPieces)); len(seen) != n || seen[n-1].Done != seen[n-1].Total {
		t.Fatalf("progress: %d reports, want %d, last %+v", len(seen), n, seen[len(seen)-1])
	}
	// Resume: everything is on disk already.
	db2, _ := New(1)
	skipped := 0
	if err := db2.Build(v, 3, dir, func(p Progress) {
		if p.Skipped {
			skipped++
		}
	}); err != nil {
		t.Fatal(err)
	}
	if skipped != len(seen) {
		t.Errorf("resume: %d slices skipped, want %d", skipped, len(seen))
	}
	// Loaded from disk through the cache: same values as in memory.
	fromDisk, _ := New(1)
	if err := fromDisk.Load(v, 3, dir); err != nil {
		t.Fatal(err)
	}
	mem := build(t, v)
	vt := mem.vars[v.ID()]
	for _, s := range Slices(3, v.MaxPieces) {
		for i := 0; i < vt.ix.size(s); i += 3 {
			p, ok := vt.ix.position(s, i)
			if !ok {
				continue
			}
			a, oka := mem.Probe(v, &p)
			b, okb := fromDisk.Probe(v, &p)
			if a != b || oka != okb {
				t.Fatalf("%s: memory %v %v, disk %v %v", v.FEN(&p), a, oka, b, okb)
			}
		}
	}
	// Bad files: missing, corrupt, another variant's.
	f := path(dir, v, Slice{0, 2, 0, 1, 0, 0}, false)
	raw, _ := os.ReadFile(f)
	check := func(what, want string) {
		t.Helper()
		db, _ := New(1)
		err := db.Load(v, 3, dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", what, err, want)
		}
		if db.Pieces(v) != 0 {
			t.Errorf("%s: tables present after a failed load", what)
		}
	}
	os.WriteFile(f, append(raw[:len(raw)-9:len(raw)-9], 1, 2, 3, 4, 5, 6, 7, 8, 9), 0o644)
	check("corrupt", "corrupt")
	os.Remove(f)
	check("missing", "missing")
	os.MkdirAll(filepath.Dir(path(dir, movegen.Italian, Slice{}, false)), 0o755)
	os.Rename(filepath.Join(dir, v.Name), filepath.Join(dir, "x"))
	os.Rename(filepath.Join(dir, "x"), filepath.Join(dir, movegen.Italian.Name, "..", "tmp"))
	db3, _ := New(1)
	os.WriteFile(path(dir, movegen.Italian, Slice{0, 1, 0, 1, 0, 0}, false), raw, 0o644)
	if err := db3.Load(movegen.Italian, 2, dir); err == nil || !strings.Contains(err.Error(), "variant") {
		t.Errorf("wrong variant: error %v", err)
	}
	if _, err := New(1); err != nil {
		t.Fatal(err)
	}
	if err := db3.Build(movegen.DamoneAllDamoni, 3, "", nil); err == nil {
		t.Errorf("Damone with the all-Damoni rule: no error")
	}
}

func BenchmarkProbe(b *testing.B) {
	v := movegen.English
	dir := b.TempDir()
	db, _ := New(8)
	if err := db.Build(v, 3, dir, nil); err != nil {
		b.Fatal(err)
	}
	disk, _ := New(8)
	if err := disk.Load(v, 3, dir); err != nil {
		b.Fatal(err)
	}
	p, _ := v.ParseFEN("W:WK10,K19:BK27")
	b.ReportAllocs()
	for b.Loop() {
		disk.Probe(v, &p)
	}
}

func TestLock(t *testing.T) {
	dir := t.TempDir()
	unlock, ok, err := Lock(dir, movegen.English)
	if !ok || err != nil {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if _, ok, err := Lock(dir, movegen.English); ok || err != nil {
		t.Errorf("second lock taken: %v %v", ok, err)
	}
	unlock()
	u2, ok, err := Lock(dir, movegen.English)
	if !ok || err != nil {
		t.Fatalf("lock after unlock: %v %v", ok, err)
	}
	defer u2()
	old := time.Now().Add(-2 * LockStale)
	os.Chtimes(filepath.Join(dir, "english", "build.lock"), old, old)
	u3, ok, err := Lock(dir, movegen.English)
	if !ok || err != nil {
		t.Fatalf("stale lock not taken over: %v %v", ok, err)
	}
	u3()
}

// TestVerify: Verify passes sound tables (and counts what it saw) and
// finds a stored value changed by hand.
func TestVerify(t *testing.T) {
	v := movegen.English
	db, err := New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Build(v, 3, "", nil); err != nil {
		t.Fatal(err)
	}
	s := Slice{0, 2, 0, 1, 0, 0}
	r, err := db.Verify(v, s, 0, 1)
	if err != nil || r.Bad != 0 {
		t.Fatalf("sound 2k-1k: %+v, %v", r, err)
	}
	w, d, l := census(db, v, s)
	if r.Win != w || r.Draw != d || r.Loss != l || r.Checked != db.vars[v.ID()].ix.size(s) || r.Win+r.Draw+r.Loss+r.Capture+r.Empty != r.Checked {
		t.Errorf("counts %+v, census %d/%d/%d", r, w, d, l)
	}
	// A sample counts positions: the 992 index values with none (6 %) are
	// drawn again.
	if r2, err := db.Verify(v, s, 500, 7); err != nil || !r2.Sampled || r2.Checked != 500 || r2.Empty != 0 || r2.Bad != 0 {
		t.Errorf("sample: %+v, %v", r2, err)
	}
	if r.MaxDist < 10 || r.MaxDist > MaxDistance {
		t.Errorf("2k-1k: longest distance %d", r.MaxDist)
	}
	tab := db.vars[v.ID()].tabs[s]
	for i := range tab.n {
		if db.code(tab, i) == codeWin && tab.dist.mem[i] > 2 {
			tab.dist.mem[i]--
			break
		}
	}
	if r, err := db.Verify(v, s, 0, 1); err != nil || r.Bad != 1 || !strings.Contains(r.FirstBad, "the successors say win at distance") {
		t.Errorf("a win's distance one short: %+v, %v", r, err)
	}
	for i := range tab.n {
		if db.code(tab, i) == codeWin {
			tab.mem[i>>2] ^= (codeWin ^ codeDraw) << (2 * (i & 3)) // the same position: still one bad
			break
		}
	}
	if r, err := db.Verify(v, s, 0, 1); err != nil || r.Bad != 1 || !strings.Contains(r.FirstBad, "stored draw at distance 24, the successors say win") {
		t.Errorf("and a win stored as a draw: %+v, %v", r, err)
	}
	if got := len(db.Present(v)); got != len(Slices(3, v.MaxPieces)) {
		t.Errorf("Present: %d slices", got)
	}
}

// TestShortBlock: a block that unpacks to the wrong size (a file written
// wrong under a good checksum; blocks are unpacked on first use, not when
// the file is loaded) reads as no value, so a probe says not covered.
func TestShortBlock(t *testing.T) {
	db, _ := New(1)
	defer db.Close()
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestSpeed)
	fw.Write(bytes.Repeat([]byte{0xaa}, 100)) // codeWin everywhere, 400 values of 2^14
	fw.Close()
	tab := &table{n: 1 << blockLog2, offs: []uint32{0, uint32(z.Len())}, data: z.Bytes(), key: 1 << 40}
	if c := db.code(tab, 5); c != codeNone {
		t.Errorf("code %d from a short block, want none", c)
	}
	tab.wide, tab.key = true, 2<<40
	if b := db.byteAt(tab, 5); b != 0 {
		t.Errorf("byte %d from a short block, want 0", b)
	}
}

// BenchmarkProbeFiles probes random quiet positions of the largest slices
// of tables built on disk: EGDB_BENCH_DIR (skipped when unset), variant
// EGDB_BENCH_VARIANT (default italian). "cache": every block already
// unpacked in a large cache; "miss": a 1 MB cache, so nearly every probe
// unpacks its block from the file's bytes (read into memory at load).
// median-ns is the median of the probes timed one by one (the clock's
// own cost, some 30-60 ns, included).
func BenchmarkProbeFiles(b *testing.B) {
	dir := os.Getenv("EGDB_BENCH_DIR")
	if dir == "" {
		b.Skip("EGDB_BENCH_DIR not set")
	}
	name := os.Getenv("EGDB_BENCH_VARIANT")
	if name == "" {
		name = "italian"
	}
	v, err := movegen.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		cacheMB int
		dist    bool
	}{{"cache", 1024, false}, {"cache-dtc", 1024, true}, {"miss", 1, false}, {"miss-dtc", 1, true}} {
		b.Run(c.name, func(b *testing.B) {
			db, _ := New(c.cacheMB)
			defer db.Close()
			n, err := db.LoadPresent(v, dir)
			if err != nil {
				b.Fatal(err)
			}
			vt := db.vars[v.ID()]
			rng := rand.New(rand.NewPCG(1, 2))
			var ps []movegen.Position
			var sl []Slice
			for _, s := range SlicesOf(v, n) {
				if s.Pieces() == n {
					sl = append(sl, s)
				}
			}
			for len(ps) < 1<<16 {
				s := sl[rng.IntN(len(sl))]
				p, ok := vt.ix.position(s, rng.IntN(vt.ix.size(s)))
				if !ok || v.HasCapture(&p) {
					continue
				}
				if rng.IntN(2) == 1 {
					p = v.Flip(&p)
				}
				ps = append(ps, p)
			}
			probe := func(p *movegen.Position) {
				if c.dist {
					db.ProbeDistance(v, p)
				} else {
					db.Probe(v, p)
				}
			}
			if c.cacheMB > 1 {
				for range 3 { // ristretto admits a key on its second or third sight
					for i := range ps {
						probe(&ps[i])
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			times := make([]time.Duration, 0, 1<<20)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				probe(&ps[i&(len(ps)-1)])
				if len(times) < cap(times) {
					times = append(times, time.Since(t0))
				}
				i++
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2]), "median-ns")
			b.ReportMetric(float64(n), "pieces")
		})
	}
}

// agreeWithSearch probes every stride-th index value of the slices and
// checks each position a plain depth-ply search proves won or lost against
// the table; it returns how many of each the search proved.
func agreeWithSearch(t *testing.T, db *DB, v *movegen.Variant, slices []Slice, stride, depth int) map[WDL]int {
	t.Helper()
	vt := db.vars[v.ID()]
	proved := map[WDL]int{}
	for _, s := range slices {
		for i := 0; i < vt.ix.size(s); i += stride {
			p, ok := vt.ix.position(s, i)
			if !ok {
				continue
			}
			r := solveTo(v, &p, depth)
			if r == Draw {
				continue
			}
			proved[r]++
			if got, _ := db.Probe(v, &p); got != r {
				t.Errorf("%s %s: search proves %v in %d plies, table says %v", v.Name, v.FEN(&p), r, depth, got)
			}
		}
	}
	return proved
}
