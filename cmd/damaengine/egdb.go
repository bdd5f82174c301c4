package main

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
)

// runEgdb answers "damaengine egdb" without build, probe or verify: the
// steps' synopses for none or --help.
func runEgdb(c *command, args []string) int {
	if len(args) == 0 || isHelp(args[:1]) {
		fmt.Fprintf(c.stdout, "usage:\n  %s\n  %s\n  %s\n", egdbSteps["build"].synopsis, egdbSteps["probe"].synopsis, egdbSteps["verify"].synopsis)
		return 0
	}
	return c.fail(2, "unknown subcommand %q (build, probe, verify)", args[0])
}

// egdbSteps are the steps of damaengine egdb.
var egdbSteps = map[string]subcommand{
	"build":  {"damaengine egdb build --variant V --pieces N [--dir D] [--threads T]", runEgdbBuild, nil},
	"probe":  {"damaengine egdb probe --variant V --fen F [--dir D]", runEgdbProbe, nil},
	"verify": {"damaengine egdb verify --variant V [--dir D] [--sample N] [--seed S] [--slices A,B]", runEgdbVerify, nil},
}

// egdbStep is the command of an egdb step, with the flags every step has:
// --variant and --dir, the table directory.
type egdbStep struct {
	*command
	variant, dir *string
}

// newEgdbStep declares --variant and --dir on c.
func newEgdbStep(c *command) *egdbStep {
	return &egdbStep{
		command: c,
		variant: c.variantFlag(),
		dir:     c.String("dir", "", "table directory (default: damaengine/egdb in the user cache directory)"),
	}
}

// open parses args, looks up --variant and checks the step's own flags
// (check, if not nil, says what is wrong with them), then opens the
// database (see openDB) with v's tables loaded when load. ok false means
// stop with rc; else the caller closes db.
func (s *egdbStep) open(args []string, cacheMB int, load bool, check func() error) (v *movegen.Variant, db *egdb.DB, dir string, rc int, ok bool) {
	v, rc, ok = s.parseVariant(args, s.variant)
	if !ok {
		return nil, nil, "", rc, false
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, nil, "", s.fail(2, "%v", err), false
		}
	}
	loaded := v
	if !load {
		loaded = nil
	}
	db, dir, rc = s.openDB(cacheMB, loaded)
	return v, db, dir, rc, rc == 0
}

// openDB returns a database with a cache of cacheMB MB and the table
// directory (--dir, or the default one), with v's tables loaded from it
// (as many pieces as are there, up to 8) unless v is nil; when it cannot,
// it reports why and returns the exit status rc, not 0.
func (s *egdbStep) openDB(cacheMB int, v *movegen.Variant) (db *egdb.DB, dir string, rc int) {
	dir = *s.dir
	if dir == "" {
		var err error
		if dir, err = egdb.DefaultDir(); err != nil {
			return nil, "", s.fail(2, "%v", err)
		}
	}
	db, _, err := loadTables(cacheMB, v, dir)
	if err != nil {
		return nil, "", s.fail(1, "%v", err)
	}
	return db, dir, 0
}

// loadTables returns a database with a cache of cacheMB MB and v's tables
// from dir loaded (as many pieces as are there, up to 8; none when v is
// nil), and the pieces they reach.
func loadTables(cacheMB int, v *movegen.Variant, dir string) (*egdb.DB, int, error) {
	db, err := egdb.New(cacheMB)
	if err != nil {
		return nil, 0, err
	}
	if v == nil {
		return db, 0, nil
	}
	n, err := db.LoadPresent(v, dir)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return db, n, nil
}

