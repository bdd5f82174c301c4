package eval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// withTempoWeights returns nw with random tempo weights within ±lim.
func withTempoWeights(nw NetWeights, lim int, seed uint64) NetWeights {
	r := rand.New(rand.NewPCG(seed, 0x7e))
	nw.T = make([]int32, nw.Hidden)
	for j := range nw.T {
		nw.T[j] = int32(r.IntN(2*lim+1) - lim)
	}
	return nw
}

// floatTempo is the float reference of a tempo network's part of White's
// score in p (nettempo.go).
func floatTempo(v *movegen.Variant, nw NetWeights, p *movegen.Position) float64 {
	a, b, _ := NetInputs(v, p, nil, nil)
	h := nw.Hidden
	s := 1.0
	if p.Side == movegen.Black {
		s = -1
	}
	var sum float64
	for j := 0; j < h; j++ {
		sa, sb := float64(nw.B1[j]), float64(nw.B1[j])
		for _, i := range a {
			sa += float64(nw.W1[int(i)*h+j])
		}
		for _, i := range b {
			sb += float64(nw.W1[int(i)*h+j])
		}
		ca, cb := min(max(sa, 0), NetQ), min(max(sb, 0), NetQ)
		sum += float64(nw.W2[j])*(ca-cb) + s*float64(nw.T[j])*(ca+cb)
	}
	return sum / (NetQ * NetOutScale)
}

// TestNetTempo: a network with tempo weights scores every position of
// random games as the float reference truncated, with the kernel and
// without it; the colour mirror (the other side to move) scores exactly
// opposite; and the tempo term changes the score when only the side to
// move changes.
func TestNetTempo(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.International, movegen.English, movegen.Italian} {
		for _, h := range []int{16, 64, 256, 48, 80} {
			// T within int16 with W2 ± T too (one kernel for both terms),
			// T within int16 but W2 ± T beyond (a kernel each), and T
			// beyond (portable).
			for _, lim := range []int{3000, 32000, 60000} {
				nw := withTempoWeights(randomNet(v, h, 60, uint64(h)), lim, uint64(lim))
				n := buildNet(t, v, nw)
				if wide := netWideKernels && h > NetBlock; (n.tempoPM != nil) != (wide && lim == 3000) || (n.tempoWide != nil) != (wide && lim < 60000) {
					t.Fatalf("%v h=%d lim=%d: one-pass weights %v, tempo kernel weights %v", v, h, lim, n.tempoPM != nil, n.tempoWide != nil)
				}
				var acc, mirror NetAcc
				differ := 0
				for _, game := range wideGames(v, 3, 120, uint64(h+lim)) {
					for _, p := range game {
						n.Refresh(&acc, &p)
						got := n.withTempo(&acc, p.Side)
						var port int
						withPortable(func() { port = n.withTempo(&acc, p.Side) })
						if want := int(math.Trunc(floatTempo(v, nw, &p))); got != want || port != want {
							t.Fatalf("%v h=%d lim=%d %s: kernel %d, portable %d, float %d", v, h, lim, v.FEN(&p), got, port, want)
						}
						q := v.Flip(&p)
						n.Refresh(&mirror, &q)
						if m := n.White(&q, &mirror) - n.hand(&q); m != -got {
							t.Fatalf("%v h=%d %s: %d, its mirror %d", v, h, v.FEN(&p), got, m)
						}
						if n.withTempo(&acc, 1-p.Side) != got {
							differ++
						}
					}
				}
				if differ == 0 {
					t.Fatalf("%v h=%d: the side to move never changed the score", v, h)
				}
			}
		}
	}
}

// TestNetTempoFile: a tempo network is written as version 3 and reads
// back the same; a file cut short is refused and the weights in use stay.
func TestNetTempoFile(t *testing.T) {
	v := movegen.International
	nw := withTempoWeights(randomNet(v, 128, 60, 5), 2000, 9)
	n := loadNet(t, v, nw)
	if n.tw == nil || (netWideKernels && n.tempoWide == nil) {
		t.Fatalf("tempo weights not in use (portable %v, kernel %v)", n.tw != nil, n.tempoWide != nil)
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if ver := int(b[4]) | int(b[5])<<8; ver != TempoVersion {
		t.Fatalf("written as version %d, want %d", ver, TempoVersion)
	}
	p := wideGames(v, 1, 40, 3)[0][39]
	if got, want := EvaluateWhite(v, &p), n.hand(&p)+int(math.Trunc(floatTempo(v, nw, &p))); got != want {
		t.Fatalf("EvaluateWhite %d, want %d", got, want)
	}
	err := LoadWeights(v, bytes.NewReader(b[:len(b)-10]))
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("a cut file: err %v", err)
	}
	if ActiveNet(v) != n {
		t.Fatal("a refused file changed the network in use")
	}
}

func TestNetTempoNoAllocs(t *testing.T) {
	v := movegen.International
	n := buildNet(t, v, withTempoWeights(randomNet(v, 256, 60, 2), 2000, 3))
	game := wideGames(v, 1, 30, 4)[0]
	var a, b NetAcc
	n.Refresh(&a, &game[0])
	if allocs := testing.AllocsPerRun(50, func() {
		n.Update(&b, &a, &game[0], &game[1])
		_ = n.White(&game[1], &b)
	}); allocs != 0 {
		t.Fatalf("%v allocations an update and evaluation", allocs)
	}
}
