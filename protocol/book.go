package protocol

import (
	"fmt"
	"time"

	"github.com/damaengine/damaengine/book"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Book parameter defaults and bounds.
const (
	defaultBookPly    = 16
	defaultBookMargin = 2 // centi-men
	maxBookPly        = 200
	maxBookMargin     = 100
	bookLineMax       = 20 // moves of book line shown in the info pv
)

// setBookFile loads the book at path for the chosen variant; on any error
// the book in use stays. An empty path goes back to the embedded book.
// From the command line (h.inArgs) the file may be for another variant:
// the client sets the variant only after the session starts (the match
// runner does), so such a book is kept and serves its own variant once
// that is chosen (bookFor), instead of being dropped with a warning nobody
// sees, which it was: every non-Italian --book-file measured the embedded
// book instead.
func (h *Hub) setBookFile(path string) error {
	if path == "" {
		h.fileBook, h.bookFile = nil, ""
		return nil
	}
	b, err := book.Load(path, nil)
	if err != nil {
		return fmt.Errorf("book-file: %v; the book in use stays", clipErr(err))
	}
	if b.Variant() != h.chosen.Name && !h.inArgs {
		return fmt.Errorf("book-file %s is a book for %s but the variant is %s (set the variant first); the book in use stays", quoteClip(path), b.Variant(), h.chosen.Name)
	}
	h.fileBook, h.bookFile = b, path
	return nil
}

// bookFor returns the book of variant v: the loaded file when it is for v,
// else the embedded one (nil when there is none).
func (h *Hub) bookFor(v *movegen.Variant) *book.Book {
	if h.fileBook != nil && h.fileBook.Variant() == v.Name {
		return h.fileBook
	}
	b, err := book.Embedded(v)
	if err != nil {
		h.log.Debug().Err(err).Msg("no book")
		return nil
	}
	return b
}

// bookChoice returns the book move to play in the current position, if
// any: the book must be on, the game younger than book-ply, and the level
// free of a depth (a request for a search of that depth). A node count is
// a budget like a clock (matches use it to be independent of the load), so
// the book answers under it.
func (h *Hub) bookChoice(mode string, r uint64) (book.Choice, *book.Book, bool) {
	// A strength level below max plays without the book: its openings are
	// full strength, and the levels' ladder was measured without it.
	if mode == "analyze" || !h.useBook || h.game.Plies() >= h.bookPly || h.strength.name != "max" {
		return book.Choice{}, nil, false
	}
	if h.hasLim && (h.level.Depth > 0 || h.level.Infinite) {
		return book.Choice{}, nil, false
	}
	b := h.bookFor(h.variant)
	if b == nil {
		return book.Choice{}, nil, false
	}
	pos := h.game.Position()
	var ch book.Choices
	if b.Probe(h.variant, &pos, &ch) == 0 {
		return book.Choice{}, nil, false
	}
	c, ok := book.Pick(ch.Slice(), h.bookMargin, r)
	return c, b, ok
}

// playBook answers a go with a book move at once: one info line with the
// move's book score and the book line after it as pv, then done with the
// line's second move as ponder. Under go ponder the done waits for
// ponder-hit or stop.
func (h *Hub) playBook(b *book.Book, c book.Choice, ponder bool) {
	start := time.Now()
	v, w := h.variant, h.wire()
	pos := h.game.Position()
	next := pos
	next.Play(c.Move)
	line := append([]movegen.Move{c.Move}, b.Line(v, next, bookLineMax-1)...)
	info := search.Info{Depth: len(line), Score: c.Score, PV: line, Time: time.Since(start)}
	h.log.Info().Str("pos", v.FEN(&pos)).Str("move", v.HubMove(c.Move)).Int("score", c.Score).Msg("book move")
	t := newTask()
	h.task = t
	h.out.put(infoLine(w, info, false), true)
	parts := []string{"done", kv("move", w.text(c.Move))}
	if len(line) > 1 {
		parts = append(parts, kv("ponder", w.text(line[1])))
	}
	go func() {
		if ponder {
			select {
			case <-t.hit:
			case <-t.stopCh:
			}
		}
		h.results <- func() { h.send(parts...) }
	}()
}
