package protocol

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// DefaultEgdbCache is the egdb-cache default: megabytes of decompressed
// table blocks kept per variant in use.
const DefaultEgdbCache = 32

// maxEgdbCache bounds egdb-cache (megabytes).
const maxEgdbCache = 1 << 16

// AutoPieces returns the pieces up to which v's tables are built in the
// background when they are missing: 5 in Italian (187 M positions, about
// 80 s of one core and 44 MB of disk, 0.3 GB of memory at the peak: its
// games end in king endings more than any other's, and from the openings
// the fifth piece is worth +27 Elo at 0.1 s a move, docs/egdb-in-play.md),
// 4 on the other 32-square boards (7.5 M positions, seconds of CPU with the
// distances; Damone's three ranks of piece 43 M, some 40 s), 3 on
// Turkish's 64 squares and International's 50 (≤ 4 is 120 M positions and
// minutes there: built with damaengine egdb build, never behind a user's
// back).
func AutoPieces(v *movegen.Variant) int {
	switch {
	case v == movegen.Italian:
		return 5
	case v.Squares == 32:
		return 4
	}
	return 3
}

// prober is the part of a Searcher that takes endgame tables
// (*search.Engine has it).
type prober interface {
	SetProbe(f search.ProbeFunc, pieces int)
	SetDistance(f search.DistFunc)
}

// searchTables is what a search is given of the tables (zero: none).
type searchTables struct {
	probe  search.ProbeFunc
	dist   search.DistFunc
	pieces int
}

// tableSet holds a session's endgame tables: one egdb.DB per variant,
// loaded from the egdb-path directory (egdb.DefaultDir when empty) on
// first use and built there in the background when missing. It is used on
// the command loop only; builds run on goroutines of their own with their
// own DB, and a finished build is loaded at the next use. A DB handed to
// the engine is never changed: a new one replaces it, and the old one is
// closed on the engine's goroutine, after the searches that used it.
type tableSet struct {
	on      bool
	path    string
	cacheMB int
	stderr  io.Writer // progress lines of background builds
	vars    map[int]*tablesOf
	auto    func(*movegen.Variant) int // AutoPieces (tests build less)
	wait    time.Duration              // loadWait (tests wait less)
	// beforeLoad, when not nil, runs on a load's goroutine before it
	// reads the files (tests hold a load up with it).
	beforeLoad func()
}

// tablesOf is the state of one variant's tables.
type tablesOf struct {
	db       *egdb.DB // loaded, or nil
	pieces   int
	err      error // a file that cannot be used: no tables for the variant
	reported bool  // err has been sent
	build    *buildJob
	loading  *loadJob // a load still reading its files, or nil
}

// loadJob is a load of a variant's table files on a goroutine of its own.
// Its DB is the goroutine's until done is closed, then the command loop's.
type loadJob struct {
	done chan struct{}
	dir  string // where the files are (and a missing set is built)
	db   *egdb.DB
	n    int // pieces loaded
	err  error
}

// loadWait is how long the command loop waits for a load before it goes
// on and lets the load finish in the background: sets of a few megabytes
// load in milliseconds and are in use at once, while a large set (Turkish
// ≤ 5 pieces: 1 GB, about 1.5 s of CPU to read and check) does not hold
// up init or go: the session searches without tables until it is read.
const loadWait = time.Second

// buildJob is a background build (or the wait for another process's).
type buildJob struct {
	done chan struct{}
	err  error
}

func newTableSet(stderr io.Writer) *tableSet {
	return &tableSet{cacheMB: DefaultEgdbCache, stderr: stderr, vars: map[int]*tablesOf{}, auto: AutoPieces, wait: loadWait}
}

// dir returns the table directory.
func (ts *tableSet) dir() (string, error) {
	if ts.path != "" {
		return ts.path, nil
	}
	return egdb.DefaultDir()
}

// reset forgets every loaded table (after a settings change); close runs
// on the engine's goroutine.
func (ts *tableSet) reset(closeLater func(func())) {
	old := ts.vars
	ts.vars = map[int]*tablesOf{}
	closeLater(func() {
		for _, st := range old {
			if st.db != nil {
				st.db.Close()
			}
		}
	})
	for _, st := range old {
		if job := st.loading; job != nil {
			go func() { // never handed to a search
				<-job.done
				if job.db != nil {
					job.db.Close()
				}
			}()
		}
	}
}

// forSearch returns the tables to search v with, loading them or starting
// a build as needed, and an error message to send (once) when v's tables
// cannot be used.
func (ts *tableSet) forSearch(v *movegen.Variant, closeLater func(func())) (searchTables, string) {
	if !ts.on || !egdb.Supported(v) {
		return searchTables{}, ""
	}
	st := ts.vars[v.ID()]
	if st == nil {
		st = &tablesOf{}
		ts.vars[v.ID()] = st
		ts.load(v, st, closeLater)
	}
	if st.loading != nil {
		select {
		case <-st.loading.done:
			ts.loaded(v, st, closeLater)
		default:
		}
	}
	if st.build != nil {
		select {
		case <-st.build.done:
			err := st.build.err
			st.build = nil
			if err != nil {
				st.err = err
			} else {
				ts.load(v, st, closeLater)
			}
		default:
		}
	}
	msg := ""
	if st.err != nil {
		if !st.reported {
			st.reported = true
			msg = fmt.Sprintf("%v; %s is played without endgame tables", st.err, v.Name)
		}
		return searchTables{}, msg
	}
	if st.db == nil {
		return searchTables{}, ""
	}
	db := st.db
	return searchTables{
		probe: func(v *movegen.Variant, p *movegen.Position) (int, bool) {
			w, ok := db.Probe(v, p)
			return int(w), ok
		},
		dist: func(v *movegen.Variant, p *movegen.Position) (int, int, bool) {
			w, d, ok := db.ProbeDistance(v, p)
			return int(w), d, ok
		},
		pieces: st.pieces,
	}, ""
}

