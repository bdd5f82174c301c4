//go:build js && wasm && wasmbench

package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
)

// With the wasmbench tag the engine also offers damaengineBench(variant,
// depth): damaengine bench's positions searched to depth, answered as JSON
// {nodes, ms}, to compare WebAssembly's nodes/s with the native binary's.
// Not in the site's engine (docs/browser.md has the figures).
func init() {
	js.Global().Set("damaengineBench", js.FuncOf(func(this js.Value, args []js.Value) any {
		v, err := movegen.LookupRules(args[0].String())
		if err != nil {
			return `{"error":"` + err.Error() + `"}`
		}
		n, el, err := bench.Bench(v, args[1].Int(), func(bench.BenchLine) {})
		if err != nil {
			return `{"error":"` + err.Error() + `"}`
		}
		b, _ := json.Marshal(map[string]any{"nodes": n, "ms": el.Milliseconds()})
		return string(b)
	}))
}
