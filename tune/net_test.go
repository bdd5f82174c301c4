package tune

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// netPositions returns positions of random International games.
func netPositions(count int, seed uint64) []movegen.Position {
	v := movegen.International
	r := rand.New(rand.NewPCG(seed, 2))
	var out []movegen.Position
	var ml movegen.MoveList
	for len(out) < count {
		p := v.Start()
		for ply := 0; ply < 120 && len(out) < count; ply++ {
			v.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[r.IntN(ml.N)])
			out = append(out, p)
		}
	}
	return out
}

// teacherSet labels ps by a known network: targets are its exact win
// probability at scale k over a random base.
func teacherSet(teacher *NetState, ps []movegen.Position, k float64, seed uint64) *NetSet {
	v := movegen.International
	r := rand.New(rand.NewPCG(seed, 3))
	s := &NetSet{}
	var a, b []int32
	for i := range ps {
		a, b, _ = eval.NetInputs(v, &ps[i], a[:0], b[:0])
		base := float32(r.NormFloat64() * 40)
		row := &NetSet{Start: []int32{0, int32(len(a))}, Base: []float32{base}}
		for j := range a {
			row.A, row.B = append(row.A, int16(a[j])), append(row.B, int16(b[j]))
		}
		ha, hb := make([]float32, teacher.Hidden), make([]float32, teacher.Hidden)
		s.Add(a, b, base, float32(sigmoid(teacher.score(row, 0, ha, hb)/k)))
	}
	return s
}

// entropy is the loss a perfect model reaches on s (its targets' own
// entropy).
func entropy(s *NetSet) float64 {
	var sum float64
	for _, y := range s.Target {
		sum += crossEntropy(float64(y), float64(y))
	}
	return sum / float64(s.Rows())
}

// TestFitNetRecoversTeacher: a network fitted to the exact win
// probabilities of a known network of the same shape closes most of the
// gap between the base alone and the targets' entropy (the best any model
// can do), on positions it was not fitted on; and its integer form scores
// as the float network does, within rounding.
func TestFitNetRecoversTeacher(t *testing.T) {
	const k, hidden = 100.0, 16
	v := movegen.International
	inputs := eval.NetInputKinds(v) * eval.NetSquares(v)
	teacher := newNetState(inputs, hidden, rand.New(rand.NewPCG(7, 7)))
	for i := range teacher.W1 {
		teacher.W1[i] *= 3
	}
	ps := netPositions(6000, 1)
	train := teacherSet(teacher, ps[:5000], k, 1)
	valid := teacherSet(teacher, ps[5000:], k, 2)
	st, err := FitNet(NetConfig{Inputs: inputs, Hidden: hidden, K: k, Epochs: 40, Batch: 64, Rate: 0.01, Seed: 3}, train, valid, nil)
	if err != nil {
		t.Fatal(err)
	}
	floor, base, fit := entropy(valid), NetLoss(valid, nil, k), NetLoss(valid, st, k)
	t.Logf("validation: entropy %.5f, base alone %.5f, fitted %.5f", floor, base, fit)
	if fit-floor > 0.2*(base-floor) {
		t.Errorf("validation loss %.5f: closed %.0f%% of the gap from the base's %.5f to the targets' entropy %.5f, want 80%%",
			fit, 100*(base-fit)/(base-floor), base, floor)
	}

	// The integer form: eval's score of a position is the float network's
	// (less its base) within a centi-man or two of rounding.
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, v, st.Quantize()); err != nil {
		t.Fatal(err)
	}
	if err := eval.LoadWeights(v, &buf); err != nil {
		t.Fatal(err)
	}
	defer eval.ResetWeights(v)
	n := eval.ActiveNet(v)
	ha, hb := make([]float32, hidden), make([]float32, hidden)
	worst := 0.0
	for i := range ps[5000:5200] {
		p := &ps[5000+i]
		var acc eval.NetAcc
		n.Refresh(&acc, p)
		row := teacherSet(st, []movegen.Position{*p}, k, 0)
		row.Base[0] = 0
		worst = math.Max(worst, math.Abs(float64(n.Output(&acc))-st.score(row, 0, ha, hb)))
	}
	if worst > 3 {
		t.Errorf("the integer network differs from the float one by up to %.1f centi-men", worst)
	}
}

func TestFitNetRefusesBadConfig(t *testing.T) {
	s := &NetSet{}
	s.Add([]int32{1}, []int32{2}, 0, 0.5)
	for _, cfg := range []NetConfig{
		{Inputs: 200, Hidden: 12, K: 100, Epochs: 1, Batch: 1, Rate: 0.01},
		{Inputs: 200, Hidden: 16, K: 0, Epochs: 1, Batch: 1, Rate: 0.01},
	} {
		if _, err := FitNet(cfg, s, nil, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	if _, err := FitNet(NetConfig{Inputs: 200, Hidden: 16, K: 100, Epochs: 1, Batch: 1, Rate: 0.01}, &NetSet{}, nil, nil); err == nil {
		t.Error("no rows: no error")
	}
}
