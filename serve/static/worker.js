// damaengine's engine in the page: the Web Worker of the static site
// (damaengine serve --export). It runs engine.wasm (the web front end's
// handlers compiled to WebAssembly, serve/wasm) and answers the page's API
// requests as the damaengine process would. A search runs to its end here:
// the page stops one by ending this worker and starting another.
"use strict";
importScripts("wasm_exec.js");

const queue = [];
let ready = false;

function handle(m) {
  self.damaengineHandle(m.method, m.path, m.accept || "", m.body || "", (kind, a, b) => {
    if (kind === "head") self.postMessage({ id: m.id, type: "head", status: a, contentType: b });
    else if (kind === "chunk") self.postMessage({ id: m.id, type: "chunk", data: a });
    else self.postMessage({ id: m.id, type: "end" });
  });
}

self.damaengineReady = () => {
  ready = true;
  while (queue.length) handle(queue.shift());
};

self.onmessage = (ev) => { if (ready) handle(ev.data); else queue.push(ev.data); };

const go = new Go();
WebAssembly.instantiateStreaming(fetch("engine.wasm"), go.importObject)
  .catch(() => fetch("engine.wasm").then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject)))
  .then((r) => go.run(r.instance))
  .catch((e) => {
    for (const m of queue) self.postMessage({ id: m.id, type: "error", error: "the engine (engine.wasm) did not load: " + e });
    queue.length = 0;
    self.postMessage({ id: 0, type: "fatal", error: String(e) });
  });
