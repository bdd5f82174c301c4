package book

import (
	"go/build"
	"strings"
	"testing"
)

// TestLayering guards the one-way imports: book (format, probe, embedded
// books) imports the standard library and movegen, never the search, the
// evaluation, the protocol or anything else of the engine above it. The
// builder, which needs the search, lives in book/build.
func TestLayering(t *testing.T) {
	const module = "github.com/damaengine/damaengine/"
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.GoFiles) == 0 {
		t.Fatal("no Go files found in package book")
	}
	for _, imp := range pkg.Imports {
		first, _, _ := strings.Cut(imp, "/")
		switch {
		case imp == module+"movegen":
		case strings.HasPrefix(imp, module), strings.Contains(first, "."):
			t.Errorf("package book imports %s; it may import only the standard library and movegen", imp)
		}
	}
}
