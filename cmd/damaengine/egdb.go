package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// runEgdb implements "damaengine egdb build|probe".
func runEgdb(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[:1]) {
		fmt.Fprint(stdout, "usage:\n  damaengine egdb build --variant V --pieces N [--dir D]\n  damaengine egdb probe --variant V --fen F [--dir D]\n")
		return 0
	}
	switch args[0] {
	case "build":
		return runEgdbBuild(args[1:], stdout, stderr)
	case "probe":
		return runEgdbProbe(args[1:], stdout, stderr)
	}
	return fail(stderr, 2, "egdb", "unknown subcommand %q (build, probe)", args[0])
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
	for n := 2; n <= 8; n++ {
		if err := db.Load(v, n, dir); err != nil {
			if n == 2 || !errors.Is(err, egdb.ErrMissing) {
				return err
			}
			return nil
		}
	}
	return nil
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
	line := w.String()
	var ml movegen.MoveList
	v.Generate(&p, &ml)
	for _, m := range ml.Slice() {
		c := p
		c.Play(m)
		if r, ok := db.Probe(v, &c); ok && -r == w {
			line += " move=" + v.FormatMove(&p, m)
			break
		}
	}
	fmt.Fprintln(stdout, line)
	return 0
}

// egdbSettings are the hub command line's table settings:
// --egdb-dir=D (turns the tables on), --egdb-cache=MB.
type egdbSettings struct {
	dir     string
	cacheMB int
}

// splitEgdbArgs takes the table settings out of the hub's arguments.
func splitEgdbArgs(args []string) (rest []string, s egdbSettings, err error) {
	s.cacheMB = 32
	for _, a := range args {
		name, val, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "egdb-dir":
			s.dir = val
		case "egdb-cache":
			if s.cacheMB, err = strconv.Atoi(val); err != nil || s.cacheMB < 1 {
				return nil, s, fmt.Errorf("--egdb-cache=%s: want a number of megabytes", val)
			}
		default:
			rest = append(rest, a)
		}
	}
	return rest, s, nil
}

// withTables returns a factory of searchers that probe the tables found
// in s.dir, loaded once for every variant that has some there (the Hub
// session may switch variants after the searcher is built). Bad files are
// reported on stderr and the variant is played without tables.
func (s egdbSettings) withTables(stderr io.Writer) func(v *movegen.Variant, ttLog2 int) *search.Engine {
	var db *egdb.DB
	pieces := 0
	return func(v *movegen.Variant, ttLog2 int) *search.Engine {
		e := search.New(v, ttLog2)
		if s.dir == "" {
			return e
		}
		if db == nil {
			var err error
			if db, err = egdb.New(s.cacheMB); err != nil {
				fmt.Fprintf(stderr, "damaengine: endgame tables off: %v\n", err)
				return e
			}
			for _, w := range movegen.Variants() {
				if !egdb.Supported(w) {
					continue
				}
				if err := loadTables(db, w, s.dir); err != nil && !errors.Is(err, egdb.ErrMissing) {
					fmt.Fprintf(stderr, "damaengine: endgame tables off for %s: %v\n", w.Name, err)
				}
				pieces = max(pieces, db.Pieces(w))
			}
			if pieces == 0 {
				fmt.Fprintf(stderr, "damaengine: no endgame tables in %s (damaengine egdb build)\n", s.dir)
			}
		}
		if pieces > 0 {
			e.SetProbe(func(v *movegen.Variant, p *movegen.Position) (int, bool) {
				w, ok := db.Probe(v, p)
				return int(w), ok
			}, pieces)
		}
		return e
	}
}
