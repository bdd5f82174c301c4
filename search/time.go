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

// budget turns limits into a soft target (don't start a new iteration past
// it) and a hard limit (abort the search). Zero means no limit.
func budget(l Limits) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		t := l.MoveTime - Overhead/3
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
