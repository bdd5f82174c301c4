package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
	"github.com/damaengine/damaengine/tune"
)

const tuneSynopsis = `damaengine tune gen --variant V --out GAMES [--games N] [--nodes N] [--seed S] [--random-plies K] [--random-moves P] [--weights FILE]
       damaengine tune gen --format positions --variant V [--out PART] [--shard K/N] [--games N] [--nodes N] [--seed S] [--random-plies K] [--random-moves P] [--sparse P | --starts FILE.pos [--start-pieces LO-HI]] [--weights FILE]
       damaengine tune merge --out FILE [--egdb-path DIR] [--future N] PART...
       damaengine tune fit --variant V --data FILE.pos --hidden H --out WEIGHTS [--tempo] [--threats] [--buckets B] [--epochs N] [--rate R] [--lambda L] [--limit N] [--threads T] [--init NETWORK] [--valid FILE.pos] [--patterns WEIGHTS] [--batch N] [--k K] [--checkpoint FILE]
       damaengine tune patterns --data FILE.pos --out WEIGHTS [--epochs N] [--rate R] [--lambda L] [--limit N] [--batch N] [--seed S] [--eval-file NETWORK] [--valid FILE.pos] [--k K] [--shape 4x4|4x6|4x6c] [--keep]
       damaengine tune label --variant V --data GAMES --out GAMES2 [--nodes N] [--every K] [--weights FILE]
       damaengine tune stats FILE.pos...
       damaengine tune loss --data FILE.pos [--eval-file WEIGHTS] [--lambda L,...] [--k K] [--limit N]
       damaengine tune fit --variant V --data GAMES --out WEIGHTS [--hidden H] [--epochs N] [--batch N] [--rate R] [--l2 X] [--lambda L] [--k K] [--checkpoint FILE] [--init WEIGHTS]`

// runTune answers "damaengine tune" without a step: self-play data (gen),
// optionally scored again by a deeper search (label), then the fit of the
// learned evaluation's weights (fit); progress on stderr.
func runTune(c *command, args []string) int {
	return c.noStep(args, "want gen, merge, label, fit, patterns, stats or loss\nusage: "+c.synopsis, "unknown step %q: want gen, merge, label, fit, patterns, stats or loss")
}

