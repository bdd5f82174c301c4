package tune

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// RelabelConfig configures Relabel: a deeper search's score for the
// positions of games already played.
type RelabelConfig struct {
	Variant *movegen.Variant
	Nodes   uint64 // nodes of each position's search
	// Every keeps one quiet position in Every of each game (1: all): the
	// positions j of game g with (j + g.Index) % Every == 0, so that every
	// move number is sampled across games.
	Every  int
	TTLog2 int // log2 of the table entries (0: 18)
	// Eval, if not nil, replaces the default evaluation of the search.
	Eval search.EvalFunc
}

// relabelHeader is the first line of a relabelled games file: the
// source's settings (its first line after the variant) and the labels'.
func (c *RelabelConfig) relabelHeader(source string) string {
	src := strings.TrimPrefix(source, gamesPrefix(c.Variant))
	return fmt.Sprintf("%slabel-nodes=%d every=%d from=(%s)", gamesPrefix(c.Variant), c.Nodes, c.Every, src)
}

// firstLine returns the first line of the file at path, without its
// newline.
func firstLine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("tune: %s has no complete first line", path)
	}
	return strings.TrimSpace(line), nil
}

// Relabel reads the games file src (made by Generate) and writes to out
// the same games, each with the quiet positions RelabelConfig.Every picks
// and, as their scores, those of a fresh search of cfg.Nodes nodes (no
// game history: the position alone, the table cleared at each game). The
// game results are kept. A file left by an interrupted run of the same
// settings and source is continued: its complete lines are kept, a torn
// last line is cut off. progress, if not nil, is called after each game
// with the games written, the source's games, the positions searched in
// this run and the time spent.
func Relabel(cfg RelabelConfig, src, out string, progress func(done, total, positions int, elapsed time.Duration)) error {
	if cfg.Variant == nil || cfg.Nodes < 1 || cfg.Every < 1 {
		return errors.New("tune: relabel needs a variant, nodes ≥ 1 and every ≥ 1")
	}
	head, err := firstLine(src)
	if err != nil {
		return err
	}
	games, err := ReadGames(cfg.Variant, src)
	if err != nil {
		return err
	}
	f, done, err := openGamesFile(out, cfg.relabelHeader(head))
	if err != nil {
		return err
	}
	defer f.Close()
	if done > len(games) {
		return fmt.Errorf("tune: %s holds %d games, more than the %d of %s", out, done, len(games), src)
	}
	eng := newEngine(cfg.Variant, cfg.TTLog2, cfg.Eval)
	start := time.Now()
	searched := 0
	var line []byte
	for i := done; i < len(games); i++ {
		g := &games[i]
		eng.NewGame()
		kept := Game{Index: g.Index, Result: g.Result}
		for j, s := range g.Positions {
			if (j+g.Index)%cfg.Every != 0 {
				continue
			}
			res := eng.Search(search.NewControl(false), search.Game{Pos: s.Pos}, search.Limits{Nodes: cfg.Nodes}, nil)
			if !res.HasMove {
				// A quiet position without a move is lost: the games file
				// holds only positions the engine moved from, so this is a
				// file from elsewhere; keep its score.
				kept.Positions = append(kept.Positions, s)
				continue
			}
			kept.Positions = append(kept.Positions, Sample{s.Pos, res.Score})
			searched++
		}
		line = appendGame(cfg.Variant, line[:0], &kept)
		if _, err := f.Write(line); err != nil {
			return err
		}
		if progress != nil {
			progress(i+1, len(games), searched, time.Since(start))
		}
	}
	return nil
}
