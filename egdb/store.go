package egdb

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/dgraph-io/ristretto/v2"

	"github.com/damaengine/damaengine/movegen"
)

// WDL is a game-theoretic value for the side to move.
type WDL int8

// The three values.
const (
	Loss WDL = -1
	Draw WDL = 0
	Win  WDL = 1
)

// String returns "win", "draw" or "loss".
func (w WDL) String() string {
	switch w {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// Stored codes, two bits per position.
const (
	codeNone uint8 = iota // a capture is pending, or no such position
	codeDraw
	codeWin
	codeLoss
)

func codeOf(w WDL) uint8 {
	switch w {
	case Win:
		return codeWin
	case Loss:
		return codeLoss
	}
	return codeDraw
}

const (
	magic     = "DAMAEGDB" // a file of 2-bit values (.wdl)
	distMagic = "DAMAEDTC" // a file of distances, a byte each (.dtc)
	version   = 1
	blockLog2 = 14 // positions per block: 4 KB once unpacked (16 KB for distances)
	// MaxDistance is the longest distance to conversion a distance file
	// holds (a byte: 0 for none, else the distance plus one).
	MaxDistance = 254
)

// table is one slice's values, or its distances (wide: a byte per
// position), in memory (just generated) or as compressed blocks.
type table struct {
	s    Slice
	n    int
	wide bool
	mem  []uint8  // the blocks unpacked end to end (2-bit codes, or bytes), or nil
	key  uint64   // cache key of block 0
	offs []uint32 // block i is data[offs[i]:offs[i+1]]
	data []byte
	dist *table // the distances to conversion, or nil
}

// varTables holds one variant's slices.
type varTables struct {
	v      *movegen.Variant
	ix     *indexer
	tabs   map[Slice]*table
	pieces int         // every slice of this many pieces or fewer is present
	mt     *moveTables // the solver's, made on first use
}

// DB is a set of endgame tables for any of the supported variants, with a
// cache of decompressed blocks shared by all. Load and Build must not run
// while another goroutine probes; Probe may be called from several
// goroutines at once.
type DB struct {
	cache *ristretto.Cache[uint64, []byte]
	vars  [movegen.NumIDs]*varTables
	next  uint64 // next table's cache key prefix
}

// New returns an empty database whose block cache holds at most cacheMB
// megabytes (at least 1).
func New(cacheMB int) (*DB, error) {
	cacheMB = max(cacheMB, 1)
	c, err := ristretto.NewCache(&ristretto.Config[uint64, []byte]{
		NumCounters: int64(cacheMB) << 10 * 10 / 4, // ten per 4 KB block
		MaxCost:     int64(cacheMB) << 20,
		BufferItems: 64,
	})
	if err != nil {
		return nil, fmt.Errorf("egdb: block cache: %w", err)
	}
	return &DB{cache: c}, nil
}

// Close releases the cache.
func (db *DB) Close() { db.cache.Close() }

// Supported reports whether tables can be built for v: every variant, and
// Italian Damone by its default rules only. With the "all Damoni captured
// wins" option (movegen.DamoneAllDamoni) a side without a Damone has lost,
// which the tables do not know: that variant has none, and a search of it
// probes nothing.
func Supported(v *movegen.Variant) bool {
	return v.ID() != 0 && v.ID() != movegen.DamoneAllDamoni.ID()
}

func (db *DB) varOf(v *movegen.Variant) (*varTables, error) {
	if !Supported(v) {
		if v.ID() == movegen.DamoneAllDamoni.ID() {
			return nil, fmt.Errorf("egdb: no tables for %s with the all-Damoni rule (the tables are for the default rules, where losing the Damoni does not lose)", v.Name)
		}
		return nil, fmt.Errorf("egdb: no tables for %s", v.Name)
	}
	vt := db.vars[v.ID()]
	if vt == nil {
		vt = &varTables{v: v, ix: newIndexer(v), tabs: map[Slice]*table{}}
		db.vars[v.ID()] = vt
	}
	return vt, nil
}

// Pieces returns the number of pieces up to which v's tables are present
// (0: none).
func (db *DB) Pieces(v *movegen.Variant) int {
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs || db.vars[v.ID()] == nil {
		return 0
	}
	return db.vars[v.ID()].pieces
}

// DistancePieces returns the number of pieces up to which every slice of
// v's tables has its distances to conversion (0: none).
func (db *DB) DistancePieces(v *movegen.Variant) int {
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs || db.vars[v.ID()] == nil {
		return 0
	}
	vt := db.vars[v.ID()]
	n := 0
	for k := 2; k <= vt.pieces; k++ {
		for _, s := range SlicesOf(v, k) {
			if s.Pieces() == k && (vt.tabs[s] == nil || vt.tabs[s].dist == nil) {
				return n
			}
		}
		n = k
	}
	return n
}

// ProbeDistance returns the value of p as Probe does and, for a win or a
// loss, its distance to conversion: the plies to the next capture or
// promotion (or the end of the game) when the winner hastens it and the
// loser delays it, 1 when a capture is pending, 0 with no move left.
// The distance is -1 for a draw or when the tables have no distances.
// A winner that always plays a move to a lost position of smaller
// distance, or a capture or promotion keeping the win, converts: each
// such move lowers the distance or the material, never to come back.
func (db *DB) ProbeDistance(v *movegen.Variant, p *movegen.Position) (WDL, int, bool) {
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs {
		return Draw, -1, false
	}
	vt := db.vars[v.ID()]
	if vt == nil {
		return Draw, -1, false
	}
	us, them := p.Pieces[p.Side], p.Pieces[p.Side^1]
	if us == 0 || them == 0 || bits.OnesCount64(us|them) > vt.pieces {
		w, ok := vt.probe(db, p)
		return w, 0, ok
	}
	if vt.v.HasCapture(p) {
		w, ok := vt.probe(db, p)
		if !ok || w == Draw {
			return w, -1, ok
		}
		return w, 1, true
	}
	t, idx := vt.lookup(p)
	if t == nil {
		return Draw, -1, false
	}
	var w WDL
	switch db.code(t, idx) {
	case codeWin:
		w = Win
	case codeLoss:
		w = Loss
	case codeDraw:
		return Draw, -1, true
	default:
		return Draw, -1, false
	}
	if t.dist == nil {
		return w, -1, true
	}
	return w, int(db.byteAt(t.dist, idx)) - 1, true
}

// Probe returns the value of p for its side to move in variant v, and
// false when the tables do not cover it. Pending captures are resolved by
// searching them (each capture leads to a smaller slice).
func (db *DB) Probe(v *movegen.Variant, p *movegen.Position) (WDL, bool) {
	if v.ID() <= 0 || v.ID() >= movegen.NumIDs {
		return Draw, false
	}
	vt := db.vars[v.ID()]
	if vt == nil {
		return Draw, false
	}
	return vt.probe(db, p)
}

// lookup returns the table of p's slice, seen from the side to move (nil
// when it is not loaded), and p's index in it.
func (vt *varTables) lookup(p *movegen.Position) (t *table, idx int) {
	q := *p
	if p.Side == movegen.Black {
		q = vt.ix.flip(p)
	}
	s := sliceOf(&q)
	if t = vt.tabs[s]; t == nil {
		return nil, 0
	}
	return t, vt.ix.index(s, &q)
}

// probeBuf is the move list and position of a probe resolving captures
// (the move generator, called through a function value, makes them escape:
// pooled, not allocated per probe).
type probeBuf struct {
	ml movegen.MoveList
	c  movegen.Position
}

var probeBufs = sync.Pool{New: func() any { return new(probeBuf) }}

func (vt *varTables) probe(db *DB, p *movegen.Position) (WDL, bool) {
	us, them := p.Pieces[p.Side], p.Pieces[p.Side^1]
	if us == 0 {
		return Loss, true
	}
	if them == 0 {
		return Win, true
	}
	if bits.OnesCount64(us|them) > vt.pieces {
		return Draw, false
	}
	if vt.v.HasCapture(p) {
		b := probeBufs.Get().(*probeBuf)
		defer probeBufs.Put(b)
		vt.v.Generate(p, &b.ml)
		best := Loss
		for _, m := range b.ml.Slice() {
			b.c = *p
			b.c.Play(m)
			w, ok := vt.probe(db, &b.c)
			if !ok {
				return Draw, false
			}
			if -w > best {
				if best = -w; best == Win {
					break
				}
			}
		}
		return best, true
	}
	t, idx := vt.lookup(p)
	if t == nil {
		return Draw, false
	}
	switch db.code(t, idx) {
	case codeWin:
		return Win, true
	case codeLoss:
		return Loss, true
	case codeDraw:
		return Draw, true
	}
	return Draw, false
}

// code returns the stored code of position idx of t.
func (db *DB) code(t *table, idx int) uint8 {
	if t.mem != nil {
		return t.mem[idx>>2] >> (2 * (idx & 3)) & 3
	}
	blk := db.block(t, idx>>blockLog2)
	if blk == nil {
		return codeNone // not covered: Probe says so
	}
	i := idx & (1<<blockLog2 - 1)
	return blk[i>>2] >> (2 * (i & 3)) & 3
}

// byteAt returns the byte of position idx of a wide table (0 when its
// block cannot be read).
func (db *DB) byteAt(t *table, idx int) uint8 {
	if t.mem != nil {
		return t.mem[idx]
	}
	blk := db.block(t, idx>>blockLog2)
	if blk == nil {
		return 0
	}
	return blk[idx&(1<<blockLog2-1)]
}

// block returns block b of t unpacked, through the cache.
func (db *DB) block(t *table, b int) []byte {
	key := t.key + uint64(b)
	blk, ok := db.cache.Get(key)
	if !ok {
		var err error
		blk, err = unpackBlock(t.data[t.offs[b]:t.offs[b+1]], blockBytes(t.n, b, t.wide))
		if err != nil {
			return nil // a file written wrong under a good checksum
		}
		db.cache.Set(key, blk, int64(len(blk)))
	}
	return blk
}

// inflater is a DEFLATE reader kept for reuse (a new one allocates some
// 40 KB).
type inflater struct {
	src  bytes.Reader
	r    io.ReadCloser
	more [1]byte
}

var inflaters = sync.Pool{New: func() any { return new(inflater) }}

var errBlockSize = errors.New("block of the wrong size")

// unpackBlock returns the DEFLATE block z unpacked, which must be size
// bytes long.
func unpackBlock(z []byte, size int) ([]byte, error) {
	f := inflaters.Get().(*inflater)
	defer inflaters.Put(f)
	f.src.Reset(z)
	if f.r == nil {
		f.r = flate.NewReader(&f.src)
	} else if err := f.r.(flate.Resetter).Reset(&f.src, nil); err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(f.r, out); err != nil {
		return nil, errBlockSize
	}
	if n, _ := f.r.Read(f.more[:]); n != 0 { // longer than size
		return nil, errBlockSize
	}
	return out, nil
}

// path returns the file of slice s of variant v under dir (its values,
// or with wide its distances).
func path(dir string, v *movegen.Variant, s Slice, wide bool) string {
	ext := "wdl"
	if wide {
		ext = "dtc"
	}
	name := ""
	for _, k := range s.fileCounts(threeRanks(v)) {
		name += strconv.Itoa(k)
	}
	return filepath.Join(dir, v.Name, name+"."+ext)
}

// blockBytes is the unpacked size of block b of a table of n values.
func blockBytes(n, b int, wide bool) int {
	k := min(n-b<<blockLog2, 1<<blockLog2)
	if wide {
		return k
	}
	return (k + 3) / 4
}

// pack returns codes, one a byte, as 2-bit codes four a byte (the layout
// of the unpacked blocks).
func pack(codes []uint8) []byte {
	out := make([]byte, (len(codes)+3)/4)
	for i, c := range codes {
		out[i>>2] |= c << (2 * (i & 3))
	}
	return out
}

// encode writes the values of one slice as a table file: header, block
// offsets, DEFLATE blocks of 2-bit codes (or with wide of bytes), CRC-32
// of everything before it. The blocks are compressed on threads
// goroutines, each its own stream: the bytes are the same for any number.
func encode(v *movegen.Variant, s Slice, codes []uint8, wide bool, threads int) ([]byte, error) {
	nb := (len(codes) + 1<<blockLog2 - 1) >> blockLog2
	threads = max(1, min(threads, nb))
	offs := make([]uint32, nb+1)
	parts := make([]bytes.Buffer, threads)
	ends := make([]int, nb) // block b ends at ends[b] in its thread's part
	errs := make([]error, threads)
	per := (nb + threads - 1) / threads
	run(threads, func(w int) {
		data := &parts[w]
		fw, _ := flate.NewWriter(nil, flate.BestCompression)
		var packed []byte
		for b := w * per; b < min(nb, (w+1)*per); b++ {
			lo := b << blockLog2
			hi := min(lo+1<<blockLog2, len(codes))
			if wide {
				packed = codes[lo:hi]
			} else {
				packed = packed[:0]
				for i := lo; i < hi; i += 4 {
					var x byte
					for j := i; j < min(i+4, hi); j++ {
						x |= codes[j] << (2 * (j - i))
					}
					packed = append(packed, x)
				}
			}
			fw.Reset(data)
			if _, err := fw.Write(packed); err != nil {
				errs[w] = err
				return
			}
			if err := fw.Close(); err != nil {
				errs[w] = err
				return
			}
			ends[b] = data.Len()
		}
	})
	var data bytes.Buffer
	for w := range parts {
		if errs[w] != nil {
			return nil, errs[w]
		}
		at := data.Len()
		for b := w * per; b < min(nb, (w+1)*per); b++ {
			offs[b+1] = uint32(at + ends[b])
		}
		data.Write(parts[w].Bytes())
	}
	var out bytes.Buffer
	if wide {
		out.WriteString(distMagic)
	} else {
		out.WriteString(magic)
	}
	var c []uint8
	for _, k := range s.fileCounts(threeRanks(v)) {
		c = append(c, uint8(k))
	}
	hdr := []any{uint32(version), uint8(len(v.Name)), []byte(v.Name), c,
		uint64(len(codes)), uint32(blockLog2), uint32(nb), offs}
	for _, x := range hdr {
		if err := binary.Write(&out, binary.LittleEndian, x); err != nil {
			return nil, err
		}
	}
	out.Write(data.Bytes())
	binary.Write(&out, binary.LittleEndian, crc32.ChecksumIEEE(out.Bytes()))
	return out.Bytes(), nil
}

// ErrMissing is wrapped by the error of a table file that does not exist.
var ErrMissing = errors.New("table file missing")

// decode checks a table file of slice s of v and returns its table.
func decode(file string, raw []byte, v *movegen.Variant, s Slice, want int, wide bool) (*table, error) {
	bad := func(format string, a ...any) (*table, error) {
		return nil, fmt.Errorf("egdb: %s: %s", file, fmt.Sprintf(format, a...))
	}
	mg := magic
	if wide {
		mg = distMagic
	}
	if len(raw) < len(mg)+4 || string(raw[:len(mg)]) != mg {
		return bad("not a damaengine table file")
	}
	body, sum := raw[:len(raw)-4], binary.LittleEndian.Uint32(raw[len(raw)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("corrupt (checksum mismatch)")
	}
	r := bytes.NewReader(body[len(magic):])
	var ver uint32
	var nl uint8
	binary.Read(r, binary.LittleEndian, &ver)
	if ver != version {
		return bad("format version %d, want %d", ver, version)
	}
	binary.Read(r, binary.LittleEndian, &nl)
	name := make([]byte, nl)
	io.ReadFull(r, name)
	if string(name) != v.Name {
		return bad("table of variant %q, not %s", name, v.Name)
	}
	wantC := s.fileCounts(threeRanks(v))
	c := make([]uint8, len(wantC))
	var n uint64
	var bl, nb uint32
	binary.Read(r, binary.LittleEndian, c)
	binary.Read(r, binary.LittleEndian, &n)
	binary.Read(r, binary.LittleEndian, &bl)
	if err := binary.Read(r, binary.LittleEndian, &nb); err != nil {
		return bad("truncated header")
	}
	for i, k := range wantC {
		if int(c[i]) != k {
			return bad("slice counts %v, not those of %v", c, s)
		}
	}
	if int(n) != want || bl != blockLog2 || int(nb) != (want+1<<blockLog2-1)>>blockLog2 {
		return bad("size %d in blocks of 2^%d, want %d in blocks of 2^%d", n, bl, want, blockLog2)
	}
	offs := make([]uint32, nb+1)
	if err := binary.Read(r, binary.LittleEndian, offs); err != nil {
		return bad("truncated index")
	}
	data := body[len(body)-r.Len():]
	for i := 0; i < int(nb); i++ {
		if offs[i] > offs[i+1] || int(offs[i+1]) > len(data) {
			return bad("bad block index")
		}
	}
	return &table{s: s, n: want, wide: wide, offs: offs, data: data}, nil
}

// Load reads v's tables of up to pieces pieces from dir (as written by
// Build). A missing, corrupt or wrong-variant file is an error naming it,
// and the tables already present stay as they were.
func (db *DB) Load(v *movegen.Variant, pieces int, dir string) error {
	vt, err := db.varOf(v)
	if err != nil {
		return err
	}
	loaded := map[Slice]*table{}
	for _, s := range SlicesOf(v, pieces) {
		if vt.tabs[s] != nil {
			continue
		}
		t, err := db.loadFile(vt, dir, s)
		if err != nil {
			return err
		}
		loaded[s] = t
	}
	for s, t := range loaded {
		vt.tabs[s] = t
	}
	vt.pieces = max(vt.pieces, pieces)
	return nil
}

// loadFile reads the values of slice s from dir, with their distances
// when the distance file is there (a bad one is an error).
func (db *DB) loadFile(vt *varTables, dir string, s Slice) (*table, error) {
	t, err := db.loadOne(vt, dir, s, false)
	if err != nil {
		return nil, err
	}
	d, err := db.loadOne(vt, dir, s, true)
	if err != nil && !errors.Is(err, ErrMissing) {
		return nil, err
	}
	t.dist = d
	return t, nil
}

func (db *DB) loadOne(vt *varTables, dir string, s Slice, wide bool) (*table, error) {
	f := path(dir, vt.v, s, wide)
	raw, err := os.ReadFile(f)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("egdb: %s: %w (build it with: damaengine egdb build --variant %s --pieces %d --dir %s)",
			f, ErrMissing, vt.v.Name, s.Pieces(), dir)
	}
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	return db.decodeNew(vt, f, raw, s, wide)
}

// decodeNew checks the bytes raw of file f, slice s's values (or with
// wide its distances), and returns their table with its own cache keys.
func (db *DB) decodeNew(vt *varTables, f string, raw []byte, s Slice, wide bool) (*table, error) {
	// The checksum covers every block: they are unpacked on first use,
	// not here (unpacking all of the 5-piece tables took 1.8 s of CPU).
	t, err := decode(f, raw, vt.v, s, vt.ix.size(s), wide)
	if err != nil {
		return nil, err
	}
	t.key = db.next
	db.next += 1 << 32
	return t, nil
}

// loadResumed reads slice s from dir for a build resuming there: with its
// distances (else an error), its values unpacked whole into memory.
func (db *DB) loadResumed(vt *varTables, dir string, s Slice) (*table, error) {
	t, err := db.loadFile(vt, dir, s)
	if err != nil {
		return nil, err
	}
	if t.dist == nil {
		return nil, fmt.Errorf("egdb: %s: no distances", path(dir, vt.v, s, false))
	}
	mem := make([]byte, 0, (t.n+3)/4)
	for b := 0; b+1 < len(t.offs); b++ {
		blk, err := unpackBlock(t.data[t.offs[b]:t.offs[b+1]], blockBytes(t.n, b, false))
		if err != nil {
			return nil, fmt.Errorf("egdb: %s: block %d: %w", path(dir, vt.v, s, false), b, err)
		}
		mem = append(mem, blk...)
	}
	t.mem, t.offs, t.data = mem, nil, nil
	return t, nil
}

// DefaultDir returns the directory tables are built in and loaded from
// when none is given: damaengine/egdb in the user's cache directory.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("egdb: no cache directory (give one with --dir): %w", err)
	}
	return filepath.Join(d, "damaengine", "egdb"), nil
}

// LoadPresent loads as many of v's tables from dir as are there: every
// slice of 2 pieces, then of 3, and so on up to 8, stopping at the first
// piece count with a slice missing. It returns the pieces covered (0:
// none) and the error of the first file that is there but cannot be used
// (corrupt, another variant's); a missing file is no error, but with
// nothing loaded missing is the error of the first file looked for
// (wrapping ErrMissing).
func (db *DB) LoadPresent(v *movegen.Variant, dir string) (int, error) {
	for n := 2; n <= 8; n++ {
		if err := db.Load(v, n, dir); err != nil {
			if !errors.Is(err, ErrMissing) || n == 2 {
				return db.Pieces(v), err
			}
			break
		}
	}
	return db.Pieces(v), nil
}
