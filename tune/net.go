package tune

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// The network fit: the same labels as the linear fit (BuildSet), the
// model eval/net.go evaluates with. In floating point the network's score
// of a row is
//
//	base + netUnit · Σ_j W2[j]·(clip(A_j) − clip(B_j)),  A_j = B1[j] + Σ_{i∈A} W1[i][j]
//
// (B_j the same over view B's inputs, clip to [0, 1]), fitted by mini-batch
// Adam on the mean cross-entropy against the target, then rounded to the
// integer form (NetState.Quantize).

// netUnit is the float model's output unit in centi-men: it keeps the
// output weights near 1.
const netUnit = 50

// NetSet is a training set for the network: row i's active inputs of
// view A are A[Start[i]:Start[i+1]] and of view B B[Start[i]:Start[i+1]]
// (eval.NetInputs), with a base score (the hand-written evaluation, White's
// view, centi-men) and a target probability that White wins.
type NetSet struct {
	Start        []int32
	A, B         []int16
	Base, Target []float32
}

// Rows returns the number of rows.
func (s *NetSet) Rows() int { return len(s.Base) }

// Add appends a row.
func (s *NetSet) Add(a, b []int32, base, target float32) {
	if len(s.Start) == 0 {
		s.Start = append(s.Start, 0)
	}
	for i := range a {
		s.A = append(s.A, int16(a[i]))
		s.B = append(s.B, int16(b[i]))
	}
	s.Start = append(s.Start, int32(len(s.A)))
	s.Base = append(s.Base, base)
	s.Target = append(s.Target, target)
}

// BuildNetSet turns the quiet positions of games into a network training
// set, labelled as BuildSet labels them.
func BuildNetSet(v *movegen.Variant, games []Game, cfg LabelConfig) *NetSet {
	s := &NetSet{}
	var a, b []int32
	samples(games, cfg, func(g *Game, smp Sample) {
		p := smp.Pos
		var base int
		a, b, base = eval.NetInputs(v, &p, a[:0], b[:0])
		s.Add(a, b, float32(base), float32(label(g, smp, cfg)))
	})
	return s
}

// NetConfig configures the network fit.
type NetConfig struct {
	Inputs int // eval.NetInputKinds × the variant's squares
	Hidden int // eval.CheckNetHidden's rule
	K      float64
	Epochs int
	Batch  int
	Rate   float64
	Seed   uint64 // the initial weights and the order of the rows
}

// NetState is a network in floating point: W1 by input then hidden unit.
type NetState struct {
	Hidden     int
	W1, B1, W2 []float32
	T          []float32 // tempo weights (nil: none; eval/nettempo.go)
	// Buckets, above 1, is the number of output buckets (eval/netbucket.go):
	// W2 and T then hold Buckets × Hidden weights, bucket by bucket.
	Buckets int
	// Threats marks a network with threat inputs (eval/netthreat.go): W1
	// then holds eval.NetThreatKinds more blocks after the pieces'.
	Threats bool
}

// newNetState returns a network of random small weights.
func newNetState(inputs, hidden int, rng *rand.Rand) *NetState {
	st := &NetState{Hidden: hidden, W1: make([]float32, inputs*hidden), B1: make([]float32, hidden), W2: make([]float32, hidden)}
	for i := range st.W1 {
		st.W1[i] = float32(rng.NormFloat64() * 0.1)
	}
	for j := range st.B1 {
		st.B1[j] = 0.5
		st.W2[j] = float32(rng.NormFloat64())
	}
	return st
}

func clip01(x float32) float32 { return min(max(x, 0), 1) }

// hidden sums the first layer over inputs in into h.
func (st *NetState) hidden(in []int16, h []float32) {
	copy(h, st.B1)
	n := st.Hidden
	for _, i := range in {
		row := st.W1[int(i)*n : int(i)*n+n]
		for j := range h {
			h[j] += row[j]
		}
	}
}

// score returns the network's score of row i (centi-men, White's view),
// leaving the hidden sums in ha and hb.
func (st *NetState) score(s *NetSet, i int, ha, hb []float32) float64 {
	lo, hi := s.Start[i], s.Start[i+1]
	st.hidden(s.A[lo:hi], ha)
	st.hidden(s.B[lo:hi], hb)
	var o float32
	for j := range ha {
		o += st.W2[j] * (clip01(ha[j]) - clip01(hb[j]))
	}
	return float64(s.Base[i]) + netUnit*float64(o)
}

