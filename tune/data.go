package tune

import (
	"math"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// LabelConfig says how positions are labelled.
type LabelConfig struct {
	// Lambda is the weight of the game result in the target; the rest is
	// the search score's win probability, sigmoid(score/K).
	Lambda float64
	K      float64
	// Skip drops games whose index % Skip == SkipRem (a validation split;
	// Skip 0 keeps every game). Keep inverts it: only those games.
	Skip, SkipRem int
	Keep          bool
}

// maxScore clips the search scores used as labels (a won position reads
// as a sure win, not as a score of thousands).
const maxScore = 1500

// BuildSet turns the quiet positions of games into a training set for
// v's learned layout: the features from eval.AppendFeatures, the
// hand-written evaluation as the base and the label of cfg, all from
// White's point of view.
func BuildSet(v *movegen.Variant, games []Game, cfg LabelConfig) *Set {
	s := &Set{}
	var fs []eval.Feature
	var idx []int32
	var coef []float32
	samples(games, cfg, func(g *Game, smp Sample) {
		p := smp.Pos
		var phase float64
		var base int
		fs, phase, base = eval.AppendFeatures(v, &p, fs[:0])
		idx, coef = idx[:0], coef[:0]
		for _, f := range fs {
			idx = append(idx, f.Index)
			coef = append(coef, float32(f.Coef)/eval.WeightScale)
		}
		s.Add(idx, coef, float32(phase), float32(base), float32(label(g, smp, cfg)))
	})
	return s
}

// samples calls f with each quiet position of the games cfg keeps (its
// Skip, SkipRem and Keep: the training or the validation games).
func samples(games []Game, cfg LabelConfig, f func(g *Game, smp Sample)) {
	for gi := range games {
		g := &games[gi]
		if cfg.Skip > 0 && (g.Index%cfg.Skip == cfg.SkipRem) != cfg.Keep {
			continue
		}
		for _, smp := range g.Positions {
			f(g, smp)
		}
	}
}

// label is the target of position smp of game g: the probability that
// White wins, λ × the game's result + (1 − λ) × the search score's win
// probability sigmoid(score/K) (the score clipped to ±maxScore).
func label(g *Game, smp Sample, cfg LabelConfig) float64 {
	result := (float64(g.Result) + 1) / 2
	if cfg.Lambda >= 1 || cfg.K <= 0 {
		return result
	}
	sc := float64(max(min(smp.Score, maxScore), -maxScore))
	if smp.Pos.Side == movegen.Black {
		sc = -sc
	}
	return cfg.Lambda*result + (1-cfg.Lambda)/(1+math.Exp(-sc/cfg.K))
}

// Quantize turns fitted weights (in weight units: the coefficients of
// BuildSet are in centi-men per unit) into the int16 values of a weights
// file, clamped to the int16 range.
func Quantize(w []float64) []int16 {
	out := make([]int16, len(w))
	for i, x := range w {
		out[i] = int16(max(min(math.Round(x), math.MaxInt16), math.MinInt16))
	}
	return out
}
