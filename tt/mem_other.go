//go:build !linux

package tt

// mapping is nothing where tables live on the Go heap.
type mapping struct{}

// allocSlots returns n zeroed slots from the Go heap.
func allocSlots(n uint64) ([]slot, *mapping) { return make([]slot, n), nil }

func (m *mapping) free() {}
