package tune

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// Positions files: the training data at scale (issue 45). A file is one
// text header line, then fixed-size binary records, one labelled quiet
// position each:
//
//	damaengine-positions v1 variant=NAME record=16 kind=part shard=1/4 games=… nodes=… seed=… random-plies=… eval=…\n
//	damaengine-positions v1 variant=NAME record=16 kind=merged positions=N\n
//
// A record is a number in mixed radix, written as little-endian uint64
// words. Its digits are, square by square in bit order, the square's state
// (empty, White king, Black king, White man, Black man; a man is left out
// of the digits of its own crown row, where no man stays, so such squares
// have radix 4; Damone adds the two Damoni, radix 7), then the side to
// move (radix 2), the game's result for White (0 loss, 1 draw, 2 win) and
// the search's score for White in units of 2 centi-men, clipped to ±1023
// and offset by 1023 (radix 2047). Digits fill the words greedily, each
// word holding the longest run of digits whose radices multiply to at
// most 2^64, so decoding is a division by a small number a digit. A 10x10
// record takes 127 bits and an 8x8 one 86: both fit 16 bytes. Turkish's
// 64 squares take 24.

// posMagic starts every positions file.
const posMagic = "damaengine-positions"

// PosVersion is the positions file format's version.
const PosVersion = 1

// MaxLabelScore is the largest score a record holds, in centi-men.
const MaxLabelScore = 2046

// Record is one labelled quiet position of a positions file.
type Record struct {
	Pos    movegen.Position
	Result int // the game's result for White: +1, 0, −1
	Score  int // the search's score for White, centi-men (even, within ±2046)
}

// Codec encodes the positions of one rule set as records.
type Codec struct {
	v      *movegen.Variant
	sq     []uint8  // the board bits in digit order
	states [][]int8 // states[i]: the piece codes square i may hold, by digit
	digit  [][8]int8
	radix  []uint64 // by digit: the squares', then side, result, score
	words  []int    // words[w]: the first digit of word w (len = words + 1)
	damone bool
}

// Piece codes of a square: 0 empty, 1 White king, 2 Black king, 3 White
// man, 4 Black man, 5 White Damone, 6 Black Damone.
const (
	pcEmpty = iota
	pcWK
	pcBK
	pcWM
	pcBM
	pcWS
	pcBS
)

// NewCodec returns the record codec of v.
func NewCodec(v *movegen.Variant) *Codec {
	c := &Codec{v: v, damone: v.HasDamoni()}
	board := v.Board()
	for b := 0; b < 64; b++ {
		if board>>b&1 == 0 {
			continue
		}
		st := []int8{pcEmpty, pcWK, pcBK}
		if v.CrownRank(movegen.White)>>b&1 == 0 {
			st = append(st, pcWM)
		}
		if v.CrownRank(movegen.Black)>>b&1 == 0 {
			st = append(st, pcBM)
		}
		if c.damone {
			st = append(st, pcWS, pcBS)
		}
		var d [8]int8
		for i := range d {
			d[i] = -1
		}
		for i, s := range st {
			d[s] = int8(i)
		}
		c.sq = append(c.sq, uint8(b))
		c.states = append(c.states, st)
		c.digit = append(c.digit, d)
		c.radix = append(c.radix, uint64(len(st)))
	}
	c.radix = append(c.radix, 2, 3, 2*(MaxLabelScore/2)+1)
	// Greedy words: each takes digits while their product stays ≤ 2^64.
	c.words = []int{0}
	hi, lo := uint64(0), uint64(1) // the product so far, 128 bits
	for i, r := range c.radix {
		h1, l1 := bits.Mul64(lo, r)
		h1 += hi * r
		if h1 > 1 || (h1 == 1 && l1 != 0) {
			c.words = append(c.words, i)
			hi, lo = 0, r
			continue
		}
		hi, lo = h1, l1
	}
	c.words = append(c.words, len(c.radix))
	return c
}

// Size returns the bytes of one record.
func (c *Codec) Size() int { return 8 * (len(c.words) - 1) }

