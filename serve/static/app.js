// damaengine's play page: draws the board as SVG from the server's state
// and sends moves to the JSON API. The server keeps the game; this page
// only shows it and asks.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let st = null;          // the game state from the server
let flipped = false;    // Black at the bottom
let sel = [];           // squares clicked so far for the move being entered
let busy = false;       // a request (or the engine) is running
let thought = null;     // the engine's last report

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) {
    opt.headers["Content-Type"] = "application/json";
    opt.body = JSON.stringify(body);
  }
  const res = await fetch(path, opt);
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!res.ok) throw new Error((data && data.error) || text || res.statusText);
  return data;
}

function showError(msg) { $("error").textContent = msg || ""; }

// geometry: squares of 10 units, a margin of 6 at the left and bottom for
// the rank numbers and file letters, 2 at the top and right.
function geom() {
  const c = 10, ml = 6, mt = 2;
  const w = ml + st.files * c + mt, h = mt + st.ranks * c + ml;
  const x = (f) => ml + (flipped ? st.files - 1 - f : f) * c;
  const y = (r) => mt + (flipped ? r : st.ranks - 1 - r) * c;
  return { c, ml, mt, w, h, x, y };
}

function byName() {
  const map = {};
  for (const s of st.squares) map[s.n] = s;
  return map;
}

// candidates are the legal moves that begin with the squares clicked.
function candidates() {
  if (!myTurn()) return [];
  return st.moves.filter((mv) => sel.every((n, i) => mv.path[i] === n));
}

function myTurn() {
  return st && !st.over && !busy && st.toMove === st.human;
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
  const full = !st.diagonal; // Turkish: every square is played on
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 1.5, fill: "#3b2d22" }, svg);
  // every cell: light where no piece ever stands
  for (let f = 0; f < st.files; f++) {
    for (let r = 0; r < st.ranks; r++) {
      el("rect", { x: x(f), y: y(r), width: c, height: c, fill: full ? ((f + r) % 2 ? "#e2c28f" : "#d9b57c") : "#efdcbc" }, svg);
    }
  }
  const last = st.last;
  const lastSet = new Set(last ? [last.path[0], last.path[last.path.length - 1]] : []);
  const cands = candidates();
  const from = new Set(sel.length === 0 ? cands.map((mv) => mv.path[0]) : []);
  const next = new Set(sel.length === 0 ? [] : cands.map((mv) => mv.path[sel.length]).filter(Boolean));
  for (const s of st.squares) {
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
  for (const s of st.squares) {
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
    label.textContent = `${side === st.human ? "You" : "Engine"} (${side})` + (lost ? ` took ${lost}:` : "");
    t.appendChild(label);
    for (let i = 0; i < Math.min(lost, 20); i++) {
      const s = el("svg", { viewBox: "0 0 10 10" }, t);
      drawPiece(s, side === "white" ? "b" : "w", 5, 5, 10);
    }
  }
}

function drawPanel() {
  let s;
  if (st.over) {
    s = `Game over: ${st.status} (${st.result})`;
  } else if (busy && st.toMove !== st.human) {
    s = "Engine is thinking…";
  } else if (st.toMove === st.human) {
    s = sel.length ? `Your move: ${sel.join("–")}…` : `Your move (${st.human})`;
  } else {
    s = "Engine to move — press “Engine move”";
  }
  if (st.last && st.last.promote && !st.over) s += " · last move crowned";
  $("status").textContent = s;
  if (thought) {
    $("score").textContent = thought.text;
    $("depth").textContent = `depth ${thought.depth} · ${thought.nodes} nodes`;
    $("pv").textContent = (thought.pv || []).join(" ");
  } else {
    $("score").textContent = ""; $("depth").textContent = ""; $("pv").textContent = "";
  }
  const h = $("history");
  h.textContent = "";
  for (let i = 0; i < st.history.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = st.history[i] + (st.history[i + 1] ? "  " + st.history[i + 1] : "");
    h.appendChild(li);
  }
  h.scrollTop = h.scrollHeight;
  document.body.classList.toggle("thinking", busy);
  $("movetext").placeholder = st.moves.length ? `type a move, e.g. ${st.moves[0].text}` : "no move";
}

async function playMove(text) {
  if (busy) return;
  busy = true; showError("");
  try {
    st = await api("POST", `/api/games/${st.id}/move`, { move: text });
    sel = [];
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
    draw();
  }
  if (!st.over && st.toMove !== st.human) engineMove();
}

function clickSquare(n) {
  if (!myTurn()) return;
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
  }
  sel = all.some((mv) => mv.path[0] === n) ? [n] : [];
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
  busy = true; showError(""); thought = null; draw();
  try {
    const res = await fetch(`/api/games/${st.id}/engine`, { method: "POST", headers: { Accept: "text/event-stream" } });
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
        if (name === "info") { thought = d; drawPanel(); }
        else if (name === "done") { thought = d.thought && d.thought.depth ? d.thought : thought; st = d.state; }
        else if (name === "error") throw new Error(d.error);
      }
    }
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false; sel = [];
    draw();
  }
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  if (busy) return;
  showError("");
  try {
    const body = { variant: $("variant").value, side: $("side").value, level: $("level").value };
    const fen = $("fen").value.trim();
    if (fen) body.fen = fen;
    const q = new URLSearchParams(location.search);
    if (q.get("nodes")) body.nodes = Number(q.get("nodes"));
    if (q.get("movetime")) body.movetime = Number(q.get("movetime"));
    st = await api("POST", "/api/games", body);
    flipped = st.human === "black"; sel = []; thought = null;
    $("export").hidden = true;
    draw();
    if (!st.over && st.toMove !== st.human) engineMove();
  } catch (e) {
    showError(e.message);
  }
}

async function undo() {
  if (busy || !st || st.history.length === 0) return;
  let n = st.toMove === st.human ? 2 : 1;
  n = Math.min(n, st.history.length);
  try {
    st = await api("POST", `/api/games/${st.id}/undo`, { plies: n });
    sel = []; thought = null; showError("");
  } catch (e) { showError(e.message); }
  draw();
}

async function exportText(kind) {
  if (!st) return;
  try {
    const res = await fetch(`/api/games/${st.id}/${kind}`);
    const t = await res.text();
    const box = $("export");
    box.value = t.trim(); box.hidden = false; box.select();
  } catch (e) { showError(e.message); }
}

async function init() {
  $("board").addEventListener("click", (ev) => { const n = hitSquare(ev); if (n) clickSquare(n); });
  $("setup").addEventListener("submit", newGame);
  $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("movetext").value.trim();
    if (t) { $("movetext").value = ""; playMove(t); }
  });
  $("undo").onclick = undo;
  $("flip").onclick = () => { flipped = !flipped; draw(); };
  $("go").onclick = engineMove;
  $("fenbtn").onclick = () => exportText("fen");
  $("pdnbtn").onclick = () => exportText("pdn");
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { sel = []; draw(); }
    else if (ev.target === document.body && /^[0-9a-hA-H]$/.test(ev.key)) $("movetext").focus();
  });
  try {
    const info = await api("GET", "/api/variants");
    for (const v of info.variants) $("variant").add(new Option(`${v.name} (${v.files}x${v.ranks})`, v.name));
    for (const l of info.levels) $("level").add(new Option(l, l));
    const q = new URLSearchParams(location.search);
    $("variant").value = q.get("variant") || "italian";
    $("level").value = q.get("level") || "5";
    if (q.get("side")) $("side").value = q.get("side");
    await newGame();
  } catch (e) {
    showError(e.message);
  }
}

init();
