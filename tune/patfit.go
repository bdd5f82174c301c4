package tune

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/damaengine/damaengine/eval"
)

// PatConfig configures FitPatterns.
type PatConfig struct {
	K      float64 // scale of the win probability, centi-men (0: fitted to the results)
	Lambda float64 // weight of the game result in the target; the rest the search score
	Epochs int
	Batch  int
	Rate   float64 // Adam's step, centi-men
	Seed   uint64
	Limit  int64 // if above 0, only the file's first Limit records
	// Valid, if not empty, is a positions file of other games whose first
	// rows are the validation set; the data file is then trained on whole.
	Valid string
	// Shape is the tables' windows (eval.PatSquare: 4 x 4; eval.PatTall:
	// 4 x 6; eval.PatCentre: 4 x 6 in the middle band).
	Shape eval.PatShape
	// Keep fits the tables over the evaluation in use with the network's
	// sets of tables of other shapes than Shape (tune patterns --keep: the
	// new set goes beside them, or in place of the network's own set of
	// Shape, left out of the base). Without it every set is left out of
	// the base, and the new one replaces them.
	Keep bool
}

// PatProgress is FitPatterns' report after each epoch (Epoch 0: the start,
// Valid the validation loss of the evaluation without the tables).
type PatProgress struct {
	Epoch, Epochs int
	Loss, Valid   float64
	Rows          int64
	Elapsed       time.Duration
	K             float64
	ValidRows     int
}

// patRow is one decoded row for the pattern fit.
type patRow struct {
	a, b   []int32 // window indexes, White's and Black's views
	ph     float32 // middlegame share
	base   float32 // the evaluation the tables go over, White's view
	target float32
}

