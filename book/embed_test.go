package book

import (
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestEmbeddedBooks decodes every variant's embedded book and checks that
// it answers from the start position (English's, grown from the 3-move
// ballots, from the positions after them instead: its first ballot).
func TestEmbeddedBooks(t *testing.T) {
	for _, v := range movegen.Variants() {
		b, err := Embedded(v)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if b.Variant() != v.Name || b.Len() < 100 {
			t.Errorf("%s: book for %q with %d positions", v.Name, b.Variant(), b.Len())
		}
		if v == movegen.English {
			continue
		}
		p := v.Start()
		if line := b.Line(v, p, 6); len(line) < 4 {
			t.Errorf("%s: the book's line from the start is %d moves long, want at least 4", v.Name, len(line))
		}
	}
}
