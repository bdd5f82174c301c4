// Runs the site's engine (engine.wasm, serve/wasm) under node the way the
// page's worker does: node wasm_node.js WASM_EXEC_JS ENGINE_WASM play|bench [ARGS].
// play: for each variant named, a new game and one engine move (a few
// hundred nodes), printed as JSON lines {variant, status, move, legal}.
// bench: damaengineBench(variant, depth) (an engine built with -tags
// wasmbench), printed as JSON.
"use strict";
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto");
const [wasmExec, wasmFile, mode, ...rest] = process.argv.slice(2);
require(wasmExec);

function call(method, path, body, accept) {
  return new Promise((resolve) => {
    let status = 0, text = "";
    globalThis.damaengineHandle(method, path, accept || "", body ? JSON.stringify(body) : "", (kind, a) => {
      if (kind === "head") status = a;
      else if (kind === "chunk") text += a;
      else resolve({ status, text });
    });
  });
}

async function play() {
  for (const variant of rest) {
    const g = await call("POST", "/api/games", { variant, side: "black", level: "8", nodes: 500 });
    const st = JSON.parse(g.text);
    // the engine has White: its move must be one of White's legal moves at the start
    const white = await call("POST", "/api/games", { variant, side: "white", nodes: 500 });
    const moves = JSON.parse(white.text).moves.map((m) => m.text);
    const r = await call("POST", `/api/games/${st.id}/engine`, null, "text/event-stream");
    const done = r.text.split("\n\n").find((c) => c.startsWith("event: done"));
    const reply = done ? JSON.parse(done.slice(done.indexOf("data:") + 5)) : null;
    const infos = r.text.split("\n\n").filter((c) => c.startsWith("event: info")).length;
    console.log(JSON.stringify({ variant, status: g.status, engine: r.status, move: reply && reply.move.text, legal: !!reply && moves.includes(reply.move.text), infos, plies: reply && reply.state.history.length }));
  }
}

globalThis.damaengineReady = () => {
  (mode === "bench" ? Promise.resolve().then(() => console.log(globalThis.damaengineBench(rest[0], Number(rest[1])))) : play())
    .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
};
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject).then((r) => go.run(r.instance)).catch((e) => { console.error(e); process.exit(1); });
