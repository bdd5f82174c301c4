package egdb

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// TestSolveSlice solves one slice pair from tables on disk, for profiles
// and timings: EGDB_SLICE_DIR the directory (the slices before the pair
// in build order must be there), EGDB_SLICE the pair ("1k-4k"),
// EGDB_VARIANT the variant (turkish by default). Skipped without them.
func TestSolveSlice(t *testing.T) {
	dir, name := os.Getenv("EGDB_SLICE_DIR"), os.Getenv("EGDB_SLICE")
	if dir == "" || name == "" {
		t.Skip("EGDB_SLICE_DIR and EGDB_SLICE not set")
	}
	v := movegen.Turkish
	if n := os.Getenv("EGDB_VARIANT"); n != "" {
		for _, w := range movegen.Variants() {
			if strings.EqualFold(w.Name, n) {
				v = w
			}
		}
	}
	db, _ := New(64)
	defer db.Close()
	vt, _ := db.varOf(v)
	var target Slice
	found := false
	for _, s := range SlicesOf(v, 8) {
		if s.String() == name {
			target, found = s, true
			break
		}
	}
	if !found {
		t.Fatalf("no slice %s", name)
	}
	// Every slice there but the pair's (a probe of one missing fails).
	for _, s := range SlicesOf(v, target.Pieces()) {
		if s == target || s == target.Mirror() {
			continue
		}
		tab, err := db.loadResumed(vt, dir, s)
		if errors.Is(err, ErrMissing) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		vt.tabs[s] = tab
	}
	if os.Getenv("EGDB_SLICE_FAKE") != "" {
		// The slices before the pair not on disk, made up (a fixed
		// pseudo-random value per index): for timings of a pair whose
		// promotions lead to slices not built.
		for _, s := range SlicesOf(v, target.Pieces()) {
			if s == target || s == target.Mirror() {
				break
			}
			if vt.tabs[s] != nil {
				continue
			}
			n := vt.ix.size(s)
			mem := make([]byte, (n+3)/4)
			for i := range n {
				mem[i>>2] |= uint8(1+(uint64(i)*0x9E3779B97F4A7C15>>40)%3) << (2 * (i & 3))
			}
			vt.tabs[s] = &table{s: s, n: n, mem: mem}
			t.Logf("%s made up", s)
		}
	}
	vt.pieces = target.Pieces()
	group := []Slice{target}
	if m := target.Mirror(); m != target {
		group = append(group, m)
	}
	var sc scratch
	cpu0 := cpuTime()
	start := time.Now()
	threads := 1
	if n, err := strconv.Atoi(os.Getenv("EGDB_THREADS")); err == nil {
		threads = n
	}
	codes, dists, err := vt.solve(db, group, &sc, threads, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	el, cpu := time.Since(start), cpuTime()-cpu0
	n := 0
	for _, c := range codes {
		n += len(c)
	}
	t.Logf("%s %s: %d index values in %v wall, %v CPU: %.0f values/s of wall, %.0f of CPU", v.Name, name, n,
		el.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(n)/el.Seconds(), float64(n)/cpu.Seconds())
	if out := os.Getenv("EGDB_SLICE_OUT"); out != "" {
		for i, g := range group {
			if _, err := write(out, v, g, dists[i], true, threads); err != nil {
				t.Fatal(err)
			}
			if _, err := write(out, v, g, codes[i], false, threads); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// cpuTime returns the CPU time (user and system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
