package egdb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestDamoneKnownResults: Italian Damone positions whose values were
// worked out by hand (board: 1 = a8, 5 = b7, 10 = c6, 14 = d5, 19 = e4,
// 26 = c2, 29 = b1, 30 = d1, 32 = h1; White's Pedine step up-left, up-right
// and down-left, Black's down-right, up-right and down-left).
func TestDamoneKnownResults(t *testing.T) {
	v := movegen.Damone
	db := build(t, v)
	cases := []struct {
		fen, why string
		want     WDL
	}{
		// A White Pedina on a8 has no move (forward and both sideways
		// steps leave the board) and cannot be taken (a corner): with it
		// alone White loses at once, and whatever Black plays wins.
		{"W:W1:BD32", "a Pedina on a8 has no move", Loss},
		{"B:W1:BD32", "any move leaves White without one", Win},
		// A Black Pedina on b1 has one move, up-right to c2; a Damone (or
		// a Dama) stepping from d1 to c2 blocks it, and the Pedina may not
		// take the higher-ranked piece: Black has no move and loses.
		{"W:WD30:B29", "1. 30-26 stalemates the Pedina (rank rule)", Win},
		{"W:WK30:B29", "the same with a Dama", Win},
		// Rank rule: a Damone takes a Dama (and wins, nothing left), a
		// Dama a Dama.
		{"B:WK14:BD10", "10x19 takes the Dama", Win},
		{"W:WD14:BK10", "14x5 takes the Dama", Win},
		{"W:WK14:BK10", "14x5 takes the Dama", Win},
	}
	for _, c := range cases {
		if got := probeFEN(t, db, v, c.fen); got != c.want {
			t.Errorf("%s (%s): %v, want %v", c.fen, c.why, got, c.want)
		}
	}
	// The Dama may not take the Damone: no capture, and no win for White.
	p, _ := v.ParseFEN("W:WK14:BD10")
	if v.HasCapture(&p) {
		t.Errorf("W:WK14:BD10: a Dama takes a Damone")
	}
	if got := probeFEN(t, db, v, "W:WK14:BD10"); got == Win {
		t.Errorf("W:WK14:BD10: a lone Dama beats a Damone")
	}
}

// TestDamoniAsItalianKings: Damoni alone against Damoni are Italian kings
// (short, all four directions, each takes the other; no promotion): every
// position of 1D-1D, 2D-1D and 1D-2D has the value of the same squares in
// Italian's 1k-1k, 2k-1k and 1k-2k (whose census the other tests check:
// 158 wins, 654 draws, 108 losses in 1k-1k).
func TestDamoniAsItalianKings(t *testing.T) {
	dm, it := build(t, movegen.Damone), build(t, movegen.Italian)
	ix := dm.vars[movegen.Damone.ID()].ix
	for _, s := range []Slice{{UsDamoni: 1, ThemDamoni: 1}, {UsDamoni: 2, ThemDamoni: 1}, {UsDamoni: 1, ThemDamoni: 2}} {
		n := 0
		for i := 0; i < ix.size(s); i++ {
			p, ok := ix.position(s, i)
			if !ok {
				continue
			}
			a, oka := dm.Probe(movegen.Damone, &p)
			q := p
			q.Super = 0
			b, okb := it.Probe(movegen.Italian, &q)
			if !oka || !okb || a != b {
				t.Fatalf("%s: Damone %v %v, Italian %v %v", movegen.Damone.FEN(&p), a, oka, b, okb)
			}
			n++
		}
		if n == 0 {
			t.Fatalf("%s: no positions", s)
		}
	}
}

// TestDamoneAgreesWithSearch: a win or loss a plain 7-ply search (5 with
// -short, on fewer positions) proves in Damone positions of 2 and 3 pieces
// of every rank is in the tables.
func TestDamoneAgreesWithSearch(t *testing.T) {
	v := movegen.Damone
	depth, stride := 5, 397
	if testing.Short() {
		depth, stride = 5, 1999
	}
	db := build(t, v)
	proved := agreeWithSearch(t, db, v, SlicesOf(v, 3), stride, depth)
	if proved[Win] == 0 || proved[Loss] == 0 {
		t.Errorf("the search proved %d wins and %d losses", proved[Win], proved[Loss])
	}
}

