package tune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// modelWeights returns a synthetic model's middlegame and endgame
// weights for features, drawn from N(0, 60²) by seed.
func modelWeights(features int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, seed))
	w := make([]float64, 2*features)
	for i := range w {
		w[i] = r.NormFloat64() * 60
	}
	return w
}

// maxDiff returns the largest |got[i] − want[i]|.
func maxDiff(got, want []float64) (d float64) {
	for i := range want {
		d = max(d, math.Abs(got[i]-want[i]))
	}
	return d
}

// synthetic returns rows drawn from a known model: sparse ±1 features
// with middlegame and endgame weights want, a random phase and base, and
// as the target the model's exact win probability at scale k.
func synthetic(rows, features int, want []float64, k float64, seed uint64) *Set {
	r := rand.New(rand.NewPCG(seed, 1))
	s := &Set{}
	var idx []int32
	var coef []float32
	for i := 0; i < rows; i++ {
		idx, coef = idx[:0], coef[:0]
		for j := 0; j < 6; j++ {
			idx = append(idx, int32(r.IntN(features)))
			coef = append(coef, float32(2*r.IntN(2)-1))
		}
		ph := float32(r.Float64())
		base := float32(r.NormFloat64() * 50)
		row := &Set{Start: []int32{0, int32(len(idx))}, Index: idx, Coef: coef, Phase: []float32{ph}, Base: []float32{base}}
		p := sigmoid(score(row, 0, want) / k)
		s.Add(idx, coef, ph, base, float32(p))
	}
	return s
}

