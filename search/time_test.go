package search

import (
	"testing"
	"time"
)

// TestBudgetNeverExceedsClock: for every clock form the hard limit leaves
// at least the overhead margin of the time available (time + inc), and a
// fixed move time is never exceeded.
func TestBudgetNeverExceedsClock(t *testing.T) {
	ms := time.Millisecond
	for _, left := range []time.Duration{-5 * ms, 0, ms, 20 * ms, 70 * ms, 100 * ms, 300 * ms, time.Second, 10 * time.Second, 600 * time.Second} {
		for _, inc := range []time.Duration{0, 10 * ms, 20 * ms, 100 * ms, time.Second} {
			for _, mtg := range []int{0, 1, 2, 40} {
				soft, hard := budget(Limits{HasClock: true, Time: left, Inc: inc, MovesToGo: mtg})
				avail := max(left, 0) + inc
				if hard <= 0 || soft <= 0 || soft > hard {
					t.Errorf("time %v inc %v moves %d: soft %v hard %v", left, inc, mtg, soft, hard)
				}
				if avail > Overhead+2*ms && hard > avail-Overhead {
					t.Errorf("time %v inc %v moves %d: hard %v leaves less than the margin of %v", left, inc, mtg, hard, avail)
				}
			}
		}
	}
	for _, mt := range []time.Duration{ms, 50 * ms, time.Second} {
		if _, hard := budget(Limits{MoveTime: mt}); hard > mt {
			t.Errorf("move time %v: hard %v", mt, hard)
		}
	}
	if soft, hard := budget(Limits{Infinite: true, HasClock: true, Time: ms}); soft != 0 || hard != 0 {
		t.Errorf("infinite has a budget: %v %v", soft, hard)
	}
}
