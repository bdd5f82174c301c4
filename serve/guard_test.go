package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Issue 48 point 1: no page of another site drives the server. A request
// whose Host is not the server's address (DNS rebinding), a state change
// from another Origin, and a body that is not JSON (text/plain, a form:
// what a page may send without asking first) are refused, and no game is
// made.
func TestCrossSiteRefused(t *testing.T) {
	c, srv := newClient(t, Options{})
	const body = `{"variant":"italian"}`
	hostPort := strings.TrimPrefix(c.base, "http://")
	_, port, _ := net.SplitHostPort(hostPort)
	for _, tc := range []struct {
		method, path, body string
		header             []string
		code               int
		want               string
	}{
		{"POST", "/api/games", body, []string{"Host", "evil.example", "Origin", "http://evil.example", "Content-Type", "text/plain"}, http.StatusForbidden, "Host"},
		{"POST", "/api/games", body, []string{"Host", "evil.example:" + port}, http.StatusForbidden, "Host"},
		{"GET", "/api/variants", "", []string{"Host", "evil.example:" + port}, http.StatusForbidden, "Host"},
		{"GET", "/", "", []string{"Host", "rebound.evil.example"}, http.StatusForbidden, "Host"},
		{"GET", "/api/variants", "", []string{"Host", "localhost:1"}, http.StatusForbidden, "port"},
		{"GET", "/api/variants", "", []string{"Host", "127.0.0.1"}, http.StatusForbidden, "port"},
		{"POST", "/api/games", body, []string{"Origin", "http://evil.example"}, http.StatusForbidden, "Origin"},
		{"POST", "/api/games", body, []string{"Origin", "null"}, http.StatusForbidden, "Origin"},
		{"POST", "/api/games", body, []string{"Origin", "https://" + hostPort}, http.StatusForbidden, "Origin"},
		{"POST", "/api/games", body, []string{"Origin", "http://localhost:" + port}, http.StatusForbidden, "Origin"},
		{"POST", "/api/games", body, []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType, "application/json"},
		{"POST", "/api/games", body, []string{"Content-Type", "text/plain; charset=utf-8"}, http.StatusUnsupportedMediaType, "application/json"},
		{"POST", "/api/games", "variant=italian", []string{"Content-Type", "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType, "application/json"},
		{"POST", "/api/games", body, []string{"Content-Type", "multipart/form-data; boundary=x"}, http.StatusUnsupportedMediaType, "application/json"},
		{"POST", "/api/games", body, []string{"Content-Type", ""}, http.StatusUnsupportedMediaType, "Content-Type"},
		{"POST", "/api/games", "", []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType, "application/json"},
	} {
		code, b := c.do(tc.method, tc.path, tc.body, tc.header...)
		if code != tc.code || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s %s %v: %d %s, want %d naming %q", tc.method, tc.path, tc.header, code, b, tc.code, tc.want)
		}
	}
	if n := srv.Games(); n != 0 {
		t.Fatalf("%d games made by refused requests", n)
	}
	// the page's own requests, and programs that send no Origin
	for _, h := range [][]string{
		{"Origin", "http://" + hostPort},
		{"Host", "localhost:" + port, "Origin", "http://localhost:" + port},
		{"Host", "[::1]:" + port},
		{"Content-Type", "application/json; charset=utf-8"},
	} {
		code, b := c.do("POST", "/api/games", body, h...)
		if code != http.StatusCreated {
			t.Errorf("POST /api/games %v: %d %s, want 201", h, code, b)
		}
	}
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"side":"black","nodes":100}`)
	// an engine request without a body needs no type; from another site it is refused
	if code, b := c.do("POST", "/api/games/"+s.ID+"/engine", "", "Origin", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("engine request from another site: %d %s", code, b)
	}
	if code, b := c.do("POST", "/api/games/"+s.ID+"/engine", ""); code != http.StatusOK {
		t.Errorf("engine request without a body: %d %s", code, b)
	}
	if code, b := c.do("DELETE", "/api/games/"+s.ID, "", "Origin", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("delete from another site: %d %s", code, b)
	}
}

// Issue 48 point 2: every number is checked as written, before it is
// converted: NaN, infinities, overflow (1e300 and 9.3e9 seconds overflow a
// duration), sub-millisecond times, fractions and negatives are refused
// with a 400 naming the field, and no game is made.
func TestNumericFieldsBounded(t *testing.T) {
	c, srv := newClient(t, Options{})
	for _, tc := range []struct{ body, want string }{
		{`{"level":"max","movetime":1e300}`, "movetime 1e300 out of range"},
		{`{"level":"max","movetime":9.3e9}`, "movetime 9.3e9 out of range"},
		{`{"level":"max","movetime":1e-12}`, "movetime 1e-12 out of range"},
		{`{"movetime":0.0009}`, "movetime 0.0009 out of range"},
		{`{"movetime":0}`, "movetime 0 out of range"},
		{`{"movetime":-0}`, "movetime -0 out of range"},
		{`{"movetime":-1}`, "movetime -1 out of range"},
		{`{"movetime":10.001}`, "movetime 10.001 out of range"},
		{`{"movetime":1e400}`, "movetime 1e400 out of range"},
		{`{"movetime":1e-400}`, "movetime 1e-400 out of range"},
		{`{"movetime":true}`, "movetime"},
		{`{"movetime":"NaN"}`, "bad JSON"},
		{`{"movetime":NaN}`, "bad JSON"},
		{`{"movetime":Infinity}`, "bad JSON"},
		{`{"movetime":"1"}`, "movetime"},
		{`{"nodes":-1}`, "nodes -1 out of range"},
		{`{"nodes":1.5}`, "nodes 1.5 is not a whole number"},
		{`{"nodes":1e13}`, "nodes 1e13 out of range"},
		{`{"nodes":18446744073709551616}`, "nodes 18446744073709551616"},
		{`{"nodes":1e400}`, "nodes 1e400 out of range"},
		{`{"nodes":1e-400}`, "nodes 1e-400 is not a whole number"},
		{`{"nodes":-1e400}`, "nodes -1e400 out of range"},
		{`{"nodes":[1]}`, "nodes"},
	} {
		code, b := c.do("POST", "/api/games", tc.body)
		if code != http.StatusBadRequest || !strings.Contains(string(b), tc.want) {
			t.Errorf("new game %s: %d %s, want 400 naming %q", tc.body, code, b, tc.want)
		}
	}
	if n := srv.Games(); n != 0 {
		t.Fatalf("%d games made by refused requests", n)
	}
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"movetime":0.001,"nodes":1e3}`)
	id := "/api/games/" + s.ID
	c.state(http.StatusOK, "POST", id+"/move", `{"move":"22-18"}`)
	for _, tc := range []struct{ body, want string }{
		{`{"plies":1e300}`, "plies 1e300 out of range"},
		{`{"plies":-1}`, "plies -1 out of range"},
		{`{"plies":0.5}`, "plies 0.5 is not a whole number"},
		{`{"plies":9223372036854775808}`, "plies 9223372036854775808"},
	} {
		code, b := c.do("POST", id+"/undo", tc.body)
		if code != http.StatusBadRequest || !strings.Contains(string(b), tc.want) {
			t.Errorf("undo %s: %d %s, want 400 naming %q", tc.body, code, b, tc.want)
		}
	}
	if st := c.state(http.StatusOK, "GET", id, ""); len(st.History) != 1 {
		t.Errorf("refused undos changed the game: %d moves", len(st.History))
	}
	c.state(http.StatusOK, "POST", id+"/undo", `{"plies":1.0}`)
}

