package protocol

import (
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// A strength level weakens play the way lidraughts weakens Scan: a cap on
// the nodes and the time of each move, and at the lower levels noise in
// the evaluation, so that among moves the search finds nearly equal the
// choice is random (the noise is a fixed function of the position and a
// seed drawn per search, so the search stays consistent within a move).
// Every level still searches captures to the end (the quiescence search
// is untouched), and the noise stays below half a man (two noisy
// evaluations differ by less than a man), so even level 1 never gives a
// man away for nothing that its search sees.
type strength struct {
	name  string
	nodes uint64        // cap on the nodes per move (0: none)
	time  time.Duration // cap on the time per move (0: none)
	noise int           // evaluation noise, ± centi-men (0: none)
}

// levels are the strength levels, weakest first; the last is full
// strength.
var levels = []strength{
	{name: "1", nodes: 100, time: 50 * time.Millisecond, noise: 45},
	{name: "2", nodes: 150, time: 100 * time.Millisecond, noise: 35},
	{name: "3", nodes: 500, time: 150 * time.Millisecond, noise: 25},
	{name: "4", nodes: 1500, time: 200 * time.Millisecond, noise: 15},
	{name: "5", nodes: 6000, time: 300 * time.Millisecond, noise: 8},
	{name: "6", nodes: 25000, time: 500 * time.Millisecond, noise: 4},
	{name: "7", nodes: 100000, time: 700 * time.Millisecond},
	{name: "8", nodes: 400000, time: time.Second},
	{name: "max"},
}

var levelNames = func() []string {
	var n []string
	for _, l := range levels {
		n = append(n, l.name)
	}
	return n
}()

func levelByName(s string) strength {
	for _, l := range levels {
		if l.name == s {
			return l
		}
	}
	return levels[len(levels)-1]
}

// limit caps the client's limits by the level.
func (s strength) limit(lim search.Limits) search.Limits {
	if s.nodes > 0 && (lim.Nodes == 0 || lim.Nodes > s.nodes) {
		lim.Nodes = s.nodes
	}
	if s.time > 0 && !lim.Infinite && (lim.MoveTime == 0 || lim.MoveTime > s.time) {
		lim.MoveTime = s.time
	}
	return lim
}

// evalFunc returns the evaluation a search at this level uses.
func (s strength) evalFunc(seed uint64) search.EvalFunc {
	if s.noise == 0 {
		return eval.Evaluate
	}
	span := uint64(2*s.noise + 1)
	noise := s.noise
	return func(v *movegen.Variant, p *movegen.Position) int {
		x := (p.Key ^ seed) * 0x9E3779B97F4A7C15
		x ^= x >> 29
		return eval.Evaluate(v, p) + int(x%span) - noise
	}
}
