package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// bench --hand-written searches without the learned correction (another
// tree, so another node count) and puts the learned weights back after.
func TestBenchHandWritten(t *testing.T) {
	v := movegen.Italian
	p := v.Start()
	p.Play(firstMove(v, &p))
	before := eval.Evaluate(v, &p)
	count := func(args ...string) string {
		var out, errb bytes.Buffer
		if rc := run(append([]string{"bench", "--depth", "5"}, args...), strings.NewReader(""), &out, &errb); rc != 0 {
			t.Fatalf("bench %v: rc %d: %s", args, rc, errb.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		return strings.Fields(lines[len(lines)-1])[1]
	}
	learned, hand := count(), count("--hand-written")
	if learned == hand {
		t.Errorf("bench --hand-written: %s, the same as with the learned evaluation", hand)
	}
	if after := eval.Evaluate(v, &p); after != before {
		t.Errorf("after bench --hand-written the evaluation is %d, was %d", after, before)
	}
	if again := count(); again != learned {
		t.Errorf("bench after --hand-written: %s, was %s", again, learned)
	}
}

func firstMove(v *movegen.Variant, p *movegen.Position) movegen.Move {
	var ml movegen.MoveList
	v.Generate(p, &ml)
	return ml.Moves[0]
}

// bench --cpuprofile writes a profile pprof reads (a gzipped protocol
// buffer), and names the file it could not create.
func TestBenchCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var out, errb bytes.Buffer
	if rc := run([]string{"bench", "--depth", "6", "--cpuprofile", path}, strings.NewReader(""), &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile (%d bytes) is not gzip", len(b))
	}
	if !strings.Contains(out.String(), "bench nodes=") {
		t.Errorf("no bench line: %q", out.String())
	}
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")
	errb.Reset()
	if rc := run([]string{"bench", "--depth", "1", "--cpuprofile", bad}, strings.NewReader(""), &out, &errb); rc == 0 || !strings.Contains(errb.String(), "--cpuprofile") {
		t.Errorf("an uncreatable profile: rc %d, %q", rc, errb.String())
	}
}