// NetLoss returns the mean cross-entropy of st (nil: the base alone) on s
// at scale k (0 for no rows).
func NetLoss(s *NetSet, st *NetState, k float64) float64 {
	if s == nil || s.Rows() == 0 {
		return 0
	}
	var ha, hb []float32
	if st != nil {
		ha, hb = make([]float32, st.Hidden), make([]float32, st.Hidden)
	}
	var sum float64
	for i := 0; i < s.Rows(); i++ {
		z := float64(s.Base[i])
		if st != nil {
			z = st.score(s, i, ha, hb)
		}
		sum += crossEntropy(sigmoid(z/k), float64(s.Target[i]))
	}
	return sum / float64(s.Rows())
}

// crossEntropy is −(y log p + (1−y) log(1−p)), p kept off 0 and 1.
func crossEntropy(p, y float64) float64 {
	p = min(max(p, 1e-12), 1-1e-12)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// adam is one parameter vector's Adam state.
type adam struct{ m, v []float32 }

func newAdam(n int) adam { return adam{make([]float32, n), make([]float32, n)} }

// adamRate is Adam's step size at step t with both moments' bias
// corrections folded in.
func adamRate(rate float64, t int) float32 {
	b1c := 1 - math.Pow(0.9, float64(t))
	b2c := 1 - math.Pow(0.999, float64(t))
	return float32(rate * math.Sqrt(b2c) / b1c)
}

// move updates weight i's moments by its gradient gi and moves it by lr.
func (a *adam) move(w []float32, i int, gi, lr float32) {
	a.m[i] = 0.9*a.m[i] + 0.1*gi
	a.v[i] = 0.999*a.v[i] + 0.001*gi*gi
	w[i] -= lr * a.m[i] / (float32(math.Sqrt(float64(a.v[i]))) + 1e-8)
}

// step applies gradient g (cleared after) to w at Adam step t.
func (a *adam) step(w, g []float32, rate float64, t int) {
	lr := adamRate(rate, t)
	for i := range w {
		gi := g[i]
		if gi == 0 && a.m[i] == 0 {
			continue
		}
		a.move(w, i, gi, lr)
		g[i] = 0
	}
}

// stepAt is step for the weights idx alone (a lazy Adam: the others and
// their moments stay as they are), clearing their gradients.
func (a *adam) stepAt(w, g []float32, idx []int32, rate float64, t int) {
	lr := adamRate(rate, t)
	for _, i := range idx {
		a.move(w, int(i), g[i], lr)
		g[i] = 0
	}
}

// FitNet fits a network on train by mini-batch Adam and reports the
// training and validation losses after each epoch.
func FitNet(cfg NetConfig, train, valid *NetSet, progress func(Progress)) (*NetState, error) {
	if err := eval.CheckNetHidden(cfg.Hidden); err != nil {
		return nil, fmt.Errorf("tune: %v", err)
	}
	if cfg.K <= 0 || cfg.Epochs <= 0 || cfg.Batch <= 0 || cfg.Rate <= 0 || cfg.Inputs <= 0 {
		return nil, errors.New("tune: the network fit needs K, epochs, batch, rate and inputs above 0")
	}
	if train.Rows() == 0 {
		return nil, errors.New("tune: no training positions")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6e6574))
	H := cfg.Hidden
	st := newNetState(cfg.Inputs, H, rng)
	gW1, gB1, gW2 := make([]float32, len(st.W1)), make([]float32, H), make([]float32, H)
	aW1, aB1, aW2 := newAdam(len(st.W1)), newAdam(H), newAdam(H)
	ha, hb := make([]float32, H), make([]float32, H)
	order := make([]int, train.Rows())
	for i := range order {
		order[i] = i
	}
	t0 := time.Now()
	step := 0
	for ep := 1; ep <= cfg.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sum float64
		for lo := 0; lo < len(order); lo += cfg.Batch {
			batch := order[lo:min(lo+cfg.Batch, len(order))]
			for _, i := range batch {
				z := st.score(train, i, ha, hb)
				p := sigmoid(z / cfg.K)
				y := float64(train.Target[i])
				sum += crossEntropy(p, y)
				// d loss / d z = (p − y) / K; z's output part is netUnit·o.
				d := float32((p - y) / cfg.K * netUnit / float64(len(batch)))
				a, b := train.A[train.Start[i]:train.Start[i+1]], train.B[train.Start[i]:train.Start[i+1]]
				for j := 0; j < H; j++ {
					gW2[j] += d * (clip01(ha[j]) - clip01(hb[j]))
					var da, db float32
					if ha[j] > 0 && ha[j] < 1 {
						da = d * st.W2[j]
					}
					if hb[j] > 0 && hb[j] < 1 {
						db = -d * st.W2[j]
					}
					gB1[j] += da + db
					if da != 0 {
						for _, in := range a {
							gW1[int(in)*H+j] += da
						}
					}
					if db != 0 {
						for _, in := range b {
							gW1[int(in)*H+j] += db
						}
					}
				}
			}
			step++
			aW1.step(st.W1, gW1, cfg.Rate, step)
			aB1.step(st.B1, gB1, cfg.Rate, step)
			aW2.step(st.W2, gW2, cfg.Rate, step)
		}
		if progress != nil {
			el := time.Since(t0)
			progress(Progress{Epoch: ep, Epochs: cfg.Epochs, Loss: sum / float64(len(order)), Valid: NetLoss(valid, st, cfg.K),
				Elapsed: el, Remain: el / time.Duration(ep) * time.Duration(cfg.Epochs-ep)})
		}
	}
	return st, nil
}

