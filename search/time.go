package search

import "time"

// Limits bounds a search. Zero values mean "no limit of this kind"; with no
// limit at all the search runs until stopped.
type Limits struct {
	Depth     int           // plies
	Nodes     uint64        // nodes, counted over all threads
	MoveTime  time.Duration // fixed time for this move
	Time      time.Duration // time left on the clock (with HasClock)
	Inc       time.Duration // increment, added before each move
	MovesToGo int           // moves to the next time control (0: sudden death)
	HasClock  bool          // Time and Inc apply
	Infinite  bool          // search until stopped
}

// Overhead is the time kept back from every move for the engine's own
// latency, the pipe to the GUI and a busy machine that does not schedule
// the engine at once.
const Overhead = 100 * time.Millisecond

// MoveTimeMargin is what a fixed move time keeps back for the engine's own
// latency: reading the command, setting up the search, noticing the clock
// (every 1024 nodes), unwinding and writing done. Measured from go to done
// through a pipe (scripts/timeuse.py) it is 1-3 ms; the margin leaves room
// for a busy machine on top.
const MoveTimeMargin = 4 * time.Millisecond

// budget turns limits into a soft target and a hard limit. Zero means no
// limit. With a fixed move time both are the move time less a small margin:
// the move time is a target the search uses in full. With a clock the soft
// target is the share of the clock this move should take; iterative
// deepening stretches or shrinks it by how settled the best move is (see
// timeScale), and the hard limit is where a search is cut off whatever it
// is doing.
func budget(l Limits) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		t := l.MoveTime - MoveTimeMargin - l.MoveTime/100
		if t < time.Millisecond {
			t = time.Millisecond
		}
		soft, hard = t, t
	}
	if l.HasClock {
		left := l.Time
		if left < 0 {
			left = 0
		}
		avail := left + l.Inc // the increment is added before the move
		margin := Overhead + avail/10
		usable := avail - margin
		if usable < time.Millisecond {
			usable = time.Millisecond
		}
		mtg := l.MovesToGo
		if mtg <= 0 || mtg > 30 {
			mtg = 30
		}
		s := left/time.Duration(mtg) + l.Inc*3/4
		// Never more than a third of what is left above the margin (plus
		// half the increment) in one move: on a low clock the engine then
		// settles on the increment with a reserve that a busy machine's
		// scheduling delays do not eat.
		h := min(usable, 4*s, usable/3+l.Inc/2)
		if h < time.Millisecond {
			h = time.Millisecond
		}
		s = max(min(s, h), time.Millisecond)
		if soft == 0 || s < soft {
			soft = s
		}
		if hard == 0 || h < hard {
			hard = h
		}
	}
	return soft, hard
}

// clockStop reports whether iterative deepening under a clock should start
// no new iteration: the time spent passed the share of the soft target that
// leaves the next iteration (about as long as all before it) room to finish
// before the target. The target is stretched while the best move keeps
// changing or the score falls, and shrunk when the best move has stood for
// many iterations.
func clockStop(elapsed, soft time.Duration, changes, stable, drop int) bool {
	scale := 100 + 40*min(changes, 4)
	switch {
	case drop >= 50:
		scale += 60
	case drop >= 20:
		scale += 30
	}
	if stable >= 8 && changes == 0 && drop <= 0 {
		scale = scale * 7 / 10
	}
	return elapsed > soft*time.Duration(scale)/100*55/100
}
