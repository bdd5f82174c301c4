package tune

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"time"
)

// Set is a training set in sparse form: row i has the features
// Index[Start[i]:Start[i+1]] with coefficients Coef[...], a middlegame
// share Phase[i] (0..1), a base score Base[i] (the hand-written
// evaluation, in centi-men, White's view) and a target probability that
// White wins, Target[i].
type Set struct {
	Start  []int32
	Index  []int32
	Coef   []float32
	Phase  []float32
	Base   []float32
	Target []float32
}

// Rows returns the number of rows.
func (s *Set) Rows() int { return len(s.Phase) }

// Add appends a row.
func (s *Set) Add(index []int32, coef []float32, phase, base, target float32) {
	if len(s.Start) == 0 {
		s.Start = append(s.Start, 0)
	}
	s.Index = append(s.Index, index...)
	s.Coef = append(s.Coef, coef...)
	s.Start = append(s.Start, int32(len(s.Index)))
	s.Phase = append(s.Phase, phase)
	s.Base = append(s.Base, base)
	s.Target = append(s.Target, target)
}

// FitConfig configures the logistic regression.
type FitConfig struct {
	Features int     // features; each has a middlegame and an endgame weight
	K        float64 // scale: P(White wins) = 1 / (1 + exp(-score/K)), score in centi-men
	Epochs   int
	Batch    int     // rows per Adam step
	Rate     float64 // Adam step size, in centi-men
	L2       float64 // L2 penalty per weight (on the mean loss)
	Seed     uint64  // the order of the rows
	// Checkpoint, if not empty, is a file the state is written to after
	// each epoch and read from at the start: a fit that was stopped goes on
	// from its last epoch.
	Checkpoint string
	// Init, if not nil, holds the weights a new fit starts from (weight
	// units, 2 × Features values, as Quantize's input): a fit that refines
	// earlier weights on new data instead of starting from zero.
	Init []float64
}

// FitState is the state of a fit: the weights (centi-men; mg and eg
// interleaved by feature), Adam's moments and where it stands.
type FitState struct {
	// Run names the fit the state belongs to (fitRun: its training rows
	// and settings but the epochs); a checkpoint of another fit is refused.
	Run         string
	Epoch, Step int
	W, M, V     []float64
	TrainLoss   float64
}

// fitRun is the fingerprint of a fit: the training rows (a hash of every
// row's features, base score, phase and target) and the settings that
// shape the weights, all but the number of epochs (a fit may be continued
// for more).
func fitRun(cfg FitConfig, train *Set) string {
	h := fnv.New64a()
	var b []byte
	for i := 0; i < train.Rows(); i++ {
		b = binary.LittleEndian.AppendUint32(b[:0], math.Float32bits(train.Base[i]))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(train.Phase[i]))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(train.Target[i]))
		for j := train.Start[i]; j < train.Start[i+1]; j++ {
			b = binary.LittleEndian.AppendUint32(b, uint32(train.Index[j]))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(train.Coef[j]))
		}
		h.Write(b)
	}
	run := fmt.Sprintf("rows=%d data=%016x features=%d k=%g batch=%d rate=%g l2=%g seed=%d",
		train.Rows(), h.Sum64(), cfg.Features, cfg.K, cfg.Batch, cfg.Rate, cfg.L2, cfg.Seed)
	if cfg.Init != nil {
		h.Reset()
		for _, x := range cfg.Init {
			h.Write(binary.LittleEndian.AppendUint64(b[:0], math.Float64bits(x)))
		}
		run += fmt.Sprintf(" init=%016x", h.Sum64())
	}
	return run
}

// Progress reports a fit after each epoch.
type Progress struct {
	Epoch, Epochs   int
	Loss, Valid     float64 // mean cross-entropy on the training and validation rows
	Elapsed, Remain time.Duration
}

// Loss returns the mean cross-entropy of weights w (nil: the base alone)
// on s at scale k.
func Loss(s *Set, w []float64, k float64) float64 {
	if s.Rows() == 0 {
		return 0
	}
	var sum float64
	for i := 0; i < s.Rows(); i++ {
		p := sigmoid(score(s, i, w) / k)
		y := float64(s.Target[i])
		sum -= y*math.Log(max(p, 1e-12)) + (1-y)*math.Log(max(1-p, 1e-12))
	}
	return sum / float64(s.Rows())
}

// score returns row i's score in centi-men under weights w.
func score(s *Set, i int, w []float64) float64 {
	x := float64(s.Base[i])
	if w == nil {
		return x
	}
	ph := float64(s.Phase[i])
	for j := s.Start[i]; j < s.Start[i+1]; j++ {
		f := 2 * int(s.Index[j])
		x += float64(s.Coef[j]) * (ph*w[f] + (1-ph)*w[f+1])
	}
	return x
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// FitK returns the scale K in [lo, hi] that best fits the base scores of
// s alone (golden-section search on the loss): the learned weights then
// come out in the units of the hand-written evaluation.
func FitK(s *Set, lo, hi float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := Loss(s, nil, c), Loss(s, nil, d)
	for b-a > 1 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = Loss(s, nil, c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = Loss(s, nil, d)
		}
	}
	return (a + b) / 2
}

