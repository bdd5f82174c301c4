package tune

import (
	"path/filepath"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// twoShards returns Italian positions files of the two halves of the same
// small game set: shard 1/2 and shard 2/2, each merged.
func twoShards(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for k := 1; k <= 2; k++ {
		part := genPart(t, dir, movegen.Italian, 24, k, 2)
		data := filepath.Join(dir, "s"+string(rune('0'+k))+".pos")
		if _, err := Merge(data, []string{part}, nil, 0); err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out[0], out[1]
}

// TestFitValidFile: with a validation file, the validation rows are that
// file's and the data is trained on whole; without it a hash of the
// position holds one in twenty out of the data. For both fits.
func TestFitValidFile(t *testing.T) {
	a, b := twoShards(t)
	count := func(path string) (all, held int) {
		pr, err := OpenPositions(path)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		var r Record
		for pr.Next(&r) == nil {
			all++
			if IsValidation(mix64(r.Pos.Key)) {
				held++
			}
		}
		return all, held
	}
	na, ha := count(a)
	nb, _ := count(b)
	if ha == 0 || ha == na {
		t.Fatalf("%d of %d positions held out: the test needs some of each", ha, na)
	}
	for _, c := range []struct {
		valid             string
		wantValid, wantTr int
	}{{"", ha, na - ha}, {b, nb, na}} {
		// Each fit reports its validation rows at the start and its
		// training rows after its one epoch: (validation, training).
		fits := map[string]func() (int, int64, error){
			"network": func() (v int, r int64, err error) {
				_, _, err = FitNetStream(StreamConfig{Hidden: 16, Lambda: 0.5, Epochs: 1, Batch: 64, Rate: 0.01, Seed: 1, Valid: c.valid}, a,
					func(p StreamProgress) { v, r = p.ValidRows, p.Rows })
				return v, r, err
			},
			"patterns": func() (v int, r int64, err error) {
				_, _, err = FitPatterns(PatConfig{Lambda: 0.5, Epochs: 1, Batch: 64, Rate: 1, Seed: 1, Valid: c.valid}, a,
					func(p PatProgress) { v, r = p.ValidRows, p.Rows })
				return v, r, err
			},
		}
		for name, fit := range fits {
			vrows, rows, err := fit()
			if err != nil {
				t.Fatal(err)
			}
			if vrows != c.wantValid || rows != int64(c.wantTr) {
				t.Errorf("%s, valid %q: %d validation and %d training rows, want %d and %d", name, c.valid, vrows, rows, c.wantValid, c.wantTr)
			}
		}
	}
	if _, _, err := FitNetStream(StreamConfig{Hidden: 16, Lambda: 0.5, Epochs: 1, Batch: 64, Rate: 0.01, Valid: filepath.Join(t.TempDir(), "none.pos")}, a, nil); err == nil {
		t.Error("a missing validation file accepted")
	}
}

// TestFitPatterns: the tables fitted on positions lower the training loss,
// are the same bytes for the same data and seed, and make tables the
// evaluation takes.
func TestFitPatterns(t *testing.T) {
	a, _ := twoShards(t)
	for _, shape := range []eval.PatShape{eval.PatSquare, eval.PatTall} {
		t.Run(shape.String(), func(t *testing.T) { testFitPatterns(t, a, shape) })
	}
}

func testFitPatterns(t *testing.T, a string, shape eval.PatShape) {
	cfg := PatConfig{Lambda: 0.5, Epochs: 3, Batch: 32, Rate: 2, Seed: 4, Shape: shape}
	var losses []float64
	w1, k, err := FitPatterns(cfg, a, func(p PatProgress) {
		if p.Epoch > 0 {
			losses = append(losses, p.Loss)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if k <= 0 || len(losses) != 3 || !(losses[2] < losses[0]) {
		t.Fatalf("K %v, training losses %v: want K above 0 and the loss falling", k, losses)
	}
	w2, _, err := FitPatterns(cfg, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for i := range w1 {
		if w1[i] != w2[i] {
			t.Fatalf("weight %d: %d, then %d: not the same bytes", i, w1[i], w2[i])
		}
		if w1[i] != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("every weight zero")
	}
	if _, err := eval.NewPatterns(movegen.Italian, shape, w1); err != nil {
		t.Fatal(err)
	}
}

// TestFitPatternsKeep: with Keep the tables are fitted over the
// evaluation with the network's own tables (the embedded Italian one has
// 4 x 4 ones), so the loss before the fit is that evaluation's, not the
// one without them.
func TestFitPatternsKeep(t *testing.T) {
	n := eval.ActiveNet(movegen.Italian)
	if n == nil || len(n.Weights().Pats) == 0 {
		t.Skip("the embedded Italian network has no pattern tables")
	}
	a, _ := twoShards(t)
	start := func(keep bool) float64 {
		var v0 float64
		cfg := PatConfig{K: 180, Lambda: 0.5, Epochs: 1, Batch: 32, Rate: 2, Seed: 4, Shape: eval.PatTall, Keep: keep}
		if _, _, err := FitPatterns(cfg, a, func(p PatProgress) {
			if p.Epoch == 0 {
				v0 = p.Valid
			}
		}); err != nil {
			t.Fatal(err)
		}
		return v0
	}
	if without, with := start(false), start(true); without == with {
		t.Fatalf("validation loss before the fit %v with the network's tables and without: Keep changed nothing", with)
	}
}