// TestDamoneFiles: Damone tables are written under six-count names (men,
// Dame, Damoni of each side), read back as built, and a file of another
// slice, of another variant, or corrupt is refused; the all-Damoni
// variant has no tables.
func TestDamoneFiles(t *testing.T) {
	v := movegen.Damone
	if !Supported(v) || Supported(movegen.DamoneAllDamoni) {
		t.Fatalf("Supported: damone %v, all-Damoni %v", Supported(v), Supported(movegen.DamoneAllDamoni))
	}
	dir := t.TempDir()
	db, _ := New(1)
	defer db.Close()
	if err := db.Build(v, 3, dir, nil); err != nil {
		t.Fatal(err)
	}
	s := Slice{UsDamoni: 1, ThemMen: 1}
	f := path(dir, v, s, false)
	if filepath.Base(f) != "001100.wdl" {
		t.Errorf("1D-1m is in %s", f)
	}
	if _, err := os.Stat(f); err != nil {
		t.Fatal(err)
	}
	disk, _ := New(1)
	defer disk.Close()
	if n, err := disk.LoadPresent(v, dir); n != 3 || err != nil {
		t.Fatalf("LoadPresent: %d, %v", n, err)
	}
	mem := build(t, v)
	vt := mem.vars[v.ID()]
	for _, sl := range SlicesOf(v, 3) {
		for i := 0; i < vt.ix.size(sl); i += 5 {
			p, ok := vt.ix.position(sl, i)
			if !ok {
				continue
			}
			a, _, oka := mem.ProbeDistance(v, &p)
			b, _, okb := disk.ProbeDistance(v, &p)
			if a != b || oka != okb {
				t.Fatalf("%s: memory %v %v, disk %v %v", v.FEN(&p), a, oka, b, okb)
			}
		}
	}
	check := func(what, want string) {
		t.Helper()
		db, _ := New(1)
		defer db.Close()
		err := db.Load(v, 3, dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", what, err, want)
		}
		if db.Pieces(v) != 0 {
			t.Errorf("%s: tables present after a failed load", what)
		}
	}
	raw, _ := os.ReadFile(f)
	// Another slice's file (1k-1m's) under 1D-1m's name: its header says
	// its counts.
	other, _ := os.ReadFile(path(dir, v, Slice{UsKings: 1, ThemMen: 1}, false))
	os.WriteFile(f, other, 0o644)
	check("another slice's file", "slice")
	os.WriteFile(f, append(raw[:len(raw)-9:len(raw)-9], 1, 2, 3, 4, 5, 6, 7, 8, 9), 0o644)
	check("corrupt", "corrupt")
	// An Italian file where a Damone one should be.
	it := t.TempDir()
	idb, _ := New(1)
	defer idb.Close()
	if err := idb.Build(movegen.Italian, 2, it, nil); err != nil {
		t.Fatal(err)
	}
	iraw, _ := os.ReadFile(path(it, movegen.Italian, Slice{UsKings: 1, ThemMen: 1}, false))
	os.WriteFile(f, iraw, 0o644)
	check("an Italian file", "variant")
	os.WriteFile(f, raw, 0o644)
	check2, _ := New(1)
	defer check2.Close()
	if err := check2.Load(v, 3, dir); err != nil {
		t.Errorf("restored: %v", err)
	}
	// The all-Damoni rule: no tables, built or loaded.
	if err := check2.Build(movegen.DamoneAllDamoni, 2, "", nil); err == nil || !strings.Contains(err.Error(), "all-Damoni") {
		t.Errorf("all-Damoni build: %v", err)
	}
	if err := check2.Load(movegen.DamoneAllDamoni, 3, dir); err == nil {
		t.Errorf("all-Damoni load: no error")
	}
	p, _ := v.ParseFEN("W:WD30:B29")
	if _, ok := check2.Probe(movegen.DamoneAllDamoni, &p); ok {
		t.Errorf("all-Damoni probe answered from the default rule's tables")
	}
}
