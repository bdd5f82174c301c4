package tune

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// randomPositions plays random games of v and returns every position met.
func randomPositions(v *movegen.Variant, games int, seed uint64) []movegen.Position {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []movegen.Position
	var ml movegen.MoveList
	for g := 0; g < games; g++ {
		p := v.Start()
		for ply := 0; ply < 300; ply++ {
			out = append(out, p)
			v.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[r.IntN(ml.N)])
		}
	}
	return out
}

func TestCodecRoundTrip(t *testing.T) {
	want := map[string]int{"international": 16, "english": 16, "italian": 16, "russian": 16, "damone": 16, "turkish": 24}
	for _, v := range movegen.RuleSets() {
		c := NewCodec(v)
		if w, ok := want[v.Name]; ok && c.Size() != w {
			t.Errorf("%s: records of %d bytes, want %d", v.RulesName(), c.Size(), w)
		}
		buf := make([]byte, c.Size())
		for i, p := range randomPositions(v, 20, uint64(v.ID())) {
			in := Record{Pos: p, Result: i%3 - 1, Score: (i*37)%4200 - 2100}
			in.Score = ScoreLabel(in.Score, movegen.White) &^ 1
			if err := c.Encode(buf, &in); err != nil {
				t.Fatalf("%s: %v (%s)", v.RulesName(), err, v.FEN(&p))
			}
			var out Record
			if err := c.Decode(buf, &out); err != nil {
				t.Fatalf("%s: %v", v.RulesName(), err)
			}
			if out != in {
				t.Fatalf("%s: round trip of %s: got %+v, want %+v", v.RulesName(), v.FEN(&p), out, in)
			}
		}
	}
}

func TestCodecRefusesCorrupt(t *testing.T) {
	c := NewCodec(movegen.International)
	buf := bytes.Repeat([]byte{0xff}, c.Size())
	var r Record
	if err := c.Decode(buf, &r); err == nil {
		t.Fatal("a record of all ones decoded")
	}
	// A White man on White's crown row has no digit.
	p := movegen.International.Start()
	b := movegen.International.Bit(1)
	p.Pieces[movegen.White] |= 1 << b
	p.Pieces[movegen.Black] &^= 1 << b
	if err := c.Encode(make([]byte, c.Size()), &Record{Pos: p}); err == nil || !strings.Contains(err.Error(), "square 1") {
		t.Fatalf("a man on its crown row: err %v, want one naming square 1", err)
	}
}

