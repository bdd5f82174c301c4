package protocol

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// TestEvalFile: eval-file loads a weights file for the variant it names; a
// missing or broken file is an error and the weights in use stay; an
// empty value restores the embedded weights.
func TestEvalFile(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "it.dw"), filepath.Join(dir, "bad.dw")
	var buf bytes.Buffer
	if err := eval.WriteWeights(&buf, movegen.Italian, make([]int16, 2*eval.FeatureCount(movegen.Italian))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(good, buf.Bytes(), 0o644)
	os.WriteFile(bad, buf.Bytes()[:buf.Len()/2], 0o644)
	defer eval.ResetWeights(movegen.Italian)
	golden(t, "set-param name=eval-file value=/nonexistent.dw\nset-param name=eval-file value="+bad+"\nping\n",
		`error message="set-param: eval-file: .*nonexistent.*"`, `error message="set-param: eval-file: .*truncated.*"`, `pong`)
	golden(t, "set-param name=eval-file value="+good+"\nping\n", `pong`)
	if !eval.UsesLearned(movegen.Italian) {
		t.Errorf("eval-file did not put the weights in use")
	}
	golden(t, "set-param name=eval-file value=\nping\n", `pong`)
	if has, _ := eval.EmbeddedWeights(movegen.Italian); eval.UsesLearned(movegen.Italian) != has {
		t.Errorf("an empty eval-file did not restore the embedded weights")
	}
}
