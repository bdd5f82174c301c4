package tt

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on Linux (x86-64 and
// arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE, which the syscall package does not name.
const madvHugepage = 14

// mapping is a table's memory mapped outside the Go heap; its cleanup
// unmaps it once nothing refers to it.
type mapping struct {
	mem     []byte
	cleanup runtime.Cleanup
}

// allocSlots returns n zeroed slots. A table of at least a huge page is
// mapped at a huge-page boundary and the kernel is asked to back it with
// huge pages: a probe lands anywhere in the table, and in a table of tens
// of megabytes of 4 KiB pages most probes also miss the address-translation
// cache (measured: the protocol's default 64 MiB table searches in 0.91 of
// the CPU with huge pages; bench's 4 MiB one, whose pages the cache holds,
// no faster). Its pages are faulted in at once (below). Where the kernel gives no huge pages (transparent huge pages
// "never") the mapping works as plain memory.
func allocSlots(n uint64) ([]slot, *mapping) {
	size := n * uint64(unsafe.Sizeof(slot{}))
	if size < hugePage {
		return make([]slot, n), nil
	}
	mem, err := syscall.Mmap(-1, 0, int(size+hugePage), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]slot, n), nil
	}
	off := (hugePage - uintptr(unsafe.Pointer(&mem[0]))%hugePage) % hugePage
	body := mem[off : off+uintptr(size)]
	_ = syscall.Madvise(body, madvHugepage) // advice only: refused, the table still works
	// Fault every page in now, while the table is made: a huge page's first
	// touch zeroes 2 MiB and may wait for the kernel to compact memory
	// (over 100 ms at times here), which inside a search would stall it
	// past its time.
	for i := 0; i < len(body); i += 4096 {
		body[i] = 0
	}
	m := &mapping{mem: mem}
	m.cleanup = runtime.AddCleanup(m, func(b []byte) { _ = syscall.Munmap(b) }, mem)
	return unsafe.Slice((*slot)(unsafe.Pointer(&body[0])), n), m
}

// free unmaps m now rather than when the collector finds it unreachable.
func (m *mapping) free() {
	if m == nil {
		return
	}
	m.cleanup.Stop()
	_ = syscall.Munmap(m.mem)
}
