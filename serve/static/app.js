// damaengine's play page: draws the board as SVG from the game's state and
// sends moves to the JSON API. The API is answered by the damaengine
// process (damaengine serve) or, on a static site (damaengine serve
// --export), by the engine compiled to WebAssembly in a Web Worker
// (worker.js): the same handlers, the same answers. The page keeps each
// game in localStorage (its id in the URL) and brings it back after a
// reload; the player's rating per variant is kept there too (rating.js).
"use strict";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const WASM = document.documentElement.dataset.engine === "wasm";

let st = null;          // the game state from the engine
let rec = null;         // the page's record of the game (localStorage)
let flipped = false;    // Black at the bottom
let sel = [];           // squares clicked so far for the move being entered
let busy = false;       // a request (or the engine) is running
let thought = null;     // the engine's last report
let view = null;        // an earlier position looked at: {ply, squares, last}
let aborter = null;     // stops the engine's request
let levelsInfo = [];

// ---- the engine behind the API: fetch, or the worker ----

let worker = null, workerSeq = 0;
const pending = new Map();

function startWorker() {
  worker = new Worker("worker.js");
  worker.onmessage = (ev) => {
    const m = ev.data, p = pending.get(m.id);
    if (!p) return;
    if (m.type === "head") {
      const stream = new ReadableStream({ start(ctl) { p.ctl = ctl; } });
      p.resolve(new Response(stream, { status: m.status, headers: { "Content-Type": m.contentType || "application/json" } }));
    } else if (m.type === "chunk") {
      p.ctl.enqueue(new TextEncoder().encode(m.data));
    } else if (m.type === "end") {
      if (p.ctl) p.ctl.close();
      pending.delete(m.id);
    } else if (m.type === "error") {
      p.reject(new Error(m.error));
      pending.delete(m.id);
    }
  };
  worker.onerror = (ev) => showError("the engine (WebAssembly) failed to load: " + (ev.message || "see the console"));
}

// stopWorker ends a search the only way a WebAssembly engine can be
// stopped mid-search: the worker is ended and a new one started. The
// games it kept are brought back from the page's records on demand.
function stopWorker() {
  if (worker) worker.terminate();
  for (const p of pending.values()) {
    try { if (p.ctl) p.ctl.error(new DOMException("stopped", "AbortError")); else p.reject(new DOMException("stopped", "AbortError")); } catch (_) {}
  }
  pending.clear();
  startWorker();
}

function apiFetch(path, opt) {
  opt = opt || {};
  if (!WASM) return fetch(path, opt);
  if (!worker) startWorker();
  return new Promise((resolve, reject) => {
    const id = ++workerSeq;
    pending.set(id, { resolve, reject });
    const headers = opt.headers || {};
    worker.postMessage({ id, method: opt.method || "GET", path, body: opt.body || "", accept: headers.Accept || "" });
    if (opt.signal) opt.signal.addEventListener("abort", () => { if (pending.has(id)) stopWorker(); });
  });
}

async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) {
    opt.headers["Content-Type"] = "application/json";
    opt.body = JSON.stringify(body);
  }
  const res = await apiFetch(path, opt);
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!res.ok) {
    const e = new Error((data && data.error) || text || res.statusText);
    e.status = res.status;
    throw e;
  }
  return data;
}

// gameApi calls the game's API; a game the engine no longer has (the
// server restarted or dropped it, the worker was restarted) is brought
// back from the page's record first.
async function gameApi(method, suffix, body) {
  try {
    return await api(method, `/api/games/${st.id}${suffix}`, body);
  } catch (e) {
    if (e.status !== 404 || !rec) throw e;
    st = await restore(rec);
    return await api(method, `/api/games/${st.id}${suffix}`, body);
  }
}

// ---- the page's records: games and settings in localStorage ----

const store = (() => { try { localStorage.setItem("damaengine.t", "1"); return localStorage; } catch (_) { return null; } })();
const memStore = {};
function getItem(k) { return store ? store.getItem(k) : (memStore[k] ?? null); }
function setItem(k, v) { if (store) { try { store.setItem(k, v); } catch (_) {} } else memStore[k] = v; }

