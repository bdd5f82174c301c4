// Package serve is damaengine's web front end: a local HTTP server with an
// embedded page where a person plays any variant against the engine.
//
// Every game lives on the server as a movegen.Game record with its own
// search.Engine, so the page can only make moves the record accepts. The
// JSON API (all under /api/):
//
//	GET    /api/variants              variants, their boards and the levels
//	POST   /api/games                 new game {variant, side, level, fen, movetime, nodes}
//	GET    /api/games/{id}            the game's state (board, legal moves, last move, status)
//	GET    /api/games/{id}/moves      the legal moves only
//	POST   /api/games/{id}/move       play {move: "22-18"} (any notation ParseMove reads)
//	POST   /api/games/{id}/engine     the engine moves; with Accept: text/event-stream the
//	                                  search's info is streamed as server-sent events
//	POST   /api/games/{id}/undo       take back {plies: n} plies (default 1)
//	POST   /api/games/{id}/resign     the person resigns: the engine wins
//	POST   /api/games/{id}/draw       the person offers a draw; the engine accepts or
//	                                  declines by the rule in drawRule (ending.go)
//	GET    /api/games/{id}/ply/{n}    the board after n plies, to look back
//	GET    /api/games/{id}/fen        the position as PDN FEN (text)
//	GET    /api/games/{id}/pdn        the game as PDN (text)
//	DELETE /api/games/{id}            end the game
//
// Bad JSON, an unknown variant, level or game, an illegal move, a number out
// of its range are answered with a 4xx status and {"error": "..."}, and the
// game is left unchanged. A request another site's page could send (a Host
// that is not the server's, a state change from another Origin, a body that
// is not JSON) is refused before it reaches the API (guard.go).
package serve

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/protocol"
	"github.com/damaengine/damaengine/search"
)

//go:embed static
var static embed.FS

// Options configures a Server. Zero fields take the defaults.
type Options struct {
	// MaxGames caps the games kept at once (default 16); a new game beyond
	// it first drops the least recently used idle game, or is refused.
	MaxGames int
	// IdleTimeout is how long a game untouched is kept (default 30 minutes).
	IdleTimeout time.Duration
	// TableLog2 is the size of each game's transposition table, 2^n entries
	// (default 18: 4 MB).
	TableLog2 int
	// MaxMoveTime bounds the time a request may ask the engine to think
	// per move (default 10 s).
	MaxMoveTime time.Duration
	// Now returns the time (default time.Now); tests set it to age games.
	Now func() time.Time

	// Addr is the address the server listens on, for the Host check when
	// a request does not carry the address it came in on (it always does
	// through HTTPServer); Hosts are further names the Host header may
	// give (the name in --addr), beside the address and, on loopback,
	// localhost.
	Addr  string
	Hosts []string
	// HeaderTimeout bounds the time a client takes to send the request's
	// headers (default 5 s), BodyTimeout the whole request (default 10 s),
	// WriteTimeout the answer (default 10 s; an engine request gets its
	// own time bound more), ConnIdle an idle kept-alive connection
	// (default 1 minute); MaxConnsPerClient caps the connections one
	// client address holds at once (default 16). They apply through
	// HTTPServer and Listener.
	HeaderTimeout     time.Duration
	BodyTimeout       time.Duration
	WriteTimeout      time.Duration
	ConnIdle          time.Duration
	MaxConnsPerClient int
}

// Server is the web front end: an http.Handler serving the page and the API.
type Server struct {
	opt   Options
	mux   *http.ServeMux
	mu    sync.Mutex
	games map[string]*game
}

