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
// 1200 against level 3 (1452): E = 1 / (1 + 10^(252/400)) = 0.1899, + 40 * 0.8101 = 1232.40
if (!near(got.after, 1232.40, 0.01) || all.italian.games !== 1 || all.italian.history.length !== 1) fail(`rate: ${JSON.stringify(got)} ${JSON.stringify(all)}`);
// the ladder: level 1 the anchor, each level its measured rung above
const want = { "1": 1000, "2": 1164, "3": 1452, "4": 1667, "5": 1849, "6": 1927, "7": 2008, "8": 2032, "max": 2164 };
for (const l in want) if (R.LEVELS[l] !== want[l]) fail(`level ${l}: ${R.LEVELS[l]}, want ${want[l]}`);
if (R.levelRating("italian", "5").provisional || !R.levelRating("italian", "max").provisional) fail("provisional marks");
// a variant's own rungs where measured (International: levels 2-8), the Italian rungs above them,
// provisional from the first rung that is not its own
const intl = { "1": 1000, "2": 1177, "3": 1626, "4": 1949, "5": 2257, "6": 2462, "7": 2613, "8": 2687, "max": 2819 };
for (const l in intl) {
  const lr = R.levelRating("international", l);
  const prov = l === "max";
  if (lr.rating !== intl[l] || lr.provisional !== prov) fail(`international level ${l}: ${JSON.stringify(lr)}, want ${intl[l]}${prov ? " provisional" : ""}`);
}
if (R.measuredThrough("italian") !== "8" || R.measuredThrough("international") !== "8" || R.measuredThrough("russian") !== "8" || R.measuredThrough("nowhere") !== "") fail("measuredThrough");
// every variant measured through level 8 (2026-12-06): English's 8 is its 7 (2206) + 67 (its ladder re-measured with its current network),
// Damone's 8 its 7 (1395) + 0 (100 draws); max stays provisional
for (const [v, want8] of [["english", 2273], ["turkish", 2719], ["damone", 1395]]) {
  const lr = R.levelRating(v, "8");
  if (lr.rating !== want8 || lr.provisional || R.measuredThrough(v) !== "8" || !R.levelRating(v, "max").provisional) fail(`${v} level 8: ${JSON.stringify(lr)}, want ${want8}`);
}
if (!R.levelRating("nowhere", "1").provisional || R.levelRating("nowhere", "3").rating !== 1452) fail("a variant without a ladder");
// a game against a level is rated by its variant's ladder: 1200 against International's level 3 (1626)
const all2 = {};
const g2 = R.rate(all2, "international", "3", 0.5, "2026-01-01");
// E = 1 / (1 + 10^(426/400)) = 0.0792, + 40 * (0.5 - 0.0792) = 1216.83
if (!near(g2.after, 1216.83, 0.01)) fail(`rate in international: ${JSON.stringify(g2)}`);
// export and import
const back = R.importText(JSON.stringify(all));
if (back.italian.rating !== all.italian.rating) fail("import");
for (const bad of ["[]", "{\"x\":{}}", "nonsense"]) {
  let threw = false;
  try { R.importText(bad); } catch (_) { threw = true; }
  if (!threw) fail("import accepted " + bad);
}
if (!process.exitCode) console.log("ok");