// Encode writes r as a record into dst (Size bytes). It fails for a
// position the codec cannot hold (a man on its crown row).
func (c *Codec) Encode(dst []byte, r *Record) error {
	p := &r.Pos
	ns := len(c.sq)
	dig := func(i int) (uint64, error) {
		switch {
		case i < ns:
			b := c.sq[i]
			code := pcEmpty
			w, bl, k := p.Pieces[movegen.White]>>b&1, p.Pieces[movegen.Black]>>b&1, p.Kings>>b&1
			s := p.Super >> b & 1
			switch {
			case w == 1 && s == 1:
				code = pcWS
			case bl == 1 && s == 1:
				code = pcBS
			case w == 1 && k == 1:
				code = pcWK
			case bl == 1 && k == 1:
				code = pcBK
			case w == 1:
				code = pcWM
			case bl == 1:
				code = pcBM
			}
			d := c.digit[i][code]
			if d < 0 {
				return 0, fmt.Errorf("tune: square %d holds a piece a %s record cannot hold there", c.v.SquareNumber(int(b)), c.v.Name)
			}
			return uint64(d), nil
		case i == ns:
			return uint64(p.Side), nil
		case i == ns+1:
			if r.Result < -1 || r.Result > 1 {
				return 0, fmt.Errorf("tune: result %d", r.Result)
			}
			return uint64(r.Result + 1), nil
		}
		s := max(min(r.Score, MaxLabelScore), -MaxLabelScore)
		return uint64(s/2 + MaxLabelScore/2), nil
	}
	for w := 0; w+1 < len(c.words); w++ {
		var x uint64
		for i := c.words[w+1] - 1; i >= c.words[w]; i-- {
			d, err := dig(i)
			if err != nil {
				return err
			}
			x = x*c.radix[i] + d
		}
		binary.LittleEndian.PutUint64(dst[8*w:], x)
	}
	return nil
}

// Decode reads the record src (Size bytes) into r, its key included. It
// fails on a record no position encodes.
func (c *Codec) Decode(src []byte, r *Record) error {
	*r = Record{}
	p := &r.Pos
	ns := len(c.sq)
	for w := 0; w+1 < len(c.words); w++ {
		x := binary.LittleEndian.Uint64(src[8*w:])
		for i := c.words[w]; i < c.words[w+1]; i++ {
			rd := c.radix[i]
			d := x % rd
			x /= rd
			switch {
			case i < ns:
				b := c.sq[i]
				switch c.states[i][d] {
				case pcWK:
					p.Pieces[movegen.White] |= 1 << b
					p.Kings |= 1 << b
				case pcBK:
					p.Pieces[movegen.Black] |= 1 << b
					p.Kings |= 1 << b
				case pcWM:
					p.Pieces[movegen.White] |= 1 << b
				case pcBM:
					p.Pieces[movegen.Black] |= 1 << b
				case pcWS:
					p.Pieces[movegen.White] |= 1 << b
					p.Kings |= 1 << b
					p.Super |= 1 << b
				case pcBS:
					p.Pieces[movegen.Black] |= 1 << b
					p.Kings |= 1 << b
					p.Super |= 1 << b
				}
			case i == ns:
				p.Side = movegen.Color(d)
			case i == ns+1:
				r.Result = int(d) - 1
			default:
				r.Score = 2 * (int(d) - MaxLabelScore/2)
			}
		}
		if x != 0 {
			return errors.New("tune: a corrupt record (a word beyond its digits)")
		}
	}
	p.Key = p.ComputeKey()
	return nil
}

// PosHeader is what a positions file's header line says.
type PosHeader struct {
	Variant *movegen.Variant
	Record  int               // bytes a record
	Kind    string            // "part" or "merged"
	Fields  map[string]string // the other key=value fields, as written
	order   []string
}

// String returns the header line, without its newline.
func (h *PosHeader) String() string { return strings.TrimSuffix(h.line(), "\n") }

// line returns the header line, newline included.
func (h *PosHeader) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s v%d variant=%s record=%d kind=%s", posMagic, PosVersion, h.Variant.RulesName(), h.Record, h.Kind)
	for _, k := range h.order {
		fmt.Fprintf(&b, " %s=%s", k, h.Fields[k])
	}
	return b.String() + "\n"
}

// set adds or replaces a field, keeping the order fields were first set in.
func (h *PosHeader) set(k, v string) {
	if h.Fields == nil {
		h.Fields = map[string]string{}
	}
	if _, ok := h.Fields[k]; !ok {
		h.order = append(h.order, k)
	}
	h.Fields[k] = v
}