// New returns a Server with the given options.
func New(opt Options) *Server {
	if opt.MaxGames <= 0 {
		opt.MaxGames = 16
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 30 * time.Minute
	}
	if opt.TableLog2 <= 0 {
		opt.TableLog2 = 18
	}
	if opt.MaxMoveTime <= 0 {
		opt.MaxMoveTime = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.HeaderTimeout <= 0 {
		opt.HeaderTimeout = defaultHeaderTimeout
	}
	if opt.BodyTimeout <= 0 {
		opt.BodyTimeout = defaultBodyTimeout
	}
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = defaultWriteTimeout
	}
	if opt.ConnIdle <= 0 {
		opt.ConnIdle = defaultConnIdle
	}
	if opt.MaxConnsPerClient <= 0 {
		opt.MaxConnsPerClient = defaultConnsPerIP
	}
	s := &Server{opt: opt, mux: http.NewServeMux(), games: map[string]*game{}}
	sub, _ := fs.Sub(static, "static")
	s.mux.Handle("GET /", http.FileServerFS(sub))
	s.mux.HandleFunc("GET /api/variants", s.variants)
	s.mux.HandleFunc("POST /api/games", s.newGame)
	s.mux.HandleFunc("GET /api/games/{id}", s.withGame(s.state))
	s.mux.HandleFunc("GET /api/games/{id}/moves", s.withGame(s.moves))
	s.mux.HandleFunc("POST /api/games/{id}/move", s.withGame(s.play))
	s.mux.HandleFunc("POST /api/games/{id}/engine", s.withGame(s.engine))
	s.mux.HandleFunc("POST /api/games/{id}/undo", s.withGame(s.undo))
	s.mux.HandleFunc("POST /api/games/{id}/resign", s.withGame(s.resign))
	s.mux.HandleFunc("POST /api/games/{id}/draw", s.withGame(s.offerDraw))
	s.mux.HandleFunc("GET /api/games/{id}/ply/{n}", s.withGame(s.ply))
	s.mux.HandleFunc("GET /api/games/{id}/fen", s.withGame(s.fen))
	s.mux.HandleFunc("GET /api/games/{id}/pdn", s.withGame(s.pdn))
	s.mux.HandleFunc("DELETE /api/games/{id}", s.deleteGame)
	return s
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if err := s.guard(r); err != nil {
		w.Header().Set("Connection", "close")
		writeError(w, err)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Games returns the number of games kept.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// game is one game on the server. mu guards everything; busy is set while
// the engine thinks, when other changes are refused.
type game struct {
	mu       sync.Mutex
	id       string
	rec      *movegen.Game
	eng      *search.Engine
	human    movegen.Color
	level    protocol.Strength
	moveTime time.Duration
	nodes    uint64
	busy     bool
	used     time.Time
	// ended is set when the game ended by an action, not on the board: a
	// resignation or a draw agreed; a take-back clears it.
	ended *ending
}

// apiError is an error with the HTTP status it is answered with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// writeJSON answers v as JSON with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers err: its own status for an apiError, else 500.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae *apiError
	if errors.As(err, &ae) {
		status = ae.status
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

// maxBody bounds a request body.
const maxBody = 64 << 10

// decode reads a JSON request body into v; an empty body leaves v as it is.
// Unknown fields are refused so that a misspelt field is not silently
// ignored.
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return errorf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	if len(body) > maxBody {
		return errorf(http.StatusRequestEntityTooLarge, "request body over %d bytes", maxBody)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if r.Header.Get("Content-Type") == "" {
		return errorf(http.StatusUnsupportedMediaType, "a body without Content-Type: the API takes application/json only")
	}
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "bad JSON: %v", err)
	}
	if d.More() {
		return errorf(http.StatusBadRequest, "bad JSON: more than one value")
	}
	return nil
}

// variantInfo describes a variant to the page.
type variantInfo struct {
	Name     string `json:"name"`
	Files    int    `json:"files"`
	Ranks    int    `json:"ranks"`
	Squares  int    `json:"squares"`
	Diagonal bool   `json:"diagonal"`
}

// servedVariants are the rule sets the page offers: every variant, and
// Damone with the all-Damoni rule (named "damone-all-damoni" on the page,
// movegen's RulesName: the two Damone rule sets share the variant name).
func servedVariants() []*movegen.Variant { return movegen.RuleSets() }

// variantName is v's name on the page.
func variantName(v *movegen.Variant) string { return v.RulesName() }

// lookupVariant finds a rule set by its name on the page (or any name the
// engine knows).
func lookupVariant(name string) (*movegen.Variant, error) { return movegen.LookupRules(name) }

func infoOf(v *movegen.Variant) variantInfo {
	return variantInfo{Name: variantName(v), Files: v.Files(), Ranks: v.Ranks(), Squares: v.Squares,
		Diagonal: v.Squares*2 == v.Files()*v.Ranks()}
}

func (s *Server) variants(w http.ResponseWriter, r *http.Request) {
	var vs []variantInfo
	for _, v := range servedVariants() {
		vs = append(vs, infoOf(v))
	}
	writeJSON(w, http.StatusOK, map[string]any{"variants": vs, "levels": protocol.StrengthNames()})
}

// newGameRequest is the body of POST /api/games.
// The numbers are read as text and checked before they are converted: a
// float64 such as 1e300 or 1e-12 seconds would convert to a duration that
// overflows or rounds to nothing.
type newGameRequest struct {
	Variant  string   `json:"variant"`  // default italian
	Side     string   `json:"side"`     // the person's colour: white (default) or black
	Level    string   `json:"level"`    // a strength level (default 5)
	FEN      string   `json:"fen"`      // start position (PDN FEN, lidraughts FEN or Hub string)
	ID       string   `json:"id"`       // the game's id, to bring back a game kept by the page (16 hex digits)
	Moves    []string `json:"moves"`    // moves played from the start position, to bring a game back
	Ended    string   `json:"ended"`    // "resigned" or "agreed": a game brought back that ended so
	MoveTime number   `json:"movetime"` // seconds the engine thinks at most (default 1)
	Nodes    number   `json:"nodes"`    // a further cap on the engine's nodes per move
}

// number is a JSON number kept as written, to be checked before it is
// converted; a string or any other JSON value is refused.
type number string

func (n *number) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil // the default stays
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*n = number(b)
		return nil
	}
	what := "value"
	switch b[0] {
	case '"':
		what = "string"
	case 't', 'f':
		what = "bool"
	case '[':
		what = "array"
	case '{':
		what = "object"
	}
	return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeFor[number]()}
}

