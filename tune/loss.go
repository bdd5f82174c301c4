package tune

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/damaengine/damaengine/eval"
)

// FileLoss is the cross-entropy of the evaluation v now uses (its
// embedded or loaded weights, as the engine plays them: eval.EvaluateWhite)
// on the first limit records of a positions file (all when limit is 0),
// for each label weight of lambdas (1: the game's result alone; 0: the
// search's score alone; as tune fit mixes them), with the win probability
// sigmoid(score/K). K 0 is fitted to the records' results under the
// evaluation. It returns the losses, the records read and K.
//
// It compares weights files on the same positions — another shard's games,
// so that no file has seen them — by the measure a fit reports and by the
// result alone: International's 4 x 6 tables, +28 Elo, took 0.006 off the
// result's loss and added 0.0013 to the score's, while other drops, up to
// 0.013 in English, have not told a better player
// (docs/evaluation-at-scale.md, twenty-fifth session).
func FileLoss(path string, lambdas []float64, k float64, limit int64) ([]float64, int, float64, error) {
	for _, l := range lambdas {
		if l < 0 || l > 1 {
			return nil, 0, 0, fmt.Errorf("tune: λ %v, want 0 to 1", l)
		}
	}
	if k < 0 {
		return nil, 0, 0, errors.New("tune: K must be 0 (fitted) or more")
	}
	pr, err := OpenPositions(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer pr.Close()
	v := pr.Header.Variant
	var scores, results []float32
	var searched []int
	var r Record
	for limit <= 0 || int64(len(scores)) < limit {
		if err := pr.Next(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, 0, 0, fmt.Errorf("tune: %s: %v", path, err)
		}
		scores = append(scores, float32(eval.EvaluateWhite(v, &r.Pos)))
		results = append(results, float32(r.Result+1)/2)
		searched = append(searched, r.Score)
	}
	if len(scores) == 0 {
		return nil, 0, 0, fmt.Errorf("tune: %s holds no positions", path)
	}
	if k, err = validK(k, scores, results); err != nil {
		return nil, 0, 0, err
	}
	losses := make([]float64, len(lambdas))
	for j, l := range lambdas {
		var sum float64
		for i := range scores {
			p := 1 / (1 + math.Exp(-float64(scores[i])/k))
			sum += crossEntropy(p, mixTarget(float64(results[i]), searched[i], l, k))
		}
		losses[j] = sum / float64(len(scores))
	}
	return losses, len(scores), k, nil
}
