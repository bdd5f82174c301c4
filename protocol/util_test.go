package protocol

import (
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a strings.Builder safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

// waitFor waits until the output matches the regular expression.
func waitFor(t *testing.T, b *syncBuffer, re string) {
	t.Helper()
	r := regexp.MustCompile(re)
	// Generous: the background table builds of the egdb tests take over a
	// minute under the race detector on a loaded machine; waiting costs
	// nothing when the output comes.
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		if r.MatchString(b.String()) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("output never matched /%s/:\n%s", re, b.String())
}

// pipe returns a connected reader and writer.
func pipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