// minMoveTime is the least movetime a request may give.
const minMoveTime = time.Millisecond

// maxNodes bounds the nodes field (days of search: the move time ends a
// search long before).
const maxNodes = 1e12

// seconds reads a number of seconds in [least, most], or says which
// field is out of range; the check is made on the number as written,
// before it is converted to a duration (1e300 seconds would overflow it,
// 1e-12 round to nothing).
func seconds(field string, n number, least, most time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) {
		return 0, errorf(http.StatusBadRequest, "%s %s is not a number of seconds", field, clipText(string(n)))
	}
	if !(f >= least.Seconds() && f <= most.Seconds()) { // an overflow is ±Inf, an underflow 0
		return 0, errorf(http.StatusBadRequest, "%s %s out of range: give %v to %v seconds", field, clipText(string(n)), least.Seconds(), most.Seconds())
	}
	return time.Duration(f * float64(time.Second)), nil
}

// integer reads a whole number in [least, most] (written as such or, say,
// as 1e3), or says which field is out of range. The bounds stay below
// 2^53, where a float64 is exact.
func integer(field string, n number, least, most int64) (int64, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	mantissa, _, _ := strings.Cut(strings.ToLower(string(n)), "e")
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) || f == 0 && strings.ContainsAny(mantissa, "123456789") {
		// (the last: a tiny number such as 1e-400 reads as 0)
		return 0, errorf(http.StatusBadRequest, "%s %s is not a whole number", field, clipText(string(n)))
	}
	if !math.IsInf(f, 0) && f != math.Trunc(f) {
		return 0, errorf(http.StatusBadRequest, "%s %s is not a whole number", field, clipText(string(n)))
	}
	if !(f >= float64(least) && f <= float64(most)) {
		return 0, errorf(http.StatusBadRequest, "%s %s out of range: give a whole number from %d to %d", field, clipText(string(n)), least, most)
	}
	return int64(f), nil
}

