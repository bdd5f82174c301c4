//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

func run() {
	fmt.Fprintln(os.Stderr, "serve/wasm runs in a browser: build it with GOOS=js GOARCH=wasm (damaengine serve --export does)")
	os.Exit(2)
}