// genPart makes shard k/n of the small test configuration at dir.
func genPart(t *testing.T, dir string, v *movegen.Variant, games, k, n int) string {
	t.Helper()
	path := filepath.Join(dir, v.Name+"-"+string(rune('0'+k))+"of"+string(rune('0'+n))+".part")
	cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: games, Nodes: 150, Seed: 7, RandomPlies: 2, TTLog2: 12, Jitter: true},
		Shard: k, Shards: n, EvalName: "test"}
	if err := GeneratePositions(cfg, path, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMergeSameBytesAnySplit: the games split in one, two or three shards,
// the parts named in any order, merge to the same bytes.
func TestMergeSameBytesAnySplit(t *testing.T) {
	dir := t.TempDir()
	v := movegen.English
	one := genPart(t, dir, v, 6, 1, 1)
	two := []string{genPart(t, dir, v, 6, 1, 2), genPart(t, dir, v, 6, 2, 2)}
	three := []string{genPart(t, dir, v, 6, 3, 3), genPart(t, dir, v, 6, 1, 3), genPart(t, dir, v, 6, 2, 3)}
	var outs [][]byte
	for i, parts := range [][]string{{one}, two, {two[1], two[0]}, three} {
		out := filepath.Join(dir, "m"+string(rune('0'+i))+".pos")
		st, err := Merge(out, parts, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if st.Written == 0 || st.Written+st.Duplicates != st.Read {
			t.Fatalf("merge %d: %+v", i, st)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
	}
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[0], outs[i]) {
			t.Fatalf("merge %d differs from merge 0", i)
		}
	}
	// Every position of the merged file is distinct, and the file reads
	// back as records of legal-looking positions.
	pr, err := OpenPositions(filepath.Join(dir, "m0.pos"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	seen := map[movegen.Position]bool{}
	var r Record
	for pr.Next(&r) == nil {
		if seen[r.Pos] {
			t.Fatalf("position %s twice", v.FEN(&r.Pos))
		}
		seen[r.Pos] = true
		if v.HasCapture(&r.Pos) {
			t.Fatalf("position %s has a capture pending", v.FEN(&r.Pos))
		}
	}
	if int64(len(seen)) != pr.Len() || pr.Header.Kind != "merged" {
		t.Fatalf("read %d positions of %d, kind %q", len(seen), pr.Len(), pr.Header.Kind)
	}
}

// TestGeneratePositionsResumes: a part cut short (a checkpoint after some
// games, torn bytes after it) is finished into the same bytes.
func TestGeneratePositionsResumes(t *testing.T) {
	dir := t.TempDir()
	v := movegen.Italian
	full := genPart(t, dir, v, 4, 1, 1)
	want, _ := os.ReadFile(full)
	// The state after the first game: the records it wrote.
	cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: 4, Nodes: 150, Seed: 7, RandomPlies: 2, TTLog2: 12, Jitter: true},
		Shard: 1, Shards: 1, EvalName: "test"}
	first := 0
	probe := filepath.Join(dir, "probe.part")
	_ = GeneratePositions(cfg, probe, func(p PosProgress) {
		if p.Games == 1 {
			first = p.Positions
		}
	})
	hl := len(cfg.header(NewCodec(v).Size()).line())
	cut := hl + first*NewCodec(v).Size()
	part := filepath.Join(dir, "cut.part")
	if err := os.WriteFile(part, append(append([]byte{}, want[:cut]...), 1, 2, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writePosCheckpoint(part+".ckpt", posCheckpoint{games: 1, positions: first, bytes: int64(cut)}); err != nil {
		t.Fatal(err)
	}
	// The resumed run's progress counts its own games apart (its rate
	// and ETA must not credit it with the games found on disk).
	starts := map[int]bool{}
	if err := GeneratePositions(cfg, part, func(p PosProgress) { starts[p.StartGames] = true }); err != nil {
		t.Fatal(err)
	}
	if len(starts) != 1 || !starts[1] {
		t.Errorf("resumed run's StartGames: %v, want always 1", starts)
	}
	got, _ := os.ReadFile(part)
	if !bytes.Equal(got, want) {
		t.Fatalf("resumed part differs (%d bytes, want %d)", len(got), len(want))
	}
	// Another configuration does not continue it.
	cfg.Nodes = 151
	if err := GeneratePositions(cfg, part, nil); err == nil || !strings.Contains(err.Error(), "use another file") {
		t.Fatalf("another configuration: err %v", err)
	}
}

func TestOpenPositionsBadFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"empty":   "",
		"garbage": "hello world\n",
		"version": "damaengine-positions v9 variant=english record=16 kind=merged\n",
		"record":  "damaengine-positions v1 variant=english record=8 kind=merged\n",
		"variant": "damaengine-positions v1 variant=chess record=16 kind=merged\n",
		"nokind":  "damaengine-positions v1 variant=english record=16\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := OpenPositions(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err %v, want one naming the file", name, err)
		}
	}
}