func (s *Server) newGame(w http.ResponseWriter, r *http.Request) {
	req := newGameRequest{Variant: "italian", Side: "white", Level: "5", MoveTime: "1", Nodes: "0"}
	if err := decode(r, &req); err != nil {
		writeError(w, err)
		return
	}
	g, err := s.makeGame(req)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.add(g); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, g.state())
}

// makeGame checks a new-game request and builds the game.
func (s *Server) makeGame(req newGameRequest) (*game, error) {
	v, err := lookupVariant(req.Variant)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	start := v.Start()
	if strings.TrimSpace(req.FEN) != "" {
		if start, err = v.ParsePosition(NormalizeFEN(req.FEN)); err != nil {
			return nil, errorf(http.StatusBadRequest, "bad fen: %v", err)
		}
	}
	var human movegen.Color
	switch strings.ToLower(strings.TrimSpace(req.Side)) {
	case "white", "w":
		human = movegen.White
	case "black", "b":
		human = movegen.Black
	default:
		return nil, errorf(http.StatusBadRequest, "side %q is not white or black", req.Side)
	}
	lv, err := protocol.LookupStrength(strings.ToLower(strings.TrimSpace(req.Level)))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	mt, err := seconds("movetime", req.MoveTime, minMoveTime, s.opt.MaxMoveTime)
	if err != nil {
		return nil, err
	}
	nodes, err := integer("nodes", req.Nodes, 0, maxNodes)
	if err != nil {
		return nil, err
	}
	id := req.ID
	if id == "" {
		if id, err = newID(); err != nil {
			return nil, err
		}
	} else if !validID(id) {
		return nil, errorf(http.StatusBadRequest, "id %q is not 16 hex digits", clipText(id))
	}
	if len(req.Moves) > maxReplay {
		return nil, errorf(http.StatusBadRequest, "%d moves: at most %d", len(req.Moves), maxReplay)
	}
	g := &game{
		id: id, rec: movegen.NewGame(v, start), human: human, level: lv,
		moveTime: mt, nodes: uint64(nodes), used: s.opt.Now(),
	}
	for i, m := range req.Moves {
		if err := g.playText(m); err != nil {
			return nil, errorf(http.StatusBadRequest, "moves[%d] %q: %v", i, clipText(m), err)
		}
	}
	switch req.Ended {
	case "":
	case "resigned":
		g.ended = &ending{code: "resigned", winner: g.human ^ 1}
	case "agreed":
		g.ended = &ending{code: "agreed"}
	default:
		return nil, errorf(http.StatusBadRequest, "ended %q is not resigned or agreed", clipText(req.Ended))
	}
	return g, nil
}

// maxReplay bounds the moves of a game brought back.
const maxReplay = 4000

// validID reports whether id has the form newID gives.
func validID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// newID returns a random game id.
func newID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// add keeps g, first dropping games idle too long and, at the cap, the
// least recently used game that is not thinking.
func (s *Server) add(g *game) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opt.Now()
	var oldest *game
	var oldestUsed time.Time
	for id, x := range s.games {
		x.mu.Lock()
		idle, busy, used := now.Sub(x.used) > s.opt.IdleTimeout, x.busy, x.used
		x.mu.Unlock()
		if busy {
			continue
		}
		if idle {
			delete(s.games, id)
			continue
		}
		if oldest == nil || used.Before(oldestUsed) {
			oldest, oldestUsed = x, used
		}
	}
	if x := s.games[g.id]; x != nil {
		return errorf(http.StatusConflict, "game %s exists already", g.id)
	}
	if len(s.games) >= s.opt.MaxGames {
		if oldest == nil {
			return errorf(http.StatusServiceUnavailable, "too many games (%d) are thinking; try again later", len(s.games))
		}
		delete(s.games, oldest.id)
	}
	g.eng = search.New(g.rec.Variant(), s.opt.TableLog2)
	s.games[g.id] = g
	return nil
}