function loadRec(id) { try { return JSON.parse(getItem("damaengine.game." + id)); } catch (_) { return null; } }

function saveRec() {
  if (!rec || !st) return;
  rec.id = st.id; rec.moves = st.history.slice(); rec.over = st.over;
  rec.ended = st.end === "resigned" || st.end === "agreed" ? st.end : "";
  rec.updated = new Date().toISOString();
  setItem("damaengine.game." + rec.id, JSON.stringify(rec));
  setItem("damaengine.last", rec.id);
  const q = new URLSearchParams(location.search);
  if (q.get("game") !== rec.id) {
    for (const k of ["variant", "level", "side"]) q.delete(k);
    q.set("game", rec.id);
    history.replaceState(null, "", "?" + q.toString());
  }
}

function saveSettings() {
  setItem("damaengine.settings", JSON.stringify({ variant: $("variant").value, side: $("side").value, level: $("level").value }));
}

// restore makes the engine keep the game of r again: its start, its moves,
// its end if it was resigned or agreed.
async function restore(r) {
  const body = { id: r.id, variant: r.variant, side: r.side, level: r.level, fen: r.start, moves: r.moves || [] };
  if (r.ended) body.ended = r.ended;
  if (r.nodes) body.nodes = r.nodes;
  if (r.movetime) body.movetime = r.movetime;
  try {
    return await api("POST", "/api/games", body);
  } catch (e) {
    if (e.status === 409) return await api("GET", `/api/games/${r.id}`); // kept after all
    throw e;
  }
}

// ---- ratings ----

let ratings = Rating.load({ getItem });

function unratedWhy(r) {
  if (!r) return "";
  if (r.custom) return "a game from a set-up position or with changed engine limits is unrated";
  if (r.takeback) return "unrated: you took a move back";
  if (r.assisted) return "unrated: the engine played a move for you";
  return "";
}

// rateIfDone rates a finished game once, and returns the words for it.
function rateIfDone() {
  if (!st || !st.over || !rec) return "";
  if (rec.rating) return rec.rating;
  const why = unratedWhy(rec);
  if (why) { rec.rating = why[0].toUpperCase() + why.slice(1) + "."; saveRec(); return rec.rating; }
  const score = st.winner === "" || !st.winner ? 0.5 : (st.winner === st.human ? 1 : 0);
  const lr = Rating.levelRating(st.variant, st.level);
  const { before, after } = Rating.rate(ratings, st.variant, st.level, score);
  Rating.save({ setItem }, ratings);
  const d = Math.round(after) - Math.round(before);
  rec.rating = `Your ${st.variant} rating: ${Math.round(before)} → ${Math.round(after)} (${d >= 0 ? "+" : ""}${d}) against level ${st.level} (${lr.rating}${lr.provisional ? ", provisional" : ""}).`;
  saveRec();
  showRatings();
  return rec.rating;
}

function showRatings() {
  const v = $("variant").value;
  const p = Rating.player(ratings, v);
  $("myrating").textContent = `Your ${v} rating: ${Math.round(p.rating)}` + (p.games ? ` (${p.games} game${p.games === 1 ? "" : "s"})` : " (no games yet)");
  const sel = $("level"), keep = sel.value;
  sel.textContent = "";
  for (const l of levelsInfo) {
    const lr = Rating.levelRating(v, l);
    sel.add(new Option(lr ? `${l} — ${lr.provisional ? "≈" : ""}${lr.rating}` : l, l));
  }
  if (keep) sel.value = keep;
  const through = Rating.measuredThrough(v);
  // max has Italian's rung over level 8 in every variant (rating.js)
  const borrowed = v === "italian" ? "" : ", and Italian's rung above level 8 stands in for it";
  $("levelnote").textContent = through === "8"
    ? `Level ratings in ${v}: the ladder measured in self-play (docs/browser.md), level 1 set at 1000; ≈ max depends on the machine${borrowed}.`
    : through
      ? `Level ratings in ${v}: levels 1–${through} measured in self-play (docs/browser.md), level 1 set at 1000; ≈ above: the Italian rungs stand in.`
      : `Level ratings in ${v} are provisional (≈): its ladder was never measured; the Italian ladder stands in.`;
}

