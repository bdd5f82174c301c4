package book

import (
	"embed"
	"fmt"
	"sync"

	"github.com/damaengine/damaengine/movegen"
)

// The embedded books, one per variant, built by "damaengine book build"
// (the README gives the commands). The Damone book serves both Damone
// rule sets. A variant whose book scored worse than none in self-play has
// no file here until a better one measures even (docs/testing.md): it
// searches from the first move.
//
//go:embed data/*.book
var embedded embed.FS

var (
	embedMu    sync.Mutex
	embedBooks = map[string]*Book{}
)

// Embedded returns the book embedded for variant v, decoded on first use.
func Embedded(v *movegen.Variant) (*Book, error) {
	embedMu.Lock()
	defer embedMu.Unlock()
	if b, ok := embedBooks[v.Name]; ok {
		return b, nil
	}
	data, err := embedded.ReadFile("data/" + v.Name + ".book")
	if err != nil {
		return nil, fmt.Errorf("no embedded book for %s", v.Name)
	}
	b, err := Decode(data, v)
	if err != nil {
		return nil, fmt.Errorf("embedded %s book: %w", v.Name, err)
	}
	embedBooks[v.Name] = b
	return b, nil
}