// maxHeader is the longest header line a reader accepts.
const maxHeader = 4096

// readPosHeader reads and checks the header line of a positions file.
func readPosHeader(r *bufio.Reader, name string) (*PosHeader, int, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) || len(line) >= maxHeader {
			return nil, 0, fmt.Errorf("%s: not a positions file (no header line)", name)
		}
		return nil, 0, fmt.Errorf("%s: not a positions file (%v)", name, err)
	}
	n := len(line)
	fs := strings.Fields(string(line))
	if len(fs) < 5 || fs[0] != posMagic {
		return nil, 0, fmt.Errorf("%s: not a positions file (its first line does not start with %q)", name, posMagic)
	}
	if fs[1] != "v"+strconv.Itoa(PosVersion) {
		return nil, 0, fmt.Errorf("%s: positions format %s, this build reads v%d", name, fs[1], PosVersion)
	}
	h := &PosHeader{}
	for _, f := range fs[2:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, 0, fmt.Errorf("%s: header field %q is not key=value", name, f)
		}
		switch k {
		case "variant":
			if h.Variant, err = movegen.LookupRules(v); err != nil {
				return nil, 0, fmt.Errorf("%s: %v", name, err)
			}
		case "record":
			h.Record, err = strconv.Atoi(v)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: record size %q", name, v)
			}
		case "kind":
			h.Kind = v
		default:
			h.set(k, v)
		}
	}
	if h.Variant == nil || h.Kind == "" {
		return nil, 0, fmt.Errorf("%s: the header names no variant or kind", name)
	}
	if want := NewCodec(h.Variant).Size(); h.Record != want {
		return nil, 0, fmt.Errorf("%s: records of %d bytes, %s's are %d", name, h.Record, h.Variant.Name, want)
	}
	return h, n, nil
}

// PosReader reads the records of a positions file in order.
type PosReader struct {
	Header *PosHeader
	Codec  *Codec
	f      *os.File
	r      *bufio.Reader
	buf    []byte
	name   string
	n      int64 // records in the file
}

// OpenPositions opens the positions file at path.
func OpenPositions(path string) (*PosReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pr := &PosReader{f: f, r: bufio.NewReaderSize(f, 1<<20), name: path}
	h, hl, err := readPosHeader(pr.r, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	pr.Header, pr.Codec, pr.buf = h, NewCodec(h.Variant), make([]byte, h.Record)
	pr.n = (st.Size() - int64(hl)) / int64(h.Record)
	return pr, nil
}

// Len returns the number of whole records in the file.
func (pr *PosReader) Len() int64 { return pr.n }

// Raw reads the next record's bytes into dst (Size bytes); io.EOF at the
// end (a torn last record is not returned).
func (pr *PosReader) Raw(dst []byte) error {
	_, err := io.ReadFull(pr.r, dst)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return io.EOF
	}
	return err
}

// Next decodes the next record into r; io.EOF at the end.
func (pr *PosReader) Next(r *Record) error {
	if err := pr.Raw(pr.buf); err != nil {
		return err
	}
	if err := pr.Codec.Decode(pr.buf, r); err != nil {
		return fmt.Errorf("%s: %v", pr.name, err)
	}
	return nil
}

// Close closes the file.
func (pr *PosReader) Close() error { return pr.f.Close() }

// ScoreLabel converts a search score for the side to move (centi-men) to
// the record's score for White, clipped as a record holds it (a won
// position reads as the clip, not as a score of thousands).
func ScoreLabel(score int, side movegen.Color) int {
	if side == movegen.Black {
		score = -score
	}
	return max(min(score, MaxLabelScore), -MaxLabelScore)
}

// mix64 is a fixed 64-bit mixing function (splitmix64's finaliser).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// hashBytes hashes a record's bytes.
func hashBytes(b []byte) uint64 {
	h := uint64(len(b))
	for i := 0; i+8 <= len(b); i += 8 {
		h = mix64(h ^ binary.LittleEndian.Uint64(b[i:]))
	}
	return h
}

// IsValidation says whether a record of a merged file is one of the
// validation positions: about one in 20, chosen by a hash of the
// position alone (so the same position is never on both sides).
func IsValidation(posHash uint64) bool { return posHash%20 == 7 }
