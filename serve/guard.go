package serve

// What keeps the served mode safe to leave running: no other web page can
// drive it (the Host check against DNS rebinding, the Origin check and the
// JSON content type against cross-site requests), no client can hold its
// connections (timeouts, a cap on the connections of one address), and no
// request makes the engine search without end (the numeric fields are
// checked before they are converted; server.go, engine.go).

import (
	"context"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of the connection limits (Options).
const (
	defaultHeaderTimeout = 5 * time.Second
	defaultBodyTimeout   = 10 * time.Second
	defaultWriteTimeout  = 10 * time.Second
	defaultConnIdle      = time.Minute
	defaultConnsPerIP    = 16
	// engineSlack is added to an engine request's time bound for its
	// read and write deadlines: the search's own overrun and the reply.
	engineSlack = 10 * time.Second
)

// isLocalName reports whether host (no port) is a name or address of the
// local machine's loopback: localhost or a loopback IP.
func isLocalName(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.EqualFold(host, "localhost.") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// splitHost splits a Host header into its name (brackets removed, lower
// case) and port ("" when absent).
func splitHost(h string) (host, port string, ok bool) {
	if h == "" {
		return "", "", false
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		var err error
		host, port, err = net.SplitHostPort(h)
		if err != nil {
			return "", "", false
		}
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	}
	return strings.ToLower(host), port, true
}

// checkHost refuses a request whose Host header does not name the address
// the request came in on: that address itself (IP and port), or, on a
// loopback address, a localhost form of it (localhost, 127.0.0.1, [::1]) at
// the same port; or a name the server was told to answer to (Options.Hosts,
// the --addr name). A page on another site that the browser was made to
// send here by DNS rebinding carries its own site's name, and is refused.
func (s *Server) checkHost(r *http.Request) error {
	host, port, ok := splitHost(r.Host)
	if !ok {
		return errorf(http.StatusForbidden, "no Host header: this server answers only requests that name it")
	}
	if port == "" {
		port = "80"
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	var lhost, lport string
	if local != nil {
		lhost, lport, _ = net.SplitHostPort(local.String())
	} else if s.opt.Addr != "" {
		lhost, lport, _ = net.SplitHostPort(s.opt.Addr)
	}
	lip := net.ParseIP(lhost)
	named := false
	if ip := net.ParseIP(host); ip != nil && lip != nil && ip.Equal(lip) {
		named = true
	}
	if isLocalName(host) && (lhost == "" || lip != nil && lip.IsLoopback()) {
		named = true
	}
	for _, h := range s.opt.Hosts {
		named = named || strings.EqualFold(h, host)
	}
	if !named {
		return errorf(http.StatusForbidden, "Host %q is not this server's address (%s, or localhost on a loopback address): refused, as a page of another site would send it", clipText(r.Host), net.JoinHostPort(lhost, lport))
	}
	if lport != "" && port != lport {
		return errorf(http.StatusForbidden, "Host %q names port %s, this server listens on %s", clipText(r.Host), port, lport)
	}
	return nil
}

// checkOrigin refuses a request that changes state (anything but GET, HEAD
// and OPTIONS) sent by a page other than the server's own: its Origin
// header, when present, must be http:// and the Host it was sent to.
// Programs such as curl send no Origin and are let through.
func checkOrigin(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	o, ok := r.Header["Origin"]
	if !ok {
		return nil
	}
	if len(o) == 1 && strings.EqualFold(o[0], "http://"+r.Host) {
		return nil
	}
	return errorf(http.StatusForbidden, "Origin %q is not this server's page (http://%s): a page of another site may not play here", clipText(strings.Join(o, ", ")), clipText(r.Host))
}

// checkContentType refuses an API request that changes state with a body
// type other than JSON (text/plain and forms are what a page of another
// site can send without asking first); a request without a body may come
// without a type.
func checkContentType(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil // a body without a type is refused when it is read (decode)
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type %q: the API takes application/json only", clipText(ct))
	}
	return nil
}

// clipText bounds a client's text repeated in an error.
func clipText(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// guard runs the checks every request passes before the handlers.
func (s *Server) guard(r *http.Request) error {
	if err := s.checkHost(r); err != nil {
		return err
	}
	if err := checkOrigin(r); err != nil {
		return err
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		return checkContentType(r)
	}
	return nil
}

// HTTPServer returns the http.Server that serves s, with its timeouts:
// the headers must come within Options.HeaderTimeout and the whole request
// within Options.BodyTimeout, the answer must be written within
// Options.WriteTimeout (an engine request gets its time bound more, see
// engine.go), and a kept-alive connection idle for Options.ConnIdle is
// closed. Serve it on Listener(ln).
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.opt.HeaderTimeout,
		ReadTimeout:       s.opt.BodyTimeout,
		WriteTimeout:      s.opt.WriteTimeout,
		IdleTimeout:       s.opt.ConnIdle,
		MaxHeaderBytes:    64 << 10,
	}
}

// extendDeadlines gives a long request (the engine's) d more to run: its
// connection's read deadline (the server watches the connection to notice
// a client that goes away) and write deadline.
func extendDeadlines(w http.ResponseWriter, d time.Duration) {
	rc := http.NewResponseController(w)
	t := time.Now().Add(d)
	_ = rc.SetReadDeadline(t)
	_ = rc.SetWriteDeadline(t)
}

// Listener wraps ln so that one client address holds at most
// Options.MaxConnsPerClient connections at once: a connection beyond it is
// answered 503 and closed at once.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &capListener{Listener: ln, max: s.opt.MaxConnsPerClient, open: map[string]int{}}
}

type capListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(ip); err == nil {
			ip = h
		}
		l.mu.Lock()
		if l.open[ip] >= l.max {
			n := l.open[ip]
			l.mu.Unlock()
			go refuseConn(c, fmt.Sprintf("too many connections from %s (%d open, at most %d)", ip, n, l.max))
			continue
		}
		l.open[ip]++
		l.mu.Unlock()
		return &capConn{Conn: c, release: func() {
			l.mu.Lock()
			if l.open[ip]--; l.open[ip] <= 0 {
				delete(l.open, ip)
			}
			l.mu.Unlock()
		}}, nil
	}
}

// refuseConn answers a connection over the cap with 503 and closes it.
func refuseConn(c net.Conn, msg string) {
	body := `{"error":` + strconv.Quote(msg) + "}\n"
	c.SetDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\nRetry-After: 1\r\n\r\n%s", len(body), body)
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
		// let the client's request arrive before closing, so that it
		// reads the answer rather than a reset
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil {
				break
			}
		}
	}
	c.Close()
}

type capConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *capConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// Serve serves s on ln (wrapped by Listener) until ctx is done, then shuts
// down, giving requests under way a moment to end.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := s.HTTPServer()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err := srv.Serve(s.Listener(ln))
	if err == http.ErrServerClosed {
		return nil
	}
	return err
}
