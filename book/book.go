// Package book holds opening books: trees of positions scored by the
// engine's own search, keyed by Zobrist key, probed for the moves a game
// may follow from a position. Package bookbuild (book/build) grows them by
// drop-out expansion with the engine's search; book itself imports nothing
// of the engine but movegen, so the imports run one way, from the protocol
// down through the search to the book (TestLayering guards it).
//
// A book stores positions, not moves: the moves of a position are found by
// generating them and looking each child up. The keys are movegen's
// Zobrist keys, which come from a fixed-seed sequence, so a book stays
// valid across builds of the engine as long as movegen's key table is not
// changed (TestKeysFixed pins a few of them).
//
// File format, version 1, little-endian:
//
//	offset size
//	0      8    magic "DAMABOOK"
//	8      2    version (1)
//	10     2    flags of the build (0)
//	12     4    number of positions n
//	16     16   variant name, zero-padded
//	32     8    hash of the root positions the book was built from
//	40     4    milliseconds of search per position at build time
//	44     4    α of the build, in thousandths per centi-man
//	48     12n  positions sorted by key, each:
//	              8 key, 2 score (int16, centi-men for the side to move:
//	              backed up by negamax once expanded, else the search's),
//	              1 search depth reached, 1 flags (bit 0: expanded, every
//	              child is in the book; bit 1: no legal move)
//	48+12n 4    CRC-32 (IEEE) of everything before it
package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// Version is the format version this package reads and writes.
const Version = 1

// Sizes of the file's parts.
const (
	headerSize = 48
	entrySize  = 12
	crcSize    = 4
)

var magic = [8]byte{'D', 'A', 'M', 'A', 'B', 'O', 'O', 'K'}

// Entry flags.
const (
	flagExpanded = 1 << 0
	flagTerminal = 1 << 1
)

// Entry is what the book knows of one position.
type Entry struct {
	// Score is in centi-men for the side to move: the negamax value of the
	// children once the position is expanded, else its own search score.
	Score int
	// Depth is the depth the builder's search of the position reached.
	Depth int
	// Expanded says every child of the position is in the book.
	Expanded bool
	// Terminal says the position has no legal move.
	Terminal bool
}

// Book is a loaded opening book. It is read-only and safe for concurrent
// probes.
type Book struct {
	variant string
	keys    []uint64
	vals    []val
	// RootHash identifies the root positions the book was built from.
	RootHash uint64
	// TimePerNode is the search time per position at build time.
	TimePerNode time.Duration
	// Alpha is the gap weight of the build (plies per centi-man).
	Alpha float64
}

type val struct {
	score int16
	depth uint8
	flags uint8
}

// Variant returns the name of the variant the book is for.
func (b *Book) Variant() string { return b.variant }

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.keys) }

// Lookup returns the entry of the position with Zobrist key k.
func (b *Book) Lookup(k uint64) (Entry, bool) {
	i, ok := b.find(k)
	if !ok {
		return Entry{}, false
	}
	v := b.vals[i]
	return Entry{Score: int(v.score), Depth: int(v.depth), Expanded: v.flags&flagExpanded != 0, Terminal: v.flags&flagTerminal != 0}, true
}

