package main

import (
	"flag"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
)

// runEgdb implements "damaengine egdb build|probe".
func runEgdb(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[:1]) {
		fmt.Fprint(stdout, "usage:\n  damaengine egdb build --variant V --pieces N [--dir D]\n  damaengine egdb probe --variant V --fen F [--dir D]\n  damaengine egdb verify --variant V [--dir D] [--sample N]\n")
		return 0
	}
	switch args[0] {
	case "build":
		return runEgdbBuild(args[1:], stdout, stderr)
	case "probe":
		return runEgdbProbe(args[1:], stdout, stderr)
	case "verify":
		return runEgdbVerify(args[1:], stdout, stderr)
	}
	return fail(stderr, 2, "egdb", "unknown subcommand %q (build, probe, verify)", args[0])
}

func egdbDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return egdb.DefaultDir()
}

func runEgdbBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb build", flag.ContinueOnError)
	variant := fs.String("variant", "italian", "rule set")
	pieces := fs.Int("pieces", 4, "build every slice of up to this many pieces (2-8)")
	dir := fs.String("dir", "", "table directory (default: damaengine/egdb in the user cache directory)")
	if rc, ok := parseFlags(fs, "damaengine egdb build --variant V --pieces N [--dir D]", args, stdout, stderr); !ok {
		return rc
	}
	v, err := movegen.Lookup(*variant)
	if err != nil {
		return fail(stderr, 2, "egdb build", "%v", err)
	}
	if *pieces < 2 || *pieces > 8 {
		return fail(stderr, 2, "egdb build", "--pieces %d out of range 2-8", *pieces)
	}
	d, err := egdbDir(*dir)
	if err != nil {
		return fail(stderr, 2, "egdb build", "%v", err)
	}
	db, err := egdb.New(64)
	if err != nil {
		return fail(stderr, 1, "egdb build", "%v", err)
	}
	defer db.Close()
	start := time.Now()
	err = db.Build(v, *pieces, d, func(p egdb.Progress) {
		state := "solved"
		if p.Skipped {
			state = "on disk"
		}
		fmt.Fprintf(stderr, "egdb %s %s: %d positions %s; %d/%d, %.0f positions/s, ETA %s\n",
			v.Name, p.Slice, p.Positions, state, p.Done, p.Total, p.Rate(), p.ETA().Round(time.Second))
	})
	if err != nil {
		return fail(stderr, 1, "egdb build", "%v", err)
	}
	fmt.Fprintf(stdout, "egdb %s: tables of up to %d pieces in %s (%s)\n", v.Name, *pieces, d, time.Since(start).Round(time.Millisecond))
	return 0
}

// loadTables loads v's tables from dir, as many pieces as are there (up
// to 8); with none at all it returns the error of the smallest.
func loadTables(db *egdb.DB, v *movegen.Variant, dir string) error {
	_, err := db.LoadPresent(v, dir)
	return err
}

