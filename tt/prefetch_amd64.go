package tt

// prefetch asks the processor to bring the cache line of p in (the
// PREFETCHT0 instruction): unlike a load, it does not hold up the
// instructions after it while the line comes from memory.
//
//go:noescape
func prefetch(p *slot)
