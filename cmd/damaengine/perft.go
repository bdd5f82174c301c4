package main

import (
	"fmt"
	"io"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// runPerft implements "damaengine perft": one line per depth 1..N,
// "perft depth=D nodes=N time=S nps=X"; with --divide, first one
// "MOVE NODES" line per root move at depth N.
func runPerft(c *command, args []string) int {
	start := c.positionFlags(fenStartHelp)
	depth := c.Int("depth", 0, "depth in plies (1..64)")
	divide := c.Bool("divide", false, "print the count below each root move first")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	v, pos, err := start.position()
	if err != nil {
		return c.fail(2, "%v", err)
	}
	if *depth < 1 || *depth > movegen.MaxPly {
		return c.fail(2, "--depth %d out of range 1-%d", *depth, movegen.MaxPly)
	}
	pf := movegen.NewPerfter(v)
	if *divide {
		for _, e := range pf.Divide(&pos, *depth) {
			fmt.Fprintf(c.stdout, "%s %d\n", v.FormatMove(&pos, e.Move), e.Nodes)
		}
	}
	for d := 1; d <= *depth; d++ {
		start := time.Now()
		n := perftWithProgress(pf, &pos, d, start, c.stderr)
		el := time.Since(start)
		fmt.Fprintf(c.stdout, "perft depth=%d nodes=%d time=%.3f nps=%.0f\n", d, n, el.Seconds(), perSecond(n, el))
	}
	return 0
}

// perftWithProgress counts perft(depth) root move by root move, writing a
// progress line to stderr after each root move once the count has run for
// more than two seconds (the result on stdout is unchanged).
func perftWithProgress(pf *movegen.Perfter, p *movegen.Position, depth int, start time.Time, stderr io.Writer) uint64 {
	if depth < 3 {
		return pf.Perft(p, depth)
	}
	v := pf.Variant()
	var ml movegen.MoveList
	v.Generate(p, &ml)
	var n uint64
	for i, m := range ml.Slice() {
		c := *p
		c.Play(m)
		n += pf.Perft(&c, depth-1)
		if el := time.Since(start); el > 2*time.Second {
			fmt.Fprintf(stderr, "perft depth=%d: %d/%d root moves, %d nodes, %.1fs\n", depth, i+1, ml.N, n, el.Seconds())
		}
	}
	return n
}
