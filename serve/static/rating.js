// damaengine's ratings: the player's Elo per variant, kept in the browser,
// and the levels' ratings anchored to the ladder measured in
// docs/testing.md ("Strength levels"). Loaded by the page and, for its
// unit test, by node (serve/testdata/rating_test.js).
"use strict";

(function (root) {
  // The Elo system: expected score E = 1 / (1 + 10^((Ropp - R) / 400)),
  // new rating R' = R + K * (S - E) summed over the games rated together.
  // K is 40 for a player's first 20 rated games in a variant, 20 after
  // (as FIDE does for new players, with FIDE's numbers halved in step).
  const START = 1200;
  const K_NEW = 40, K = 20, NEW_GAMES = 20;

  function expected(r, opp) { return 1 / (1 + Math.pow(10, (opp - r) / 400)); }

  // update rates games = [{opp, score}] (score 1, 0.5 or 0) together.
  function update(r, games, k) {
    let d = 0;
    for (const g of games) d += g.score - expected(r, g.opp);
    return r + k * d;
  }

  function kFor(games) { return games < NEW_GAMES ? K_NEW : K; }

  // The levels' ratings. Level 1 is the anchor, set at 1000: no game
  // against people ties the scale to a human pool, so the zero point is a
  // choice, not a measurement. Each level above adds its rung measured
  // in self-play in its variant (each level against the one below, 100
  // games at the levels' caps; docs/browser.md, "The levels"). Italian's
  // ladder was re-measured 2026-12-06 (thirteenth session) with the
  // evaluation embedded now: +164, +288, +215, +182, +78, +81, +24, and max
  // +132 over level 8 (measured
  // 2026-12-01 at 2 M nodes a move; in the page max has the move time
  // only, so its rating depends on the machine and is marked provisional
  // everywhere). Where a variant's rung was not measured, the Italian
  // rung stands in, and that level and every one above it are provisional.
  // Levels 1-7 are capped by nodes, so their strength does not depend on
  // the machine or on WebAssembly; level 8 is capped by 400,000 nodes or
  // 1 s, whichever comes first.
  const ITALIAN = { "2": 164, "3": 288, "4": 215, "5": 182, "6": 78, "7": 81, "8": 24, "max": 132 };
  const RUNGS = {
    italian: ITALIAN,
    // measured 2026-12-05 (docs/browser.md), levels 2-6 (International's
    // 7 too); level 7 of the other five and every variant's 8 2026-12-06
    // (Damone's 8 against 7: 100 draws in 100 games, a rung of 0);
    // English's whole ladder again 2026-12-06 with its network and pattern
    // tables
    international: { "2": 177, "3": 449, "4": 323, "5": 308, "6": 205, "7": 151, "8": 74 },
    english: { "2": 119, "3": 372, "4": 301, "5": 210, "6": 119, "7": 85, "8": 67 },
    russian: { "2": 127, "3": 282, "4": 215, "5": 200, "6": 111, "7": 63, "8": 17 },
    brazilian: { "2": 63, "3": 295, "4": 215, "5": 220, "6": 143, "7": 53, "8": 28 },
    spanish: { "2": 164, "3": 246, "4": 210, "5": 156, "6": 111, "7": 60, "8": 17 },
    turkish: { "2": 308, "3": 295, "4": 230, "5": 295, "6": 210, "7": 225, "8": 156 },
    damone: { "2": 56, "3": 164, "4": 49, "5": 74, "6": 28, "7": 24, "8": 0 },
  };
  const ANCHOR = 1000;
  const ORDER = ["1", "2", "3", "4", "5", "6", "7", "8", "max"];

  // ladder returns a variant's levels: {level: {rating, provisional}}.
  function ladder(variant) {
    const own = RUNGS[variant] || {};
    const out = {};
    let r = ANCHOR, sure = Object.keys(own).length > 0;
    for (const l of ORDER) {
      if (l !== "1") {
        if (own[l] === undefined || l === "max") sure = false;
        r += own[l] !== undefined ? own[l] : ITALIAN[l];
      }
      out[l] = { rating: r, provisional: !sure };
    }
    return out;
  }
  const LADDERS = {};
  for (const v in RUNGS) LADDERS[v] = ladder(v);
  // LEVELS is the Italian ladder's ratings by level.
  const LEVELS = {};
  for (const l of ORDER) LEVELS[l] = LADDERS.italian[l].rating;

  function levelRating(variant, level) {
    const r = (LADDERS[variant] || ladder(variant))[level];
    return r === undefined ? null : { rating: r.rating, provisional: r.provisional };
  }

  // measuredThrough returns the highest level of a variant whose rating
  // stands on measured rungs only ("" when none does).
  function measuredThrough(variant) {
    let last = "";
    for (const l of ORDER) {
      if (levelRating(variant, l).provisional) break;
      last = l;
    }
    return last;
  }

  // The store: {variant: {rating, games, history: [{date, level, score, before, after}]}}.
  const KEY = "damaengine.ratings";
  function load(storage) {
    try { return JSON.parse(storage.getItem(KEY)) || {}; } catch (_) { return {}; }
  }
  function save(storage, all) { storage.setItem(KEY, JSON.stringify(all)); }

  function player(all, variant) {
    return all[variant] || { rating: START, games: 0, history: [] };
  }

  // rate applies one finished game (score from the player's side) against
  // a level and returns {before, after}.
  function rate(all, variant, level, score, date) {
    const p = player(all, variant);
    const lr = levelRating(variant, level).rating;
    const before = p.rating;
    const after = update(before, [{ opp: lr, score }], kFor(p.games));
    p.rating = after; p.games++;
    p.history = (p.history || []).concat([{ date: date || new Date().toISOString(), level, score, before: Math.round(before), after: Math.round(after) }]).slice(-200);
    all[variant] = p;
    return { before, after };
  }

  // importText reads an exported file: the same object, checked.
  function importText(text) {
    const all = JSON.parse(text);
    if (!all || typeof all !== "object" || Array.isArray(all)) throw new Error("not a damaengine ratings file");
    const out = {};
    for (const v in all) {
      const p = all[v];
      if (!p || typeof p.rating !== "number" || !isFinite(p.rating) || typeof p.games !== "number") throw new Error(`variant ${v}: no rating`);
      out[v] = { rating: p.rating, games: Math.max(0, Math.floor(p.games)), history: Array.isArray(p.history) ? p.history.slice(-200) : [] };
    }
    return out;
  }

  const api = { START, K, K_NEW, NEW_GAMES, ANCHOR, LEVELS, expected, update, kFor, levelRating, measuredThrough, load, save, player, rate, importText };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.Rating = api;
})(typeof self !== "undefined" ? self : this);