// tuneSteps are the steps of damaengine tune.
var tuneSteps = map[string]subcommand{
	"gen":      {tuneSynopsis, runTuneGen, nil},
	"merge":    {tuneSynopsis, runTuneMerge, nil},
	"label":    {tuneSynopsis, runTuneLabel, nil},
	"fit":      {tuneSynopsis, runTuneFit, nil},
	"patterns": {tuneSynopsis, runTunePatterns, nil},
	"stats":    {tuneSynopsis, runTuneStats, nil},
	"loss":     {tuneSynopsis, runTuneLoss, nil},
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
	rndMoves := c.Int("random-moves", 0, fmt.Sprintf("per cent of the engine's later moves replaced by a random legal move (0 to %d)", tune.MaxRandomMoves))
	weights := c.String("weights", "", "play with this weights file (a later generation)")
	format := c.String("format", "games", "games (a text games file, for tune fit without --hidden) or positions (binary records at scale, sharded)")
	shard := c.String("shard", "1/1", "with --format positions: make part K of N (K = 1..N) of the games")
	sparse := c.Int("sparse", 0, "with --format positions: start each game from a random ending of 3 to P pieces, not an opening (0: openings)")
	starts := c.String("starts", "", "with --format positions: start each game from a position of this positions file (those of --start-pieces), not an opening")
	startPieces := c.String("start-pieces", "10-16", "with --starts: the pieces on the board of the positions games start from, LO-HI")
	v, rc, ok := c.parseRules(args, variant)
	if !ok {
		return rc
	}
	if *starts == "" {
		given := false
		c.Visit(func(f *flag.Flag) { given = given || f.Name == "start-pieces" })
		if given {
			return c.fail(2, "--start-pieces without --starts: it says which of a file's positions games start from")
		}
	}
	if *rndMoves < 0 || *rndMoves > tune.MaxRandomMoves {
		return c.fail(2, "--random-moves %d: want 0 to %d per cent", *rndMoves, tune.MaxRandomMoves)
	}
	switch *format {
	case "games":
	case "positions":
		return genPositions(c, v, *out, *shard, *games, *nodes, *seed, *rnd, *rndMoves, *sparse, *weights, *starts, *startPieces)
	default:
		return c.fail(2, "--format %q: want games or positions", *format)
	}
	if *out == "" {
		return c.fail(2, "--out is required")
	}
	cfg := tune.GenConfig{Variant: v, Games: *games, Nodes: *nodes, Seed: *seed, RandomPlies: *rnd, RandomMoves: *rndMoves}
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
	hidden := c.Int("hidden", 0, "fit a network of H hidden units (a multiple of 16 from 16 to 256) instead of the linear correction")
	epochs := c.Int("epochs", 0, "passes over the data (0: 4 for the linear correction, 6 for a network)")
	batch := c.Int("batch", 0, "positions per Adam step (0: 1024 for the linear correction, 256 for a network)")
	rate := c.Float64("rate", 0, "Adam step size (0: 4 weight units, 1/4 centi-man each, for the linear correction; 0.001 for a network)")
	l2 := c.Float64("l2", 1e-10, "L2 penalty per weight (on the mean loss, weights in 1/4 centi-man)")
	lambda := c.Float64("lambda", 0, "weight of the game result in the label (the rest: the search score)")
	kScale := c.Float64("k", 0, "scale K of the win probability, in centi-men (0: fitted to the game results)")
	ckpt := c.String("checkpoint", "", "checkpoint file (default OUT.ckpt); a fit continues from it")
	initFile := c.String("init", "", "weights file a new fit starts from (default: zero, the hand-written evaluation alone; with a positions file, a network of the fit's size)")
	limit := c.Int64("limit", 0, "positions file: fit on its first N records only (0: all)")
	patFile := c.String("patterns", "", "positions file: a weights file with pattern tables (tune patterns) whose tables are kept as they are, added to the base the network is fitted over, and written with it")
	validFile := c.String("valid", "", "positions file: validate on this file of other games (another shard or seed) and train on the whole of --data (default: the positions a hash holds out of --data, which share their games with training rows)")
	threads := c.Int("threads", 0, "positions file: goroutines of the gradient (0: every core)")
	tempo := c.Bool("tempo", false, "positions file: fit tempo weights too (the network learns whose move it is)")
	threats := c.Bool("threats", false, "positions file: a network with threat inputs (where each side could capture, and what its captures take); from an --init network without them, their weights start at zero")
	buckets := c.Int("buckets", 1, "positions file: output buckets, one set of output weights for each range of the piece count (1 to 8)")
	v, rc, ok := c.parseRules(args, variant)
	if !ok {
		return rc
	}
	if *data == "" || *out == "" {
		return c.fail(2, "--data and --out are required")
	}
	if isPositionsFile(*data) {
		cfg := tune.StreamConfig{Hidden: *hidden, Tempo: *tempo, Threats: *threats, Buckets: *buckets, K: *kScale, Lambda: *lambda, Epochs: *epochs,
			Batch: *batch, Rate: *rate, Seed: 1, Limit: *limit, Threads: *threads, Checkpoint: *ckpt, Valid: *validFile}
		if *patFile != "" {
			err := readInit(*patFile, func(r io.Reader) error {
				nw, err := eval.ReadNet(v, r)
				if err == nil && nw.Pats == nil {
					err = errors.New("no pattern tables in it")
				}
				if err == nil {
					cfg.Patterns = nw.Pats
				}
				return err
			})
			if err != nil {
				return c.fail(2, "--patterns %s: %v", *patFile, err)
			}
		}
		if *initFile != "" {
			err := readInit(*initFile, func(r io.Reader) error {
				nw, err := eval.ReadNet(v, r)
				if err == nil {
					cfg.Init = tune.NetStateOf(*nw)
				}
				return err
			})
			if err != nil {
				return c.fail(1, "%v", err)
			}
		}
		return fitStream(c, v, *data, *out, cfg)
	}
	if *threats {
		return c.fail(2, "--threats is for a positions file (tune merge), not a games file")
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
		err := readInit(*initFile, func(r io.Reader) error {
			raw, err := eval.ReadWeights(v, r)
			if err != nil {
				return err
			}
			init = make([]float64, len(raw))
			for i, x := range raw {
				init[i] = float64(x)
			}
			return nil
		})
		if err != nil {
			return c.fail(1, "%v", err)
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
		return fitNet(c, v, games, lab, tune.NetConfig{Inputs: eval.NetInputKinds(v) * eval.NetSquares(v), Hidden: *hidden,
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
	return writeNetFile(c, v, st, nil, out)
}

// positionsDir returns where positions files go by default:
// damaengine/positions in the user's cache directory.
func positionsDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (give --out): %v", err)
	}
	return filepath.Join(d, "damaengine", "positions"), nil
}

// parseShard parses --shard K/N.
func parseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %q: want K/N with 1 ≤ K ≤ N (e.g. 3/8)", s)
	}
	return k, n, nil
}

