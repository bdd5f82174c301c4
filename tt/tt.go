// Package tt is the search's transposition table: a flat power-of-two
// array of 16-byte entries in buckets of two, indexed by the low bits of the
// Zobrist key, shared without locks by every search thread.
//
// Each entry is two 64-bit words written and read atomically: the data word
// and the key XOR the data. A reader accepts an entry only if the two words
// XOR back to its key, so an entry torn by two threads writing at once reads
// as a miss instead of as wrong data, and the race detector stays quiet.
//
// Replacement is depth-preferred with aging: a store for a key already in
// the bucket overwrites it; otherwise it replaces the slot whose entry is
// shallowest, counting an entry from an older search as four plies shallower
// per search of age.
//
// Clear is lazy: it starts a new generation, kept in each entry, and an
// entry of an older generation reads as empty, so a new game on a table of
// gigabytes costs nothing (zeroing a 4 GiB table took 5 s, most of it
// faulting in pages the search never touched). Every 128th clear zeroes
// the table, so that an entry's generation is never mistaken.
package tt

import "sync/atomic"

// Bound says how a stored score relates to the true value.
type Bound uint8

// The kinds of bound.
const (
	BoundNone  Bound = iota
	BoundUpper       // score is an upper bound (fail low)
	BoundLower       // score is a lower bound (fail high)
	BoundExact       // score is exact
)

// Entry is what the table stores for a position: the best move found (from
// and to bits and a hash of its captured set, enough to find it again among
// the generated moves), the score, the depth searched and the bound kind.
type Entry struct {
	From, To, CapHash uint8
	Score             int16
	Depth             int8
	Bound             Bound
}

// HasMove reports whether the entry holds a move.
func (e Entry) HasMove() bool { return e.From != e.To || e.CapHash != 0 }

// CapHash folds a captured set into the 8 bits kept by an entry.
func CapHash(captured uint64) uint8 {
	h := captured * 0x9E3779B97F4A7C15
	return uint8(h>>56) | 1 // never 0 for a capture, so HasMove sees a king's cycle
}

type slot struct {
	key  atomic.Uint64 // key ^ data
	data atomic.Uint64
}

// Table is the transposition table. Probe and Store may be called from
// several goroutines at once; Resize, Clear and NewSearch may not run during
// a search.
type Table struct {
	slots []slot
	mem   *mapping // where slots live if outside the Go heap, else nil
	mask  uint64
	age   uint8
	gen   uint8 // generation of the entries in use, 0-127
	dirty bool  // something may have been stored since the last clear
}

// MinLog2 and MaxLog2 bound the table size, in log2 of entries.
const (
	MinLog2 = 10
	MaxLog2 = 32
)

// New returns a table of 2^log2 entries (16 bytes each), log2 clamped to
// [MinLog2, MaxLog2].
func New(log2 int) *Table {
	t := &Table{}
	t.Resize(log2)
	return t
}

// Resize reallocates the table with 2^log2 entries, emptying it.
func (t *Table) Resize(log2 int) {
	log2 = min(max(log2, MinLog2), MaxLog2)
	n := uint64(1) << log2
	if uint64(len(t.slots)) == n {
		t.Clear()
		return
	}
	t.slots = nil
	t.mem.free()
	t.slots, t.mem = allocSlots(n)
	t.mask = n - 1
	t.age, t.gen, t.dirty = 0, 0, false
}

// Len returns the number of entries.
func (t *Table) Len() int { return len(t.slots) }

// Clear empties the table: it starts a new generation (the entries of
// the older ones read as empty), zeroing the table only when the
// generations wrap round. A table that nothing was stored in since the
// last clear stays as it is.
func (t *Table) Clear() {
	if t.dirty {
		t.gen = (t.gen + 1) & genMask
		if t.gen == 0 {
			clear(t.slots)
		}
		t.dirty = false
	}
	t.age = 0
}

// NewSearch starts a new search: entries stored from now on are younger
// than every entry already there.
func (t *Table) NewSearch() {
	t.age = (t.age + 1) & 63
	t.dirty = true
}