func runEgdbProbe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb probe", flag.ContinueOnError)
	variant := fs.String("variant", "italian", "rule set")
	fen := fs.String("fen", "", "position (PDN FEN or Hub string)")
	dir := fs.String("dir", "", "table directory (default: damaengine/egdb in the user cache directory)")
	if rc, ok := parseFlags(fs, "damaengine egdb probe --variant V --fen F [--dir D]", args, stdout, stderr); !ok {
		return rc
	}
	if *fen == "" {
		return fail(stderr, 2, "egdb probe", "--fen is required")
	}
	v, p, err := variantPosition(*variant, *fen)
	if err != nil {
		return fail(stderr, 2, "egdb probe", "%v", err)
	}
	d, err := egdbDir(*dir)
	if err != nil {
		return fail(stderr, 2, "egdb probe", "%v", err)
	}
	db, err := egdb.New(16)
	if err != nil {
		return fail(stderr, 1, "egdb probe", "%v", err)
	}
	defer db.Close()
	if err := loadTables(db, v, d); err != nil {
		return fail(stderr, 1, "egdb probe", "%v", err)
	}
	w, ok := db.Probe(v, &p)
	if !ok {
		return fail(stderr, 1, "egdb probe", "%d pieces: the tables in %s go up to %d", bits.OnesCount64(p.Occupied()), d, db.Pieces(v))
	}
	// The best move: for a win the one of least distance to conversion
	// (a capture or promotion counting 0), for a loss the greatest.
	line := w.String()
	_, dist, _ := db.ProbeDistance(v, &p)
	var ml movegen.MoveList
	v.Generate(&p, &ml)
	best, bestD := -1, 0
	for i, m := range ml.Slice() {
		c := p
		c.Play(m)
		r, d, ok := db.ProbeDistance(v, &c)
		if !ok || -r != w {
			continue
		}
		if m.Captured != 0 || m.Promote {
			d = 0
		}
		if best < 0 || w == egdb.Win && d < bestD || w == egdb.Loss && d > bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		line += " move=" + v.FormatMove(&p, ml.Moves[best])
	}
	if dist >= 0 {
		line += " plies-to-conversion=" + strconv.Itoa(dist)
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// verifyAll is the most pieces of a slice egdb verify checks position by
// position; larger slices are sampled.
const verifyAll = 4

func runEgdbVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb verify", flag.ContinueOnError)
	variant := fs.String("variant", "italian", "rule set")
	dir := fs.String("dir", "", "table directory (default: damaengine/egdb in the user cache directory)")
	sample := fs.Int("sample", 100000, "random positions checked in each slice of more than 4 pieces")
	seed := fs.Uint64("seed", 1, "seed of the sample")
	if rc, ok := parseFlags(fs, "damaengine egdb verify --variant V [--dir D] [--sample N]", args, stdout, stderr); !ok {
		return rc
	}
	v, err := movegen.Lookup(*variant)
	if err != nil {
		return fail(stderr, 2, "egdb verify", "%v", err)
	}
	if *sample < 1 {
		return fail(stderr, 2, "egdb verify", "--sample %d: at least 1", *sample)
	}
	d, err := egdbDir(*dir)
	if err != nil {
		return fail(stderr, 2, "egdb verify", "%v", err)
	}
	db, err := egdb.New(64)
	if err != nil {
		return fail(stderr, 1, "egdb verify", "%v", err)
	}
	defer db.Close()
	if err := loadTables(db, v, d); err != nil {
		return fail(stderr, 1, "egdb verify", "%v", err)
	}
	start := time.Now()
	var total egdb.VerifyReport
	for _, s := range db.Present(v) {
		n := 0
		if s.Pieces() > verifyAll {
			n = *sample
		}
		r, err := db.Verify(v, s, n, *seed)
		if err != nil {
			return fail(stderr, 1, "egdb verify", "%v", err)
		}
		how := "all"
		if r.Sampled {
			how = "sampled"
		}
		dist := "no distances"
		if r.MaxDist >= 0 {
			dist = fmt.Sprintf("longest distance to conversion %d plies", r.MaxDist)
		}
		fmt.Fprintf(stdout, "egdb verify %s %s: %d checked (%s): win %d draw %d loss %d, capture pending %d, no position %d, %s, bad %d\n",
			v.Name, s, r.Checked, how, r.Win, r.Draw, r.Loss, r.Capture, r.Empty, dist, r.Bad)
		if r.Bad > 0 {
			fmt.Fprintf(stdout, "  first bad: %s\n", r.FirstBad)
		}
		total.Checked += r.Checked
		total.Win += r.Win
		total.Draw += r.Draw
		total.Loss += r.Loss
		total.Bad += r.Bad
	}
	fmt.Fprintf(stdout, "egdb verify %s: tables of up to %d pieces in %s: %d checked, win %d draw %d loss %d, bad %d (%s)\n",
		v.Name, db.Pieces(v), d, total.Checked, total.Win, total.Draw, total.Loss, total.Bad, time.Since(start).Round(time.Millisecond))
	if total.Bad > 0 {
		return 1
	}
	return 0
}

// egdbDefault is the hub's egdb default: on, unless the environment
// variable DAMAENGINE_EGDB says off (false, 0, off), as the tests that run
// the binary do, so that no test builds tables in the user cache directory.
func egdbDefault(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("DAMAENGINE_EGDB"))) {
	case "0", "false", "off", "no":
		return false
	}
	return true
}

// hubEgdbArgs rewrites the older hub flag --egdb-dir=D as --egdb-path=D.
func hubEgdbArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if name, val, ok := strings.Cut(strings.TrimLeft(a, "-"), "="); ok && name == "egdb-dir" {
			a = "--egdb-path=" + val
		}
		out = append(out, a)
	}
	return out
}