func runEgdbBuild(c *command, args []string) int {
	s := newEgdbStep(c)
	pieces := s.Int("pieces", 4, "build every slice of up to this many pieces (2-8)")
	threads := s.Int("threads", 1, "threads solving each slice (the files are the same for any number)")
	v, db, d, rc, ok := s.open(args, 64, false, func() error {
		if *pieces < 2 || *pieces > 8 {
			return fmt.Errorf("--pieces %d out of range 2-8", *pieces)
		}
		if *threads < 1 || *threads > 256 {
			return fmt.Errorf("--threads %d out of range 1-256", *threads)
		}
		return nil
	})
	if !ok {
		return rc
	}
	defer db.Close()
	start := time.Now()
	err := db.BuildThreads(v, *pieces, d, *threads, func(p egdb.Progress) {
		if p.Step != "" {
			fmt.Fprintf(c.stderr, "egdb %s %s: solving, %s; %d/%d done, %s elapsed\n",
				v.Name, p.Slice, p.Step, p.Done, p.Total, p.Elapsed.Round(time.Second))
			return
		}
		state := "solved"
		if p.Skipped {
			state = "on disk"
		}
		fmt.Fprintf(c.stderr, "egdb %s %s: %d positions %s; %d/%d, %.0f positions/s, ETA %s\n",
			v.Name, p.Slice, p.Positions, state, p.Done, p.Total, p.Rate(), p.ETA().Round(time.Second))
	})
	if err != nil {
		return s.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stdout, "egdb %s: tables of up to %d pieces in %s (%s)\n", v.Name, *pieces, d, time.Since(start).Round(time.Millisecond))
	return 0
}

func runEgdbProbe(c *command, args []string) int {
	s := newEgdbStep(c)
	at := positionFlags{variant: s.variant, fen: s.String("fen", "", "position (PDN FEN or Hub string)")}
	if rc, ok := s.parse(args); !ok {
		return rc
	}
	if *at.fen == "" {
		return s.fail(2, "--fen is required")
	}
	v, p, err := at.position()
	if err != nil {
		return s.fail(2, "%v", err)
	}
	db, d, rc := s.openDB(16, v)
	if rc != 0 {
		return rc
	}
	defer db.Close()
	w, ok := db.Probe(v, &p)
	if !ok {
		return s.fail(1, "%d pieces: the tables in %s go up to %d", bits.OnesCount64(p.Occupied()), d, db.Pieces(v))
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
	fmt.Fprintln(c.stdout, line)
	return 0
}

// verifyAll is the most pieces of a slice egdb verify checks position by
// position; larger slices are sampled.
const verifyAll = 4

func runEgdbVerify(c *command, args []string) int {
	s := newEgdbStep(c)
	sample := s.Int("sample", 100000, "random positions checked in each slice of more than 4 pieces")
	seed := s.Uint64("seed", 1, "seed of the sample")
	only := s.String("slices", "", "verify only these slices, e.g. 2k-1k,1m2k-1m1k (default: every slice present)")
	v, db, d, rc, ok := s.open(args, 64, true, func() error {
		if *sample < 1 {
			return fmt.Errorf("--sample %d: at least 1", *sample)
		}
		return nil
	})
	if !ok {
		return rc
	}
	defer db.Close()
	present := db.Present(v)
	if *only != "" {
		byName := map[string]egdb.Slice{}
		for _, sl := range present {
			byName[sl.String()] = sl
		}
		present = present[:0:0]
		for _, name := range strings.Split(*only, ",") {
			sl, ok := byName[strings.TrimSpace(name)]
			if !ok {
				return s.fail(2, "--slices: no slice %q among the tables in %s", name, d)
			}
			present = append(present, sl)
		}
	}
	start := time.Now()
	var total egdb.VerifyReport
	for _, sl := range present {
		n := 0
		if sl.Pieces() > verifyAll {
			n = *sample
		}
		r, err := db.Verify(v, sl, n, *seed)
		if err != nil {
			return s.fail(1, "%v", err)
		}
		how := "all"
		if r.Sampled {
			how = "sampled"
		}
		dist := "no distances"
		if r.MaxDist >= 0 {
			dist = fmt.Sprintf("longest distance to conversion %d plies", r.MaxDist)
		}
		fmt.Fprintf(c.stdout, "egdb verify %s %s: %d checked (%s): win %d draw %d loss %d, capture pending %d, no position %d, %s, bad %d\n",
			v.Name, sl, r.Checked, how, r.Win, r.Draw, r.Loss, r.Capture, r.Empty, dist, r.Bad)
		if r.Bad > 0 {
			fmt.Fprintf(c.stdout, "  first bad: %s\n", r.FirstBad)
		}
		total.Checked += r.Checked
		total.Win += r.Win
		total.Draw += r.Draw
		total.Loss += r.Loss
		total.Bad += r.Bad
	}
	fmt.Fprintf(c.stdout, "egdb verify %s: tables of up to %d pieces in %s: %d checked, win %d draw %d loss %d, bad %d (%s)\n",
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
