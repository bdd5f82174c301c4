// Command wasm is damaengine's engine for the static site (damaengine serve
// --export): the web front end's HTTP handlers (package serve) compiled to
// WebAssembly and run in a Web Worker (static/worker.js), so the page plays
// every variant and level with no damaengine process. Build it with
//
//	GOOS=js GOARCH=wasm go build -o engine.wasm ./serve/wasm
//
// The worker calls damaengineHandle(method, path, accept, body, reply) for
// each request of the page; reply("head", status, contentType),
// reply("chunk", text) and reply("end") carry the answer back, a chunk at
// each write, so the engine's reports stream while it thinks.
package main

func main() { run() }