// load reads v's tables into a new DB on a goroutine, and waits for it
// up to loadWait; a load that takes longer is taken up by a later
// forSearch (see loaded).
func (ts *tableSet) load(v *movegen.Variant, st *tablesOf, closeLater func(func())) {
	if st.loading != nil {
		return
	}
	dir, err := ts.dir()
	if err != nil {
		st.err = err
		return
	}
	job := &loadJob{done: make(chan struct{}), dir: dir}
	cacheMB, hook := ts.cacheMB, ts.beforeLoad
	go func() {
		defer close(job.done)
		if hook != nil {
			hook()
		}
		db, err := egdb.New(cacheMB)
		if err != nil {
			job.err = err
			return
		}
		job.db = db
		job.n, job.err = db.LoadPresent(v, dir)
	}()
	st.loading = job
	select {
	case <-job.done:
		ts.loaded(v, st, closeLater)
	case <-time.After(ts.wait):
	}
}

// loaded takes up st's finished load: its tables replace the ones in use,
// a file that cannot be used is st's error, and when fewer pieces than
// AutoPieces are there a build is started (and the pieces found are used
// meanwhile).
func (ts *tableSet) loaded(v *movegen.Variant, st *tablesOf, closeLater func(func())) {
	job := st.loading
	st.loading = nil
	db, n, err := job.db, job.n, job.err
	if db == nil {
		st.err = err
		return
	}
	if err != nil && !errors.Is(err, egdb.ErrMissing) {
		db.Close()
		st.err = err
		return
	}
	if old := st.db; old != nil {
		closeLater(old.Close)
	}
	st.db, st.pieces = nil, 0
	distPieces := db.DistancePieces(v)
	if n > 0 {
		st.db, st.pieces = db, n
	} else {
		db.Close()
	}
	if (n < ts.auto(v) || distPieces < ts.auto(v)) && st.build == nil {
		// Missing, or from before the distances: built (again).
		st.build = ts.startBuild(v, job.dir, ts.auto(v))
	}
}

// startBuild builds v's tables of up to pieces pieces into dir on a
// goroutine, once it holds the directory's build lock (another process
// may be building them: then it waits, and finds them built).
func (ts *tableSet) startBuild(v *movegen.Variant, dir string, pieces int) *buildJob {
	job := &buildJob{done: make(chan struct{})}
	w := ts.stderr
	go func() {
		var last string // the final line, written once the job is done
		defer func() {
			close(job.done)
			if last != "" {
				fmt.Fprint(w, last)
			}
		}()
		said := false
		for {
			unlock, ok, err := egdb.Lock(dir, v)
			if err != nil {
				job.err = fmt.Errorf("egdb: building %s tables in %s: %s", v.Name, dir, strings.TrimPrefix(err.Error(), "egdb: "))
				return
			}
			if ok {
				defer unlock()
				break
			}
			if !said {
				fmt.Fprintf(w, "damaengine: egdb %s: another process is building the tables in %s; waiting for it\n", v.Name, dir)
				said = true
			}
			time.Sleep(time.Second)
		}
		last, job.err = buildTables(v, dir, pieces, w)
	}()
	return job
}

// buildTables builds v's tables in dir with a progress line on w every
// few seconds (nothing for the slices already on disk); it returns the
// final line, for after the tables can be loaded.
func buildTables(v *movegen.Variant, dir string, pieces int, w io.Writer) (string, error) {
	db, err := egdb.New(16)
	if err != nil {
		return "", err
	}
	defer db.Close()
	start := time.Now()
	var last time.Time
	solved := false
	err = db.Build(v, pieces, dir, func(p egdb.Progress) {
		if p.Skipped || p.Step != "" {
			return
		}
		if !solved {
			fmt.Fprintf(w, "damaengine: egdb %s: building the tables of up to %d pieces in %s in the background; playing without them meanwhile\n", v.Name, pieces, dir)
			solved = true
		}
		if time.Since(last) >= 5*time.Second || p.Done == p.Total {
			last = time.Now()
			fmt.Fprintf(w, "damaengine: egdb %s %s: %d/%d positions, %.0f positions/s, ETA %s\n",
				v.Name, p.Slice, p.Done, p.Total, p.Rate(), p.ETA().Round(time.Second))
		}
	})
	if err != nil {
		return "", fmt.Errorf("egdb: building %s tables in %s: %s", v.Name, dir, strings.TrimPrefix(err.Error(), "egdb: "))
	}
	if !solved {
		return "", nil
	}
	return fmt.Sprintf("damaengine: egdb %s: tables of up to %d pieces built in %s; used from the next search\n", v.Name, pieces, time.Since(start).Round(100*time.Millisecond)), nil
}

// checkDir is the egdb-path check: empty, or a directory (created by the
// first build when it does not exist yet).
func checkDir(s string) error {
	if s == "" {
		return nil
	}
	fi, err := os.Stat(s)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("egdb-path: %v", clipErr(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("egdb-path %s is not a directory", quoteClip(s))
	}
	return nil
}

// syncWriter serialises writes from the builds' goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
