package tt

import (
	"syscall"
	"testing"
	"unsafe"
)

// A mapped table's pages are all in memory once it is made: a search
// never waits for the kernel to fault one in (mincore reports residency).
func TestMappedTableFaultedIn(t *testing.T) {
	tab := New(18) // 4 MiB: mapped
	if tab.mem == nil {
		t.Fatal("a 4 MiB table was not mapped")
	}
	body := unsafe.Slice((*byte)(unsafe.Pointer(&tab.slots[0])), uintptr(len(tab.slots))*unsafe.Sizeof(tab.slots[0]))
	vec := make([]byte, (len(body)+4095)/4096)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&body[0])), uintptr(len(body)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	out := 0
	for _, v := range vec {
		if v&1 == 0 {
			out++
		}
	}
	if out > 0 {
		t.Errorf("%d of %d pages of a new table not in memory", out, len(vec))
	}
}
