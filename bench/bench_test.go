package bench

import (
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// benchFingerprint pins the bench node count at depth 8. A change to the
// search or the evaluation that alters it must update this number on
// purpose (and quote the new full "damaengine bench" count in its commit,
// and put that output in the README's bench example, which
// cmd/damaengine's TestREADMEBenchExample checks).
const benchFingerprint = 51577

func TestBenchDeterministic(t *testing.T) {
	n1, _, err := Bench(movegen.Italian, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	n2, _, _ := Bench(movegen.Italian, 8, nil)
	if n1 != n2 {
		t.Fatalf("bench node count differs between runs: %d, %d", n1, n2)
	}
	if n1 != benchFingerprint {
		t.Errorf("bench fingerprint at depth 8 is %d, pinned %d: update benchFingerprint if the change is meant", n1, benchFingerprint)
	}
}

func TestBenchPositionsEveryVariant(t *testing.T) {
	for _, v := range movegen.Variants() {
		fens := BenchPositions[v.Name]
		if len(fens) < 4 {
			t.Errorf("%s: %d bench positions", v.Name, len(fens))
		}
		for _, f := range fens {
			p, err := v.ParseFEN(f)
			if err != nil {
				t.Errorf("%s: %v", v.Name, err)
				continue
			}
			var ml movegen.MoveList
			if v.Generate(&p, &ml); ml.N == 0 {
				t.Errorf("%s %s: no move", v.Name, f)
			}
		}
	}
	n, _, err := Bench(movegen.International, 4, nil)
	if err != nil || n == 0 {
		t.Errorf("international bench: %d nodes, %v", n, err)
	}
}