// TestFitNetStreamDeterministic: the streaming fit (tempo weights and two
// output buckets) gives the same weights on one thread and on three, and a
// fit stopped after an epoch and continued from its checkpoint gives them
// too; its validation loss falls below the hand-written evaluation's.
// italianPositions returns a positions file of 30 Italian self-play games,
// merged, in a test directory.
func italianPositions(t *testing.T) string {
	dir := t.TempDir()
	part := genPart(t, dir, movegen.Italian, 30, 1, 1)
	data := filepath.Join(dir, "it.pos")
	if _, err := Merge(data, []string{part}, nil, 0); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestFitNetStreamDeterministic(t *testing.T) {
	data := italianPositions(t)
	cfg := StreamConfig{Hidden: 32, Lambda: 0.5, Epochs: 2, Batch: 64, Rate: 0.01, Seed: 3, Tempo: true, Buckets: 2}
	fit := func(cfg StreamConfig) ([]int16, []float64) {
		var losses []float64
		st, _, err := FitNetStream(cfg, data, func(p StreamProgress) { losses = append(losses, p.Valid) })
		if err != nil {
			t.Fatal(err)
		}
		nw := st.Quantize()
		if nw.Buckets != 2 || len(nw.W2) != 64 || len(nw.T) != 64 {
			t.Fatalf("%d buckets, %d output and %d tempo weights; want 2, 64, 64", nw.Buckets, len(nw.W2), len(nw.T))
		}
		if slices.Equal(nw.W2[:32], nw.W2[32:]) {
			t.Fatal("the two buckets' output weights stayed equal")
		}
		w := slices.Clone(nw.W1)
		for _, x := range append(nw.W2, nw.T...) {
			w = append(w, int16(x), int16(x>>16))
		}
		return w, losses
	}
	cfg.Threads = 1
	one, losses := fit(cfg)
	cfg.Threads = 3
	three, _ := fit(cfg)
	if !slices.Equal(one, three) {
		t.Fatal("one thread and three fit different weights")
	}
	if len(losses) != 3 || !(losses[2] < losses[0]) {
		t.Fatalf("validation losses %v: want three, the last below the hand-written one's", losses)
	}
	// Stopped after the first epoch, then continued from the checkpoint.
	cfg.Checkpoint = filepath.Join(t.TempDir(), "fit.ckpt")
	cfg.stopAfter = 1
	first, _ := fit(cfg)
	if slices.Equal(first, one) {
		t.Fatal("one epoch gave the weights of two")
	}
	cfg.stopAfter = 0
	if again, _ := fit(cfg); !slices.Equal(again, one) {
		t.Fatal("the continued fit differs from the fit in one go")
	}
	// A checkpoint of another fit (here: three epochs, or one bucket) is
	// refused.
	cfg.Epochs = 3
	if _, _, err := FitNetStream(cfg, data, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Fatalf("checkpoint of a 2-epoch fit continued as a 3-epoch one: err %v", err)
	}
	cfg.Epochs, cfg.Buckets = 2, 1
	if _, _, err := FitNetStream(cfg, data, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Fatalf("checkpoint of a 2-bucket fit continued as a 1-bucket one: err %v", err)
	}
}

// TestFitNetStreamMatchesEval: the fitted network, written and loaded,
// scores positions as the trainer's float model does (within rounding),
// tempo weights and output buckets included: the two sides agree on the
// model, side to move, signs and buckets.
func TestFitNetStreamMatchesEval(t *testing.T) {
	dir := t.TempDir()
	v := movegen.English
	part := genPart(t, dir, v, 12, 1, 1)
	for _, c := range []struct {
		tempo   bool
		buckets int
	}{{false, 1}, {true, 1}, {true, 3}} {
		tempo := c.tempo
		st, _, err := FitNetStream(StreamConfig{Hidden: 64, Lambda: 0.5, Epochs: 2, Batch: 32, Rate: 0.02, Seed: 1, Tempo: tempo, Buckets: c.buckets}, part, nil)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := eval.WriteNet(&buf, v, st.Quantize()); err != nil {
			t.Fatal(err)
		}
		if err := eval.LoadWeights(v, &buf); err != nil {
			t.Fatal(err)
		}
		pr, err := OpenPositions(part)
		if err != nil {
			t.Fatal(err)
		}
		sc := &rowScratch{ha: make([]float32, 64), hb: make([]float32, 64)}
		var worst, total, checked float64
		buf2 := make([]byte, pr.Codec.Size())
		for pr.Raw(buf2) == nil {
			if err := pr.Codec.Decode(buf2, &sc.rec); err != nil {
				t.Fatal(err)
			}
			p := sc.rec.Pos
			var base int
			sc.row.a, sc.row.b, base = eval.NetInputs(v, &p, sc.row.a[:0], sc.row.b[:0])
			sc.row.base, sc.row.side = float32(base), 1
			if p.Side == movegen.Black {
				sc.row.side = -1
			}
			sc.row.bucket = eval.NetBucket(v, &p, c.buckets)
			want := st.forward(&sc.row, sc.ha, sc.hb)
			got := float64(eval.EvaluateWhite(v, &p))
			worst = max(worst, math.Abs(got-want))
			total += math.Abs(got - want)
			checked++
		}
		pr.Close()
		eval.ResetWeights(v)
		// The integer network truncates its output and tempo terms (up to
		// a centi-man each, half of one on average) and rounds every
		// first-layer weight to 1/NetQ, which a large output weight of
		// this small, fast-fitted network multiplies: a position can
		// differ by a few centi-men (3.02 at worst when the games of the
		// part were played by 3823297's English evaluation), the mean by
		// about 0.6. A wrong side to move measured 8 on average, a wrong
		// output bucket 41: both fail here.
		if checked == 0 || worst > 6 || total/checked > 1.5 {
			t.Fatalf("tempo %v, %d buckets: %v positions, eval and the float model differ by up to %.2f centi-men, %.2f on average", tempo, c.buckets, checked, worst, total/checked)
		}
	}
}

// TestSparseStarts: a sparse part's games start from random endings of 3
// to P pieces, one side or more of each colour, no man on its own crown
// row, the side to move with a move, the same for the same seed and game;
// the part's header says sparse=P, and its games end well before an
// opening's (few pieces), with their records readable; Damone's start
// with a Damone a side. Bounds outside 3 to 24 are refused.
func TestSparseStarts(t *testing.T) {
	var ml movegen.MoveList
	for _, v := range []*movegen.Variant{movegen.Turkish, movegen.International, movegen.English, movegen.Damone, movegen.DamoneAllDamoni} {
		sizes := map[int]bool{}
		for g := 0; g < 200; g++ {
			p := sparseStart(v, 6, 9, g)
			if q := sparseStart(v, 6, 9, g); q != p {
				t.Fatalf("%v game %d: two different starts for one seed", v, g)
			}
			n := bits.OnesCount64(p.Occupied())
			sizes[n] = true
			if n < MinSparse || n > 6 || p.Pieces[movegen.White] == 0 || p.Pieces[movegen.Black] == 0 {
				t.Fatalf("%v game %d: %s: %d pieces, want 3 to 6 with both colours", v, g, v.FEN(&p), n)
			}
			for _, c := range []movegen.Color{movegen.White, movegen.Black} {
				if p.Men(c)&v.CrownRank(c) != 0 {
					t.Fatalf("%v game %d: %s: a man on its crown row", v, g, v.FEN(&p))
				}
			}
			if v.HasDamoni() && (p.Super&p.Pieces[movegen.White] == 0 || p.Super&p.Pieces[movegen.Black] == 0 || p.Super&^p.Kings != 0) {
				t.Fatalf("%v game %d: %s: not a Damone a side among the kings", v, g, v.FEN(&p))
			}
			if !v.HasDamoni() && p.Super != 0 {
				t.Fatalf("%v game %d: Damoni outside Damone", v, g)
			}
			if p.Key != p.ComputeKey() {
				t.Fatalf("%v game %d: key not set", v, g)
			}
			if v.Generate(&p, &ml); ml.N == 0 {
				t.Fatalf("%v game %d: %s: no move for the side to move", v, g, v.FEN(&p))
			}
		}
		if len(sizes) != 4 {
			t.Errorf("%v: piece counts %v, want each of 3 to 6", v, sizes)
		}
	}
	dir := t.TempDir()
	v := movegen.Turkish
	cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: 3, Nodes: 150, Seed: 7, TTLog2: 12, Jitter: true},
		Shard: 1, Shards: 1, EvalName: "test", Sparse: 5}
	part := filepath.Join(dir, "sparse.part")
	if err := GeneratePositions(cfg, part, nil); err != nil {
		t.Fatal(err)
	}
	pr, err := OpenPositions(part)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if !strings.Contains(pr.Header.line(), " sparse=5") {
		t.Errorf("header %q: no sparse=5", pr.Header.line())
	}
	var r Record
	for i := int64(0); i < pr.Len(); i++ {
		if err := pr.Next(&r); err != nil {
			t.Fatal(err)
		}
		if n := bits.OnesCount64(r.Pos.Occupied()); n > 5 {
			t.Fatalf("record %d: %d pieces in a game from at most 5", i, n)
		}
	}
	if pr.Len() == 0 {
		t.Error("no records")
	}
	for _, bad := range []PosGenConfig{
		{GenConfig: cfg.GenConfig, Shard: 1, Shards: 1, Sparse: 2},
		{GenConfig: cfg.GenConfig, Shard: 1, Shards: 1, Sparse: 25},
	} {
		if err := GeneratePositions(bad, filepath.Join(dir, "bad.part"), nil); err == nil || !strings.Contains(err.Error(), "sparse") {
			t.Errorf("sparse %d for %v: %v, want an error naming sparse starts", bad.Sparse, bad.Variant, err)
		}
	}
}

