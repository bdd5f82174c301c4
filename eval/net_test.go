package eval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// netVariants are the variants a network can be loaded for (every one with
// a learned layout).
func netVariants() []*movegen.Variant {
	var vs []*movegen.Variant
	for _, v := range learnedVariants {
		if NetSquares(v) > 0 {
			vs = append(vs, v)
		}
	}
	return vs
}

// randomNet returns a network of random weights for v, first-layer
// weights up to ±w1 units.
func randomNet(v *movegen.Variant, hidden, w1 int, seed uint64) NetWeights {
	r := rand.New(rand.NewPCG(seed, 17))
	n := NetInputKinds(v) * NetSquares(v) * hidden
	nw := NetWeights{Hidden: hidden, W1: make([]int16, n), B1: make([]int16, hidden), W2: make([]int32, hidden)}
	for i := range nw.W1 {
		nw.W1[i] = int16(r.IntN(2*w1+1) - w1)
	}
	for j := range nw.B1 {
		nw.B1[j] = int16(r.IntN(NetQ))
		nw.W2[j] = int32(r.IntN(2*50*NetOutScale+1) - 50*NetOutScale)
	}
	return nw
}

// withThreats returns nw with threat inputs of random weights up to ±w
// units (netthreat.go).
func withThreats(v *movegen.Variant, nw NetWeights, w int, seed uint64) NetWeights {
	r := rand.New(rand.NewPCG(seed, 23))
	nw.Threats = true
	for range NetThreatKinds * NetSquares(v) * nw.Hidden {
		nw.W1 = append(nw.W1, int16(r.IntN(2*w+1)-w))
	}
	return nw
}

// loadNet puts the network nw in use for v for the rest of test t.
func loadNet(t testing.TB, v *movegen.Variant, nw NetWeights) *Net {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err != nil {
		t.Fatal(err)
	}
	if err := LoadWeights(v, &buf); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ResetWeights(v) })
	n := ActiveNet(v)
	if n == nil {
		t.Fatal("ActiveNet: nil after loading a network")
	}
	return n
}

// floatNet is the network's score of p computed in floating point from
// its inputs (NetInputs), the reference the packed integer form must meet.
func floatNet(v *movegen.Variant, nw NetWeights, p *movegen.Position) float64 {
	a, b, _ := NetInputs(v, p, nil, nil)
	if nw.Threats {
		a, b = NetThreatInputs(v, p, a, b)
	}
	h := nw.Hidden
	var s float64
	for j := 0; j < h; j++ {
		sa, sb := float64(nw.B1[j]), float64(nw.B1[j])
		for _, i := range a {
			sa += float64(nw.W1[int(i)*h+j])
		}
		for _, i := range b {
			sb += float64(nw.W1[int(i)*h+j])
		}
		s += float64(nw.W2[j]) * (min(max(sa, 0), NetQ) - min(max(sb, 0), NetQ))
	}
	return s / (NetQ * NetOutScale)
}

// TestNetMatchesReference: on random games of every network variant, the
// packed evaluation is the float reference truncated, an accumulator
// updated move by move equals one computed from the pieces, and a position
// and its mirror score exactly opposite.
func TestNetMatchesReference(t *testing.T) {
	testNetMatchesReference(t, false)
}

// TestNetThreatsMatchReference: the same for networks with threat inputs
// (netthreat.go), whose updates apply the threats that changed.
func TestNetThreatsMatchReference(t *testing.T) {
	testNetMatchesReference(t, true)
}

