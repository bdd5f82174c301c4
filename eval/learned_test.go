package eval

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// handWrittenOnly makes every variant use its hand-written evaluation
// alone for the rest of test t: tests of properties the hand-written terms
// were designed to have (doc.go), which learned weights fitted to game
// results need not keep on sparse boards rarely seen in play.
func handWrittenOnly(t *testing.T) {
	for _, v := range learnedVariants {
		HandWrittenOnly(v)
	}
	t.Cleanup(func() {
		for _, v := range learnedVariants {
			ResetWeights(v)
		}
	})
}

// randomWeights returns random weights for v's layout, up to ±limit units.
func randomWeights(v *movegen.Variant, limit int, seed uint64) []int16 {
	r := rand.New(rand.NewPCG(seed, 11))
	raw := make([]int16, 2*FeatureCount(v))
	for i := range raw {
		raw[i] = int16(r.IntN(2*limit+1) - limit)
	}
	return raw
}

func TestLearnedSymmetryAndFeatures(t *testing.T) {
	for _, v := range learnedVariants {
		if FeatureCount(v) == 0 {
			t.Errorf("%v: no learned layout", v)
			continue
		}
		raw := randomWeights(v, 400, uint64(v.ID()))
		if err := SetWeights(v, raw); err != nil {
			t.Fatal(err)
		}
		var fs []Feature
		for _, p := range gamesOf(v, 20, 150, 3) {
			q := v.Flip(&p)
			if a, b := EvaluateWhite(v, &p), EvaluateWhite(v, &q); a != -b {
				t.Errorf("%v: white score %d, mirror %d", v, a, b)
			}
			if a, b := Evaluate(v, &p), Evaluate(v, &q); a != b {
				t.Errorf("%v: score %d, mirror %d", v, a, b)
			}
			var phase float64
			var base int
			fs, phase, base = AppendFeatures(v, &p, fs[:0])
			var sum float64
			for _, f := range fs {
				sum += float64(f.Coef) * (phase*float64(raw[2*f.Index]) + (1-phase)*float64(raw[2*f.Index+1]))
			}
			want := base + int(sum/WeightScale)
			if got := EvaluateWhite(v, &p); math.Abs(float64(got-want)) > 1 {
				t.Errorf("%v: learned score %d, features say %d", v, got, want)
			}
			if h := HandEvaluate(v, &p); p.Side == movegen.White && h != base {
				t.Errorf("%v: hand-written %d, features' base %d", v, h, base)
			}
		}
		ResetWeights(v)
	}
}

func TestLearnedNoAllocs(t *testing.T) {
	for _, v := range movegen.Variants() { // every layout, Turkish's threats and Damone's Damoni included
		if err := SetWeights(v, randomWeights(v, 100, 1)); err != nil {
			t.Fatal(err)
		}
		ps := gamesOf(v, 2, 60, 5)
		n := testing.AllocsPerRun(20, func() {
			for i := range ps {
				Evaluate(v, &ps[i])
			}
		})
		if n != 0 {
			t.Errorf("%v: %v allocations per run", v, n)
		}
		ResetWeights(v)
	}
}