// genPositions is tune gen --format positions: one shard's part file of
// labelled quiet positions (tune.GeneratePositions).
func genPositions(c *command, v *movegen.Variant, out, shard string, games int, nodes, seed uint64, rnd, rndMoves, sparse int, weights, starts, startPieces string) int {
	k, n, err := parseShard(shard)
	if err != nil {
		return c.fail(2, "%v", err)
	}
	if games < 1 || nodes < 1 || rnd < 0 {
		return c.fail(2, "--games and --nodes must be 1 or more, --random-plies 0 or more")
	}
	if sparse != 0 && (sparse < tune.MinSparse || sparse > tune.MaxSparse) {
		return c.fail(2, "--sparse %d: want 0 (openings) or %d to %d pieces", sparse, tune.MinSparse, tune.MaxSparse)
	}
	cfg := tune.PosGenConfig{GenConfig: tune.GenConfig{Variant: v, Games: games, Nodes: nodes, Seed: seed, RandomPlies: rnd, RandomMoves: rndMoves, Jitter: true},
		Shard: k, Shards: n, EvalName: "embedded", Sparse: sparse}
	lo, hi := 0, 0
	if starts != "" {
		if sparse != 0 {
			return c.fail(2, "--sparse and --starts: games start from random endings or from a file's positions, not both")
		}
		if _, err := fmt.Sscanf(startPieces, "%d-%d", &lo, &hi); err != nil || lo < 2 || hi < lo || fmt.Sprintf("%d-%d", lo, hi) != startPieces {
			return c.fail(2, "--start-pieces %q: want LO-HI pieces, 2 ≤ LO ≤ HI (say 10-16)", startPieces)
		}
		if cfg.Starts, cfg.StartsName, err = tune.LoadStarts(starts, v, lo, hi); err != nil {
			return c.fail(2, "--starts: %v", err)
		}
	}
	switch {
	case weights == "hand":
		eval.HandWrittenOnly(v)
		cfg.EvalName = "hand"
	case weights != "":
		if err := loadWeightsFile(v, weights); err != nil {
			return c.fail(2, "%v", err)
		}
		cfg.EvalName = filepath.Base(weights)
	}
	cfg.Eval = search.EvalFunc(eval.Evaluate)
	if out == "" {
		dir, err := positionsDir()
		if err != nil {
			return c.fail(2, "%v", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return c.fail(1, "%v", err)
		}
		kind := ""
		if sparse > 0 {
			kind = fmt.Sprintf("-sparse%d", sparse)
		}
		if starts != "" {
			kind = fmt.Sprintf("-starts%d-%d", lo, hi)
		}
		if rndMoves > 0 {
			kind += fmt.Sprintf("-random%d", rndMoves)
		}
		out = filepath.Join(dir, fmt.Sprintf("%s%s-s%d-g%d-n%d-%dof%d.part", v.RulesName(), kind, seed, games, nodes, k, n))
	}
	fmt.Fprintf(c.stderr, "tune: shard %d/%d of %d games into %s\n", k, n, games, out)
	last := time.Time{}
	err = tune.GeneratePositions(cfg, out, func(p tune.PosProgress) {
		if p.Games < p.Total && time.Since(last) < 10*time.Second {
			return
		}
		last = time.Now()
		// games left at this run's rate of games (a resumed part's
		// earlier games took none of this run's time)
		gps := float64(p.Games-p.StartGames) / max(p.Elapsed.Seconds(), 1e-9)
		eta := time.Duration(0)
		if p.Games > p.StartGames {
			eta = time.Duration(float64(p.Total-p.Games) / max(gps, 1e-9) * float64(time.Second))
		}
		fmt.Fprintf(c.stderr, "tune: games %d/%d (%.1f%%), %d positions, %.0f positions/s, ETA %s%s\n", p.Games, p.Total,
			100*float64(p.Games)/float64(p.Total), p.Positions, p.Rate, eta.Round(time.Second), skippedNote(p.Skipped))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: wrote %s\n", out)
	return 0
}

func skippedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d positions no record holds (skipped)", n)
}

// runTuneMerge joins part files into one de-duplicated positions file.
func runTuneMerge(c *command, args []string) int {
	out := c.String("out", "", "merged positions file to write")
	tables := c.String("egdb-path", "", "endgame tables' directory: the positions they hold take their exact value as labels (result, and a score of ±2046 or 0)")
	future := c.Int("future", 0, "replace each search score by the mean of it and the next N positions' scores of the same game (0: the scores as searched)")
	if rc, ok := c.parseWithArgs(args); !ok {
		return rc
	}
	if *out == "" || c.NArg() == 0 {
		return c.fail(2, "--out and at least one part file are required")
	}
	if *future < 0 || *future > 1000 {
		return c.fail(2, "--future %d: want 0 to 1000 positions", *future)
	}
	t0 := time.Now()
	var relabel func(r *tune.Record) bool
	if *tables != "" {
		pr, err := tune.OpenPositions(c.Arg(0))
		if err != nil {
			return c.fail(1, "%v", err)
		}
		v := pr.Header.Variant
		pr.Close()
		if !egdb.Supported(v) {
			return c.fail(2, "--egdb-path: %s has no endgame tables", v.RulesName())
		}
		db, n, err := loadTables(256, v, *tables)
		if err != nil {
			return c.fail(1, "--egdb-path %s: %v", *tables, err)
		}
		defer db.Close()
		fmt.Fprintf(c.stderr, "tune: %s tables of up to %d pieces from %s\n", v.RulesName(), n, *tables)
		relabel = func(r *tune.Record) bool { return tableLabel(db, v, r) }
	}
	st, err := tune.Merge(*out, c.Args(), relabel, *future)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: merged %d records of %d parts into %d distinct positions (%d duplicates%s) in %s: %s\n",
		st.Read, c.NArg(), st.Written, st.Duplicates, tablesNote(relabel != nil, st.Relabelled), time.Since(t0).Round(time.Millisecond), *out)
	return 0
}

// runTuneStats prints, for each positions file named, its header and a
// table of its records by the pieces on the board: how many, how many of
// them with kings, and how many with a capture pending for the side not
// to move. A training set's make-up is read here before a fit, not
// guessed.
func runTuneStats(c *command, args []string) int {
	if rc, ok := c.parseWithArgs(args); !ok {
		return rc
	}
	if c.NArg() == 0 {
		return c.fail(2, "at least one positions file is required")
	}
	for _, path := range c.Args() {
		st, err := tune.Stats(path)
		if err != nil {
			return c.fail(1, "%v", err)
		}
		pct := func(a, b int64) float64 { return 100 * float64(a) / float64(max(b, 1)) }
		fmt.Fprintf(c.stdout, "%s: %s\n%d records\npieces  records   share  with kings  capture pending\n", path, st.Header, st.Records)
		for n, b := range st.ByPieces {
			if b.Records == 0 {
				continue
			}
			fmt.Fprintf(c.stdout, "%6d %8d %6.1f%% %10.1f%% %15.1f%%\n", n, b.Records, pct(b.Records, st.Records), pct(b.WithKings, b.Records), pct(b.Threatened, b.Records))
		}
	}
	return 0
}

// positionsEval returns the variant of the positions file data and, when
// evalFile is set, puts that weights file's evaluation in use for it until
// the function returned is called (the caller defers it); on an error it
// reports it and returns the exit code, ok false.
func (c *command) positionsEval(data, evalFile string) (v *movegen.Variant, reset func(), rc int, ok bool) {
	pr, err := tune.OpenPositions(data)
	if err != nil {
		return nil, nil, c.fail(1, "%v", err), false
	}
	v = pr.Header.Variant
	pr.Close()
	if evalFile == "" {
		return v, func() {}, 0, true
	}
	if err := loadWeightsFile(v, evalFile); err != nil {
		return nil, nil, c.fail(1, "--eval-file %v", err), false
	}
	return v, func() { eval.ResetWeights(v) }, 0, true
}

// runTuneLoss prints the loss of an evaluation (the embedded one, or
// --eval-file's) on a positions file, for each label weight asked: a
// comparison of weights files on other games by what they predict.
func runTuneLoss(c *command, args []string) int {
	data := c.String("data", "", "positions file (tune merge): another shard's games, which no file compared has seen")
	evalFile := c.String("eval-file", "", "weights file of the evaluation (default: the embedded one)")
	lambdas := c.String("lambda", "1,0.5,0", "label weights, comma-separated: 1 the game's result alone, 0 the search's score alone")
	kScale := c.Float64("k", 0, "scale of the win probability, centi-men (0: fitted to the results)")
	limit := c.Int64("limit", 200000, "use only the file's first N records (0: all)")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *data == "" {
		return c.fail(2, "--data is required")
	}
	var ls []float64
	for _, f := range strings.Split(*lambdas, ",") {
		l, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || l < 0 || l > 1 {
			return c.fail(2, "--lambda: %q, want numbers from 0 to 1 separated by commas", f)
		}
		ls = append(ls, l)
	}
	if *kScale < 0 || *limit < 0 {
		return c.fail(2, "--k and --limit must be 0 or more")
	}
	_, reset, rc, ok := c.positionsEval(*data, *evalFile)
	if !ok {
		return rc
	}
	defer reset()
	losses, n, k, err := tune.FileLoss(*data, ls, *kScale, *limit)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	name := *evalFile
	if name == "" {
		name = "embedded"
	}
	fmt.Fprintf(c.stdout, "%s on %s: %d positions, K %.1f\n", name, *data, n, k)
	for i, l := range ls {
		fmt.Fprintf(c.stdout, "lambda %g: loss %.5f\n", l, losses[i])
	}
	return 0
}

// tableLabel gives r the tables' value when they hold its position: the
// result for White, and a score for White of ±2046 (the largest a record
// holds) for a win or a loss, 0 for a draw, so that the label is the same
// whatever --lambda weighs it with.
func tableLabel(db *egdb.DB, v *movegen.Variant, r *tune.Record) bool {
	w, ok := db.Probe(v, &r.Pos)
	if !ok {
		return false
	}
	res := int(w)
	if r.Pos.Side == movegen.Black {
		res = -res
	}
	r.Result, r.Score = res, res*tune.MaxLabelScore
	return true
}

func tablesNote(on bool, n int64) string {
	if !on {
		return ""
	}
	return fmt.Sprintf("; %d labelled by the tables", n)
}

// readInit opens the --init weights file at path and hands it to read;
// the error names the flag, and the file when reading it failed.
func readInit(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--init: %v", err)
	}
	defer f.Close()
	if err := read(f); err != nil {
		return fmt.Errorf("--init %s: %v", path, err)
	}
	return nil
}

