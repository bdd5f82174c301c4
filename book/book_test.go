package book

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// TestKeysFixed pins movegen's Zobrist keys: a book is only valid while
// they stay the same.
func TestKeysFixed(t *testing.T) {
	for _, tc := range []struct {
		v   *movegen.Variant
		key uint64
	}{
		{movegen.Italian, 0x8424b29431460c3c},
		{movegen.International, 0x59e818d7727b6a67},
	} {
		p := tc.v.Start()
		if p.Key != p.ComputeKey() {
			t.Errorf("%s: incremental key %016x, computed %016x", tc.v.Name, p.Key, p.ComputeKey())
		}
		if p.Key != tc.key {
			t.Errorf("%s: start key %016x, books were built with %016x: movegen's Zobrist table changed, rebuild the books", tc.v.Name, p.Key, tc.key)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	ents := map[uint64]Entry{
		3:       {Score: -12, Depth: 7, Expanded: true},
		1:       {Score: 9999, Depth: 1, Terminal: true},
		1 << 63: {Score: -32000, Depth: 255},
	}
	b := New("russian", ents)
	b.RootHash, b.TimePerNode, b.Alpha = 42, 30*time.Millisecond, 0.05
	data := b.Encode()
	if len(data) != headerSize+entrySize*3+crcSize {
		t.Fatalf("encoded %d bytes", len(data))
	}
	c, err := Decode(data, movegen.Russian)
	if err != nil {
		t.Fatal(err)
	}
	if c.Variant() != "russian" || c.Len() != 3 || c.RootHash != 42 || c.TimePerNode != 30*time.Millisecond || c.Alpha != 0.05 {
		t.Errorf("header back as %s %d %d %v %v", c.Variant(), c.Len(), c.RootHash, c.TimePerNode, c.Alpha)
	}
	for k, e := range ents {
		got, ok := c.Lookup(k)
		if !ok || got != e {
			t.Errorf("key %d: got %+v %v, want %+v", k, got, ok, e)
		}
	}
	if _, ok := c.Lookup(2); ok {
		t.Error("key 2 found")
	}
	if !bytes.Equal(c.Encode(), data) {
		t.Error("re-encoding differs")
	}
}

func TestDecodeErrors(t *testing.T) {
	good := New("italian", map[uint64]Entry{1: {Score: 5}, 2: {Score: -5}}).Encode()
	flip := func(i int) []byte {
		d := bytes.Clone(good)
		d[i] ^= 0x40
		return d
	}
	version := bytes.Clone(good)
	version[8] = 9
	for _, tc := range []struct {
		name string
		data []byte
		v    *movegen.Variant
		want string
	}{
		{"empty", nil, nil, "truncated"},
		{"text", []byte("hello, this is not a book at all, just some text here"), nil, "not a damaengine book"},
		{"short header", good[:20], nil, "truncated"},
		{"truncated entries", good[:len(good)-7], nil, "truncated"},
		{"trailing", append(bytes.Clone(good), 0), nil, "after the 2 positions"},
		{"flipped entry bit", flip(headerSize + 3), nil, "checksum"},
		{"flipped name bit", flip(17), nil, "checksum"},
		{"version", version, nil, "version 9"},
		{"wrong variant", good, movegen.International, "for italian, not international"},
	} {
		_, err := Decode(tc.data, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Decode(good, movegen.Italian); err != nil {
		t.Errorf("good book: %v", err)
	}
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "missing.book"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	p := filepath.Join(dir, "bad.book")
	os.WriteFile(p, good[:30], 0o644)
	if _, err := Load(p, nil); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("truncated file: error %v does not name the file", err)
	}
}

func TestPick(t *testing.T) {
	ch := []Choice{{Score: 20}, {Score: 15}, {Score: 10}, {Score: -50}}
	count := map[int]int{}
	for i := range 4000 {
		c, _ := Pick(ch, 10, uint64(i)*0x9E3779B97F4A7C15)
		count[c.Score]++
	}
	if count[-50] != 0 || count[20] <= count[15] || count[15] <= count[10] || count[10] == 0 {
		t.Errorf("choices by score: %v", count)
	}
	for i := range 100 {
		if c, _ := Pick(ch, 0, uint64(i)*0x9E3779B97F4A7C15); c.Score != 20 {
			t.Fatalf("margin 0 chose %d", c.Score)
		}
	}
	if _, ok := Pick(nil, 10, 1); ok {
		t.Error("Pick of nothing")
	}
	if Weight(0, 10) != 1 || Weight(10, 10) != 0.125 || Weight(11, 10) != 0 {
		t.Errorf("weights %v %v %v", Weight(0, 10), Weight(10, 10), Weight(11, 10))
	}
}

func TestProbeAllocs(t *testing.T) {
	v := movegen.Italian
	bk, err := Embedded(v)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	var ch Choices
	if a := testing.AllocsPerRun(100, func() { bk.Probe(v, &p, &ch) }); a != 0 {
		t.Errorf("Probe allocates %v times", a)
	}
}

func BenchmarkProbe(b *testing.B) {
	v := movegen.Italian
	bk, err := Embedded(v)
	if err != nil {
		b.Skip(err)
	}
	p := v.Start()
	var ch Choices
	b.ReportAllocs()
	for b.Loop() {
		bk.Probe(v, &p, &ch)
	}
}

func BenchmarkLookupMiss(b *testing.B) {
	v := movegen.Italian
	bk, err := Embedded(v)
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	k := uint64(0)
	for b.Loop() {
		k += 0x9E3779B97F4A7C15
		bk.Lookup(k)
	}
}