func TestWeightsFile(t *testing.T) {
	v := movegen.Italian
	raw := randomWeights(v, 1000, 9)
	var buf bytes.Buffer
	if err := WriteWeights(&buf, v, raw); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	p := gamesOf(v, 1, 30, 1)[29]
	before := Evaluate(v, &p)
	bad := map[string]badFile{
		"empty":       {nil, "empty"},
		"not weights": {[]byte("hello, world"), "not a weights file"},
		"truncated":   {good[:len(good)/2], "truncated"},
		"short head":  {good[:6], "truncated"},
		"corrupted":   {flip(good, 40), "checksum"},
		"trailing":    {append(append([]byte(nil), good...), 0), "after the checksum"},
		"version":     {flip(good, 4), "version"},
	}
	checkRefused(t, v, &p, bad)
	if err := LoadWeights(movegen.International, bytes.NewReader(good)); err == nil || !strings.Contains(err.Error(), "for \"italian\"") {
		t.Errorf("wrong variant: %v", err)
	}
	if err := LoadWeights(movegen.Damone, bytes.NewReader(good)); err == nil || !strings.Contains(err.Error(), "for \"italian\"") {
		t.Errorf("an Italian file for Damone: %v", err)
	}
	// Damone's two rule options are two variant values with one name:
	// their weights files are told apart by the all-Damoni suffix.
	var dm, dma bytes.Buffer
	if err := WriteWeights(&dm, movegen.Damone, randomWeights(movegen.Damone, 100, 3)); err != nil {
		t.Fatal(err)
	}
	if err := WriteWeights(&dma, movegen.DamoneAllDamoni, randomWeights(movegen.DamoneAllDamoni, 100, 4)); err != nil {
		t.Fatal(err)
	}
	if err := LoadWeights(movegen.DamoneAllDamoni, bytes.NewReader(dm.Bytes())); err == nil || !strings.Contains(err.Error(), "for \"damone\"") {
		t.Errorf("a Damone file for the all-Damoni rule: %v", err)
	}
	if got, err := LoadWeightsFile(bytes.NewReader(dma.Bytes())); got != movegen.DamoneAllDamoni || err != nil {
		t.Errorf("LoadWeightsFile of a damone-all-damoni file: %v, %v", got, err)
	}
	if got, err := LoadWeightsFile(bytes.NewReader(dm.Bytes())); got != movegen.Damone || err != nil {
		t.Errorf("LoadWeightsFile of a damone file: %v, %v", got, err)
	}
	ResetWeights(movegen.Damone)
	ResetWeights(movegen.DamoneAllDamoni)
	if got, err := LoadWeightsFile(bytes.NewReader(good[:20])); got != nil || err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("LoadWeightsFile of a truncated file: %v, %v", got, err)
	}
	if got, err := LoadWeightsFile(bytes.NewReader(good)); got != v || err != nil {
		t.Errorf("LoadWeightsFile: %v, %v", got, err)
	}
	var back bytes.Buffer
	l := layoutOf(v)
	if err := WriteWeights(&back, v, l.cur.Load().raw); err != nil || !bytes.Equal(back.Bytes(), good) {
		t.Errorf("written again, the file differs (%v)", err)
	}
	ResetWeights(v)
	if got := Evaluate(v, &p); got != before {
		t.Errorf("after reset the score is %d, was %d", got, before)
	}
}

// badFile is a weights file LoadWeights must refuse, and a word of the
// error it must give.
type badFile struct {
	b    []byte
	want string
}

// checkRefused loads each file of bad for v, wanting its error, and checks
// that the score of p stays as it was.
func checkRefused(t *testing.T, v *movegen.Variant, p *movegen.Position, bad map[string]badFile) {
	t.Helper()
	before := Evaluate(v, p)
	for name, c := range bad {
		err := LoadWeights(v, bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
		}
		if got := Evaluate(v, p); got != before {
			t.Errorf("%s: a refused file changed the score %d to %d", name, before, got)
		}
	}
}

// flip returns a copy of b with byte i changed.
func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x5a
	return c
}

func TestEmbeddedWeights(t *testing.T) {
	for _, v := range learnedVariants {
		has, err := EmbeddedWeights(v)
		if err != nil {
			t.Errorf("%v: embedded weights do not load: %v", v, err)
		}
		if has != UsesLearned(v) {
			t.Errorf("%v: embedded %v, in use %v", v, has, UsesLearned(v))
		}
	}
}

func BenchmarkEvaluateItalian(b *testing.B)        { benchEval(b, movegen.Italian, false) }
func BenchmarkEvaluateItalianLearned(b *testing.B) { benchEval(b, movegen.Italian, true) }
func BenchmarkEvaluateInternational(b *testing.B)  { benchEval(b, movegen.International, false) }
func BenchmarkEvaluateInternationalLearned(b *testing.B) {
	benchEval(b, movegen.International, true)
}

// benchEval times Evaluate over random-game positions of v, with learned
// weights (random ones when v has none embedded) or the hand-written
// evaluation alone.
func benchEval(b *testing.B, v *movegen.Variant, learned bool) {
	if learned && !UsesLearned(v) {
		_ = SetWeights(v, randomWeights(v, 100, 1))
	}
	if !learned {
		HandWrittenOnly(v)
	}
	defer ResetWeights(v)
	ps := gamesOf(v, 20, 100, 2)
	b.ReportAllocs()
	b.ResetTimer()
	s := 0
	for i := 0; i < b.N; i++ {
		s += Evaluate(v, &ps[i%len(ps)])
	}
	_ = s
}

