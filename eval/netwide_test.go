package eval

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// The wide networks' tests: the AVX2 kernels (netwide_amd64.s) against
// the portable path, the pieces and the float reference.

// wideGames returns games random moves long on v, each a list of its
// positions from the start.
func wideGames(v *movegen.Variant, games, maxPlies int, seed uint64) [][]movegen.Position {
	r := rand.New(rand.NewPCG(seed, 0x71de))
	var out [][]movegen.Position
	var ml movegen.MoveList
	for g := 0; g < games; g++ {
		p := v.Start()
		var game []movegen.Position
		for ply := 0; ply < maxPlies; ply++ {
			game = append(game, p)
			v.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[r.IntN(ml.N)])
		}
		out = append(out, game)
	}
	return out
}

// buildNet returns the network nw for v without putting it in use.
func buildNet(t testing.TB, v *movegen.Variant, nw NetWeights) *Net {
	t.Helper()
	n, err := newNet(layoutOf(v), nw)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// refreshPortable is Refresh with the wide kernels off.
func refreshPortable(n *Net, acc *NetAcc, p *movegen.Position) {
	withPortable(func() { n.Refresh(acc, p) })
}

// withPortable runs f with the wide kernels off.
func withPortable(f func()) {
	old := netWideKernels
	netWideKernels = false
	defer func() { netWideKernels = old }()
	f()
}

func TestCheckNetHidden(t *testing.T) {
	for h := 0; h <= MaxNetHidden+2*NetBlock; h += 8 {
		want := h >= NetBlock && h <= 256 && h%NetBlock == 0
		if err := CheckNetHidden(h); (err == nil) != want {
			t.Errorf("CheckNetHidden(%d): %v", h, err)
		} else if err != nil && !strings.Contains(err.Error(), "from 16 to 256") {
			t.Errorf("CheckNetHidden(%d): %v", h, err)
		}
	}
}

// TestNetWideKernels: for networks of 32 to 256 hidden units (and 48, 80
// and 112, of an odd number of blocks a view: after its passes of eight
// blocks the update kernel takes two at a time, once to thrice) on
// International's and Italian's layouts, weights up to the 16-bit bound
// and output weights within one int16, within two, and beyond, random
// games are followed move by move with the kernels (Update, Output) and
// with the portable path (updateBlocks, outputBlocks): both equal the
// sums from the pieces (Refresh, with netWideKernels on and off) at every
// ply, score the same as each other and as the float reference, and a
// position's mirror scores exactly opposite.
func TestNetWideKernels(t *testing.T) {
	if !netWideKernels {
		t.Skip("no AVX2 here")
	}
	plies := 0
	for _, v := range []*movegen.Variant{movegen.International, movegen.Italian} {
		nsq := NetSquares(v)
		for i, h := range []int{32, 64, 128, 256, 48, 80, 112} {
			// Alternately modest first-layer weights and the largest the
			// 16-bit bound allows (bias below NetQ plus nsq squares).
			w1 := []int{150, (32767 - NetQ) / nsq}[i%2]
			nw := randomNet(v, h, w1, uint64(v.ID()*1000+h))
			switch i % 3 {
			case 1: // output weights beyond one int16: two halves
				r := rand.New(rand.NewPCG(uint64(h), 1))
				for j := range nw.W2 {
					nw.W2[j] = int32(r.IntN(2*65534+1) - 65534)
				}
			case 2: // one beyond two halves: the portable output
				nw.W2[h-1] = 70000
			}
			n := buildNet(t, v, nw)
			if n.wide == nil || (n.outWide == nil) != (i%3 == 2) || n.outTwo != (i%3 == 1) {
				t.Fatalf("%v h=%d: wide %v, output kernel %v (two halves %v)", v, h, n.wide != nil, n.outWide != nil, n.outTwo)
			}
			for g, game := range wideGames(v, 3, 200, uint64(h)) {
				var acc, port, full, fullPort, mirror NetAcc
				n.Refresh(&acc, &game[0])
				refreshPortable(n, &port, &game[0])
				for ply, p := range game {
					if ply > 0 {
						var next, nextPort NetAcc
						n.Update(&next, &acc, &game[ply-1], &p)
						n.updateBlocks(&nextPort, &port, &game[ply-1], &p)
						acc, port = next, nextPort
					}
					n.Refresh(&full, &p)
					refreshPortable(n, &fullPort, &p)
					if acc != fullPort || port != fullPort || full != fullPort {
						t.Fatalf("%v h=%d game %d ply %d (%s): kernel update %v, portable update %v, kernel refresh %v equal the pieces' sums",
							v, h, g, ply, v.FEN(&p), acc == fullPort, port == fullPort, full == fullPort)
					}
					got, gotPort := n.Output(&acc), int(n.outputBlocks(&acc)/(NetQ*NetOutScale))
					if got != gotPort {
						t.Fatalf("%v h=%d %s: Output %d, outputBlocks %d", v, h, v.FEN(&p), got, gotPort)
					}
					if want := math.Trunc(floatNet(v, nw, &p)); float64(got) != want {
						t.Fatalf("%v h=%d %s: output %d, float reference %v", v, h, v.FEN(&p), got, want)
					}
					q := v.Flip(&p)
					n.Refresh(&mirror, &q)
					if m := n.Output(&mirror); m != -got {
						t.Fatalf("%v h=%d %s: output %d, its mirror's %d", v, h, v.FEN(&p), got, m)
					}
					plies++
				}
			}
		}
	}
	t.Logf("%d plies", plies)
	if plies < 2000 {
		t.Errorf("only %d plies checked", plies)
	}
}

// TestNetWideManyChanges: Update between positions far apart, some
// changing more pieces than the kernel takes at once (netMaxChanges: the
// portable path), gives the sums of the pieces.
func TestNetWideManyChanges(t *testing.T) {
	v := movegen.International
	n := buildNet(t, v, randomNet(v, 128, 200, 3))
	games := wideGames(v, 4, 120, 9)
	var ps []movegen.Position
	for _, g := range games {
		ps = append(ps, g...)
	}
	// The colours swapped: every piece changes (not a position a game
	// reaches, but Update needs none).
	s := v.Start()
	sw := s
	sw.Pieces[movegen.White], sw.Pieces[movegen.Black] = s.Pieces[movegen.Black], s.Pieces[movegen.White]
	ps = append(ps, s, sw, s)
	r := rand.New(rand.NewPCG(4, 4))
	many := 0
	for k := 0; k < 400; k++ {
		i, j := r.IntN(len(ps)), r.IntN(len(ps))
		if k < 2 {
			i, j = len(ps)-2+k-1, len(ps)-2+k
		}
		a, b := &ps[i], &ps[j]
		var from, got, want NetAcc
		n.Refresh(&from, a)
		n.Update(&got, &from, a, b)
		refreshPortable(n, &want, b)
		if got != want {
			t.Fatalf("Update from %s to %s differs from the pieces' sums", v.FEN(a), v.FEN(b))
		}
		changes := 0
		for k, x := range netSets(a) {
			changes += bits.OnesCount64(x ^ netSets(b)[k])
		}
		if changes > netMaxChanges {
			many++
		}
	}
	if many == 0 {
		t.Error("no update changed more than netMaxChanges pieces")
	}
}

// TestNetOutputWideKernel: netOutputWide's sum equals one computed lane by
// lane in int64, for 2 to 16 blocks a view, on random lanes (edges
// included) and output weights up to ±65,534, and at the extreme where the
// sum passes int32 (every weight 65,534, every difference NetQ).
func TestNetOutputWideKernel(t *testing.T) {
	if !netWideKernels {
		t.Skip("no AVX2 here")
	}
	r := rand.New(rand.NewPCG(8, 9))
	edges := []uint16{0, 0x7FFF, 0x8000, 0x8001, 0x8000 + NetQ - 1, 0x8000 + NetQ, 0x8000 + NetQ + 1, 0xFFFF}
	lane := func() uint16 {
		if r.IntN(3) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return uint16(r.IntN(1 << 16))
	}
	set := func(acc *NetAcc, blk, j int, x uint16) {
		acc[blk][j/4] = acc[blk][j/4]&^(0xFFFF<<(16*(j%4))) | uint64(x)<<(16*(j%4))
	}
	for trial := 0; trial < 5000; trial++ {
		nb := 2 + trial%(netBlocks-1)
		h := nb * NetBlock
		extreme := trial < netBlocks-1
		w2 := make([]int32, h)
		var acc NetAcc
		var want int64
		for j := range w2 {
			w := int32(r.IntN(2*65534+1) - 65534)
			switch {
			case extreme:
				w = 65534
			case trial%4 == 1:
				w = int32(r.IntN(2*32767+1) - 32767)
			case trial%4 == 2:
				w = []int32{-65534, 65534, -32767, 32767, -32768, 32768}[r.IntN(6)]
			}
			w2[j] = w
			a, b := lane(), lane()
			if extreme {
				a, b = 0xFFFF, 0
			}
			set(&acc, j/NetBlock, j%NetBlock, a)
			set(&acc, nb+j/NetBlock, j%NetBlock, b)
			ca := min(max(int64(a)-0x8000, 0), NetQ)
			cb := min(max(int64(b)-0x8000, 0), NetQ)
			want += int64(w) * (ca - cb)
		}
		hw, two := splitOutputWide(w2)
		if got := netOutputWide(&acc, &hw[0], nb, two); got != want {
			t.Fatalf("trial %d, %d blocks: kernel sum %d, lane by lane %d", trial, nb, got, want)
		}
		if extreme && nb == netBlocks && want <= math.MaxInt32 {
			t.Fatalf("the extreme sum %d stays within int32", want)
		}
	}
	if h, _ := splitOutputWide([]int32{1, 65535}); h != nil {
		t.Error("splitOutputWide: 65,535 split")
	}
	if h, two := splitOutputWide([]int32{1, -32767, 32767}); h == nil || two {
		t.Errorf("splitOutputWide of int16 weights: %v, second halves %v", h, two)
	}
}

// TestNetWideSwitch: with netWideKernels off a wide network is built
// without its lanes and scores as with them; one built with them takes the
// portable path while it is off and gives the same sums.
func TestNetWideSwitch(t *testing.T) {
	v := movegen.Italian
	nw := randomNet(v, 64, 300, 12)
	n := buildNet(t, v, nw)
	var plain *Net
	withPortable(func() { plain = buildNet(t, v, nw) })
	if plain.wide != nil || plain.outWide != nil {
		t.Fatal("built with the kernels off, the network has its lanes")
	}
	if netWideKernels && n.wide == nil {
		t.Fatal("built with the kernels on, the network has no lanes")
	}
	game := wideGames(v, 1, 100, 5)[0]
	var a, b, c NetAcc
	n.Refresh(&a, &game[0])
	plain.Refresh(&b, &game[0])
	withPortable(func() { n.Refresh(&c, &game[0]) })
	for i := 1; i < len(game); i++ {
		var na, nb, nc NetAcc
		n.Update(&na, &a, &game[i-1], &game[i])
		plain.Update(&nb, &b, &game[i-1], &game[i])
		withPortable(func() { n.Update(&nc, &c, &game[i-1], &game[i]) })
		a, b, c = na, nb, nc
		if a != b || a != c {
			t.Fatalf("ply %d: the sums differ with the kernels on and off", i)
		}
		var off int
		withPortable(func() { off = n.Output(&a) })
		if x, y := n.Output(&a), plain.Output(&b); x != y || x != off {
			t.Fatalf("ply %d: outputs %d, %d, %d", i, x, y, off)
		}
	}
}

// TestNetWideFile: a network of MaxNetHidden units is written, read back
// and put in use on the largest board and the most squares (International,
// Turkish), and every embedded network takes the kernels of its size
// (the one-block SSE2 ones at 16 units, the wide AVX2 ones above).
func TestNetWideFile(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.International, movegen.Turkish} {
		nw := randomNet(v, MaxNetHidden, 150, 21)
		n := loadNet(t, v, nw)
		if n.nb != MaxNetHidden/NetBlock || (netWideKernels && n.wide == nil) {
			t.Fatalf("%v: %d blocks, lanes %v", v, n.nb, n.wide != nil)
		}
		var buf bytes.Buffer
		if err := WriteNet(&buf, v, n.Weights()); err != nil || buf.Len() > maxWeightsFile {
			t.Fatalf("%v: written again: %v, %d bytes", v, err, buf.Len())
		}
		p := gamesOf(v, 1, 30, 6)[29]
		if got, want := EvaluateWhite(v, &p), n.hand(&p)+int(math.Trunc(floatNet(v, nw, &p))); got != want {
			t.Errorf("%v: EvaluateWhite %d, hand-written + float network %d", v, got, want)
		}
		ResetWeights(v)
	}
	for _, v := range netVariants() {
		p := v.Start()
		Evaluate(v, &p)
		e := ActiveNet(v)
		if e == nil {
			continue
		}
		if one := e.nb == 1; one && (e.wide != nil || e.outWide != nil) || !one && netWideKernels && (e.wide == nil || e.outWide == nil) {
			t.Errorf("%v's embedded network: %d blocks a view, wide kernels %v %v", v, e.nb, e.wide != nil, e.outWide != nil)
		}
	}
}

