//go:build js && wasm

package main

import (
	"net/http"
	"strings"
	"syscall/js"
	"time"

	"github.com/damaengine/damaengine/serve"
)

// addr is the address the handlers believe they serve, for their Host
// check: the worker's requests name it.
const addr = "127.0.0.1:80"

// writer sends an answer to the worker as it is written.
type writer struct {
	reply  js.Value
	header http.Header
	sent   bool
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(code int) {
	if w.sent {
		return
	}
	w.sent = true
	w.reply.Invoke("head", code, w.header.Get("Content-Type"))
}

func (w *writer) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.reply.Invoke("chunk", string(b))
	return len(b), nil
}

func (w *writer) Flush() {}

func run() {
	s := serve.New(serve.Options{
		Addr:        addr,
		MaxGames:    8,
		TableLog2:   20, // 16 MB: the page has one game at a time
		MaxMoveTime: 10 * time.Second,
	})
	js.Global().Set("damaengineHandle", js.FuncOf(func(this js.Value, args []js.Value) any {
		method, path, accept, body, reply := args[0].String(), args[1].String(), args[2].String(), args[3].String(), args[4]
		go func() {
			w := &writer{reply: reply, header: http.Header{}}
			req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
			if err != nil {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"bad request"}`))
				reply.Invoke("end")
				return
			}
			req.Host = addr
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			if accept != "" {
				req.Header.Set("Accept", accept)
			}
			s.ServeHTTP(w, req)
			w.WriteHeader(http.StatusOK)
			reply.Invoke("end")
		}()
		return nil
	}))
	if f := js.Global().Get("damaengineReady"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
	select {}
}
