package eval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// withBuckets returns nw with b output buckets: each bucket's output (and
// tempo, when nw has them) weights drawn anew.
func withBuckets(nw NetWeights, b int, seed uint64) NetWeights {
	r := rand.New(rand.NewPCG(seed, 0xb0))
	h := nw.Hidden
	w2 := make([]int32, b*h)
	for j := range w2 {
		w2[j] = int32(r.IntN(2*50*NetOutScale+1) - 50*NetOutScale)
	}
	nw.W2, nw.Buckets = w2, b
	if nw.T != nil {
		nw.T = make([]int32, b*h)
		for j := range nw.T {
			nw.T[j] = int32(r.IntN(4001) - 2000)
		}
	}
	return nw
}

// bucketOf returns the one-bucket network of bucket k of nw.
func bucketOf(nw NetWeights, k int) NetWeights {
	h := nw.Hidden
	one := NetWeights{Hidden: h, W1: nw.W1, B1: nw.B1, W2: nw.W2[k*h : (k+1)*h]}
	if nw.T != nil {
		one.T = nw.T[k*h : (k+1)*h]
	}
	return one
}

func TestNetBucketRanges(t *testing.T) {
	for _, c := range []struct{ n, start, b, want int }{
		{40, 40, 4, 3}, {31, 40, 4, 3}, {30, 40, 4, 2}, {21, 40, 4, 2}, {20, 40, 4, 1}, {11, 40, 4, 1}, {10, 40, 4, 0}, {1, 40, 4, 0},
		{0, 40, 4, 0}, {45, 40, 4, 3}, {24, 24, 2, 1}, {13, 24, 2, 1}, {12, 24, 2, 0}, {24, 24, 8, 7}, {3, 24, 8, 0}, {4, 24, 8, 1},
	} {
		if got := netBucket(c.n, c.start, c.b); got != c.want {
			t.Errorf("%d pieces of %d, %d buckets: bucket %d, want %d", c.n, c.start, c.b, got, c.want)
		}
	}
	p := movegen.International.Start()
	if got := NetBucket(movegen.International, &p, 4); got != 3 {
		t.Errorf("International's start: bucket %d, want 3", got)
	}
	if got := NetBucket(movegen.International, &p, 1); got != 0 {
		t.Errorf("one bucket: %d, want 0", got)
	}
}

// TestNetBuckets: a network of output buckets scores every position of
// random games as the one-bucket network of the position's bucket (the
// kernels and the portable code alike, with tempo weights and without),
// its colour mirror exactly opposite, and each bucket is met.
func TestNetBuckets(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.International, movegen.Italian, movegen.Turkish} {
		for _, h := range []int{16, 128} {
			for _, tempo := range []bool{false, true} {
				nw := randomNet(v, h, 60, uint64(h))
				if tempo {
					nw = withTempoWeights(nw, 2000, 3)
				}
				const nb = 4
				nw = withBuckets(nw, nb, uint64(h)+7)
				n := buildNet(t, v, nw)
				var one [nb]*Net
				for k := range one {
					one[k] = buildNet(t, v, bucketOf(nw, k))
				}
				var seen [nb]int
				var acc, mirror NetAcc
				for _, game := range wideGames(v, 4, 300, uint64(h)) {
					for _, p := range game {
						k := NetBucket(v, &p, nb)
						seen[k]++
						n.Refresh(&acc, &p)
						got := n.White(&p, &acc)
						if want := one[k].White(&p, &acc); got != want {
							t.Fatalf("%v h=%d tempo=%v %s (bucket %d): %d, the bucket's own network %d", v, h, tempo, v.FEN(&p), k, got, want)
						}
						var port int
						withPortable(func() { port = n.White(&p, &acc) })
						if port != got {
							t.Fatalf("%v h=%d %s: kernels %d, portable %d", v, h, v.FEN(&p), got, port)
						}
						if f := n.full(&p, true) + n.hand(&p); f != got {
							t.Fatalf("%v h=%d %s: from the pieces %d, from the sums %d", v, h, v.FEN(&p), f, got)
						}
						q := v.Flip(&p)
						n.Refresh(&mirror, &q)
						if m := n.White(&q, &mirror) - n.hand(&q); m != -(got - n.hand(&p)) {
							t.Fatalf("%v h=%d %s: %d, its mirror %d", v, h, v.FEN(&p), got-n.hand(&p), m)
						}
					}
				}
				for k, c := range seen {
					if c == 0 && k > 0 {
						t.Logf("%v h=%d: bucket %d never met (%v)", v, h, k, seen)
					}
				}
				if seen[nb-1] == 0 || seen[nb-2] == 0 {
					t.Fatalf("%v: the games met buckets %v only", v, seen)
				}
			}
		}
	}
}

// TestNetBucketFile: a network of output buckets is written as version 4
// and reads back the same weights and scores; a bad bucket count, a cut
// file and a bad tempo flag are refused with their reasons, and the
// weights in use stay.
func TestNetBucketFile(t *testing.T) {
	v := movegen.International
	nw := withBuckets(withTempoWeights(randomNet(v, 64, 60, 5), 2000, 9), 3, 11)
	n := loadNet(t, v, nw)
	if len(n.heads) != 3 {
		t.Fatalf("%d heads, want 3", len(n.heads))
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if ver := int(b[4]) | int(b[5])<<8; ver != BucketVersion {
		t.Fatalf("written as version %d, want %d", ver, BucketVersion)
	}
	back := n.Weights()
	if back.Buckets != 3 || len(back.W2) != 3*64 || len(back.T) != 3*64 || back.W2[130] != nw.W2[130] || back.T[70] != nw.T[70] {
		t.Fatalf("read back: %d buckets, %d and %d output and tempo weights", back.Buckets, len(back.W2), len(back.T))
	}
	p := wideGames(v, 1, 40, 3)[0][39]
	k := NetBucket(v, &p, 3)
	if got, want := EvaluateWhite(v, &p), n.hand(&p)+int(math.Trunc(floatTempo(v, bucketOf(nw, k), &p))); got != want {
		t.Fatalf("EvaluateWhite %d, want %d (bucket %d)", got, want, k)
	}
	// The bucket count sits after the name, squares and hidden units.
	at := 4 + 2 + 1 + len(WeightsName(v)) + 4
	for _, c := range []struct {
		name string
		mod  func([]byte) []byte
		want string
	}{
		{"cut", func(b []byte) []byte { return b[:len(b)-10] }, "truncated"},
		{"9 buckets", func(b []byte) []byte { b[at] = 9; return b }, "output buckets"},
		{"1 bucket", func(b []byte) []byte { b[at] = 1; return b }, "output buckets"},
		{"tempo flag 2", func(b []byte) []byte { b[at+2] = 2; return b }, "tempo flag"},
	} {
		err := LoadWeights(v, bytes.NewReader(c.mod(append([]byte(nil), b...))))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: err %v, want %q", c.name, err, c.want)
		}
		if ActiveNet(v) != n {
			t.Fatalf("%s: a refused file changed the network in use", c.name)
		}
	}
	bad := nw
	bad.W2 = bad.W2[:64*2]
	if err := WriteNet(&bytes.Buffer{}, v, bad); err == nil {
		t.Fatal("a network of 3 buckets and 2 buckets' output weights was written")
	}
	bad = nw
	bad.Buckets = 9
	if err := WriteNet(&bytes.Buffer{}, v, bad); err == nil || !strings.Contains(err.Error(), "buckets") {
		t.Fatalf("9 buckets: err %v", err)
	}
}