// NetStateOf returns the network nw (a weights file's, eval.ReadNet) in
// floating point: the inverse of Quantize, so that Quantize gives nw back.
// A fit that starts from it (StreamConfig.Init) continues from a network
// already in use.
func NetStateOf(nw eval.NetWeights) *NetState {
	st := &NetState{Hidden: nw.Hidden, W1: make([]float32, len(nw.W1)), B1: make([]float32, len(nw.B1)), W2: make([]float32, len(nw.W2)), Threats: nw.Threats}
	if nw.Buckets > 1 {
		st.Buckets = nw.Buckets
	}
	for i, x := range nw.W1 {
		st.W1[i] = float32(float64(x) / eval.NetQ)
	}
	for j, x := range nw.B1 {
		st.B1[j] = float32(float64(x) / eval.NetQ)
	}
	out := func(x int32) float32 { return float32(float64(x) / (netUnit * eval.NetOutScale)) }
	for j, x := range nw.W2 {
		st.W2[j] = out(x)
	}
	if nw.T != nil {
		st.T = make([]float32, len(nw.T))
		for j, x := range nw.T {
			st.T[j] = out(x)
		}
	}
	return st
}

// Quantize rounds the network to the integer form eval loads (see
// eval/net.go: first layer in units of 1/eval.NetQ, output weights of
// 1/eval.NetOutScale centi-man per activation unit).
func (st *NetState) Quantize() eval.NetWeights {
	r16 := func(x float64) int16 { return int16(max(min(math.Round(x), math.MaxInt16), math.MinInt16)) }
	nw := eval.NetWeights{Hidden: st.Hidden, W1: make([]int16, len(st.W1)), B1: make([]int16, st.Hidden), W2: make([]int32, len(st.W2)), Threats: st.Threats}
	if st.Buckets > 1 {
		nw.Buckets = st.Buckets
	}
	for i, x := range st.W1 {
		nw.W1[i] = r16(float64(x) * eval.NetQ)
	}
	for j := range st.B1 {
		nw.B1[j] = r16(float64(st.B1[j]) * eval.NetQ)
	}
	for j, x := range st.W2 {
		nw.W2[j] = int32(math.Round(float64(x) * netUnit * eval.NetOutScale))
	}
	if st.T != nil {
		nw.T = make([]int32, len(st.T))
		for j, x := range st.T {
			nw.T[j] = int32(math.Round(float64(x) * netUnit * eval.NetOutScale))
		}
	}
	return nw
}