// TestLearnedKingOverMan: with each variant's default (embedded) weights,
// a king still scores more than a man on the same square, one piece
// against two men on their home rank. The learned weights are fitted on
// game positions and so are free to move the hand-written piece values on
// sparse boards (TestKingWorthMoreAllVariants checks those), but never so
// far that a man is preferred to a king. One step from the crown rank a
// man is nearly a king already (it crowns on its next move wherever the
// square ahead is free): there a man may score up to three quarters of a
// man (75) above the king. Turkish's network scores a man on a7 35 above
// one, Italian's second network a man on 5 72 above one (a three-piece
// ending, which the endgame tables decide in play). Elsewhere a man may
// score up to 10 above the king (the same kind of lost or drawn
// three-piece ending): English's 256-unit network (issue 45) scores a
// man on 9 7 above a king there, at −128 against −135.
func TestLearnedKingOverMan(t *testing.T) {
	for _, v := range learnedVariants {
		if ok, err := EmbeddedWeights(v); !ok || err != nil {
			continue
		}
		home := rankSquares(v, v.Ranks()-1)
		black := uint64(1)<<home[len(home)-1] | uint64(1)<<home[len(home)-2]
		var nearCrown uint64
		for _, b := range rankSquares(v, v.Ranks()-2) {
			nearCrown |= 1 << b
		}
		for b := 0; b < 64; b++ {
			if v.Board()>>b&1 == 0 || black>>b&1 != 0 || v.CrownRank(movegen.White)>>b&1 != 0 {
				continue
			}
			for _, side := range []movegen.Color{movegen.White, movegen.Black} {
				king := movegen.Position{Pieces: [2]uint64{1 << b, black}, Kings: 1 << b, Side: side}
				man := movegen.Position{Pieces: [2]uint64{1 << b, black}, Side: side}
				margin := 10
				if nearCrown>>b&1 != 0 {
					margin = 75
				}
				if ek, em := EvaluateWhite(v, &king), EvaluateWhite(v, &man); ek <= em-margin {
					t.Errorf("%s: king on %s scores %d, a man there %d", v.Name, v.SquareName(b), ek, em)
				}
			}
		}
	}
}

// TestFoldedEqualsFeatures: the folded tables the diagonal boards are
// evaluated with give exactly the correction the features define, in
// integers (mg and eg summed over the features, then blended), for random
// weights on game positions and random placements with kings.
func TestFoldedEqualsFeatures(t *testing.T) {
	for _, v := range learnedVariants {
		l := layoutOf(v)
		if l == nil || l.orth {
			continue
		}
		raw := randomWeights(v, 2000, 7+uint64(v.ID()))
		tab := l.tables(raw)
		if tab.rowWidth == 0 {
			t.Errorf("%v: the folded regions are not read by rows", v)
		}
		ps := gamesOf(v, 20, 150, 11)
		var fs []Feature
		for _, p := range ps {
			fs, _, _ = AppendFeatures(v, &p, fs[:0])
			var mg, eg int32
			for _, f := range fs {
				mg += int32(f.Coef) * int32(raw[2*f.Index])
				eg += int32(f.Coef) * int32(raw[2*f.Index+1])
			}
			n := bits.OnesCount64(p.Pieces[0] | p.Pieces[1])
			if got, want := l.folded(tab, &p), l.blend(mg, eg, n); got != want {
				t.Fatalf("%v: folded correction %d, features %d (%s)", v, got, want, v.FEN(&p))
			}
			wm, bm := p.Pieces[0]&^p.Kings, p.Pieces[1]&^p.Kings
			rows := foldedRows3(tab.rows, wm, bm)
			if tab.rowWidth == 4 {
				rows = foldedRows4(tab.rows, wm, bm)
			}
			if sum := foldedSum(tab.regs, wm, bm); rows != sum {
				t.Fatalf("%v: rows sum %d, regions sum %d (%s)", v, rows, sum, v.FEN(&p))
			}
		}
	}
}