func testNetMatchesReference(t *testing.T, threats bool) {
	for _, v := range netVariants() {
		for _, h := range []int{NetBlock, 32, MaxNetHidden} {
			nw := randomNet(v, h, 200, uint64(v.ID()*100+h))
			if threats {
				nw = withThreats(v, nw, 150, uint64(v.ID()*100+h))
			}
			n := loadNet(t, v, nw)
			r := rand.New(rand.NewPCG(uint64(h), 3))
			var ml movegen.MoveList
			for g := 0; g < 6; g++ {
				p := v.Start()
				var acc, full NetAcc
				n.Refresh(&acc, &p)
				// An ancestor a few plies up, as the search updates from
				// one in a step (its pieces and threats differing more).
				back, backAcc, backPly := p, acc, 0
				for ply := 0; ply < 160; ply++ {
					n.Refresh(&full, &p)
					if acc != full {
						t.Fatalf("%v h=%d game %d ply %d: updated sums differ from the pieces' (%s)", v, h, g, ply, v.FEN(&p))
					}
					var jump NetAcc
					n.Update(&jump, &backAcc, &back, &p)
					if jump != full {
						t.Fatalf("%v h=%d game %d ply %d: sums updated from %d plies up differ from the pieces' (%s)", v, h, g, ply, ply-backPly, v.FEN(&p))
					}
					if ply%5 == 3 {
						back, backAcc, backPly = p, acc, ply
					}
					got := n.Output(&acc)
					if want := math.Trunc(floatNet(v, nw, &p)); float64(got) != want {
						t.Fatalf("%v h=%d %s: output %d, float reference %v", v, h, v.FEN(&p), got, want)
					}
					q := v.Flip(&p)
					if a, b := EvaluateWhite(v, &p), EvaluateWhite(v, &q); a != -b {
						t.Fatalf("%v h=%d %s: white score %d, mirror %d", v, h, v.FEN(&p), a, b)
					}
					if a, b := n.White(&p, &acc), EvaluateWhite(v, &p); a != b {
						t.Fatalf("%v h=%d: White %d, EvaluateWhite %d", v, h, a, b)
					}
					v.Generate(&p, &ml)
					if ml.N == 0 {
						break
					}
					c := p
					c.Play(ml.Moves[r.IntN(ml.N)])
					var next NetAcc
					n.Update(&next, &acc, &p, &c)
					p, acc = c, next
				}
			}
			ResetWeights(v)
		}
	}
}