// isPositionsFile says whether the file at path starts as a positions file
// (tune gen --format positions, tune merge) rather than a games file.
func isPositionsFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len("damaengine-positions"))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == "damaengine-positions"
}

// fitStream is tune fit on a positions file: the streaming network fit
// (tune.FitNetStream), written to out as a network weights file.
func fitStream(c *command, v *movegen.Variant, data, out string, cfg tune.StreamConfig) int {
	if cfg.Hidden == 0 {
		return c.fail(2, "a positions file fits a network: give --hidden (16 to 256, a multiple of 16)")
	}
	if err := eval.CheckNetHidden(cfg.Hidden); err != nil {
		return c.fail(2, "--hidden: %v", err)
	}
	if cfg.Buckets < 1 || cfg.Buckets > eval.MaxNetBuckets {
		return c.fail(2, "--buckets: %d, want 1 to %d", cfg.Buckets, eval.MaxNetBuckets)
	}
	if cfg.K < 0 || cfg.Epochs < 0 || cfg.Batch < 0 || cfg.Rate < 0 || cfg.Limit < 0 || cfg.Threads < 0 {
		return c.fail(2, "--k, --epochs, --batch, --rate, --limit and --threads must be 0 (the default) or more")
	}
	if cfg.Epochs == 0 {
		cfg.Epochs = 4
	}
	if cfg.Batch == 0 {
		cfg.Batch = 1024
	}
	if cfg.Rate == 0 {
		cfg.Rate = 0.002
	}
	if cfg.Checkpoint == "" {
		cfg.Checkpoint = out + ".ckpt"
	}
	pr, err := tune.OpenPositions(data)
	if err != nil {
		return c.fail(2, "%v", err)
	}
	pv, n := pr.Header.Variant, pr.Len()
	pr.Close()
	if pv != v {
		return c.fail(2, "%s holds %s positions, not %s", data, pv.RulesName(), v.RulesName())
	}
	used := n
	if cfg.Limit > 0 && cfg.Limit < n {
		used = cfg.Limit
	}
	heads := ""
	if cfg.Buckets > 1 {
		heads = fmt.Sprintf(", %d output buckets", cfg.Buckets)
	}
	fmt.Fprintf(c.stderr, "tune: %s: %d positions (%d used), %d hidden units%s, %d epochs of batches of %d\n", data, n,
		used, cfg.Hidden, heads, cfg.Epochs, cfg.Batch)
	st, k, err := tune.FitNetStream(cfg, data, func(p tune.StreamProgress) {
		if p.Epoch == 0 {
			base := "hand-written alone"
			if cfg.Patterns != nil {
				base = "hand-written and the tables"
			}
			fmt.Fprintf(c.stderr, "tune: K=%.1f, %d validation positions, %s: validation loss %.5f\n", p.K, p.ValidRows, base, p.Valid)
			switch {
			case p.Resumed > 0 && cfg.Init != nil:
				fmt.Fprintf(c.stderr, "tune: continuing the fit in %s after epoch %d of %d (from where that fit began: --init is not read again)\n", cfg.Checkpoint, p.Resumed, p.Epochs)
			case p.Resumed > 0:
				fmt.Fprintf(c.stderr, "tune: continuing the fit in %s after epoch %d of %d\n", cfg.Checkpoint, p.Resumed, p.Epochs)
			case cfg.Init != nil:
				fmt.Fprintf(c.stderr, "tune: the --init network: validation loss %.5f\n", p.InitValid)
			}
			return
		}
		fmt.Fprintf(c.stderr, "tune: epoch %d/%d, loss %.5f, validation %.5f, %d rows, %s elapsed, ETA %s\n",
			p.Epoch, p.Epochs, p.Loss, p.Valid, p.Rows, p.Elapsed.Round(time.Second), p.Remain.Round(time.Second))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: K=%.1f\n", k)
	return writeNetFile(c, v, st, cfg.Patterns, out)
}

// writeNetFile writes the fitted network st, with the sets of pattern
// tables pats (none: no tables), as v's weights file out.
func writeNetFile(c *command, v *movegen.Variant, st *tune.NetState, pats []eval.PatSet, out string) int {
	f, err := os.Create(out)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	nw := st.Quantize()
	nw.Pats = pats
	if err := eval.WriteNet(f, v, nw); err != nil {
		f.Close()
		return c.fail(1, "%v", err)
	}
	if err := f.Close(); err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stderr, "tune: wrote %s\n", out)
	return 0
}

// runTunePatterns fits pattern tables (eval/pattern.go) over the network
// in use for the positions file's variant (the embedded one, or that of
// --eval-file) and writes the two as one weights file (version 5, or 6
// for the 4 x 6 shapes). The network's own tables are replaced, or with
// --keep those of other shapes kept under the new set and written beside
// it (version 7): a second set, or a set fitted again over the others.
func runTunePatterns(c *command, args []string) int {
	data := c.String("data", "", "positions file (tune merge)")
	out := c.String("out", "", "weights file to write: the network with the tables")
	epochs := c.Int("epochs", 4, "passes over the data")
	batch := c.Int("batch", 1024, "rows a step")
	rate := c.Float64("rate", 1, "Adam's step, centi-men (decays linearly to a tenth)")
	lambda := c.Float64("lambda", 0.5, "weight of the game result in the target; the rest the search score")
	limit := c.Int64("limit", 0, "use only the file's first N records (0: all)")
	seed := c.Uint64("seed", 1, "seed of the order of the rows")
	evalFile := c.String("eval-file", "", "weights file of the evaluation the tables go over (default: the embedded one)")
	validFile := c.String("valid", "", "positions file of other games to validate on (default: the data's positions a hash holds out)")
	kScale := c.Float64("k", 0, "scale of the win probability, centi-men (0: fitted to the results)")
	shapeName := c.String("shape", "4x4", "the windows: 4x4 (every file and rank), 4x6 (4 files by 6 ranks at every other file, at the board's two edges) or 4x6c (the same in the middle six ranks)")
	keep := c.Bool("keep", false, "keep the network's tables of other shapes in the base and in the file, beside the new set (which replaces a set of its own shape); default: the new set replaces every one")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *data == "" || *out == "" {
		return c.fail(2, "--data and --out are required")
	}
	shape, err := eval.ParsePatShape(*shapeName)
	if err != nil {
		return c.fail(2, "--shape: %v", err)
	}
	v, reset, rc, ok := c.positionsEval(*data, *evalFile)
	if !ok {
		return rc
	}
	defer reset()
	notNet := func() int {
		return c.fail(2, "%s's evaluation in use is not a network: the tables go over one (--eval-file NETWORK)", v.RulesName())
	}
	n := eval.ActiveNet(v)
	var kept []eval.PatSet
	if *keep {
		if n == nil {
			return notNet()
		}
		kept = n.Weights().Pats
	}
	cfg := tune.PatConfig{K: *kScale, Lambda: *lambda, Epochs: *epochs, Batch: *batch, Rate: *rate, Seed: *seed, Limit: *limit, Valid: *validFile, Shape: shape, Keep: *keep}
	w, _, err := tune.FitPatterns(cfg, *data, func(p tune.PatProgress) {
		if p.Epoch == 0 {
			var others []string
			for _, ps := range kept {
				if ps.Shape != shape {
					others = append(others, ps.Shape.String())
				}
			}
			under := "without them"
			if others != nil {
				under = "with the network's " + strings.Join(others, " and ")
			}
			fmt.Fprintf(c.stderr, "tune: %s patterns over %d windows of %v, K %.1f, validation loss %s %.5f (%d rows)\n",
				v.RulesName(), eval.PatternWindows(v, shape), shape, p.K, under, p.Valid, p.ValidRows)
			return
		}
		fmt.Fprintf(c.stderr, "tune: epoch %d/%d: training %.5f, validation %.5f (%d rows, %s)\n",
			p.Epoch, p.Epochs, p.Loss, p.Valid, p.Rows, p.Elapsed.Round(time.Second))
	})
	if err != nil {
		return c.fail(1, "%v", err)
	}
	if n == nil {
		return notNet()
	}
	nw := n.Weights()
	nw.Pats = nil
	fitted := eval.PatSet{Shape: shape, W: w}
	for _, ps := range kept {
		if ps.Shape == shape {
			ps, fitted.W = fitted, nil // in the place of the set it replaces
		}
		nw.Pats = append(nw.Pats, ps)
	}
	if fitted.W != nil {
		nw.Pats = append(nw.Pats, fitted)
	}
	var b bytes.Buffer
	if err := eval.WriteNet(&b, v, nw); err != nil {
		return c.fail(1, "%v", err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return c.fail(1, "%v", err)
	}
	return 0
}
