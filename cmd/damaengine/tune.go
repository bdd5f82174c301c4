package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
	"github.com/damaengine/damaengine/tune"
)

const tuneSynopsis = `damaengine tune gen --variant V --out GAMES [--games N] [--nodes N] [--seed S] [--random-plies K] [--weights FILE]
       damaengine tune label --variant V --data GAMES --out GAMES2 [--nodes N] [--every K] [--weights FILE]
       damaengine tune fit --variant V --data GAMES --out WEIGHTS [--hidden H] [--epochs N] [--batch N] [--rate R] [--l2 X] [--lambda L] [--k K] [--checkpoint FILE] [--init WEIGHTS]`

// runTune answers "damaengine tune" without a step: self-play data (gen),
// optionally scored again by a deeper search (label), then the fit of the
// learned evaluation's weights (fit); progress on stderr.
func runTune(c *command, args []string) int {
	return c.noStep(args, "want gen, label or fit\nusage: "+c.synopsis, "unknown step %q: want gen, label or fit")
}

// tuneSteps are the steps of damaengine tune.
var tuneSteps = map[string]subcommand{
	"gen":   {tuneSynopsis, runTuneGen, nil},
	"label": {tuneSynopsis, runTuneLabel, nil},
	"fit":   {tuneSynopsis, runTuneFit, nil},
}

// progressLine prints a progress line on stderr at most every few seconds
// and at the end: done of total, the rate and the time left.
type progressLine struct {
	w    io.Writer
	what string
	last time.Time
}

func (p *progressLine) report(done, total int, el time.Duration, extra string) {
	if done < total && time.Since(p.last) < 5*time.Second {
		return
	}
	p.last = time.Now()
	rate := float64(done) / max(el.Seconds(), 1e-9)
	eta := time.Duration(float64(total-done) / max(rate, 1e-9) * float64(time.Second))
	fmt.Fprintf(p.w, "tune: %s %d/%d (%.1f%%), %.2f/s, ETA %s%s\n", p.what, done, total,
		100*float64(done)/float64(total), rate, eta.Round(time.Second), extra)
}

func runTuneGen(c *command, args []string) int {
	variant := c.rulesFlag()
	out := c.String("out", "", "games file (appended; a run continues one left by the same settings)")
	games := c.Int("games", 1000, "games in the file when done")
	nodes := c.Uint64("nodes", 2000, "nodes per move")
	seed := c.Uint64("seed", 1, "seed of the opening order and the random plies")
	rnd := c.Int("random-plies", 2, "random moves after each opening")
	weights := c.String("weights", "", "play with this weights file (a later generation)")
	v, rc, ok := c.parseRules(args, variant)
	if !ok {
		return rc
	}
	if *out == "" {
		return c.fail(2, "--out is required")
	}
	cfg := tune.GenConfig{Variant: v, Games: *games, Nodes: *nodes, Seed: *seed, RandomPlies: *rnd}
	if *weights != "" {
		if err := loadWeightsFile(v, *weights); err != nil {
			return c.fail(2, "%v", err)
		}
		cfg.Eval = search.EvalFunc(eval.Evaluate)
	} else {
		// The first generation plays the hand-written evaluation, whatever
		// weights are embedded, so its games do not change when they do.
		eval.HandWrittenOnly(v)
	}
	pl := &progressLine{w: c.stderr, what: "games"}
	err := tune.Generate(cfg, *out, func(done, total int, el time.Duration) { pl.report(done, total, el, "") })
	if err != nil {
		return c.fail(1, "%v", err)
	}
	return 0
}