function exportRatings() {
  const blob = new Blob([JSON.stringify(ratings, null, 1)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "damaengine-ratings.json";
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function importRatings(file) {
  try {
    ratings = Rating.importText(await file.text());
    Rating.save({ setItem }, ratings);
    showRatings();
    say("Ratings imported.");
  } catch (e) { showError("import: " + e.message); }
}

// ---- drawing ----

function showError(msg) { $("error").textContent = msg || ""; }
function say(msg) { $("note").textContent = msg || ""; }

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// geometry: squares of 10 units, a margin of 6 at the left and bottom for
// the rank numbers and file letters, 2 at the top and right.
function geom() {
  const c = 10, ml = 6, mt = 2;
  const w = ml + st.files * c + mt, h = mt + st.ranks * c + ml;
  const x = (f) => ml + (flipped ? st.files - 1 - f : f) * c;
  const y = (r) => mt + (flipped ? r : st.ranks - 1 - r) * c;
  return { c, ml, mt, w, h, x, y };
}

function shownSquares() { return view ? view.squares : st.squares; }
function shownLast() { return view ? view.last : st.last; }

function byName() {
  const map = {};
  for (const s of shownSquares()) map[s.n] = s;
  return map;
}

// candidates are the legal moves that begin with the squares clicked.
function candidates() {
  if (!myTurn()) return [];
  return st.moves.filter((mv) => sel.every((n, i) => mv.path[i] === n));
}

function myTurn() {
  return st && !st.over && !busy && !view && st.toMove === st.human;
}

function drawPiece(g, code, cx, cy, c, extra) {
  const white = code[0] === "w" || code[0] === "W";
  const king = code.length > 0 && code[0] === code[0].toUpperCase();
  const damone = code.length === 2;
  const r = c * 0.39;
  const grp = el("g", Object.assign({ class: "piece", "data-piece": code }, extra || {}), g);
  const body = white ? "#f3ece0" : "#2b2420";
  const rim = white ? "#9c8a76" : "#0d0b0a";
  el("circle", { cx, cy: cy + c * 0.035, r, fill: "rgba(0,0,0,.35)" }, grp);
  el("circle", { cx, cy, r, fill: body, stroke: rim, "stroke-width": c * 0.03 }, grp);
  el("circle", { cx, cy, r: r * 0.72, fill: "none", stroke: white ? "#cbbba6" : "#4a3f38", "stroke-width": c * 0.03 }, grp);
  if (king) {
    const s = r * 0.55, gold = "#d8a20f";
    const pts = [
      [-1, 0.55], [-1, -0.35], [-0.5, 0.1], [0, -0.6], [0.5, 0.1], [1, -0.35], [1, 0.55],
    ].map(([a, b]) => (cx + a * s) + "," + (cy + b * s)).join(" ");
    el("polygon", { points: pts, fill: gold, stroke: "#7a5a00", "stroke-width": c * 0.02 }, grp);
    if (damone) {
      el("circle", { cx, cy, r: r * 0.9, fill: "none", stroke: gold, "stroke-width": c * 0.07 }, grp);
      el("circle", { cx, cy: cy - s * 0.85, r: s * 0.22, fill: gold, stroke: "#7a5a00", "stroke-width": c * 0.015 }, grp);
    }
  }
  return grp;
}

function draw() {
  const svg = $("board");
  svg.textContent = "";
  if (!st) return;
  const { c, ml, w, h, x, y } = geom();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const sq = byName();
  const squaresShown = shownSquares();
  const full = !st.diagonal; // Turkish: every square is played on
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 1.5, fill: "#3b2d22" }, svg);
  // every cell: light where no piece ever stands
  for (let f = 0; f < st.files; f++) {
    for (let r = 0; r < st.ranks; r++) {
      el("rect", { x: x(f), y: y(r), width: c, height: c, fill: full ? ((f + r) % 2 ? "#e2c28f" : "#d9b57c") : "#efdcbc" }, svg);
    }
  }
  const last = shownLast();
  const lastSet = new Set(last ? [last.path[0], last.path[last.path.length - 1]] : []);
  const cands = candidates();
  const from = new Set(sel.length === 0 ? cands.map((mv) => mv.path[0]) : []);
  const next = new Set(sel.length === 0 ? [] : cands.map((mv) => mv.path[sel.length]).filter(Boolean));
  for (const s of squaresShown) {
    const sx = x(s.f), sy = y(s.r);
    let fill = full ? ((s.f + s.r) % 2 ? "#e2c28f" : "#d9b57c") : "#8b5a3c";
    el("rect", { x: sx, y: sy, width: c, height: c, fill, class: "sq", "data-n": s.n }, svg);
    if (lastSet.has(s.n)) el("rect", { x: sx, y: sy, width: c, height: c, fill: "rgba(255,210,40,.42)", class: "lastsq", "pointer-events": "none" }, svg);
    if (sel.includes(s.n)) el("rect", { x: sx, y: sy, width: c, height: c, fill: "rgba(60,140,255,.45)", "pointer-events": "none" }, svg);
    if (from.has(s.n)) el("rect", { x: sx + c * 0.04, y: sy + c * 0.04, width: c * 0.92, height: c * 0.92, fill: "none", stroke: "rgba(120,230,120,.8)", "stroke-width": c * 0.05, "pointer-events": "none" }, svg);
    if (st.squares.length < 64 && !/[a-z]/.test(s.n)) {
      el("text", { x: sx + c * 0.05, y: sy + c * 0.19, class: "name" }, svg).textContent = s.n;
    }
  }
  // files and ranks around the board
  for (let f = 0; f < st.files; f++) {
    el("text", { x: x(f) + c / 2, y: h - ml / 2 + 1.2, "text-anchor": "middle", class: "coord" }, svg).textContent = String.fromCharCode(97 + f);
  }
  for (let r = 0; r < st.ranks; r++) {
    el("text", { x: ml / 2, y: y(r) + c / 2 + 1.2, "text-anchor": "middle", class: "coord" }, svg).textContent = r + 1;
  }
  const pieces = el("g", { "pointer-events": "none" }, svg);
  // the last move's path and the pieces it took
  if (last) {
    const pts = last.path.map((n) => sq[n]).filter(Boolean).map((s) => (x(s.f) + c / 2) + "," + (y(s.r) + c / 2));
    el("polyline", { points: pts.join(" "), fill: "none", stroke: "rgba(255,190,0,.75)", "stroke-width": c * 0.08, "stroke-linecap": "round", "stroke-linejoin": "round" }, pieces);
    (last.captured || []).forEach((n, i) => {
      const s = sq[n];
      if (!s || s.p) return;
      const g = drawPiece(pieces, last.pieces[i], x(s.f) + c / 2, y(s.r) + c / 2, c, { opacity: 0.33, class: "ghost" });
      const a = c * 0.22, cx = x(s.f) + c / 2, cy = y(s.r) + c / 2;
      el("path", { d: `M${cx - a},${cy - a}L${cx + a},${cy + a}M${cx + a},${cy - a}L${cx - a},${cy + a}`, stroke: "#c0161b", "stroke-width": c * 0.08, "stroke-linecap": "round" }, g.parentNode);
    });
  }
  for (const s of squaresShown) {
    if (s.p) drawPiece(pieces, s.p, x(s.f) + c / 2, y(s.r) + c / 2, c, { "data-n": s.n });
  }
  if (last && last.promote) {
    const s = sq[last.path[last.path.length - 1]];
    el("circle", { cx: x(s.f) + c / 2, cy: y(s.r) + c / 2, r: c * 0.47, fill: "none", stroke: "#ffd84a", "stroke-width": c * 0.05, class: "promoted" }, pieces);
  }
  for (const n of next) {
    const s = sq[n];
    el("circle", { cx: x(s.f) + c / 2, cy: y(s.r) + c / 2, r: c * 0.14, fill: "rgba(40,200,90,.85)", stroke: "#0b5d28", "stroke-width": c * 0.02, class: "target" }, pieces);
  }
  svg.dataset.fen = st.fen;
  svg.dataset.plies = st.history.length;
  svg.dataset.busy = busy ? "1" : "0";
  svg.dataset.view = view ? String(view.ply) : "";
  document.body.classList.toggle("viewing", !!view);
  drawTrays();
  drawPanel();
}

function drawTrays() {
  // each tray shows the pieces its side has captured
  const top = flipped ? "white" : "black";
  for (const [id, side] of [["tray-top", top], ["tray-bottom", top === "white" ? "black" : "white"]]) {
    const t = $(id);
    t.textContent = "";
    const lost = side === "white" ? st.taken[1] : st.taken[0]; // the opponent's pieces taken
    const label = document.createElement("span");
    label.textContent = `${side === st.human ? "You" : "Engine (level " + st.level + ")"} (${side})` + (lost ? ` took ${lost}:` : "");
    t.appendChild(label);
    for (let i = 0; i < Math.min(lost, 20); i++) {
      const s = el("svg", { viewBox: "0 0 10 10" }, t);
      drawPiece(s, side === "white" ? "b" : "w", 5, 5, 10);
    }
  }
}

const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;

// endingText words the end of the game for the person: who won and why.
function endingText() {
  const you = st.human, eng = st.human === "white" ? "black" : "white";
  const who = (side) => side === you ? `you (${side})` : `the engine (${side})`;
  const loser = st.winner === you ? eng : you;
  switch (st.end) {
    case "no-move": return `${st.winner === you ? "You won" : "You lost"} — ${who(loser)} ${loser === you ? "have" : "has"} no legal move`;
    case "no-damone": return `${st.winner === you ? "You won" : "You lost"} — ${who(loser)} ${loser === you ? "have" : "has"} no Damone left`;
    case "resigned": return st.winner === you ? "You won — the engine resigned" : "You lost — you resigned";
    case "repetition": return "Draw — by repetition (the same position a third time)";
    case "move-rule": return "Draw — by the move rule (too many moves without a capture or a man's move)";
    case "agreed": return "Draw — by agreement";
    case "too-long": return "Draw — the game reached its length limit";
  }
  return `Game over: ${st.status} (${st.result})`;
}

// scoreText words the engine's report from the player's side.
function scoreText(t) {
  const sign = st.human === "white" ? 1 : -1;
  if (t.mate) {
    const m = t.mate * sign;
    return m > 0 ? `You can win in ${m} plies` : `The engine wins in ${-m} plies`;
  }
  const s = t.score * sign / 100;
  return `Score for you: ${s >= 0 ? "+" : "−"}${Math.abs(s).toFixed(2)} men`;
}

function drawPanel() {
  let s;
  if (view) {
    s = view.ply === 0 ? "Looking at the start position" : `Looking back: after ${plyLabel(view.ply - 1)} ${st.history[view.ply - 1]}`;
  } else if (st.over) {
    s = endingText();
  } else if (busy && st.toMove !== st.human) {
    s = "Engine is thinking…";
  } else if (st.toMove === st.human) {
    s = sel.length ? `Your move: ${sel.join("–")}…` : `Your move (${st.human})`;
  } else {
    s = "Engine to move — press “Engine move”";
  }
  if (!view && st.last && st.last.promote && !st.over) s += " · last move crowned";
  $("status").textContent = s;
  $("status").dataset.end = st.over ? (st.winner ? (st.winner === st.human ? "won" : "lost") : "draw") : "";
  $("rating").textContent = st.over ? rateIfDone() : (unratedWhy(rec) ? cap(unratedWhy(rec)) + "." : `Rated game against level ${st.level}.`);
  if (thought && !st.over) {
    $("score").textContent = scoreText(thought);
    $("depth").textContent = `depth ${thought.depth} · ${thought.nodes} nodes`;
    $("pv").textContent = (thought.pv || []).join(" ");
  } else {
    $("score").textContent = ""; $("depth").textContent = ""; $("pv").textContent = "";
  }
  const h = $("history");
  h.textContent = "";
  for (let i = 0; i < st.history.length; i += 2) {
    const li = document.createElement("li");
    for (const j of [i, i + 1]) {
      if (j >= st.history.length) break;
      const b = document.createElement("button");
      b.type = "button"; b.className = "ply"; b.textContent = st.history[j]; b.dataset.ply = j + 1;
      if (view && view.ply === j + 1) b.classList.add("current");
      b.title = "look at the position after this move";
      li.appendChild(b);
    }
    h.appendChild(li);
  }
  if (!view) h.scrollTop = h.scrollHeight;
  $("backtogame").hidden = !view;
  document.body.classList.toggle("thinking", busy);
  $("resign").disabled = st.over; $("draw").disabled = st.over;
  $("movetext").placeholder = st.moves.length ? `type a move, e.g. ${st.moves[0].text}` : "no move";
}

function plyLabel(i) { return `${Math.floor(i / 2) + 1}.${i % 2 ? ".." : ""}`; }

function update(newSt) {
  st = newSt;
  saveRec();
}

async function playMove(text) {
  if (busy) return;
  busy = true; showError(""); say("");
  try {
    update(await gameApi("POST", "/move", { move: text }));
    sel = [];
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
    draw();
  }
  if (!st.over && st.toMove !== st.human) engineMove();
}

// whyNot says why a click on square n did nothing.
function whyNot(n) {
  if (!st) return "";
  if (view) return "You are looking back at an earlier position: “Back to the game” (or →) to play.";
  if (st.over) return "The game is over: “New game” to play again.";
  if (busy) return "The engine is thinking: wait for its move, or start a new game.";
  if (st.toMove !== st.human) return "It is the engine's move: press “Engine move”.";
  const s = byName()[n];
  const mine = s && s.p && (s.p[0].toLowerCase() === "w") === (st.human === "white");
  const captures = st.moves.filter((mv) => mv.captured && mv.captured.length);
  const forced = captures.length > 0 && captures.length === st.moves.length;
  const list = (ms) => {
    const names = [...new Set(ms.map((mv) => mv.text))];
    return names.length <= 6 ? names.join(" or ") : names.slice(0, 6).join(", ") + ` and ${names.length - 6} more`;
  };
  if (sel.length > 0) {
    const from = sel[0];
    if (forced) return `A capture is mandatory: ${list(captures.filter((mv) => mv.path[0] === from).length ? captures.filter((mv) => mv.path[0] === from) : captures)}.`;
    return `${from} cannot go to ${n}: it can play ${list(st.moves.filter((mv) => mv.path[0] === from))}.`;
  }
  if (s && s.p && !mine) return `That is the engine's piece: you play ${st.human}.`;
  if (!s || !s.p) return "Click one of your pieces: those that can move are outlined in green.";
  if (forced) return `A capture is mandatory: ${list(captures)}.`;
  return "This piece cannot move.";
}

function clickSquare(n) {
  if (!myTurn()) { say(whyNot(n)); return; }
  say("");
  const all = st.moves;
  if (sel.length > 0) {
    const c = candidates();
    const onward = c.filter((mv) => mv.path[sel.length] === n);
    if (onward.length > 0) {
      sel.push(n);
      const done = onward.filter((mv) => mv.path.length === sel.length);
      if (done.length === 1 && onward.length === 1) { playMove(done[0].text); return; }
      draw();
      return;
    }
    // the end square alone picks a move when only one ends there
    const ends = c.filter((mv) => mv.path[mv.path.length - 1] === n);
    if (ends.length === 1) { playMove(ends[0].text); return; }
    if (sel.length === 1 && sel[0] === n) { sel = []; draw(); return; }
    if (!all.some((mv) => mv.path[0] === n)) { say(whyNot(n)); return; }
  }
  if (all.some((mv) => mv.path[0] === n)) {
    sel = [n];
  } else {
    sel = [];
    say(whyNot(n));
  }
  draw();
}

function hitSquare(ev) {
  const t = ev.target.closest && ev.target.closest("[data-n]");
  if (t) return t.getAttribute("data-n");
  // pieces do not take pointer events; find the square under the point
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const { c, x, y } = geom();
  for (const s of st.squares) {
    if (p.x >= x(s.f) && p.x < x(s.f) + c && p.y >= y(s.r) && p.y < y(s.r) + c) return s.n;
  }
  return null;
}

async function engineMove() {
  if (busy || !st || st.over) return;
  if (view) { view = null; }
  const forMe = st.toMove === st.human;
  if (forMe && rec && !rec.assisted) { rec.assisted = true; saveRec(); }
  busy = true; showError(""); say(""); thought = null; draw();
  const myAbort = new AbortController();
  aborter = myAbort;
  try {
    let res = await apiFetch(`/api/games/${st.id}/engine`, { method: "POST", headers: { Accept: "text/event-stream" }, signal: myAbort.signal });
    if (res.status === 404 && rec) {
      st = await restore(rec);
      res = await apiFetch(`/api/games/${st.id}/engine`, { method: "POST", headers: { Accept: "text/event-stream" }, signal: myAbort.signal });
    }
    if (!res.ok) {
      const t = await res.text();
      let msg = t; try { msg = JSON.parse(t).error; } catch (_) {}
      throw new Error(msg);
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const chunk = buf.slice(0, i); buf = buf.slice(i + 2);
        let name = "message", data = "";
        for (const line of chunk.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        const d = JSON.parse(data);
        if (myAbort.signal.aborted) continue;
        if (name === "info") { thought = d; drawPanel(); }
        else if (name === "done") { thought = d.thought && d.thought.depth ? d.thought : thought; update(d.state); }
        else if (name === "error") throw new Error(d.error);
      }
    }
  } catch (e) {
    if (myAbort.signal.aborted) return; // a new game took over
    showError(e.message);
  } finally {
    if (aborter === myAbort) {
      aborter = null;
      busy = false; sel = [];
      if (st) draw();
    }
  }
  // "Engine move" on your own turn: the engine moved for you; now it answers
  if (aborter === null && forMe && st && !st.over && st.toMove !== st.human) engineMove();
}

// stopEngine stops a search in progress: the request is aborted (the
// server stops the search when its client goes; the worker is restarted).
function stopEngine() {
  if (aborter) { aborter.abort(); aborter = null; }
  busy = false;
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  stopEngine();
  showError(""); say("");
  try {
    const body = { variant: $("variant").value, side: $("side").value, level: $("level").value };
    const fen = $("fen").value.trim();
    if (fen) body.fen = fen;
    const q = new URLSearchParams(location.search);
    if (q.get("nodes")) body.nodes = Number(q.get("nodes"));
    if (q.get("movetime")) body.movetime = Number(q.get("movetime"));
    saveSettings();
    busy = true;
    const ns = await api("POST", "/api/games", body);
    busy = false;
    rec = { id: ns.id, variant: ns.variant, side: ns.human, level: ns.level, start: ns.start, moves: [],
      custom: !!(fen || body.nodes || body.movetime), nodes: body.nodes || 0, movetime: body.movetime || 0,
      created: new Date().toISOString() };
    update(ns);
    flipped = st.human === "black"; sel = []; thought = null; view = null;
    $("export").hidden = true;
    draw();
    if (!st.over && st.toMove !== st.human) engineMove();
  } catch (e) {
    busy = false;
    showError(e.message);
  }
}

async function undo() {
  if (busy || !st || st.history.length === 0) return;
  let n = st.toMove === st.human || st.over ? 2 : 1;
  n = Math.min(n, st.history.length);
  try {
    view = null;
    const ns = await gameApi("POST", "/undo", { plies: n });
    if (rec) rec.takeback = true;
    update(ns);
    sel = []; thought = null; showError(""); say("Move taken back: this game is now unrated.");
  } catch (e) { showError(e.message); }
  draw();
}

async function resign() {
  if (busy || !st || st.over) return;
  if (!confirm("Resign this game?")) return;
  try { view = null; update(await gameApi("POST", "/resign")); sel = []; } catch (e) { showError(e.message); }
  draw();
}

async function offerDraw() {
  if (busy || !st || st.over) return;
  busy = true; draw();
  try {
    const r = await gameApi("POST", "/draw");
    update(r.state);
    say(cap(r.reason) + ".");
  } catch (e) { showError(e.message); }
  busy = false; draw();
}

async function showPly(n) {
  if (!st) return;
  if (n >= st.history.length || n < 0) { view = null; draw(); return; }
  try {
    const v = await gameApi("GET", `/ply/${n}`);
    view = { ply: v.ply, squares: v.squares, last: v.last || null };
    sel = [];
  } catch (e) { showError(e.message); }
  draw();
}

async function exportText(kind) {
  if (!st) return;
  try {
    const res = await apiFetch(`/api/games/${st.id}/${kind}`);
    const t = await res.text();
    const box = $("export");
    box.value = t.trim(); box.hidden = false; box.select();
  } catch (e) { showError(e.message); }
}

// resume brings back the game of the URL (?game=ID) or the last one
// played, unless the URL asks for a new game (?variant=...).
async function resume() {
  const q = new URLSearchParams(location.search);
  let id = q.get("game");
  if (!id && q.get("variant")) return false;
  if (!id) id = getItem("damaengine.last");
  if (!id) return false;
  const r = loadRec(id);
  let s = null;
  if (!WASM) {
    try { s = await api("GET", `/api/games/${id}`); } catch (_) { s = null; }
  }
  if (!s && r) {
    try { s = await restore(r); } catch (e) { showError("the game kept in this browser could not be brought back: " + e.message); return false; }
  }
  if (!s) return false;
  rec = r || { id: s.id, variant: s.variant, side: s.human, level: s.level, start: s.start, moves: [], created: new Date().toISOString() };
  $("variant").value = s.variant; $("side").value = s.human; $("level").value = s.level;
  update(s);
  flipped = st.human === "black"; sel = []; thought = null; view = null;
  showRatings();
  draw();
  if (s.history.length) say("Game brought back.");
  if (!st.over && st.toMove !== st.human) engineMove();
  return true;
}

async function init() {
  $("board").addEventListener("click", (ev) => { if (!st) return; const n = hitSquare(ev); if (n) clickSquare(n); });
  $("setup").addEventListener("submit", newGame);
  $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("movetext").value.trim();
    if (!t) return;
    if (!myTurn()) { say(whyNot("")); return; }
    $("movetext").value = ""; playMove(t);
  });
  $("undo").onclick = undo;
  $("flip").onclick = () => { flipped = !flipped; draw(); };
  $("go").onclick = engineMove;
  $("resign").onclick = resign;
  $("draw").onclick = offerDraw;
  $("fenbtn").onclick = () => exportText("fen");
  $("pdnbtn").onclick = () => exportText("pdn");
  $("backtogame").onclick = () => { view = null; draw(); };
  $("history").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.ply");
    if (b) showPly(Number(b.dataset.ply));
  });
  $("variant").addEventListener("change", () => { showRatings(); saveSettings(); });
  $("ratingsout").onclick = exportRatings;
  $("ratingsin").onclick = () => $("ratingsfile").click();
  $("ratingsfile").addEventListener("change", (ev) => { if (ev.target.files[0]) importRatings(ev.target.files[0]); ev.target.value = ""; });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { sel = []; view = null; draw(); }
    else if (ev.target === document.body && st && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
      const cur = view ? view.ply : st.history.length;
      showPly(cur + (ev.key === "ArrowLeft" ? -1 : 1));
      ev.preventDefault();
    } else if (ev.target === document.body && /^[0-9a-hA-H]$/.test(ev.key)) $("movetext").focus();
  });
  $("mode").textContent = WASM ? "Engine: in this page (WebAssembly)" : "Engine: damaengine serve";
  try {
    const info = await api("GET", "/api/variants");
    for (const v of info.variants) $("variant").add(new Option(`${v.name} (${v.files}x${v.ranks})`, v.name));
    levelsInfo = info.levels;
    const q = new URLSearchParams(location.search);
    let saved = {};
    try { saved = JSON.parse(getItem("damaengine.settings")) || {}; } catch (_) {}
    // a link with ?variant= describes a new game in full (defaults for the
    // rest); otherwise the last choices are kept
    if (q.get("variant")) saved = {};
    $("variant").value = q.get("variant") || saved.variant || "italian";
    showRatings();
    $("level").value = q.get("level") || saved.level || "5";
    $("side").value = q.get("side") || saved.side || "white";
    if (!(await resume())) await newGame();
  } catch (e) {
    showError(e.message);
  }
}

init();