// Fit fits the weights on train by mini-batch Adam on the mean
// cross-entropy plus L2, reporting each epoch (with the loss on valid, which
// may be empty) to progress. It returns the final state.
func Fit(cfg FitConfig, train, valid *Set, progress func(Progress)) (*FitState, error) {
	if cfg.Features < 1 || cfg.K <= 0 || cfg.Epochs < 1 || cfg.Batch < 1 || cfg.Rate <= 0 {
		return nil, errors.New("tune: fit needs features, K, epochs, batch and rate > 0")
	}
	if train.Rows() == 0 {
		return nil, errors.New("tune: no training rows")
	}
	nw := 2 * cfg.Features
	if cfg.Init != nil && len(cfg.Init) != nw {
		return nil, fmt.Errorf("tune: %d initial weights, the layout has %d", len(cfg.Init), nw)
	}
	run := fitRun(cfg, train)
	st := &FitState{Run: run, W: make([]float64, nw), M: make([]float64, nw), V: make([]float64, nw)}
	copy(st.W, cfg.Init)
	if cfg.Checkpoint != "" {
		if b, err := os.ReadFile(cfg.Checkpoint); err == nil {
			var old FitState
			if err := json.Unmarshal(b, &old); err != nil {
				return nil, fmt.Errorf("tune: checkpoint %s: %v", cfg.Checkpoint, err)
			}
			if len(old.W) != nw || len(old.M) != nw || len(old.V) != nw {
				return nil, fmt.Errorf("tune: checkpoint %s has %d weights, the layout %d: remove it to start over", cfg.Checkpoint, len(old.W), nw)
			}
			if old.Run != run {
				return nil, fmt.Errorf("tune: checkpoint %s is of another fit (%q; this one %q): other data or settings; remove it to start over", cfg.Checkpoint, old.Run, run)
			}
			st = &old
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	const b1, b2, eps = 0.9, 0.999, 1e-8
	grad := make([]float64, nw)
	touched := make([]bool, nw)
	var list []int
	order := make([]int, train.Rows())
	start := time.Now()
	startEpoch := st.Epoch
	for st.Epoch < cfg.Epochs {
		// The order of epoch e depends on the seed and e only, so a resumed
		// fit takes the same steps as one that never stopped.
		r := rand.New(rand.NewPCG(cfg.Seed, uint64(st.Epoch)))
		for i := range order {
			order[i] = i
		}
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var lossSum float64
		for at := 0; at < len(order); at += cfg.Batch {
			rows := order[at:min(at+cfg.Batch, len(order))]
			inv := 1 / float64(len(rows))
			for _, i := range rows {
				p := sigmoid(score(train, i, st.W) / cfg.K)
				y := float64(train.Target[i])
				lossSum -= y*math.Log(max(p, 1e-12)) + (1-y)*math.Log(max(1-p, 1e-12))
				e := (p - y) / cfg.K * inv
				ph := float64(train.Phase[i])
				for j := train.Start[i]; j < train.Start[i+1]; j++ {
					f := 2 * int(train.Index[j])
					c := float64(train.Coef[j]) * e
					if !touched[f] {
						touched[f], touched[f+1] = true, true
						list = append(list, f)
					}
					grad[f] += c * ph
					grad[f+1] += c * (1 - ph)
				}
			}
			// Sparse Adam: only the weights this batch touched move (the L2
			// pull is applied to them alike).
			st.Step++
			c1 := 1 - math.Pow(b1, float64(st.Step))
			c2 := 1 - math.Pow(b2, float64(st.Step))
			for _, f := range list {
				for _, g := range [2]int{f, f + 1} {
					d := grad[g] + 2*cfg.L2*st.W[g]
					st.M[g] = b1*st.M[g] + (1-b1)*d
					st.V[g] = b2*st.V[g] + (1-b2)*d*d
					st.W[g] -= cfg.Rate * (st.M[g] / c1) / (math.Sqrt(st.V[g]/c2) + eps)
					grad[g] = 0
				}
				touched[f], touched[f+1] = false, false
			}
			list = list[:0]
		}
		st.Epoch++
		st.TrainLoss = lossSum / float64(len(order))
		if cfg.Checkpoint != "" {
			if err := writeCheckpoint(cfg.Checkpoint, st); err != nil {
				return nil, err
			}
		}
		if progress != nil {
			el := time.Since(start)
			done := st.Epoch - startEpoch
			remain := time.Duration(float64(el) / float64(done) * float64(cfg.Epochs-st.Epoch))
			vl := math.NaN()
			if valid != nil && valid.Rows() > 0 {
				vl = Loss(valid, st.W, cfg.K)
			}
			progress(Progress{Epoch: st.Epoch, Epochs: cfg.Epochs, Loss: st.TrainLoss, Valid: vl, Elapsed: el, Remain: remain})
		}
	}
	return st, nil
}

// writeCheckpoint writes st to path through a temporary file, so a crash
// leaves the old checkpoint or the new one, never half of one.
func writeCheckpoint(path string, st *FitState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