// Issue 48 point 2: an engine request always ends by itself: the move time
// is never beyond the server's cap, whatever the level.
func TestEngineRequestBounded(t *testing.T) {
	c, _ := newClient(t, Options{MaxMoveTime: 300 * time.Millisecond})
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"level":"max","side":"black","movetime":0.3}`)
	start := time.Now()
	if code, b := c.do("POST", "/api/games/"+s.ID+"/engine", ""); code != http.StatusOK {
		t.Fatalf("engine: %d %s", code, b)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("a 0.3 s engine request took %v", el)
	}
	if code, b := c.do("POST", "/api/games", `{"level":"max","movetime":0.31}`); code != http.StatusBadRequest || !strings.Contains(string(b), "movetime") {
		t.Errorf("movetime over the server's cap: %d %s", code, b)
	}
}

// served starts s through HTTPServer and Listener on a loopback port and
// returns its address.
func served(t *testing.T, opt Options) (string, *Server) {
	t.Helper()
	if opt.TableLog2 == 0 {
		opt.TableLog2 = 16
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opt.Addr = ln.Addr().String()
	s := New(opt)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String(), s
}

// closedWithin reports whether the server closes conn within d (reading
// whatever it answers first).
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

// Issue 48 point 3: a client that sends its headers or its body slowly is
// cut off by the server's timeouts, and one address holds at most its cap
// of connections; an engine request longer than those timeouts still runs
// to its end.
func TestSlowClientsCutOff(t *testing.T) {
	opt := Options{HeaderTimeout: 200 * time.Millisecond, BodyTimeout: 300 * time.Millisecond,
		WriteTimeout: 300 * time.Millisecond, ConnIdle: 300 * time.Millisecond, MaxConnsPerClient: 4}
	addr, _ := served(t, opt)
	dial := func() net.Conn {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	// one byte of a 1,000-byte body
	body := dial()
	io.WriteString(body, "POST /api/games HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	// half the headers
	head := dial()
	io.WriteString(head, "GET / HTTP/1.1\r\nHost: "+addr+"\r\n")
	// nothing at all
	idle := dial()
	start := time.Now()
	for name, conn := range map[string]net.Conn{"slow body": body, "slow headers": head, "silent": idle} {
		if !closedWithin(conn, 3*time.Second) {
			t.Errorf("%s: connection still open after %v", name, time.Since(start))
		}
	}
	// the cap: four connections held, the fifth refused at once
	for i := 0; i < 4; i++ {
		io.WriteString(dial(), "GET / HTTP/1.1\r\nHost: "+addr+"\r\n")
	}
	fifth := dial()
	io.WriteString(fifth, "GET /api/variants HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	fifth.SetReadDeadline(time.Now().Add(3 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(fifth), nil)
	if err != nil {
		t.Fatalf("the connection over the cap: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "too many connections") {
		t.Errorf("the connection over the cap: %d %s", res.StatusCode, b)
	}
	// once they are cut off, room again; an engine request longer than
	// every timeout above runs to its end, its events streamed
	time.Sleep(500 * time.Millisecond)
	c := &client{t: t, base: "http://" + addr}
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"level":"max","side":"black","movetime":0.8}`)
	req, _ := http.NewRequest("POST", c.base+"/api/games/"+s.ID+"/engine", nil)
	req.Header.Set("Accept", "text/event-stream")
	start = time.Now()
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Body.Close()
	all, err := io.ReadAll(r2.Body)
	if err != nil || !strings.Contains(string(all), "event: done") {
		t.Fatalf("engine request after %v: %v\n%s", time.Since(start), err, all)
	}
	var last string
	for _, l := range strings.Split(string(all), "\n") {
		if strings.HasPrefix(l, "data: ") {
			last = l[6:]
		}
	}
	var reply EngineReply
	if err := json.Unmarshal([]byte(last), &reply); err != nil || len(reply.State.History) != 1 {
		t.Errorf("engine reply %s: %v", last, err)
	}
}