// TestHandMobility: where the hand-written evaluation hands its count of
// the kings' mobility to the learned correction (Italian), the learned
// evaluation is the hand-written one plus the correction that counts it
// itself, on game positions and random placements with kings; where the
// layout calls its diagonal evaluation directly, that is hand, and its
// wing counts give the correction the balance counts it itself.
func TestHandMobility(t *testing.T) {
	for _, v := range learnedVariants {
		l := layoutOf(v)
		if l == nil || l.handMob == nil && l.diag == nil {
			continue
		}
		tab := l.tables(randomWeights(v, 2000, 3+uint64(v.ID())))
		ps := append(gamesOf(v, 20, 150, 5), placementsOf(v, 2000, 9)...)
		for _, p := range ps {
			if l.diag != nil {
				got, dw, db := l.diag.whiteWings(&p)
				if want := l.hand(&p); got != want {
					t.Fatalf("%v: the diagonal evaluation called directly %d, hand %d (%s)", v, got, want, v.FEN(&p))
				}
				got = l.foldedWith(tab, &p, handCounts{dw: dw, db: db, hasBal: dw >= 0})
				if want := l.folded(tab, &p); got != want {
					t.Fatalf("%v: with the hand's wing counts %d, counted %d (%s)", v, got, want, v.FEN(&p))
				}
				continue
			}
			s, _ := l.handMob(&p)
			if s != l.hand(&p) {
				t.Fatalf("%v: handMob %d, hand %d (%s)", v, s, l.hand(&p), v.FEN(&p))
			}
			got, m := l.handMob(&p)
			got += l.foldedWith(tab, &p, handCounts{mob: m, hasMob: true})
			if want := l.hand(&p) + l.folded(tab, &p); got != want {
				t.Fatalf("%v: with the hand's mobility %d, counted %d (%s)", v, got, want, v.FEN(&p))
			}
		}
	}
}

// TestBlendDivision: blend's divisions by constant spans give the
// quotient of the plain division, for every layout's span and for sums
// of either sign.
func TestBlendDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, lohi := range [][2]int{{6, 22}, {dmPhaseLo, dmPhaseHi}, {6, 30}, {8, 32}, {3, 10}} {
		l := &layout{phaseLo: lohi[0], phaseHi: lohi[1]}
		for i := 0; i < 20000; i++ {
			mg, eg := int32(r.IntN(1<<22)-1<<21), int32(r.IntN(1<<22)-1<<21)
			n := r.IntN(40)
			span := int32(l.phaseHi - l.phaseLo)
			k := min(max(int32(n-l.phaseLo), 0), span)
			want := int((int64(mg)*int64(k) + int64(eg)*int64(span-k)) / int64(span*WeightScale))
			if got := l.blend(mg, eg, n); got != want {
				t.Fatalf("span %v, mg %d eg %d n %d: %d, want %d", lohi, mg, eg, n, got, want)
			}
		}
	}
}

// TestEmbeddedWeightsLazy: a layout's embedded weights are built at its
// first evaluation, not before, and score as the loaded ones do; a
// writer that comes first (HandWrittenOnly) is not overwritten by the
// late load.
func TestEmbeddedWeightsLazy(t *testing.T) {
	v := movegen.International
	fresh := func() *layout {
		l := newLayout(v, handByID[v.ID()])
		l.diag = evInternational
		return l
	}
	l := fresh()
	if l.def != nil || l.cur.Load() != nil {
		t.Fatal("a new layout built its weights at once")
	}
	games := wideGames(v, 1, 60, 11)[0]
	for i := range games {
		if got, want := l.white(&games[i]), layoutOf(v).white(&games[i]); got != want {
			t.Fatalf("ply %d: the late-loaded weights score %d, the loaded ones %d", i, got, want)
		}
	}
	if l.def == nil || l.cur.Load() == nil || l.cur.Load().net == nil {
		t.Fatal("the first evaluation did not load the embedded network")
	}
	l = fresh()
	l.use(nil) // what HandWrittenOnly does, before any evaluation
	if got, want := l.white(&games[30]), handByID[v.ID()](&games[30]); got != want {
		t.Fatalf("hand-written only: %d, want the hand-written %d", got, want)
	}
	if l.def != nil {
		t.Fatal("the hand-written evaluation alone loaded the embedded weights")
	}
	l.useDefaults() // ResetWeights: still not loaded until a read needs them
	if l.def != nil || l.cur.Load() != nil {
		t.Fatal("putting the embedded weights back loaded them before a read")
	}
	if got, want := l.white(&games[30]), layoutOf(v).white(&games[30]); got != want {
		t.Fatalf("after the reset: %d, want the embedded weights' %d", got, want)
	}
	l.use(nil)
	l.useDefaults() // loaded now: back in use at the next read
	if l.ensure(); l.cur.Load() != l.def || l.def == nil {
		t.Fatal("putting the loaded embedded weights back did not use them")
	}
}