// TestNetOverflowRefused: a network whose hidden sums could leave the
// 16-bit lanes is refused, and a file of one is neither written nor read.
func TestNetOverflowRefused(t *testing.T) {
	v := movegen.International
	nw := randomNet(v, 16, 200, 1)
	for sq := 0; sq < NetSquares(v); sq++ {
		nw.W1[sq*16+3] = 700 // unit 3: 50 squares × 700 > 32767
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err == nil || !strings.Contains(err.Error(), "hidden unit 3") {
		t.Errorf("WriteNet of an overflowing network: %v", err)
	}
}

func TestNetFile(t *testing.T) {
	v := movegen.International
	nw := randomNet(v, 16, 150, 5)
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	p := gamesOf(v, 1, 40, 2)[39]
	checkRefused(t, v, &p, map[string]badFile{
		"truncated": {good[:len(good)/2], "truncated"},
		"corrupted": {flip(good, 60), "checksum"},
		"trailing":  {append(append([]byte(nil), good...), 0), "after the checksum"},
		"hidden":    {func() []byte { c := append([]byte(nil), good...); c[4+2+1+13+2] = 6; return c }(), "hidden units"},
	})
	if err := LoadWeights(movegen.Russian, bytes.NewReader(good)); err == nil || !strings.Contains(err.Error(), "for \"international\"") {
		t.Errorf("wrong variant: %v", err)
	}
	if _, err := ReadWeights(v, bytes.NewReader(good)); err == nil || !strings.Contains(err.Error(), "network") {
		t.Errorf("ReadWeights of a network file: %v", err)
	}
	if got, err := LoadWeightsFile(bytes.NewReader(good)); got != v || err != nil {
		t.Fatalf("LoadWeightsFile: %v, %v", got, err)
	}
	defer ResetWeights(v)
	n := ActiveNet(v)
	if n == nil {
		t.Fatal("no network in use after loading one")
	}
	var back bytes.Buffer
	if err := WriteNet(&back, v, n.Weights()); err != nil || !bytes.Equal(back.Bytes(), good) {
		t.Errorf("written again, the file differs (%v)", err)
	}
	if !UsesLearned(v) {
		t.Error("UsesLearned false with a network in use")
	}
	HandWrittenOnly(v)
	if ActiveNet(v) != nil {
		t.Error("ActiveNet after HandWrittenOnly")
	}
	// A network of four kinds (Italian's) does not fit Damone's six.
	var dm bytes.Buffer
	if err := WriteNet(&dm, movegen.Damone, randomNet(movegen.Italian, NetBlock, 100, 5)); err == nil ||
		!strings.Contains(err.Error(), "want 3072") {
		t.Errorf("WriteNet for Damone of Italian's inputs: %v, want an error naming 3072 weights", err)
	}
}

// TestNetDamoni: an Italian Damone network reads the Damoni as kinds of
// their own (4 own, 5 the other side's), the Dame as kings, in both views.
func TestNetDamoni(t *testing.T) {
	v := movegen.Damone
	if NetInputKinds(v) != NetKindsDamone || NetInputKinds(movegen.Italian) != NetKinds {
		t.Fatalf("input kinds: Damone %d, Italian %d", NetInputKinds(v), NetInputKinds(movegen.Italian))
	}
	p := v.Start() // one Damone, two Dame, five Pedine a side
	a, b, _ := NetInputs(v, &p, nil, nil)
	nsq := NetSquares(v)
	count := func(in []int32) (c [NetKindsDamone]int) {
		for _, x := range in {
			c[int(x)/nsq]++
		}
		return c
	}
	want := [NetKindsDamone]int{5, 5, 2, 2, 1, 1}
	if ca, cb := count(a), count(b); ca != want || cb != want {
		t.Errorf("start: inputs by kind, view A %v, view B %v; want %v each", ca, cb, want)
	}
	// The same position with White's Damone made a Dama scores otherwise.
	n := loadNet(t, v, randomNet(v, 32, 200, 9))
	q := p
	q.Super &^= p.Super & p.Pieces[movegen.White]
	if n.full(&p, true) == n.full(&q, true) {
		t.Errorf("a Damone and a Dama on the same square score the same (%d)", n.full(&p, true))
	}
}

func TestNetNoAllocs(t *testing.T) {
	v := movegen.International
	ps := gamesOf(v, 2, 60, 4)
	for _, nw := range []NetWeights{randomNet(v, 32, 150, 8), withThreats(v, randomNet(v, 32, 150, 8), 100, 8),
		withThreats(v, randomNet(v, MaxNetHidden, 100, 8), 60, 8)} {
		n := loadNet(t, v, nw)
		var acc, next NetAcc
		allocs := testing.AllocsPerRun(20, func() {
			for i := 1; i < len(ps); i++ {
				n.Refresh(&acc, &ps[i-1])
				n.Update(&next, &acc, &ps[i-1], &ps[i])
				_ = n.White(&ps[i], &next)
				_ = Evaluate(v, &ps[i])
			}
		})
		if allocs != 0 {
			t.Errorf("%d hidden units, threat inputs %v: %v allocations per run", nw.Hidden, nw.Threats, allocs)
		}
	}
}

// BenchmarkNetUpdateOutput is what the search pays for a network
// evaluation: one ply's update and the output layer (16 hidden units, as
// International's embedded network), the hand-written score included.
func BenchmarkNetUpdateOutput(b *testing.B) {
	v := movegen.International
	n := loadNet(b, v, randomNet(v, 16, 150, 8))
	ps := gamesOf(v, 4, 80, 4)
	accs := make([]NetAcc, len(ps))
	for i := range ps {
		n.Refresh(&accs[i], &ps[i])
	}
	var next NetAcc
	s := 0
	for i := 0; b.Loop(); i++ {
		k := 1 + i%(len(ps)-1)
		n.Update(&next, &accs[k-1], &ps[k-1], &ps[k])
		s += n.White(&ps[k], &next)
	}
	_ = s
}

// BenchmarkNetFull is the network evaluation from the pieces (Evaluate).
func BenchmarkNetFull(b *testing.B) {
	v := movegen.International
	loadNet(b, v, randomNet(v, 16, 150, 8))
	ps := gamesOf(v, 4, 80, 4)
	s := 0
	for i := 0; b.Loop(); i++ {
		s += Evaluate(v, &ps[i%len(ps)])
	}
	_ = s
}

// TestNetOutputKernel: the SSE2 output kernel's sum equals one computed
// lane by lane, and its score output1's, on random sums (edge lanes
// included) and weights (up to twice int16's range); a network with an
// output weight beyond that goes without the kernel, one within it takes
// the kernel, both score as the float reference; every embedded network
// takes the kernel.
func TestNetOutputKernel(t *testing.T) {
	if !haveNetKernels {
		t.Skip("no output kernel on this architecture")
	}
	r := rand.New(rand.NewPCG(5, 6))
	edges := []uint64{0, 0x7FFF, 0x8000, 0x8001, 0x8000 + NetQ - 1, 0x8000 + NetQ, 0x8000 + NetQ + 1, 0xFFFF}
	lane := func() uint64 {
		if r.IntN(3) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return uint64(r.IntN(1 << 16))
	}
	for trial := 0; trial < 20000; trial++ {
		w2 := make([]int32, NetBlock)
		var n Net
		for j := range w2 {
			x := int32(r.IntN(2*65534+1) - 65534)
			switch trial % 5 {
			case 0:
				x = []int32{-65534, 65534, -32767, 32767, -32768, 32768}[r.IntN(6)]
			case 1:
				x = int32(r.IntN(2*32767+1) - 32767)
			}
			w2[j] = x
			n.w2[0][j/4][j%4] = int64(x)
			n.w2q += NetQ * int64(x)
		}
		var acc NetAcc
		var want int64
		for j := 0; j < 16; j++ {
			a, b := lane(), lane()
			acc[0][j/4] |= a << (16 * (j % 4))
			acc[1][j/4] |= b << (16 * (j % 4))
			ca := min(max(int64(a)-0x8000, 0), NetQ)
			cb := min(max(int64(b)-0x8000, 0), NetQ)
			want += int64(w2[j]) * (ca - cb)
		}
		got := netOutput16((*[2]netBlock)(acc[:2]), splitOutput(w2))
		if int64(got) != want {
			t.Fatalf("trial %d: kernel sum %d, lane by lane %d (acc %x, w2 %v)", trial, got, want, acc[:2], w2)
		}
		if g, o := int64(got), n.output1(&acc); g != o {
			t.Fatalf("trial %d: kernel score %d, output1 %d", trial, g, o)
		}
	}
	fits := func(x int32) bool {
		w := make([]int32, NetBlock)
		w[7] = x
		return netOutputFits(w)
	}
	if !fits(65534) || !fits(-65534) || !fits(40000) || fits(65535) || fits(-65535) || netOutputFits([]int32{0}) {
		t.Errorf("netOutputFits: wrong about two int16 halves' range")
	}

	// A weight past one int16 (as Italian's network has) takes the kernel;
	// one past two goes without it; both score as the float reference.
	v := movegen.International
	for _, big := range []int32{40000, 70000} {
		nw := randomNet(v, NetBlock, 150, 9)
		nw.W2[5] = big
		n := loadNet(t, v, nw)
		if kernel := n.out16 != nil; kernel != (big < 65535) {
			t.Fatalf("output weight %d: kernel %v", big, kernel)
		}
		for _, p := range gamesOf(v, 2, 60, 3) {
			var acc NetAcc
			n.Refresh(&acc, &p)
			if got, want := n.Output(&acc), math.Trunc(floatNet(v, nw, &p)); float64(got) != want {
				t.Fatalf("weight %d, %s: output %d, float reference %v", big, v.FEN(&p), got, want)
			}
		}
	}
	ResetWeights(v)
	for _, v := range netVariants() {
		p := v.Start()
		Evaluate(v, &p)
		e := ActiveNet(v)
		if e == nil && (v == movegen.Italian || v == movegen.International) {
			t.Errorf("%v has no embedded network", v)
		}
		if e != nil && e.out16 == nil && (e.outWide == nil || !netWideKernels) {
			t.Errorf("%v's embedded network does not use an output kernel", v)
		}
	}
}

// TestNetPortablePaths: the one-block network's portable update and
// output (update1, output1: what runs without the SSE2 kernels) agree
// with the kernels and with sums computed from the pieces, move by move
// on random games of every network variant.
func TestNetPortablePaths(t *testing.T) {
	checked := 0
	for _, v := range netVariants() {
		if NetInputKinds(v) != NetKinds {
			continue // Damone's networks take updateBlocks (TestNetMatchesReference)
		}
		nw := randomNet(v, NetBlock, 200, uint64(v.ID()*7+1))
		n := loadNet(t, v, nw)
		if haveNetKernels && (n.lanes == nil || n.out16 == nil) {
			t.Fatalf("%v: a one-block network without its kernels", v)
		}
		r := rand.New(rand.NewPCG(uint64(v.ID()), 11))
		var ml movegen.MoveList
		for g := 0; g < 4; g++ {
			p := v.Start()
			var acc NetAcc
			n.Refresh(&acc, &p)
			for ply := 0; ply < 160; ply++ {
				if a, b := int(n.output1(&acc)/(NetQ*NetOutScale)), n.Output(&acc); a != b {
					t.Fatalf("%v %s: output1 %d, Output %d", v, v.FEN(&p), a, b)
				}
				v.Generate(&p, &ml)
				if ml.N == 0 {
					break
				}
				c := p
				c.Play(ml.Moves[r.IntN(ml.N)])
				var viaGo, viaUpdate, full NetAcc
				n.update1(&viaGo, &acc, &p, &c)
				n.Update(&viaUpdate, &acc, &p, &c)
				n.Refresh(&full, &c)
				if viaGo != full || viaUpdate != full {
					t.Fatalf("%v %s after %s: update1 and Update differ from the pieces' sums", v, v.FEN(&p), v.HubMove(ml.Moves[0]))
				}
				p, acc = c, full
				checked++
			}
		}
		ResetWeights(v)
	}
	if checked < 1000 {
		t.Errorf("only %d moves checked", checked)
	}
}

// TestNetThreatsFile: a network with threat inputs is a version 8 file,
// with or without tempo weights and pattern tables, read back as written;
// damaged flags are refused, the score kept.
func TestNetThreatsFile(t *testing.T) {
	v := movegen.International
	p := gamesOf(v, 1, 40, 2)[39]
	for _, c := range []struct {
		name         string
		tempo, table bool
	}{{"bare", false, false}, {"tempo", true, false}, {"tempo and tables", true, true}} {
		nw := withThreats(v, randomNet(v, 16, 120, 7), 100, 7)
		if c.tempo {
			nw.T = make([]int32, nw.Hidden)
			for j := range nw.T {
				nw.T[j] = int32(j*37%101 - 50)
			}
		}
		if c.table {
			w := make([]int16, PatternWindows(v, PatSquare)*PatSquare.Configs()*2)
			w[5], w[len(w)-1] = 40, -30
			nw.Pats = []PatSet{{Shape: PatSquare, W: w}}
		}
		var buf bytes.Buffer
		if err := WriteNet(&buf, v, nw); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		good := buf.Bytes()
		back, err := ReadNet(v, bytes.NewReader(good))
		if err != nil || good[4] != ThreatVersion || !back.Threats || (back.T != nil) != c.tempo || len(back.Pats) != len(nw.Pats) {
			t.Fatalf("%s: version %d, read back %+v, %v", c.name, good[4], back, err)
		}
		var again bytes.Buffer
		if err := WriteNet(&again, v, *back); err != nil || !bytes.Equal(again.Bytes(), good) {
			t.Errorf("%s: written again, the file differs (%v)", c.name, err)
		}
		flags := 4 + 2 + 1 + len(WeightsName(v)) + 6
		set := func(x byte) []byte { b := bytes.Clone(good); b[flags] = x; return b }
		checkRefused(t, v, &p, map[string]badFile{
			"no threat flag": {set(good[flags] &^ 2), "flags"},
			"unknown flag":   {set(good[flags] | 4), "flags"},
			"truncated":      {good[:len(good)-9], "truncated"},
		})
	}
}
