package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// runBench implements "damaengine bench [--variant V|all] [--depth N]
// [--hand-written | --eval-file FILE] [--cpuprofile FILE]": a line per
// position, then "bench nodes=N time=S nps=X". The CPU profile is what
// cmd/damaengine/default.pgo is made of (README, "Profile-guided build").
func runBench(c *command, args []string) int {
	variant := c.String("variant", "italian", "rule set, or all")
	depth := c.Int("depth", bench.DefaultBenchDepth, "search depth per position")
	hand := c.Bool("hand-written", false, "the hand-written evaluation alone, without the learned correction (to compare the search's speed with builds that had no learned evaluation)")
	evalFile := c.String("eval-file", "", "a weights file (tune fit's output) in use instead of the embedded weights of its variant")
	profile := c.String("cpuprofile", "", "write a CPU profile of the searches (pprof format) to this file")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *hand && *evalFile != "" {
		return c.fail(2, "--hand-written and --eval-file exclude each other")
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
	if *hand {
		for _, v := range vs {
			eval.HandWrittenOnly(v)
		}
		defer func() {
			for _, v := range vs {
				eval.ResetWeights(v)
			}
		}()
	}
	if *evalFile != "" {
		f, err := os.Open(*evalFile)
		if err != nil {
			return c.fail(1, "--eval-file: %v", err)
		}
		v, err := eval.LoadWeightsFile(f)
		f.Close()
		if err != nil {
			return c.fail(1, "--eval-file %s: %v", *evalFile, err)
		}
		defer eval.ResetWeights(v)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return c.fail(1, "--cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return c.fail(1, "--cpuprofile %s: %v", *profile, err)
		}
		defer pprof.StopCPUProfile()
	}
	var total uint64
	var elapsed time.Duration
	for _, v := range vs {
		done := 0
		count := len(bench.BenchPositions[v.Name])
		n, el, err := bench.Bench(v, *depth, func(l bench.BenchLine) {
			done++
			fmt.Fprintf(c.stderr, "bench %s: %d/%d positions\n", v.Name, done, count)
			fmt.Fprintf(c.stdout, "position variant=%s fen=%s move=%s score=%d nodes=%d time=%.3f nps=%.0f\n",
				l.Variant, l.FEN, l.Move, l.Score, l.Nodes, l.Time.Seconds(), perSecond(l.Nodes, l.Time))
		})
		if err != nil {
			return c.fail(2, "%v", err)
		}
		total += n
		elapsed += el
	}
	fmt.Fprintf(c.stdout, "bench nodes=%d time=%.3f nps=%.0f\n", total, elapsed.Seconds(), perSecond(total, elapsed))
	return 0
}

// perSecond returns the rate of n in el, 0 when no time was measured.
func perSecond(n uint64, el time.Duration) float64 {
	if s := el.Seconds(); s > 0 {
		return float64(n) / s
	}
	return 0
}