// withGame finds the game named in the path, marks it used and calls h
// with it locked.
func (s *Server) withGame(h func(w http.ResponseWriter, r *http.Request, g *game)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		s.mu.Lock()
		g := s.games[id]
		if g != nil && s.opt.Now().Sub(g.used) > s.opt.IdleTimeout {
			g.mu.Lock()
			if !g.busy {
				delete(s.games, id)
				g.mu.Unlock()
				g = nil
			} else {
				g.mu.Unlock()
			}
		}
		s.mu.Unlock()
		if g == nil {
			writeError(w, errorf(http.StatusNotFound, "no game %q (it may have timed out; start a new one)", id))
			return
		}
		g.mu.Lock()
		g.used = s.opt.Now()
		g.mu.Unlock()
		h(w, r, g)
	}
}

func (s *Server) deleteGame(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	g := s.games[id]
	delete(s.games, id)
	s.mu.Unlock()
	if g == nil {
		writeError(w, errorf(http.StatusNotFound, "no game %q", id))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, g *game) {
	g.mu.Lock()
	defer g.mu.Unlock()
	writeJSON(w, http.StatusOK, g.state())
}

func (s *Server) moves(w http.ResponseWriter, r *http.Request, g *game) {
	g.mu.Lock()
	defer g.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"moves": g.legal()})
}

// moveRequest is the body of POST /api/games/{id}/move.
type moveRequest struct {
	Move string `json:"move"`
}

func (s *Server) play(w http.ResponseWriter, r *http.Request, g *game) {
	var req moveRequest
	if err := decode(r, &req); err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.playText(req.Move); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, g.state())
}

// playText plays a move written as text, or explains why not.
func (g *game) playText(text string) error {
	if g.busy {
		return errorf(http.StatusConflict, "the engine is thinking")
	}
	if strings.TrimSpace(text) == "" {
		return errorf(http.StatusBadRequest, `no move given (send {"move": "22-18"})`)
	}
	if g.over() {
		return errorf(http.StatusConflict, "the game is over: %s", g.endText())
	}
	v, p := g.rec.Variant(), g.rec.Position()
	m, err := v.ParseMove(&p, text)
	if err != nil {
		// the board's coordinates (c3-d4) where the variant numbers its squares
		if alt, ok := coordMove(v, text); ok {
			if m2, err2 := v.ParseMove(&p, alt); err2 == nil {
				m, err = m2, nil
			}
		}
	}
	if err != nil {
		return errorf(http.StatusUnprocessableEntity, "%v", err)
	}
	if err := g.rec.Play(m); err != nil {
		return errorf(http.StatusUnprocessableEntity, "%v", err)
	}
	return nil
}

// undoRequest is the body of POST /api/games/{id}/undo.
type undoRequest struct {
	Plies number `json:"plies"`
}

// maxUndo bounds the plies field.
const maxUndo = 1 << 20

func (s *Server) undo(w http.ResponseWriter, r *http.Request, g *game) {
	req := undoRequest{Plies: "1"}
	if err := decode(r, &req); err != nil {
		writeError(w, err)
		return
	}
	n, err := integer("plies", req.Plies, 1, maxUndo)
	if err != nil {
		writeError(w, err)
		return
	}
	plies := int(n)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.busy:
		writeError(w, errorf(http.StatusConflict, "the engine is thinking"))
		return
	case plies > g.rec.Plies():
		writeError(w, errorf(http.StatusConflict, "cannot take back %d plies: %d played", plies, g.rec.Plies()))
		return
	}
	for i := 0; i < plies; i++ {
		g.rec.Undo()
	}
	g.ended = nil
	writeJSON(w, http.StatusOK, g.state())
}

func (s *Server) fen(w http.ResponseWriter, r *http.Request, g *game) {
	g.mu.Lock()
	p := g.rec.Position()
	text := g.rec.Variant().FEN(&p)
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, text)
}

func (s *Server) pdn(w http.ResponseWriter, r *http.Request, g *game) {
	g.mu.Lock()
	text := g.pdnText()
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Query().Has("download") {
		w.Header().Set("Content-Disposition", `attachment; filename="damaengine.pdn"`)
	}
	io.WriteString(w, text)
}