// FitPatterns fits pattern tables (eval/pattern.go) over the evaluation
// in use for the file's variant (its embedded network, say; without the
// tables it may have unless cfg.Keep), which stays as it is: the tables
// learn what that evaluation leaves, by mini-batch
// Adam on the cross-entropy of the win probability, reading the positions
// file in chunks as FitNetStream does (the same validation split). It
// returns the weights in units of 1/WeightScale centi-man, middlegame and
// endgame interleaved, and K.
func FitPatterns(cfg PatConfig, path string, progress func(PatProgress)) ([]int16, float64, error) {
	if cfg.Epochs <= 0 || cfg.Batch <= 0 || cfg.Rate <= 0 || cfg.K < 0 || cfg.Lambda < 0 || cfg.Lambda > 1 {
		return nil, 0, errors.New("tune: the fit needs epochs, batch and rate above 0, K ≥ 0 and λ in [0, 1]")
	}
	pr, err := OpenPositions(path)
	if err != nil {
		return nil, 0, err
	}
	defer pr.Close()
	v := pr.Header.Variant
	nw := eval.PatternWindows(v, cfg.Shape)
	if nw == 0 {
		return nil, 0, fmt.Errorf("tune: %s has no pattern windows", v.RulesName())
	}
	n := pr.Len()
	if cfg.Limit > 0 && cfg.Limit < n {
		n = cfg.Limit
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("tune: %s holds no positions", path)
	}
	size := int64(pr.Header.Record)
	chunks, readChunk := pr.chunks(n)
	vchunks, vread, closeValid, err := validChunks(cfg.Valid, pr, chunks, readChunk)
	if err != nil {
		return nil, 0, err
	}
	defer closeValid()
	var rec Record
	decode := func(raw []byte, r *patRow, k float64, valid bool) bool {
		if pr.Codec.Decode(raw, &rec) != nil {
			return false
		}
		p := &rec.Pos
		if cfg.Valid == "" && IsValidation(mix64(p.Key)) != valid {
			return false
		}
		var ph float64
		r.a, r.b, ph = eval.PatternIndexes(v, cfg.Shape, p, r.a[:0], r.b[:0])
		r.ph = float32(ph)
		if cfg.Keep {
			r.base = float32(eval.EvaluateWhiteWithout(v, p, cfg.Shape))
		} else {
			r.base = float32(eval.EvaluateWhiteNoPatterns(v, p))
		}
		r.target = float32(recordTarget(&rec, cfg.Lambda, k))
		return true
	}
	buf := make([]byte, streamChunk*size)
	var valid []patRow
	var validBase, validRes []float32
	var validScore []int
	for c := 0; c < vchunks && len(valid) < streamValid; c++ {
		b, err := vread(c, buf)
		if err != nil {
			return nil, 0, err
		}
		for i := 0; i+int(size) <= len(b) && len(valid) < streamValid; i += int(size) {
			var r patRow
			if decode(b[i:i+int(size)], &r, 0, true) {
				valid = append(valid, r)
				validBase = append(validBase, r.base)
				validRes = append(validRes, float32(rec.Result+1)/2)
				validScore = append(validScore, rec.Score)
			}
		}
	}
	k, err := validK(cfg.K, validBase, validRes)
	if err != nil {
		return nil, 0, err
	}
	for i := range valid {
		valid[i].target = float32(mixTarget(float64(validRes[i]), validScore[i], cfg.Lambda, k))
	}
	w := make([]float32, nw*cfg.Shape.Configs()*2)
	g := make([]float32, len(w))
	ad := newAdam(len(w))
	var touched []int32
	mark := make([]bool, len(w))
	score := func(r *patRow) float64 {
		var s float32
		for i := range r.a {
			x, y := 2*r.a[i], 2*r.b[i]
			s += r.ph*(w[x]-w[y]) + (1-r.ph)*(w[x+1]-w[y+1])
		}
		return float64(r.base) + float64(s)
	}
	loss := func() float64 {
		var sum float64
		for i := range valid {
			sum += crossEntropy(sigmoid(score(&valid[i])/k), float64(valid[i].target))
		}
		return sum / float64(max(len(valid), 1))
	}
	if progress != nil {
		progress(PatProgress{Epochs: cfg.Epochs, Valid: loss(), K: k, ValidRows: len(valid)})
	}
	totalSteps := float64(cfg.Epochs) * float64(n) / float64(cfg.Batch)
	step := 0
	t0 := time.Now()
	var r patRow
	add := func(i int32, d float32) {
		g[i] += d
		if !mark[i] {
			mark[i] = true
			touched = append(touched, i)
		}
	}
	for ep := 1; ep <= cfg.Epochs; ep++ {
		order := chunkOrder(cfg.Seed, ep, chunks)
		var sum float64
		var seen int64
		for _, c := range order {
			b, err := readChunk(c, buf)
			if err != nil {
				return nil, 0, err
			}
			rows := len(b) / int(size)
			perm := rowOrder(cfg.Seed, ep, c, rows)
			for lo := 0; lo < rows; lo += cfg.Batch {
				batch := perm[lo:min(lo+cfg.Batch, rows)]
				for _, ri := range batch {
					if !decode(b[ri*int(size):(ri+1)*int(size)], &r, k, false) {
						continue
					}
					p := sigmoid(score(&r) / k)
					y := float64(r.target)
					sum += crossEntropy(p, y)
					seen++
					d := float32((p - y) / k / float64(len(batch)))
					dm, de := d*r.ph, d*(1-r.ph)
					for i := range r.a {
						x, y := 2*r.a[i], 2*r.b[i]
						add(x, dm)
						add(x+1, de)
						add(y, -dm)
						add(y+1, -de)
					}
				}
				step++
				ad.stepAt(w, g, touched, cfg.Rate*(1-0.9*min(float64(step)/totalSteps, 1)), step)
				for _, i := range touched {
					mark[i] = false
				}
				touched = touched[:0]
			}
		}
		if progress != nil {
			progress(PatProgress{Epoch: ep, Epochs: cfg.Epochs, Loss: sum / float64(max(seen, 1)), Valid: loss(), Rows: seen,
				Elapsed: time.Since(t0), K: k, ValidRows: len(valid)})
		}
	}
	out := make([]int16, len(w))
	for i, x := range w {
		out[i] = int16(max(min(math.Round(float64(x)*eval.WeightScale), 32767), -32767))
	}
	return out, k, nil
}
