// Run by TestServeRatingJS (node): the Elo update against a worked example.
"use strict";
const R = require("../static/rating.js");
const fail = (msg) => { console.log("FAIL " + msg); process.exitCode = 1; };
const near = (a, b, eps) => Math.abs(a - b) <= eps;

// The worked example of the Elo article (Wikipedia, "Elo rating system",
// mathematical details): a player rated 1613 plays five opponents rated
// 1609, 1477, 1388, 1586 and 1720, scoring 0, 0.5, 1, 1, 0 (2.5 points);
// the expected score is 2.867 and with K = 32 the new rating is 1601.
const games = [[1609, 0], [1477, 0.5], [1388, 1], [1586, 1], [1720, 0]].map(([opp, score]) => ({ opp, score }));
const e = games.reduce((s, g) => s + R.expected(1613, g.opp), 0);
if (!near(e, 2.867, 0.001)) fail(`expected score ${e}, want 2.867`);
const r = R.update(1613, games, 32);
if (Math.round(r) !== 1601) fail(`new rating ${r}, want 1601`);

// K by the games played, and one game against a level through rate()
if (R.kFor(0) !== 40 || R.kFor(19) !== 40 || R.kFor(20) !== 20) fail("K schedule");
const all = {};
const got = R.rate(all, "italian", "3", 1, "2026-01-01");
// 1200 against level 3 (1448): E = 1 / (1 + 10^(248/400)) = 0.1935, + 40 * 0.8065 = 1232.26
if (!near(got.after, 1232.26, 0.01) || all.italian.games !== 1 || all.italian.history.length !== 1) fail(`rate: ${JSON.stringify(got)} ${JSON.stringify(all)}`);
// the ladder: level 1 the anchor, each level its measured rung above
const want = { "1": 1000, "2": 1085, "3": 1448, "4": 1678, "5": 1898, "6": 1979, "7": 2060, "8": 2091, "max": 2223 };
for (const l in want) if (R.LEVELS[l] !== want[l]) fail(`level ${l}: ${R.LEVELS[l]}, want ${want[l]}`);
if (R.levelRating("italian", "5").provisional || !R.levelRating("international", "5").provisional || !R.levelRating("italian", "max").provisional) fail("provisional marks");
// export and import
const back = R.importText(JSON.stringify(all));
if (back.italian.rating !== all.italian.rating) fail("import");
for (const bad of ["[]", "{\"x\":{}}", "nonsense"]) {
  let threw = false;
  try { R.importText(bad); } catch (_) { threw = true; }
  if (!threw) fail("import accepted " + bad);
}
if (!process.exitCode) console.log("ok");
