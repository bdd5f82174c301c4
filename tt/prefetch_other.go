//go:build !amd64

package tt

// prefetch does nothing where the package has no prefetch instruction.
func prefetch(p *slot) {}