// Data word layout: from 0-7, to 8-15, caphash 16-23, score 24-39,
// depth 40-47, bound 48-49, age 50-55, bit 56 always set so that a stored
// word is never zero, generation 57-63.
func pack(e Entry, age, gen uint8) uint64 {
	return uint64(e.From) | uint64(e.To)<<8 | uint64(e.CapHash)<<16 |
		uint64(uint16(e.Score))<<24 | uint64(uint8(e.Depth))<<40 |
		uint64(e.Bound&3)<<48 | uint64(age&63)<<50 | 1<<56 | uint64(gen&genMask)<<57
}

const genMask = 127

// live reports whether data word d holds an entry of generation gen.
func live(d uint64, gen uint8) bool { return d != 0 && uint8(d>>57) == gen }

func unpack(d uint64) (Entry, uint8) {
	return Entry{
		From:    uint8(d),
		To:      uint8(d >> 8),
		CapHash: uint8(d >> 16),
		Score:   int16(uint16(d >> 24)),
		Depth:   int8(uint8(d >> 40)),
		Bound:   Bound(d>>48) & 3,
	}, uint8(d>>50) & 63
}

// Probe returns the entry stored for key, if any.
func (t *Table) Probe(key uint64) (Entry, bool) {
	d, ok := t.ProbeData(key)
	if !ok {
		return Entry{}, false
	}
	return d.Entry(), true
}

// Data is an entry as the table keeps it, packed in one word (see pack):
// what ProbeData returns, read field by field without unpacking the rest.
type Data uint64

// The fields of d, as in Entry.
func (d Data) From() uint8    { return uint8(d) }
func (d Data) To() uint8      { return uint8(d >> 8) }
func (d Data) CapHash() uint8 { return uint8(d >> 16) }
func (d Data) Score() int16   { return int16(uint16(d >> 24)) }
func (d Data) Depth() int8    { return int8(uint8(d >> 40)) }
func (d Data) Bound() Bound   { return Bound(d>>48) & 3 }

// HasMove reports whether d holds a move (as Entry.HasMove).
func (d Data) HasMove() bool { return d.From() != d.To() || d.CapHash() != 0 }

// Entry returns d unpacked.
func (d Data) Entry() Entry {
	e, _ := unpack(uint64(d))
	return e
}

// ProbeData is Probe with the entry left packed.
func (t *Table) ProbeData(key uint64) (Data, bool) {
	i := key & t.mask &^ 1
	for j := i; j <= i+1; j++ {
		s := &t.slots[j]
		d := s.data.Load()
		if live(d, t.gen) && s.key.Load()^d == key {
			return Data(d), true
		}
	}
	return 0, false
}

// Prefetch starts loading key's bucket into the cache, so that a probe
// of key a little later does not wait for memory (the probe's load is the
// search's largest stall).
func (t *Table) Prefetch(key uint64) {
	prefetch(&t.slots[key&t.mask&^1])
}

// Store records e for key, replacing by depth and age (see the package
// comment). Stores belong to a search: call NewSearch first, or Clear may
// not see them.
func (t *Table) Store(key uint64, e Entry) { t.StoreData(key, DataOf(e)) }

// DataOf returns e packed as the table keeps it (without its age and
// generation, which StoreData adds).
func DataOf(e Entry) Data { return Data(pack(e, 0, 0) & (1<<50 - 1)) }

// moveBits are the bits of a data word that hold the move.
const moveBits = 1<<24 - 1

// StoreData is Store of an entry packed by DataOf.
func (t *Table) StoreData(key uint64, e Data) {
	i := key & t.mask &^ 1
	victim := i
	worst := 1 << 30
	for j := i; j <= i+1; j++ {
		s := &t.slots[j]
		d := s.data.Load()
		if !live(d, t.gen) {
			if worst > -1<<20 {
				victim, worst = j, -1<<20
			}
			continue
		}
		if s.key.Load()^d == key {
			if !e.HasMove() && Data(d).HasMove() { // keep the known best move
				e = e&^moveBits | Data(d)&moveBits
			}
			victim = j
			break
		}
		value := int(Data(d).Depth()) - 4*int((t.age-uint8(d>>50)&63)&63)
		if value < worst {
			victim, worst = j, value
		}
	}
	d := uint64(e) | uint64(t.age&63)<<50 | 1<<56 | uint64(t.gen&genMask)<<57
	s := &t.slots[victim]
	s.data.Store(d)
	s.key.Store(key ^ d)
}
