package tune

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// GenConfig configures self-play data generation.
type GenConfig struct {
	Variant     *movegen.Variant
	Games       int    // games in the file when done
	Nodes       uint64 // nodes per move
	Seed        uint64 // the seed of the random plies
	RandomPlies int    // uniformly random moves played after the opening
	// RandomMoves, when above 0 (at most MaxRandomMoves), is the percentage
	// of the engine's later moves replaced by a uniformly random legal
	// move, drawn after the search (whose position and score are recorded
	// as usual): the game goes on from a position good play seldom
	// reaches but a search tree meets at every other node, so that the
	// positions after it, searched and recorded in turn, teach the
	// evaluation the lopsided positions it must score inside the tree.
	RandomMoves int
	TTLog2      int // log2 of the table entries (0: 18)
	// Eval, if not nil, replaces the default evaluation of the players
	// (a later generation plays with its newly fitted weights).
	Eval search.EvalFunc
	// Jitter draws each search's node budget uniformly from [Nodes/2,
	// 3·Nodes/2] (seeded with the random plies), so that games from the
	// same start still part ways: positions at scale (GeneratePositions)
	// need far more distinct games than openings × random plies give.
	Jitter bool
}

// Generate plays games Index = done .. cfg.Games-1 and appends each, as one
// line, to the games file at path, creating it when missing; a file left
// by an interrupted run (same configuration) is continued: complete lines
// are kept, a torn last line is cut off. progress, if not nil, is called
// after each game with the games in the file and the time spent.
func Generate(cfg GenConfig, path string, progress func(done, total int, elapsed time.Duration)) error {
	if cfg.Variant == nil || cfg.Games < 1 || cfg.Nodes < 1 {
		return errors.New("tune: generate needs a variant, games ≥ 1 and nodes ≥ 1")
	}
	if err := cfg.checkRandomMoves(); err != nil {
		return err
	}
	ops, err := bench.Openings(cfg.Variant)
	if err != nil {
		return err
	}
	f, done, err := openGamesFile(path, cfg.header())
	if err != nil {
		return err
	}
	defer f.Close()
	eng := newEngine(cfg.Variant, cfg.TTLog2, cfg.Eval)
	// The openings in a fixed shuffled order: a run of any length sees a
	// spread of them.
	order := rand.New(rand.NewPCG(cfg.Seed, 0x09e41)).Perm(len(ops))
	start := time.Now()
	var line []byte
	for i := done; i < cfg.Games; i++ {
		o := ops[order[i%len(ops)]]
		g := playGame(cfg, eng, o.Pos, i)
		line = appendGame(cfg.Variant, line[:0], &g)
		if _, err := f.Write(line); err != nil {
			return err
		}
		if progress != nil {
			progress(i+1, cfg.Games, time.Since(start))
		}
	}
	return nil
}

// MaxRandomMoves bounds GenConfig.RandomMoves: past it the games are
// mostly noise.
const MaxRandomMoves = 50

// checkRandomMoves refuses a RandomMoves outside 0..MaxRandomMoves.
func (cfg *GenConfig) checkRandomMoves() error {
	if cfg.RandomMoves < 0 || cfg.RandomMoves > MaxRandomMoves {
		return fmt.Errorf("tune: random moves %d%%: want 0 to %d", cfg.RandomMoves, MaxRandomMoves)
	}
	return nil
}

// newEngine returns the search of tune's steps: a table of 2^ttLog2
// entries (0: 2^18) and evaluation f (nil: the variant's default).
func newEngine(v *movegen.Variant, ttLog2 int, f search.EvalFunc) *search.Engine {
	if ttLog2 == 0 {
		ttLog2 = 18
	}
	eng := search.New(v, ttLog2)
	if f != nil {
		eng.SetEval(f)
	}
	return eng
}

// playGame plays game number i from start, refereed by bench.Referee:
// cfg.RandomPlies random moves (seeded by cfg.Seed and i), then the engine
// for both sides (cfg.RandomMoves per cent of its moves replaced by random
// ones), recording the quiet positions it searched with their scores.
func playGame(cfg GenConfig, eng *search.Engine, start movegen.Position, i int) Game {
	r := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	v := cfg.Variant
	eng.NewGame()
	out := Game{Index: i}
	var ml movegen.MoveList
	out.Result, _ = bench.Referee(v, start, func(g *movegen.Game) movegen.Move {
		p := g.Position()
		if g.Plies() < cfg.RandomPlies {
			return randomMove(v, &p, &ml, r)
		}
		nodes := cfg.Nodes
		if cfg.Jitter {
			nodes = cfg.Nodes/2 + r.Uint64N(cfg.Nodes+1)
		}
		res := eng.Search(search.NewControl(false), search.GameOf(g), search.Limits{Nodes: max(nodes, 1)}, nil)
		if !res.HasMove {
			panic("tune: the engine found no move in a game that is not over")
		}
		if !v.HasCapture(&p) {
			out.Positions = append(out.Positions, Sample{p, res.Score})
		}
		if cfg.RandomMoves > 0 && r.IntN(100) < cfg.RandomMoves {
			return randomMove(v, &p, &ml, r)
		}
		return res.Move
	})
	return out
}

// randomMove returns a uniformly random legal move of p, generated into ml.
func randomMove(v *movegen.Variant, p *movegen.Position, ml *movegen.MoveList, r *rand.Rand) movegen.Move {
	v.Generate(p, ml)
	return ml.Moves[r.IntN(ml.N)]
}