func TestNetWideNoAllocs(t *testing.T) {
	v := movegen.International
	n := buildNet(t, v, randomNet(v, MaxNetHidden, 150, 8))
	game := wideGames(v, 1, 60, 4)[0]
	accs := make([]NetAcc, len(game))
	for i := range game {
		n.Refresh(&accs[i], &game[i])
	}
	var next NetAcc
	s := 0
	allocs := testing.AllocsPerRun(20, func() {
		for i := 1; i < len(game); i++ {
			n.Update(&next, &accs[i-1], &game[i-1], &game[i])
			s += n.Output(&next)
			n.Refresh(&next, &game[i])
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run", allocs)
	}
}

// benchNetWide is what the search pays a ply for a network of h hidden
// units on International, without the hand-written score: one update and
// the output layer, with the kernels (SSE2 for one block, AVX2 for more)
// and with the portable path.
func benchNetWide(b *testing.B, h int) {
	v := movegen.International
	nw := randomNet(v, h, 150, 8)
	type step struct {
		q, p *movegen.Position
		acc  *NetAcc
	}
	for _, kernel := range []bool{false, true} {
		name := "portable"
		if kernel {
			name = "kernel"
		}
		b.Run(name, func(b *testing.B) {
			if kernel && h > NetBlock && !netWideKernels {
				b.Skip("no AVX2 here")
			}
			old := netWideKernels
			netWideKernels = kernel && old
			defer func() { netWideKernels = old }()
			n := buildNet(b, v, nw)
			var steps []step
			for _, g := range wideGames(v, 4, 80, 4) {
				for i := 1; i < len(g); i++ {
					acc := new(NetAcc)
					n.Refresh(acc, &g[i-1])
					steps = append(steps, step{&g[i-1], &g[i], acc})
				}
			}
			one := !kernel && h == NetBlock
			var next NetAcc
			s := 0
			for i := 0; b.Loop(); i++ {
				st := &steps[i%len(steps)]
				if one {
					n.update1(&next, st.acc, st.q, st.p)
					s += int(n.output1(&next))
				} else {
					n.Update(&next, st.acc, st.q, st.p)
					s += n.Output(&next)
				}
			}
			_ = s
		})
	}
}

func BenchmarkNetWide16(b *testing.B)  { benchNetWide(b, 16) }
func BenchmarkNetWide64(b *testing.B)  { benchNetWide(b, 64) }
func BenchmarkNetWide128(b *testing.B) { benchNetWide(b, 128) }
func BenchmarkNetWide256(b *testing.B) { benchNetWide(b, 256) }
