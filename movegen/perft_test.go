package movegen

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftStart is testdata/perft-start.json: published perft counts from
// each variant's start position, and a few other positions.
type perftStart struct {
	Start     map[string][]uint64
	Positions []struct {
		Variant string   `json:"variant"`
		Name    string   `json:"name"`
		FEN     string   `json:"fen"`
		Perft   []uint64 `json:"perft"`
	} `json:"positions"`
}

func loadPerftStart(t *testing.T) perftStart {
	t.Helper()
	b, err := os.ReadFile("testdata/perft-start.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var ps perftStart
	if err := json.Unmarshal(b, &ps); err != nil {
		t.Fatal(err)
	}
	ps.Start = map[string][]uint64{}
	for k, v := range raw {
		if k == "positions" || k == "_about" {
			continue
		}
		var counts []uint64
		if err := json.Unmarshal(v, &counts); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		ps.Start[k] = counts
	}
	return ps
}

// maxDepth is the deepest perft the normal run checks; -short stops
// earlier.
func maxDepth(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// perftLimit is the deepest start perft checked per variant, {with -short,
// without}: the normal run goes as deep as takes a few seconds here.
var perftLimit = map[string][2]int{
	"italian":       {9, 12},
	"english":       {9, 11},
	"russian":       {9, 11},
	"brazilian":     {9, 11},
	"spanish":       {9, 11},
	"international": {8, 10},
	"turkish":       {7, 9},
}

func TestPerftStart(t *testing.T) {
	ps := loadPerftStart(t)
	for _, v := range Variants() {
		want, ok := ps.Start[v.Name]
		if !ok {
			continue
		}
		lim, ok := perftLimit[v.Name]
		if !ok {
			lim = [2]int{9, 9}
		}
		t.Run(v.Name, func(t *testing.T) {
			pf := NewPerfter(v)
			p := v.Start()
			limit := maxDepth(lim[1], lim[0])
			for d := 1; d <= limit && d <= len(want); d++ {
				if got := pf.Perft(&p, d); got != want[d-1] {
					t.Errorf("%s start perft(%d) = %d, want %d", v.Name, d, got, want[d-1])
				}
			}
		})
	}
}

func TestPerftPositions(t *testing.T) {
	ps := loadPerftStart(t)
	for _, pos := range ps.Positions {
		v, err := Lookup(pos.Variant)
		if err != nil {
			t.Errorf("position %s: %v", pos.Name, err)
			continue
		}
		t.Run(pos.Name, func(t *testing.T) {
			p, err := v.ParseFEN(pos.FEN)
			if err != nil {
				t.Fatal(err)
			}
			pf := NewPerfter(v)
			for d := 1; d <= len(pos.Perft); d++ {
				if got := pf.Perft(&p, d); got != pos.Perft[d-1] {
					t.Errorf("%s perft(%d) = %d, want %d", pos.FEN, d, got, pos.Perft[d-1])
				}
			}
		})
	}
}

func TestPerftItalianVectors(t *testing.T) {
	f, err := os.Open("testdata/italian-perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf := NewPerfter(Italian)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fen, counts, ok := strings.Cut(line, ";")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		fen = strings.TrimSpace(fen)
		t.Run(fen, func(t *testing.T) {
			p, err := Italian.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range strings.Fields(counts) {
				want, err := strconv.ParseUint(c, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				if got := pf.Perft(&p, i+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", i+1, got, want)
				}
			}
		})
		n++
	}
	if n != 30 {
		t.Errorf("read %d vectors, want 30", n)
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	pf := NewPerfter(Italian)
	p := Italian.Start()
	var sum uint64
	for _, e := range pf.Divide(&p, 5) {
		sum += e.Nodes
	}
	if want := pf.Perft(&p, 5); sum != want {
		t.Errorf("divide sums to %d, perft(5) = %d", sum, want)
	}
}

func TestNoAllocs(t *testing.T) {
	pf := NewPerfter(Italian)
	p := Italian.Start()
	if a := testing.AllocsPerRun(5, func() { pf.Perft(&p, 5) }); a != 0 {
		t.Errorf("perft allocates %.1f times per run", a)
	}
	q, err := Italian.ParseFEN("W:WK14,K22,25:BK11,12,18,K19,K26")
	if err != nil {
		t.Fatal(err)
	}
	var ml MoveList
	if a := testing.AllocsPerRun(100, func() {
		Italian.Generate(&p, &ml)
		Italian.Generate(&q, &ml)
		Italian.Count(&q, &ml)
		c := q
		c.Play(ml.Moves[0])
	}); a != 0 {
		t.Errorf("generate/count/play allocate %.1f times per run", a)
	}
}

func BenchmarkPerftItalianStart(b *testing.B) {
	for _, d := range []int{7, 9} {
		b.Run("depth"+strconv.Itoa(d), func(b *testing.B) {
			pf := NewPerfter(Italian)
			p := Italian.Start()
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				n = pf.Perft(&p, d)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

func BenchmarkGenerateItalian(b *testing.B) {
	fens := []string{
		"W:W21-32:B1-12",
		"W:W17,19,23,24,25,29,30,31:B1,2,3,5,6,9,11,12,K32",
		"W:WK14,K22,25:BK11,12,18,K19,K26",
	}
	var ps []Position
	for _, f := range fens {
		p, err := Italian.ParseFEN(f)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	var ml MoveList
	b.ReportAllocs()
	for b.Loop() {
		for i := range ps {
			Italian.Generate(&ps[i], &ml)
		}
	}
}
