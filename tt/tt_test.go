package tt

import (
	"runtime"
	"sync"
	"testing"
)

func TestStoreProbe(t *testing.T) {
	tab := New(10)
	tab.NewSearch()
	if tab.Len() != 1024 {
		t.Fatalf("len %d", tab.Len())
	}
	e := Entry{From: 3, To: 35, CapHash: CapHash(1 << 7), Score: -9990, Depth: 12, Bound: BoundLower}
	tab.Store(0xDEADBEEF12345678, e)
	got, ok := tab.Probe(0xDEADBEEF12345678)
	if !ok || got != e {
		t.Fatalf("probe = %+v %v, want %+v", got, ok, e)
	}
	if _, ok := tab.Probe(0xDEADBEEF12345679 + 1<<40); ok {
		t.Error("hit for a key never stored")
	}
	tab.Clear()
	if _, ok := tab.Probe(0xDEADBEEF12345678); ok {
		t.Error("hit after Clear")
	}
}

func TestReplacement(t *testing.T) {
	tab := New(10)
	tab.NewSearch()
	// Three keys in one bucket: the shallowest entry goes.
	k1, k2, k3 := uint64(0x100<<10|4), uint64(0x200<<10|5), uint64(0x300<<10|4)
	tab.Store(k1, Entry{Depth: 9, Bound: BoundExact})
	tab.Store(k2, Entry{Depth: 2, Bound: BoundExact})
	tab.Store(k3, Entry{Depth: 5, Bound: BoundExact})
	if _, ok := tab.Probe(k2); ok {
		t.Error("shallow entry survived")
	}
	if _, ok := tab.Probe(k1); !ok {
		t.Error("deep entry replaced")
	}
	// After enough new searches, the old deep entry is the one to go.
	for i := 0; i < 3; i++ {
		tab.NewSearch()
	}
	tab.Store(k3, Entry{Depth: 5, Bound: BoundExact}) // refreshed by this search
	k4 := uint64(0x400<<10 | 5)
	tab.Store(k4, Entry{Depth: 1, Bound: BoundExact})
	if _, ok := tab.Probe(k1); ok {
		t.Error("old deep entry kept over a younger one")
	}
	if _, ok := tab.Probe(k3); !ok {
		t.Error("younger entry replaced")
	}
	// A store without a move keeps the move already known for the key.
	tab.Store(k4, Entry{From: 1, To: 2, Depth: 3})
	tab.Store(k4, Entry{Depth: 4})
	if e, _ := tab.Probe(k4); e.From != 1 || e.To != 2 || e.Depth != 4 {
		t.Errorf("entry %+v", e)
	}
}

func TestConcurrent(t *testing.T) {
	tab := New(12)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := uint64(0); i < 20000; i++ {
				k := i*0x9E3779B97F4A7C15 + uint64(g)
				tab.Store(k, Entry{Score: int16(i), Depth: int8(i % 50)})
				if e, ok := tab.Probe(k); ok && e.Score != int16(i) && e.Depth != int8(i%50) {
					t.Errorf("torn entry %+v", e)
				}
			}
		}(g)
	}
	wg.Wait()
}

func BenchmarkProbe(b *testing.B) {
	tab := New(20)
	for i := uint64(0); i < 1<<20; i++ {
		tab.Store(i*0x9E3779B97F4A7C15, Entry{Depth: 3})
	}
	b.ReportAllocs()
	var k uint64
	for b.Loop() {
		k += 0x9E3779B97F4A7C15
		tab.Probe(k)
	}
}

