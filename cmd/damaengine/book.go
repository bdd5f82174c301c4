package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/book"
	bookbuild "github.com/damaengine/damaengine/book/build"
	"github.com/damaengine/damaengine/search"
)

const bookSynopsis = "damaengine book build --variant V [--positions N] [--time-per-node S | --nodes-per-node N] [--alpha A] [--roots start|openings] [--tt-size N] [--out FILE]\n       damaengine book probe --variant V [--fen F] [--book FILE]"

// runBook answers "damaengine book" without build or probe.
func runBook(c *command, args []string) int {
	return c.noStep(args, "want build or probe (damaengine book build --help)", "unknown subcommand %q (build or probe)")
}

// bookSteps are the steps of damaengine book.
var bookSteps = map[string]subcommand{
	"build": {bookSynopsis, runBookBuild, nil},
	"probe": {bookSynopsis, runBookProbe, nil},
}

// runBookBuild grows a book by drop-out expansion, checkpointing to --out
// and resuming from it; SIGINT or SIGTERM saves and stops.
func runBookBuild(c *command, args []string) int {
	variant := c.variantFlag()
	positions := c.Int("positions", 2000, "positions to stop at")
	tpn := c.Float64("time-per-node", 0.03, "seconds of search per new position")
	npn := c.Uint64("nodes-per-node", 0, "nodes of search per new position instead of a time (the same book on any machine and at any load)")
	alpha := c.Float64("alpha", 0.2, "plies a centi-man given away counts for in the expansion order")
	roots := c.String("roots", "start", "grow from the start position, or from every opening of the embedded set (openings)")
	out := c.String("out", "", "book file, resumed when it exists (default VARIANT.book)")
	ttSize := c.Int("tt-size", 20, "log2 of the search table's entries")
	v, rc, ok := c.parseVariant(args, variant)
	if !ok {
		return rc
	}
	if *positions < 1 || *tpn <= 0 || *tpn > 3600 || *alpha < 0 || *ttSize < 16 || *ttSize > 26 {
		return c.fail(2, "want --positions ≥ 1, 0 < --time-per-node ≤ 3600, --alpha ≥ 0, --tt-size 16-26")
	}
	cfg := bookbuild.Config{
		Variant:     v,
		Positions:   *positions,
		Alpha:       *alpha,
		TimePerNode: seconds(*tpn),
		File:        *out,
		Progress:    c.stderr,
	}
	if cfg.File == "" {
		cfg.File = v.Name + ".book"
	}
	switch *roots {
	case "start":
	case "openings":
		ops, err := bench.Openings(v)
		if err != nil {
			return c.fail(2, "%v", err)
		}
		for _, o := range ops {
			cfg.Roots = append(cfg.Roots, o.Pos)
		}
	default:
		return c.fail(2, "--roots %q: want start or openings", *roots)
	}
	lim := search.Limits{MoveTime: cfg.TimePerNode}
	if *npn > 0 {
		lim = search.Limits{Nodes: *npn}
		cfg.TimePerNode = 0
	}
	cfg.Eval = bookbuild.SearchEvaluator(v, *ttSize, lim)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bk, st, err := bookbuild.Build(ctx, cfg)
	if err != nil && !errors.Is(err, context.Canceled) {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stdout, "book variant=%s positions=%d resumed=%d added=%d expanded=%d time=%.1f file=%s\n",
		v.Name, bk.Len(), st.Resumed, st.Added, st.Expanded, st.Elapsed.Seconds(), cfg.File)
	if err != nil {
		fmt.Fprintf(c.stderr, "damaengine book build: interrupted; run the same command again to go on\n")
		return 1
	}
	return 0
}

// runBookProbe lists the book moves of a position, best first, with
// their scores and the book line after each.
func runBookProbe(c *command, args []string) int {
	at := c.positionFlags("position (PDN FEN or Hub string; default: the start)")
	file := c.String("book", "", "book file (default: the embedded book)")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	v, pos, err := at.position()
	if err != nil {
		return c.fail(2, "%v", err)
	}
	var bk *book.Book
	if *file != "" {
		bk, err = book.Load(*file, v)
	} else {
		bk, err = book.Embedded(v)
	}
	if err != nil {
		return c.fail(1, "%v", err) // the book file failed, not the command line
	}
	var ch book.Choices
	if bk.Probe(v, &pos, &ch) == 0 {
		if e, ok := bk.Lookup(pos.Key); ok {
			fmt.Fprintf(c.stdout, "not expanded in the book (a leaf scored %.2f at depth %d)\n", float64(e.Score)/100, e.Depth)
		} else {
			fmt.Fprintln(c.stdout, "not in the book")
		}
		return 0
	}
	for _, choice := range ch.Slice() {
		next := pos
		next.Play(choice.Move)
		line := []string{v.FormatMove(&pos, choice.Move)}
		p := next
		for _, m := range bk.Line(v, next, 12) {
			line = append(line, v.FormatMove(&p, m))
			p.Play(m)
		}
		fmt.Fprintf(c.stdout, "%s score=%.2f line=\"%s\"\n", v.FormatMove(&pos, choice.Move), float64(choice.Score)/100, strings.Join(line, " "))
	}
	return 0
}
