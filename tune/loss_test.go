package tune

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// TestFileLoss writes a positions file of three known English records
// (a result and a search score each) and checks FileLoss against the
// cross-entropy worked out here from the evaluation in use, for the result
// alone, the score alone and half of each; the limit and a bad λ.
func TestFileLoss(t *testing.T) {
	v := movegen.English
	recs := []struct {
		fen           string
		result, score int
	}{
		{"W:W21,22,23:B9,10", 1, 300},
		{"B:W21:B5,6,7", -1, -250},
		{"W:W18,K30:B2,K11", 0, 20},
	}
	c := NewCodec(v)
	h := &PosHeader{Variant: v, Record: c.Size(), Kind: "merged"}
	h.set("positions", "3")
	b := []byte(h.line())
	raw := make([]byte, c.Size())
	var ps []movegen.Position
	for _, r := range recs {
		p, err := v.ParseFEN(r.fen)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Encode(raw, &Record{Pos: p, Result: r.result, Score: r.score}); err != nil {
			t.Fatal(err)
		}
		b = append(b, raw...)
		ps = append(ps, p)
	}
	path := filepath.Join(t.TempDir(), "l.pos")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	const k = 150
	want := func(lambda float64, n int) float64 {
		var sum float64
		for i, r := range recs[:n] {
			p := 1 / (1 + math.Exp(-float64(eval.EvaluateWhite(v, &ps[i]))/k))
			y := lambda*float64(r.result+1)/2 + (1-lambda)/(1+math.Exp(-float64(r.score)/k))
			sum -= y*math.Log(p) + (1-y)*math.Log(1-p)
		}
		return sum / float64(n)
	}
	got, n, gk, err := FileLoss(path, []float64{1, 0, 0.5}, k, 0)
	if err != nil || n != 3 || gk != k {
		t.Fatalf("FileLoss: %d records, K %v, %v", n, gk, err)
	}
	for i, l := range []float64{1, 0, 0.5} {
		if math.Abs(got[i]-want(l, 3)) > 1e-9 {
			t.Errorf("λ %v: loss %v, want %v", l, got[i], want(l, 3))
		}
	}
	if got, n, _, err := FileLoss(path, []float64{1}, k, 2); err != nil || n != 2 || math.Abs(got[0]-want(1, 2)) > 1e-9 {
		t.Errorf("limit 2: %d records, loss %v (%v); want 2, %v", n, got, err, want(1, 2))
	}
	if _, _, _, err := FileLoss(path, []float64{1.5}, k, 0); err == nil {
		t.Error("λ 1.5 accepted")
	}
}