// runTuneLabel scores the quiet positions of a games file again by a
// deeper search (tune.Relabel) into a new games file for tune fit.
func runTuneLabel(c *command, args []string) int {
	variant := c.rulesFlag()
	data := c.String("data", "", "games file made by tune gen")
	out := c.String("out", "", "games file to write (a run continues one left by the same settings and data)")
	nodes := c.Uint64("nodes", 10000, "nodes of each position's search")
	every := c.Int("every", 1, "search one quiet position in this many of each game (the others are left out)")
	weights := c.String("weights", "", "search with this weights file (default: the embedded weights)")
	v, rc, ok := c.parseRules(args, variant)
	if !ok {
		return rc
	}
	if *data == "" || *out == "" {
		return c.fail(2, "--data and --out are required")
	}
	if *nodes < 1 || *every < 1 {
		return c.fail(2, "--nodes and --every must be 1 or more")
	}
	cfg := tune.RelabelConfig{Variant: v, Nodes: *nodes, Every: *every}
	if *weights != "" {
		if err := loadWeightsFile(v, *weights); err != nil {
			return c.fail(2, "%v", err)
		}
	}
	pl := &progressLine{w: c.stderr, what: "games"}
	err := tune.Relabel(cfg, *data, *out, func(done, total, positions int, el time.Duration) {
		pl.report(done, total, el, fmt.Sprintf(", %d positions searched (%.0f/s)", positions, float64(positions)/max(el.Seconds(), 1e-9)))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	return 0
}

// loadWeightsFile loads a weights file for v.
func loadWeightsFile(v *movegen.Variant, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := eval.LoadWeights(v, bytes.NewReader(b)); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func runTuneFit(c *command, args []string) int {
	variant := c.rulesFlag()
	data := c.String("data", "", "games file made by tune gen")
	out := c.String("out", "", "weights file to write")
	hidden := c.Int("hidden", 0, "fit a network of H hidden units (16, 32, 48 or 64) instead of the linear correction")
	epochs := c.Int("epochs", 0, "passes over the data (0: 4 for the linear correction, 6 for a network)")
	batch := c.Int("batch", 0, "positions per Adam step (0: 1024 for the linear correction, 256 for a network)")
	rate := c.Float64("rate", 0, "Adam step size (0: 4 weight units, 1/4 centi-man each, for the linear correction; 0.001 for a network)")
	l2 := c.Float64("l2", 1e-10, "L2 penalty per weight (on the mean loss, weights in 1/4 centi-man)")
	lambda := c.Float64("lambda", 0, "weight of the game result in the label (the rest: the search score)")
	kScale := c.Float64("k", 0, "scale K of the win probability, in centi-men (0: fitted to the game results)")
	ckpt := c.String("checkpoint", "", "checkpoint file (default OUT.ckpt); a fit continues from it")
	initFile := c.String("init", "", "weights file a new fit starts from (default: zero, the hand-written evaluation alone)")
	v, rc, ok := c.parseRules(args, variant)
	if !ok {
		return rc
	}
	if *data == "" || *out == "" {
		return c.fail(2, "--data and --out are required")
	}
	if *kScale < 0 {
		return c.fail(2, "--k must be 0 (fitted) or more")
	}
	if *epochs < 0 || *batch < 0 || *rate < 0 {
		return c.fail(2, "--epochs, --batch and --rate must be 0 (the default) or more")
	}
	net := *hidden != 0
	if net {
		if err := eval.CheckNetHidden(*hidden); err != nil {
			return c.fail(2, "--hidden: %v (or 0: the linear correction)", err)
		}
	}
	if net && (*initFile != "" || *ckpt != "") {
		return c.fail(2, "--init and --checkpoint are for the linear correction, not with --hidden")
	}
	if net && eval.NetSquares(v) == 0 {
		return c.fail(2, "%v has no network layout", v)
	}
	def := func(x *int, lin, nn int) {
		if *x == 0 {
			*x = lin
			if net {
				*x = nn
			}
		}
	}
	def(epochs, 4, 6)
	def(batch, 1024, 256)
	if *rate == 0 {
		*rate = 4
		if net {
			*rate = 0.001
		}
	}
	nf := eval.FeatureCount(v)
	if nf == 0 {
		return c.fail(2, "%v has no learned evaluation layout", v)
	}
	if *ckpt == "" && !net {
		*ckpt = *out + ".ckpt"
	}
	var init []float64
	if *initFile != "" {
		f, err := os.Open(*initFile)
		if err != nil {
			return c.fail(1, "--init: %v", err)
		}
		raw, err := eval.ReadWeights(v, f)
		f.Close()
		if err != nil {
			return c.fail(1, "--init %s: %v", *initFile, err)
		}
		init = make([]float64, len(raw))
		for i, x := range raw {
			init[i] = float64(x)
		}
	}
	t0 := time.Now()
	games, err := tune.ReadGames(v, *data)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	eval.HandWrittenOnly(v) // the base of every row is the hand-written evaluation
	raw := tune.BuildSet(v, games, tune.LabelConfig{Lambda: 1})
	k := tune.FitK(raw, 20, 2000)
	if *kScale > 0 {
		fmt.Fprintf(c.stderr, "tune: K fitted to the game results %.1f, using --k %.1f\n", k, *kScale)
		k = *kScale
	}
	lab := tune.LabelConfig{Lambda: *lambda, K: k, Skip: 10}
	if net {
		return fitNet(c, v, games, lab, tune.NetConfig{Inputs: eval.NetKinds * eval.NetSquares(v), Hidden: *hidden,
			K: k, Epochs: *epochs, Batch: *batch, Rate: *rate, Seed: 1}, *out, t0)
	}
	train := tune.BuildSet(v, games, lab)
	lab.Keep = true
	valid := tune.BuildSet(v, games, lab)
	fmt.Fprintf(c.stderr, "tune: %d games, %d training and %d validation positions, K=%.1f, read in %s\n",
		len(games), train.Rows(), valid.Rows(), k, time.Since(t0).Round(time.Millisecond))
	fmt.Fprintf(c.stderr, "tune: hand-written alone: loss %.5f (training) %.5f (validation)\n",
		tune.Loss(train, nil, k), tune.Loss(valid, nil, k))
	if init != nil {
		fmt.Fprintf(c.stderr, "tune: the --init weights: loss %.5f (training) %.5f (validation)\n",
			tune.Loss(train, init, k), tune.Loss(valid, init, k))
	}
	cfg := tune.FitConfig{Features: nf, K: k, Epochs: *epochs, Batch: *batch, Rate: *rate, L2: *l2, Seed: 1, Checkpoint: *ckpt, Init: init}
	st, err := tune.Fit(cfg, train, valid, func(p tune.Progress) {
		fmt.Fprintf(c.stderr, "tune: epoch %d/%d, loss %.5f, validation %.5f, %s elapsed, ETA %s\n",
			p.Epoch, p.Epochs, p.Loss, p.Valid, p.Elapsed.Round(time.Second), p.Remain.Round(time.Second))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	if err := eval.WriteWeights(f, v, tune.Quantize(st.W)); err != nil {
		f.Close()
		return c.fail(1, "%v", err)
	}
	if err := f.Close(); err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: wrote %s\n", *out)
	return 0
}

// fitNet is tune fit --hidden: the network fit of games labelled by lab,
// written to out.
func fitNet(c *command, v *movegen.Variant, games []tune.Game, lab tune.LabelConfig, cfg tune.NetConfig, out string, t0 time.Time) int {
	train := tune.BuildNetSet(v, games, lab)
	lab.Keep = true
	valid := tune.BuildNetSet(v, games, lab)
	fmt.Fprintf(c.stderr, "tune: %d games, %d training and %d validation positions, K=%.1f, %d hidden units, read in %s\n",
		len(games), train.Rows(), valid.Rows(), cfg.K, cfg.Hidden, time.Since(t0).Round(time.Millisecond))
	fmt.Fprintf(c.stderr, "tune: hand-written alone: loss %.5f (training) %.5f (validation)\n",
		tune.NetLoss(train, nil, cfg.K), tune.NetLoss(valid, nil, cfg.K))
	st, err := tune.FitNet(cfg, train, valid, func(p tune.Progress) {
		fmt.Fprintf(c.stderr, "tune: epoch %d/%d, loss %.5f, validation %.5f, %s elapsed, ETA %s\n",
			p.Epoch, p.Epochs, p.Loss, p.Valid, p.Elapsed.Round(time.Second), p.Remain.Round(time.Second))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	f, err := os.Create(out)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	if err := eval.WriteNet(f, v, st.Quantize()); err != nil {
		f.Close()
		return c.fail(1, "%v", err)
	}
	if err := f.Close(); err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: wrote %s\n", out)
	return 0
}