// Clear is lazy: the entries stay in memory but read as empty, and a store
// takes their slots as if they were free; after 128 clears the
// generations wrap round and the table is zeroed, so an old entry never
// comes back.
func TestClearIsLazy(t *testing.T) {
	tab := New(10)
	tab.NewSearch()
	k1, k2 := uint64(0x100<<10|8), uint64(0x200<<10|9) // one bucket
	tab.Store(k1, Entry{Depth: 40, Bound: BoundExact})
	tab.Store(k2, Entry{Depth: 40, Bound: BoundExact})
	tab.Clear()
	if tab.slots[8].data.Load() == 0 || tab.slots[9].data.Load() == 0 {
		t.Error("Clear zeroed the table")
	}
	for _, k := range []uint64{k1, k2} {
		if _, ok := tab.Probe(k); ok {
			t.Errorf("key %#x found after Clear", k)
		}
	}
	tab.NewSearch()
	k3, k4 := uint64(0x300<<10|8), uint64(0x400<<10|9)
	tab.Store(k3, Entry{Depth: 1, Bound: BoundExact})
	tab.Store(k4, Entry{Depth: 1, Bound: BoundExact})
	for _, k := range []uint64{k3, k4} {
		if _, ok := tab.Probe(k); !ok {
			t.Errorf("shallow key %#x not stored over a cleared deep entry", k)
		}
	}
	// the generations wrap round: the first game's entry stays gone
	tab.Clear()
	old := uint64(0x500<<10 | 20)
	tab.NewSearch()
	tab.Store(old, Entry{Depth: 7, Bound: BoundExact})
	for i := 0; i < 128; i++ {
		tab.Clear()
		tab.NewSearch()
		tab.Store(uint64(i)<<10|100, Entry{Depth: 1})
	}
	if _, ok := tab.Probe(old); ok {
		t.Error("an entry from 128 clears ago is found again")
	}
	if _, ok := tab.Probe(127<<10 | 100); !ok {
		t.Error("the entry of the current generation is lost")
	}
}

// TestData: a packed entry reads back field by field as the entry, and
// ProbeData finds what Store stored.
func TestData(t *testing.T) {
	tab := New(10)
	tab.NewSearch()
	for i := 0; i < 2000; i++ {
		x := uint64(i)*0x9E3779B97F4A7C15 + 12345
		e := Entry{From: uint8(x), To: uint8(x >> 8), CapHash: uint8(x >> 16), Score: int16(x >> 24),
			Depth: int8(x >> 40), Bound: Bound(x>>48) & 3}
		d := DataOf(e)
		if d.Entry() != e || d.From() != e.From || d.To() != e.To || d.CapHash() != e.CapHash ||
			d.Score() != e.Score || d.Depth() != e.Depth || d.Bound() != e.Bound || d.HasMove() != e.HasMove() {
			t.Fatalf("%+v packed reads back as %+v", e, d.Entry())
		}
		key := x ^ 0xABCDEF
		tab.Store(key, e)
		got, ok := tab.ProbeData(key)
		if !ok || got.Entry() != e {
			t.Fatalf("stored %+v, ProbeData %+v %v", e, got.Entry(), ok)
		}
	}
}

// A table of a huge page or more lives outside the Go heap (on Linux):
// it starts empty, keeps what is stored, is shared by threads like any
// other, and a resize (down to the heap and back) gives up the old memory
// and starts empty again.
func TestLargeTable(t *testing.T) {
	tab := New(18)                                       // 4 MiB
	key := func(i uint64) uint64 { return i<<1 | i<<40 } // a bucket each
	if runtime.GOOS == "linux" && tab.mem == nil {
		t.Fatal("a 4 MiB table was not mapped")
	}
	for round := 0; round < 3; round++ {
		for i := uint64(0); i < 1<<18; i += 97 {
			if _, ok := tab.Probe(key(i)); ok {
				t.Fatalf("round %d: a fresh table has key %d", round, i)
			}
		}
		var wg sync.WaitGroup
		for g := uint64(0); g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < 1<<16; i += 2 {
					tab.Store(key(i), Entry{Score: int16(i), Depth: 1})
				}
			}()
		}
		wg.Wait()
		for i := uint64(0); i < 1<<16; i++ {
			if e, ok := tab.Probe(key(i)); !ok || e.Score != int16(i) {
				t.Fatalf("round %d: key %d reads %+v, %v", round, i, e, ok)
			}
		}
		tab.Resize(12) // back to the heap: the mapping is given up
		if tab.mem != nil {
			t.Fatal("a small table kept a mapping")
		}
		tab.Resize(18 + round%2)
	}
}