// TestFitNetStreamFromInit: a network written as a weights file comes back
// from it exactly (NetStateOf inverts Quantize), a fit started from it
// begins at its validation loss and, at a tiny step, ends where it began,
// and a starting network of another shape is refused by name.
func TestFitNetStreamFromInit(t *testing.T) {
	v := movegen.Italian
	data := italianPositions(t)
	cfg := StreamConfig{Hidden: 32, Lambda: 0.5, Epochs: 2, Batch: 64, Rate: 0.01, Seed: 3, Tempo: true, Threads: 1}
	st, _, err := FitNetStream(cfg, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	nw := st.Quantize()
	var file bytes.Buffer
	if err := eval.WriteNet(&file, v, nw); err != nil {
		t.Fatal(err)
	}
	back, err := eval.ReadNet(v, bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	init := NetStateOf(*back)
	if got := init.Quantize(); !slices.Equal(got.W1, nw.W1) || !slices.Equal(got.B1, nw.B1) || !slices.Equal(got.W2, nw.W2) || !slices.Equal(got.T, nw.T) {
		t.Fatal("NetStateOf(weights).Quantize() differs from the weights")
	}
	// From the network at a tiny step: the start's loss is the network's,
	// far below the hand-written evaluation's, and the weights stay.
	var ps []StreamProgress
	tiny := cfg
	tiny.Rate, tiny.Init = 1e-9, init
	got, _, err := FitNetStream(tiny, data, func(p StreamProgress) { ps = append(ps, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || !(ps[0].InitValid > 0 && ps[0].InitValid < ps[0].Valid) || math.Abs(ps[2].Valid-ps[0].InitValid) > 1e-4 {
		t.Fatalf("progress %+v: want the start at the network's loss, below the hand-written one, and the end there", ps)
	}
	if q := got.Quantize(); !slices.Equal(q.W1, nw.W1) || !slices.Equal(q.W2, nw.W2) {
		t.Fatal("a fit at a step of 1e-9 moved the starting weights")
	}
	// The Init is copied, not trained in place.
	if q := init.Quantize(); !slices.Equal(q.W1, nw.W1) {
		t.Fatal("the fit changed the caller's starting network")
	}
	// Another shape: refused, naming what differs.
	for _, c := range []struct {
		cfg  func(*StreamConfig)
		want string
	}{
		{func(c *StreamConfig) { c.Hidden = 48 }, "hidden units"},
		{func(c *StreamConfig) { c.Tempo = false }, "tempo"},
		{func(c *StreamConfig) { c.Buckets = 2 }, "output buckets"},
	} {
		bad := tiny
		c.cfg(&bad)
		if _, _, err := FitNetStream(bad, data, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want one naming %q", c, err, c.want)
		}
	}
}

// TestFutureScores checks tune merge --future's labels on two random games
// written one after the other: each record's score becomes the mean of its
// own and the next k of its game, never reaching into the other game.
func TestFutureScores(t *testing.T) {
	v := movegen.International
	c := NewCodec(v)
	size := c.Size()
	var games [2][]movegen.Position
	for g := range games {
		games[g] = randomPositions(v, 1, uint64(7+g))
		if len(games[g]) < 20 {
			t.Fatalf("game %d: only %d positions", g, len(games[g]))
		}
	}
	score := func(g, i int) int { return (1 - 2*g) * 2 * (i*7%50 - 20) }
	var recs []byte
	buf := make([]byte, size)
	for g, ps := range games {
		for i, p := range ps {
			r := Record{Pos: p, Result: 1 - g, Score: score(g, i)}
			if err := c.Encode(buf, &r); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, buf...)
		}
	}
	const k = 3
	if err := futureScores(c, recs, k); err != nil {
		t.Fatal(err)
	}
	off := 0
	for g, ps := range games {
		for i, p := range ps {
			var r Record
			if err := c.Decode(recs[off:off+size], &r); err != nil {
				t.Fatal(err)
			}
			off += size
			sum, n := 0, 0
			for j := i; j <= min(i+k, len(ps)-1); j++ {
				sum += score(g, j)
				n++
			}
			want := sum / n
			want -= want % 2
			if r.Score != want || r.Result != 1-g || r.Pos.Key != p.ComputeKey() {
				t.Fatalf("game %d record %d: score %d result %d, want %d and %d", g, i, r.Score, r.Result, want, 1-g)
			}
		}
	}
}

// TestGenerateFromStarts: LoadStarts keeps a file's positions of the
// pieces asked for (and refuses a range without any, or another
// variant's file); games started from them write records of no more
// pieces than the largest start, the header names the starts, the same
// configuration gives the same bytes, and starts with sparse endings or
// a merge --future of such a part are refused.
func TestGenerateFromStarts(t *testing.T) {
	dir := t.TempDir()
	v := movegen.Italian
	src := genPart(t, dir, v, 3, 1, 1)
	starts, name, err := LoadStarts(src, v, 12, 16)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := OpenPositions(src)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	var r Record
	for pr.Next(&r) == nil {
		if n := bits.OnesCount64(r.Pos.Occupied()); n >= 12 && n <= 16 {
			want++
		}
	}
	pr.Close()
	if want == 0 || len(starts) != want || name != fmt.Sprintf("%s:12-16:%d", filepath.Base(src), want) {
		t.Fatalf("%d starts named %q; the file has %d of 12 to 16 pieces", len(starts), name, want)
	}
	if _, _, err := LoadStarts(src, v, 30, 40); err == nil || !strings.Contains(err.Error(), "no position of 30 to 40") {
		t.Errorf("an empty range: %v", err)
	}
	if _, _, err := LoadStarts(src, movegen.English, 12, 16); err == nil || !strings.Contains(err.Error(), "italian") {
		t.Errorf("another variant's file: %v", err)
	}
	cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: 3, Nodes: 150, Seed: 7, RandomPlies: 1, TTLog2: 12, Jitter: true},
		Shard: 1, Shards: 1, EvalName: "test", Starts: starts, StartsName: name}
	a, b := filepath.Join(dir, "a.part"), filepath.Join(dir, "b.part")
	for _, p := range []string{a, b} {
		if err := GeneratePositions(cfg, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Fatal("the same configuration gave two parts")
	}
	pr, err = OpenPositions(a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pr.Header.line(), " starts="+name) {
		t.Errorf("header %q does not name the starts", pr.Header.line())
	}
	if pr.Len() == 0 {
		t.Fatal("no records")
	}
	for pr.Next(&r) == nil {
		if n := bits.OnesCount64(r.Pos.Occupied()); n > 16 {
			t.Fatalf("a record of %d pieces in games from at most 16", n)
		}
	}
	pr.Close()
	bad := cfg
	bad.Sparse = 5
	if err := GeneratePositions(bad, filepath.Join(dir, "bad.part"), nil); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("starts and sparse: %v", err)
	}
	if _, err := Merge(filepath.Join(dir, "f.pos"), []string{a}, nil, 4); err == nil || !strings.Contains(err.Error(), "given starts") {
		t.Errorf("--future of a part from given starts: %v", err)
	}
}

// TestGeneratePositionsRandomMoves: a part with random moves mixed into
// the engine's play is the same bytes each time, says so in its header,
// holds other games than the part without them (the same games' starts),
// and a rate outside 0..MaxRandomMoves is refused.
func TestGeneratePositionsRandomMoves(t *testing.T) {
	dir := t.TempDir()
	v := movegen.Italian
	gen := func(name string, rate int) []byte {
		t.Helper()
		path := filepath.Join(dir, name)
		cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: 3, Nodes: 150, Seed: 7, RandomPlies: 2, RandomMoves: rate, TTLog2: 12, Jitter: true},
			Shard: 1, Shards: 1, EvalName: "test"}
		if err := GeneratePositions(cfg, path, nil); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	plain, a, b := gen("plain.part", 0), gen("a.part", 30), gen("b.part", 30)
	if !bytes.Equal(a, b) {
		t.Fatal("the same configuration with random moves gave other bytes")
	}
	if bytes.Equal(a, plain) {
		t.Fatal("random moves at 30 % changed nothing")
	}
	head, _, _ := bytes.Cut(a, []byte("\n"))
	if !bytes.Contains(head, []byte(" random-moves=30")) || bytes.Contains(plain[:bytes.IndexByte(plain, '\n')], []byte("random-moves")) {
		t.Fatalf("headers %q and %q: want random-moves=30 in the first only", head, plain[:bytes.IndexByte(plain, '\n')])
	}
	for _, rate := range []int{-1, MaxRandomMoves + 1} {
		cfg := PosGenConfig{GenConfig: GenConfig{Variant: v, Games: 1, Nodes: 150, Seed: 7, RandomMoves: rate}, Shard: 1, Shards: 1}
		if err := GeneratePositions(cfg, filepath.Join(dir, "bad.part"), nil); err == nil || !strings.Contains(err.Error(), "random moves") {
			t.Fatalf("random moves %d: err %v, want a refusal naming them", rate, err)
		}
		if err := Generate(cfg.GenConfig, filepath.Join(dir, "bad.games"), nil); err == nil || !strings.Contains(err.Error(), "random moves") {
			t.Fatalf("games file, random moves %d: err %v, want a refusal naming them", rate, err)
		}
	}
}
