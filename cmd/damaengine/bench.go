package main

import (
	"fmt"
	"io"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
)

// runBench implements "damaengine bench [--variant V|all] [--depth N]": a
// line per position, then "bench nodes=N time=S nps=X".
func runBench(args []string, stdout, stderr io.Writer) int {
	c := newCommand("bench", "damaengine bench [--variant V|all] [--depth N]", stdout, stderr)
	variant := c.String("variant", "italian", "rule set, or all")
	depth := c.Int("depth", bench.DefaultBenchDepth, "search depth per position")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *depth < 1 || *depth > 60 {
		return c.fail(2, "--depth %d out of range 1-60", *depth)
	}
	var vs []*movegen.Variant
	if *variant == "all" {
		for _, v := range movegen.Variants() {
			if len(bench.BenchPositions[v.Name]) > 0 {
				vs = append(vs, v)
			}
		}
	} else {
		v, err := movegen.Lookup(*variant)
		if err != nil {
			return c.fail(2, "%v", err)
		}
		vs = append(vs, v)
	}
	var total uint64
	var elapsed time.Duration
	for _, v := range vs {
		done := 0
		count := len(bench.BenchPositions[v.Name])
		n, el, err := bench.Bench(v, *depth, func(l bench.BenchLine) {
			done++
			fmt.Fprintf(stderr, "bench %s: %d/%d positions\n", v.Name, done, count)
			nps := 0.0
			if s := l.Time.Seconds(); s > 0 {
				nps = float64(l.Nodes) / s
			}
			fmt.Fprintf(stdout, "position variant=%s fen=%s move=%s score=%d nodes=%d time=%.3f nps=%.0f\n",
				l.Variant, l.FEN, l.Move, l.Score, l.Nodes, l.Time.Seconds(), nps)
		})
		if err != nil {
			return c.fail(2, "%v", err)
		}
		total += n
		elapsed += el
	}
	nps := 0.0
	if s := elapsed.Seconds(); s > 0 {
		nps = float64(total) / s
	}
	fmt.Fprintf(stdout, "bench nodes=%d time=%.3f nps=%.0f\n", total, elapsed.Seconds(), nps)
	return 0
}