// find is a binary search over the sorted keys.
func (b *Book) find(k uint64) (int, bool) {
	lo, hi := 0, len(b.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b.keys[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(b.keys) && b.keys[lo] == k
}

// Choice is one book move and its score in centi-men for the side to move.
type Choice struct {
	Move  movegen.Move
	Score int
}

// Choices is the fixed-size buffer Probe fills, so a probe allocates
// nothing.
type Choices struct {
	N     int
	Moves [movegen.MaxMoves]Choice
	ml    movegen.MoveList // Probe's scratch list (here so that it does not escape to the heap)
}

// Slice returns the valid choices.
func (c *Choices) Slice() []Choice { return c.Moves[:c.N] }

// Probe fills out with the book moves of p, best first, and returns how
// many there are. A position is answered only when it was expanded (every
// move is then in the book); otherwise out is empty.
func (b *Book) Probe(v *movegen.Variant, p *movegen.Position, out *Choices) int {
	out.N = 0
	i, ok := b.find(p.Key)
	if !ok || b.vals[i].flags&flagExpanded == 0 {
		return 0
	}
	ml := &out.ml
	v.Generate(p, ml)
	for _, m := range ml.Slice() {
		c := *p
		c.Play(m)
		j, ok := b.find(c.Key)
		if !ok {
			continue
		}
		out.Moves[out.N] = Choice{Move: m, Score: -int(b.vals[j].score)}
		out.N++
	}
	// insertion sort, best first, stable for equal scores
	for a := 1; a < out.N; a++ {
		x := out.Moves[a]
		k := a
		for k > 0 && out.Moves[k-1].Score < x.Score {
			out.Moves[k] = out.Moves[k-1]
			k--
		}
		out.Moves[k] = x
	}
	return out.N
}

// Line returns the book's main line after p: the best book move at each
// step, at most max moves.
func (b *Book) Line(v *movegen.Variant, p movegen.Position, max int) []movegen.Move {
	var line []movegen.Move
	var ch Choices
	seen := map[uint64]bool{}
	for len(line) < max && !seen[p.Key] {
		seen[p.Key] = true
		if b.Probe(v, &p, &ch) == 0 {
			break
		}
		line = append(line, ch.Moves[0].Move)
		p.Play(ch.Moves[0].Move)
	}
	return line
}

// Weight returns the relative chance of a move whose score is gap
// centi-men below the best when moves within margin of the best may be
// chosen: 1 for the best, halving every margin/3 below it (1/8 at the
// margin), 0 beyond the margin. With margin 0 only the best moves count.
func Weight(gap, margin int) float64 {
	if gap < 0 {
		gap = 0
	}
	if gap > margin {
		return 0
	}
	if margin == 0 {
		return 1
	}
	return math.Exp2(-3 * float64(gap) / float64(margin))
}

// Pick chooses one of ch (best first, as Probe orders them) at random
// among the moves within margin centi-men of the best, by Weight; r is a
// uniform random number (the caller seeds it, so games vary and tests can
// repeat a choice). It returns false when ch is empty.
func Pick(ch []Choice, margin int, r uint64) (Choice, bool) {
	if len(ch) == 0 {
		return Choice{}, false
	}
	best := ch[0].Score
	total := 0.0
	for _, c := range ch {
		total += Weight(best-c.Score, margin)
	}
	x := float64(r>>11) / (1 << 53) * total
	for _, c := range ch {
		w := Weight(best-c.Score, margin)
		if w == 0 {
			continue
		}
		if x < w {
			return c, true
		}
		x -= w
	}
	return ch[0], true
}

// Errors returned when a book cannot be read.
var (
	// ErrNotBook means the data does not start with the book magic.
	ErrNotBook = errors.New("not a damaengine book (bad magic)")
	// ErrCorrupt means the data is damaged: a checksum or order error.
	ErrCorrupt = errors.New("corrupt book")
)

// Decode reads a book from data. When v is not nil the book must be for
// v (by name: the Damone book serves both Damone rule sets).
func Decode(data []byte, v *movegen.Variant) (*Book, error) {
	if len(data) < headerSize+crcSize {
		if len(data) >= 8 && !bytes.Equal(data[:8], magic[:]) {
			return nil, ErrNotBook
		}
		return nil, fmt.Errorf("truncated book: %d bytes, shorter than the %d-byte header and checksum", len(data), headerSize+crcSize)
	}
	if !bytes.Equal(data[:8], magic[:]) {
		return nil, ErrNotBook
	}
	le := binary.LittleEndian
	if ver := le.Uint16(data[8:]); ver != Version {
		return nil, fmt.Errorf("book format version %d; this engine reads version %d", ver, Version)
	}
	n := int(le.Uint32(data[12:]))
	want := headerSize + entrySize*n + crcSize
	switch {
	case len(data) < want:
		return nil, fmt.Errorf("truncated book: the header says %d positions (%d bytes) but there are %d bytes", n, want, len(data))
	case len(data) > want:
		return nil, fmt.Errorf("%w: %d bytes after the %d positions the header announces", ErrCorrupt, len(data)-want, n)
	}
	if got, sum := crc32.ChecksumIEEE(data[:want-crcSize]), le.Uint32(data[want-crcSize:]); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, expected %08x", ErrCorrupt, got, sum)
	}
	name := string(bytes.TrimRight(data[16:32], "\x00"))
	if v != nil && name != v.Name {
		return nil, fmt.Errorf("the book is for %s, not %s", name, v.Name)
	}
	if _, err := movegen.Lookup(name); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	b := &Book{
		variant:     name,
		keys:        make([]uint64, n),
		vals:        make([]val, n),
		RootHash:    le.Uint64(data[32:]),
		TimePerNode: time.Duration(le.Uint32(data[40:])) * time.Millisecond,
		Alpha:       float64(le.Uint32(data[44:])) / 1000,
	}
	for i := range n {
		e := data[headerSize+entrySize*i:]
		b.keys[i] = le.Uint64(e)
		b.vals[i] = val{score: int16(le.Uint16(e[8:])), depth: e[10], flags: e[11]}
		if i > 0 && b.keys[i] <= b.keys[i-1] {
			return nil, fmt.Errorf("%w: keys out of order at position %d", ErrCorrupt, i)
		}
	}
	return b, nil
}

// Load reads the book file at path; when v is not nil the book must be for
// v. Errors name the file.
func Load(path string, v *movegen.Variant) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := Decode(data, v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Encode returns the book in the file format.
func (b *Book) Encode() []byte {
	n := len(b.keys)
	data := make([]byte, headerSize+entrySize*n+crcSize)
	le := binary.LittleEndian
	copy(data, magic[:])
	le.PutUint16(data[8:], Version)
	le.PutUint32(data[12:], uint32(n))
	copy(data[16:32], b.variant)
	le.PutUint64(data[32:], b.RootHash)
	le.PutUint32(data[40:], uint32(b.TimePerNode/time.Millisecond))
	le.PutUint32(data[44:], uint32(b.Alpha*1000+0.5))
	for i := range n {
		e := data[headerSize+entrySize*i:]
		le.PutUint64(e, b.keys[i])
		le.PutUint16(e[8:], uint16(b.vals[i].score))
		e[10], e[11] = b.vals[i].depth, b.vals[i].flags
	}
	le.PutUint32(data[len(data)-crcSize:], crc32.ChecksumIEEE(data[:len(data)-crcSize]))
	return data
}

// Save writes the book to path atomically (a temporary file renamed over
// it), so an interrupted write never leaves half a book.
func (b *Book) Save(path string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Encode(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// New makes a book for variant name from entries in any order (scores are
// clamped to ±32000 centi-men, depths to 0–255); the builder's way to a
// Book. Set RootHash, TimePerNode and Alpha before saving it.
func New(name string, ents map[uint64]Entry) *Book {
	b := &Book{variant: name}
	b.keys = make([]uint64, 0, len(ents))
	for k := range ents {
		b.keys = append(b.keys, k)
	}
	slices.Sort(b.keys)
	b.vals = make([]val, len(b.keys))
	for i, k := range b.keys {
		e := ents[k]
		var f uint8
		if e.Expanded {
			f |= flagExpanded
		}
		if e.Terminal {
			f |= flagTerminal
		}
		b.vals[i] = val{score: int16(clampScore(e.Score)), depth: uint8(min(max(e.Depth, 0), 255)), flags: f}
	}
	return b
}

func clampScore(s int) int { return min(max(s, -32000), 32000) }

// RootHash returns the hash a book built from roots carries: FNV-1a over
// the roots' keys in order.
func RootHash(roots []movegen.Position) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range roots {
		for i := range 8 {
			h ^= p.Key >> (8 * i) & 0xff
			h *= 1099511628211
		}
	}
	return h
}