func TestFitRecoversKnownWeights(t *testing.T) {
	const features, k = 20, 100.0
	want := modelWeights(features, 3)
	train := synthetic(4000, features, want, k, 5)
	cfg := FitConfig{Features: features, K: k, Epochs: 60, Batch: 256, Rate: 3, Seed: 1}
	st, err := Fit(cfg, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if worst := maxDiff(st.W, want); worst > 6 {
		t.Errorf("largest weight error %.2f (of weights ~±60): the fit did not recover the model", worst)
	}
	if l0, l1 := Loss(train, nil, k), Loss(train, st.W, k); l1 >= l0 {
		t.Errorf("loss %.4f did not fall below the base's %.4f", l1, l0)
	}
}

func TestFitK(t *testing.T) {
	// Targets drawn from sigmoid(base/150): FitK finds about 150.
	r := rand.New(rand.NewPCG(9, 9))
	s := &Set{}
	for i := 0; i < 20000; i++ {
		b := r.NormFloat64() * 200
		y := float32(0)
		if r.Float64() < sigmoid(b/150) {
			y = 1
		}
		s.Add(nil, nil, 0.5, float32(b), y)
	}
	if k := FitK(s, 20, 2000); k < 130 || k > 170 {
		t.Errorf("FitK = %.1f, want about 150", k)
	}
}

func TestFitCheckpointResumes(t *testing.T) {
	const features, k = 10, 100.0
	want := make([]float64, 2*features)
	for i := range want {
		want[i] = float64(i*7%50 - 25)
	}
	train := synthetic(500, features, want, k, 2)
	dir := t.TempDir()
	cfg := FitConfig{Features: features, K: k, Epochs: 6, Batch: 64, Rate: 2, Seed: 4}
	whole, err := Fit(cfg, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Checkpoint = filepath.Join(dir, "fit.ckpt")
	cfg.Epochs = 3
	if _, err := Fit(cfg, train, nil, nil); err != nil {
		t.Fatal(err)
	}
	cfg.Epochs = 6
	resumed, err := Fit(cfg, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range whole.W {
		if math.Abs(whole.W[i]-resumed.W[i]) > 1e-9 {
			t.Fatalf("weight %d: %v without a stop, %v resumed", i, whole.W[i], resumed.W[i])
		}
	}
	// A checkpoint of the same layout but other data or settings is
	// refused: it would be continued (or, done, written out) as if it
	// were this fit's.
	other := synthetic(500, features, want, k, 3)
	if _, err := Fit(cfg, other, nil, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Errorf("a checkpoint of other data was accepted: %v", err)
	}
	cfg.L2 = 1e-6
	if _, err := Fit(cfg, train, nil, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Errorf("a checkpoint of other settings was accepted: %v", err)
	}
	cfg.L2 = 0
	cfg.Init = want
	if _, err := Fit(cfg, train, nil, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Errorf("a checkpoint of a fit from zero was accepted for one from initial weights: %v", err)
	}
	cfg.Init = nil
	cfg.Features = 11
	if _, err := Fit(cfg, train, nil, nil); err == nil || !strings.Contains(err.Error(), "checkpoint") {
		t.Errorf("a checkpoint of another layout was accepted: %v", err)
	}
}

// TestFitFromInit: a fit given initial weights starts from them. From
// the model's own weights one short, slow epoch stays near them, where
// the same epoch from zero is far off; initial weights of the wrong
// length are refused.
func TestFitFromInit(t *testing.T) {
	const features, k = 20, 100.0
	want := modelWeights(features, 5)
	train := synthetic(2000, features, want, k, 7)
	cfg := FitConfig{Features: features, K: k, Epochs: 1, Batch: 256, Rate: 0.5, Seed: 1}
	zero, err := Fit(cfg, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Init = want
	warm, err := Fit(cfg, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if dz, dw := maxDiff(zero.W, want), maxDiff(warm.W, want); dw > 6 || dz < 30 {
		t.Errorf("largest weight error after one epoch: %.2f from the model's weights (want ≤ 6), %.2f from zero (want ≥ 30)", dw, dz)
	}
	if want[0] == warm.W[0] && want[1] == warm.W[1] {
		t.Errorf("the fit did not move the initial weights")
	}
	cfg.Init = want[:3]
	if _, err := Fit(cfg, train, nil, nil); err == nil || !strings.Contains(err.Error(), "initial weights") {
		t.Errorf("initial weights of the wrong length: %v", err)
	}
}

func TestGenerateResumes(t *testing.T) {
	v := movegen.Italian
	dir := t.TempDir()
	path := filepath.Join(dir, "g.games")
	cfg := GenConfig{Variant: v, Games: 2, Nodes: 200, Seed: 7, RandomPlies: 2, TTLog2: 12}
	if err := Generate(cfg, path, nil); err != nil {
		t.Fatal(err)
	}
	one, err := ReadGames(v, path)
	if err != nil || len(one) != 2 {
		t.Fatalf("%d games, %v", len(one), err)
	}
	// A torn last line (a run killed while writing) is cut off and played again.
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(b, "g 2 1 fff:"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Games = 3
	if err := Generate(cfg, path, nil); err != nil {
		t.Fatal(err)
	}
	three, err := ReadGames(v, path)
	if err != nil || len(three) != 3 {
		t.Fatalf("%d games after resuming, %v", len(three), err)
	}
	for i, g := range three {
		if g.Index != i || len(g.Positions) == 0 {
			t.Errorf("game %d: index %d, %d positions", i, g.Index, len(g.Positions))
		}
	}
	// The same seed plays the same games.
	path2 := filepath.Join(dir, "h.games")
	if err := Generate(cfg, path2, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := mustRead(t, path), mustRead(t, path2); a != b {
		t.Errorf("two runs with one seed wrote different files")
	}
	cfg.Seed = 8
	if err := Generate(cfg, path, nil); err == nil {
		t.Errorf("a file of another configuration was continued")
	}
	set := BuildSet(v, three, LabelConfig{Lambda: 0.5, K: 200})
	if set.Rows() == 0 || set.Rows() != len(three[0].Positions)+len(three[1].Positions)+len(three[2].Positions) {
		t.Errorf("%d rows", set.Rows())
	}
	for _, y := range set.Target {
		if y < 0 || y > 1 {
			t.Fatalf("target %v", y)
		}
	}
	if eval.FeatureCount(v) == 0 {
		t.Fatal("no layout")
	}
}

func mustRead(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGenerateAllDamoni: Damone with the all-Damoni rule gets games files
// of its own that keep the Damoni, which Damone's reader refuses, and the
// other way round.
func TestGenerateAllDamoni(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.games")
	cfg := GenConfig{Variant: movegen.DamoneAllDamoni, Games: 6, Nodes: 200, Seed: 3, RandomPlies: 2, TTLog2: 12}
	if err := Generate(cfg, path, nil); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(mustRead(t, path), "\n", 2)[0]; !strings.Contains(first, "variant=damone-all-damoni ") {
		t.Errorf("first line %q", first)
	}
	g, err := ReadGames(movegen.DamoneAllDamoni, path)
	if err != nil || len(g) != 6 {
		t.Fatalf("%d games, %v", len(g), err)
	}
	// The Damoni are kept: under this rule a side without any has lost, so
	// every recorded position has some (each side starts with one).
	for _, gm := range g {
		for _, smp := range gm.Positions {
			p := smp.Pos
			if p.Super&p.Pieces[movegen.White] == 0 || p.Super&p.Pieces[movegen.Black] == 0 || p.Super&^p.Kings != 0 {
				t.Fatalf("game %d: a position read back without its Damoni: %s", gm.Index, movegen.DamoneAllDamoni.FEN(&p))
			}
		}
	}
	// A version 1 file (no Damoni field) is refused by name.
	b := mustRead(t, path)
	v1 := filepath.Join(dir, "v1.games")
	os.WriteFile(v1, []byte(strings.Replace(b, "damaengine-games v2 ", "damaengine-games v1 ", 1)), 0o644)
	if _, err := ReadGames(movegen.DamoneAllDamoni, v1); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("a version 1 Damone file: %v", err)
	}
	// Damoni that are not kings are refused.
	p0 := g[0].Positions[0].Pos
	men := p0.Pieces[movegen.White] &^ p0.Kings
	bad := filepath.Join(dir, "bad.games")
	os.WriteFile(bad, []byte(fmt.Sprintf("%s\ng 0 0 %x:%x:%x:0:0:%x\n", strings.SplitN(b, "\n", 2)[0],
		p0.Pieces[movegen.White], p0.Pieces[movegen.Black], p0.Kings, men&-men)), 0o644)
	if _, err := ReadGames(movegen.DamoneAllDamoni, bad); err == nil || !strings.Contains(err.Error(), "must be kings") {
		t.Errorf("a Damone that is not a king: %v", err)
	}
	good := filepath.Join(dir, "good.games")
	os.WriteFile(good, []byte(fmt.Sprintf("%s\ng 0 0 %x:%x:%x:0:0:%x\n", strings.SplitN(b, "\n", 2)[0],
		p0.Pieces[movegen.White], p0.Pieces[movegen.Black], p0.Kings, p0.Super)), 0o644)
	if _, err := ReadGames(movegen.DamoneAllDamoni, good); err != nil {
		t.Errorf("the same line with its own Damoni: %v", err)
	}

	if _, err := ReadGames(movegen.Damone, path); err == nil {
		t.Error("Damone read an all-Damoni games file")
	}
	cfg.Variant = movegen.Damone
	dpath := filepath.Join(dir, "d.games")
	if err := Generate(cfg, dpath, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGames(movegen.DamoneAllDamoni, dpath); err == nil {
		t.Error("all-Damoni read a Damone games file")
	}
}

func TestReadGamesRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"other variant": "damaengine-games v1 variant=international nodes=1 seed=1 random-plies=0\n",
		"bad line":      "damaengine-games v1 variant=italian nodes=1 seed=1 random-plies=0\ng 0 5\n",
		"off board":     "damaengine-games v1 variant=italian nodes=1 seed=1 random-plies=0\ng 0 1 10:20:0:0:5\n",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := ReadGames(movegen.Italian, p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestRelabel scores the games of a file again: the same games and
// results, the positions Every picks, other scores than the shallow
// search's, the same bytes from two runs and from a run resumed after a
// torn line, and another source or other settings refused.
func TestRelabel(t *testing.T) {
	v := movegen.Italian
	dir := t.TempDir()
	src := filepath.Join(dir, "g.games")
	if err := Generate(GenConfig{Variant: v, Games: 3, Nodes: 100, Seed: 3, RandomPlies: 2, TTLog2: 12}, src, nil); err != nil {
		t.Fatal(err)
	}
	games, err := ReadGames(v, src)
	if err != nil {
		t.Fatal(err)
	}
	cfg := RelabelConfig{Variant: v, Nodes: 600, Every: 2, TTLog2: 12}
	out := filepath.Join(dir, "deep.games")
	calls := 0
	if err := Relabel(cfg, src, out, func(done, total, positions int, _ time.Duration) {
		calls++
		if total != 3 || done != calls || positions < 1 {
			t.Errorf("progress %d/%d, %d positions", done, total, positions)
		}
	}); err != nil {
		t.Fatal(err)
	}
	deep, err := ReadGames(v, out)
	if err != nil || len(deep) != len(games) {
		t.Fatalf("%d games, %v", len(deep), err)
	}
	changed := 0
	for i, g := range deep {
		if g.Index != games[i].Index || g.Result != games[i].Result {
			t.Errorf("game %d: index %d result %d, source %d %d", i, g.Index, g.Result, games[i].Index, games[i].Result)
		}
		var want []Sample
		for j, s := range games[i].Positions {
			if (j+g.Index)%2 == 0 {
				want = append(want, s)
			}
		}
		if len(g.Positions) != len(want) {
			t.Fatalf("game %d: %d positions, want %d", i, len(g.Positions), len(want))
		}
		for j, s := range g.Positions {
			if s.Pos != want[j].Pos {
				t.Fatalf("game %d position %d is not the source's", i, j)
			}
			if s.Score != want[j].Score {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Errorf("no score changed: the deeper search's scores were not written")
	}
	// Resumed after a torn line: the same bytes as one run.
	whole := mustRead(t, out)
	lines := strings.SplitAfter(whole, "\n")
	cut := strings.Join(lines[:2], "") + lines[2][:len(lines[2])/2]
	resumed := filepath.Join(dir, "resumed.games")
	if err := os.WriteFile(resumed, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Relabel(cfg, src, resumed, nil); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, resumed); got != whole {
		t.Errorf("resumed file differs from one run:\n%q\n%q", got, whole)
	}
	// Other settings, or another source, are not continued.
	cfg.Nodes = 700
	if err := Relabel(cfg, src, out, nil); err == nil {
		t.Errorf("a file of other label settings was continued")
	}
	cfg.Nodes = 600
	src2 := filepath.Join(dir, "g2.games")
	if err := Generate(GenConfig{Variant: v, Games: 1, Nodes: 100, Seed: 4, RandomPlies: 2, TTLog2: 12}, src2, nil); err != nil {
		t.Fatal(err)
	}
	if err := Relabel(cfg, src2, out, nil); err == nil {
		t.Errorf("a file relabelled from another source was continued")
	}
	if err := Relabel(RelabelConfig{Variant: v, Nodes: 600}, src, filepath.Join(dir, "x"), nil); err == nil {
		t.Errorf("every = 0 accepted")
	}
}
