package serve

import (
	"os/exec"
	"strings"
	"testing"
)

// Issue 46: the page's Elo update (static/rating.js) against the worked
// example of the Elo article, the K schedule, the levels' anchored ladder
// and the ratings file's import, run by node (testdata/rating_test.js).
func TestServeRatingJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("rating test skipped: node not found (apt-get install nodejs to run it)")
	}
	cmd := exec.Command(node, "rating_test.js")
	cmd.Dir = "testdata"
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("node rating_test.js: %v\n%s", err, out)
	}
}
