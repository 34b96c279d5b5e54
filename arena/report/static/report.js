// The arena report: plain DOM, no libraries, no network. Every text from the records
// (bot labels and names come from bots) goes in through textContent, never as HTML.
"use strict";

(function () {
  const S = window.ARENA_SUMMARY;
  const M = window.ARENA_MATCHES;
  const SVG = "http://www.w3.org/2000/svg";
  const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"];
  const PAGE = 50;
  // The page's language (data/messages.js chose it, i18n.js holds its catalog): every text
  // people read is a message of arena/web/locales/<lang>/report.json (or common.json).
  const t = (key, values) => window.arenaI18n.t(key, values);
  // A word of the records (a fault's kind, a fault policy) in the page's language, as
  // written where the catalog has none (a kind of a later arena).
  const word = (family, value) => {
    const key = `report.${family}.${value}`;
    return key in (window.ARENA_I18N.catalogs[window.arenaI18n.lang] || {}) ? t(key) : value;
  };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "style") node.style.cssText = value;  // the CSSOM: a CSP allows it
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const fixed = (x, digits) => (x === null || x === undefined ? "–" : x.toFixed(digits));
  const ms = (x) => (x === null || x === undefined ? "–" : x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
  const pct = (x) => (x === null || x === undefined ? "–" : Math.round(100 * x) + "%");

  function body(id) { return document.querySelector(`#${id} .body`); }

  // ------------------------------------------------------------------ header

  function header() {
    const board = S.leaderboard;
    const name = S.people ? t("report.people_title") : S.name;
    document.title = t("report.page_title", { name });
    document.getElementById("title").textContent = `${name}`;
    document.getElementById("subtitle").textContent =
      t("report.subtitle", { matches: board.matches, deals: board.deals, bots: board.deal_scores.length }) +
      (board.league ? t("report.subtitle_league") : "") +
      (S.stood_in ? t("report.subtitle_stand_in", { count: S.stood_in }) : "");
  }

  // ------------------------------------------------------------------ leaderboard

  // A league's own leaderboard: its entrants best first by Plackett-Luce strength, the
  // primary ranking of a league's report (the mean deal scores follow, named as such).
  function leagueBoard(box) {
    const league = S.leaderboard.league;
    const lines = league.entrants;
    const played = lines.filter((e) => e.sets > 0);
    let lo = Math.min(...played.map((e) => e.low)), hi = Math.max(...played.map((e) => e.high));
    if (!played.length) { lo = -1; hi = 1; }
    const pad = Math.max(0.05, (hi - lo) * 0.08);
    lo -= pad; hi += pad;
    const W = 170, H = 18;
    const x = (v) => 4 + (W - 8) * (v - lo) / (hi - lo || 1);
    const level = Math.round(league.confidence * 100);
    const axis = svg("svg", { width: W, height: H, class: "axis" },
      [lo, (lo + hi) / 2, hi].map((v, k) => svg("text", {
        x: x(v), y: 13, "text-anchor": ["start", "middle", "end"][k] }, (v >= 0 ? "+" : "") + v.toFixed(2))));
    const head = el("tr", {},
      el("th", { title: t("report.tip.rank_league") }, t("report.col.rank")),
      el("th", { class: "left" }, t("report.col.bot")),
      el("th", { title: t("report.tip.strength") }, t("report.col.strength")),
      el("th", {}, t("report.col.interval", { level })),
      el("th", { class: "forest" }, axis),
      el("th", { title: t("report.tip.sets") }, t("report.col.sets")),
      el("th", {}, t("report.col.deals")),
      el("th", { class: "left" }, ""));
    const rows = lines.map((e) => {
      const marks = [e.anchor ? t("report.mark.anchor") : null, e.active ? null : t("report.mark.retired")].filter((m) => m);
      const plot = e.sets > 0 ? svg("svg", { width: W, height: H, class: "forest-plot" },
        svg("line", { x1: x(e.low), x2: x(e.high), y1: H / 2, y2: H / 2, class: "ci" }),
        svg("circle", { cx: x(e.strength), cy: H / 2, r: 4, class: "point" })) : "";
      const signed = (v) => (v >= 0 ? "+" : "") + v.toFixed(2);
      return el("tr", { "data-label": e.label, class: e.active ? null : "retired" },
        el("td", { class: "rank" }, e.rank ?? "-"),
        el("td", { class: "bot left" }, el("a", { href: "#matches", onclick: () => filterMatches(e.label) }, e.label)),
        el("td", { class: "strength" }, e.sets > 0 ? signed(e.strength) : "-"),
        el("td", { class: "interval" }, e.sets > 0 ? `${signed(e.low)} .. ${signed(e.high)}` : t("report.no_sets")),
        el("td", { class: "forest" }, plot),
        el("td", { class: "sets" }, e.sets),
        el("td", { class: "deals" }, e.deals),
        el("td", { class: "marks left" }, marks.join(", ")));
    });
    box.append(el("table", { class: "leaderboard league" }, el("thead", {}, head), el("tbody", {}, rows)));
    const round = league.round === null || league.round === undefined ? "" : t("report.league_round", { round: league.round });
    const stop = t("report.league_p", { top: league.top, p: league.p_top.toFixed(2) }) +
      (league.confident === null || league.confident === undefined ? "" : t("report.league_stops", { at: league.confident }));
    box.append(el("p", { class: "league-stop" }, t("report.league_line", { round, deals: S.leaderboard.deals, stop })));
    box.append(el("p", { class: "note" }, t("report.league_note", { level, resamples: league.resamples })));
    box.append(el("h3", { class: "deal-scores" }, t("report.h.mean_deal_scores")));
    box.append(el("p", { class: "note" }, t("report.mean_note")));
  }

  function leaderboard() {
    const board = S.leaderboard;
    const standings = Object.fromEntries(S.standings.map((row) => [row.label, row]));
    const box = body("leaderboard");
    const scores = board.deal_scores;
    if (!scores.length) { box.append(el("p", {}, t("report.no_deals"))); return; }
    if (board.league) leagueBoard(box);
    const lows = scores.map((b) => (b.score_low ?? b.score));
    const highs = scores.map((b) => (b.score_high ?? b.score));
    let lo = Math.min(...lows), hi = Math.max(...highs);
    const pad = Math.max(0.01, (hi - lo) * 0.08);
    lo = Math.max(0, lo - pad); hi = Math.min(1, hi + pad);
    const W = 170, H = 18;
    const x = (v) => 4 + (W - 8) * (v - lo) / (hi - lo || 1);
    const level = Math.round(board.confidence * 100);
    const axis = svg("svg", { width: W, height: H, class: "axis" },
      [lo, (lo + hi) / 2, hi].map((v, k) => svg("text", {
        x: x(v), y: 13, "text-anchor": ["start", "middle", "end"][k] }, v.toFixed(2))));
    const head = el("tr", {},
      el("th", { title: t("report.tip.rank") }, t("report.col.rank")),
      el("th", { class: "left" }, t("report.col.bot")),
      el("th", { title: t("report.tip.deal_score") }, t("report.col.deal_score")),
      el("th", {}, t("report.col.interval", { level })),
      el("th", { class: "forest" }, axis),
      el("th", { title: t("report.tip.mu_sigma") }, t("report.col.mu_sigma")),
      el("th", { title: t("report.tip.match_score") }, t("report.col.match_score")),
      el("th", {}, t("report.col.matches")), el("th", {}, t("report.col.deals")),
      el("th", { title: t("report.tip.first") }, t("report.col.first")),
      el("th", {}, t("report.col.faults")),
      el("th", { title: t("report.tip.time_losses") }, t("report.col.time_losses")),
      el("th", { title: t("report.tip.think_median") }, t("report.col.think_median")),
      el("th", { title: t("report.tip.think_p95") }, t("report.col.think_p95")));
    const rows = scores.map((b) => {
      const st = standings[b.label] || {};
      const bot = S.bots[b.label] || {};
      const span = b.rank_best === b.rank_worst ? `${b.rank}` : `${b.rank} (${b.rank_best}-${b.rank_worst})`;
      const plot = svg("svg", { width: W, height: H, class: "forest-plot" },
        svg("line", { x1: x(b.score_low ?? b.score), x2: x(b.score_high ?? b.score), y1: H / 2, y2: H / 2, class: "ci" }),
        svg("circle", { cx: x(b.score), cy: H / 2, r: 4, class: "point" }));
      return el("tr", { "data-label": b.label },
        el("td", { class: "rank" }, span),
        el("td", { class: "bot left" }, el("a", { href: "#matches", onclick: () => filterMatches(b.label) }, b.label),
          bot.never_played ? el("span", { class: "never-played problem", title: bot.first_fault || "" }, t("report.never_played")) : null),
        el("td", { class: "score" }, fixed(b.score, 3)),
        el("td", { class: "interval" }, `${fixed(b.score_low, 3)}-${fixed(b.score_high, 3)}`),
        el("td", { class: "forest" }, plot),
        el("td", { class: "mu" }, `${fixed(b.mu, 1)} ± ${fixed(b.sigma, 1)}`),
        el("td", { class: "match-score" }, fixed(st.score, 3)),
        el("td", { class: "matches" }, b.matches),
        el("td", { class: "deals" }, b.deals),
        el("td", { class: "first" }, pct(b.first_rate)),
        el("td", { class: "faults" }, b.faults),
        el("td", { class: "time-losses" }, bot.time_losses ?? 0),
        el("td", { class: "think-median" }, ms(bot.think_median_ms)),
        el("td", { class: "think-p95" }, ms(bot.think_p95_ms)));
    });
    box.append(el("table", { class: "leaderboard deal-scores" }, el("thead", {}, head), el("tbody", {}, rows)));
    for (const b of scores) {
      const bot = S.bots[b.label] || {};
      if (bot.never_played) {
        box.append(el("p", { class: "problem never-played-note" },
          t("report.never_played_note", { label: b.label, fault: bot.first_fault || t("report.no_fault") })));
      }
    }
    const unit = t("report.unit." + board.cluster_kind);
    box.append(el("p", { class: "note" }, t("report.leaderboard_note",
      { level, clusters: board.clusters, unit, resamples: board.resamples })));
  }

  // ------------------------------------------------------------------ crosstable

  function crosstable() {
    const h2h = S.leaderboard.head_to_head;
    const box = body("crosstable");
    if (h2h.labels.length < 2) { box.append(el("p", {}, t("report.fewer_than_two"))); return; }
    const n = h2h.labels.length;
    const colour = (rate) => {
      // red (0) through white (0.5) to blue (1)
      const t = Math.max(-1, Math.min(1, (rate - 0.5) * 2));
      const a = Math.abs(t);
      const [r, g, b] = t < 0 ? [214, 39, 40] : [31, 119, 180];
      const mix = (c) => Math.round(255 + (c - 255) * a * 0.7);  // the text stays readable (4.5:1)
      return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
    };
    const rows = h2h.labels.map((label, i) => el("tr", {},
      el("th", { class: "left" }, label),
      h2h.labels.map((other, j) => {
        const won = h2h.ahead[i][j], lost = h2h.ahead[j][i];
        if (i === j || won + lost === 0) return el("td", { class: "empty" }, "");
        const rate = won / (won + lost);
        return el("td", {
          style: `background:${colour(rate)}`,
          title: t("report.ahead_title", { label, other, won, deals: won + lost }),
        }, `${pct(rate)}`, el("small", {}, ` ${won + lost}`));
      })));
    box.append(el("table", { class: "crosstable" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), h2h.labels.map((l) => el("th", { class: "col" }, l)))),
      el("tbody", {}, rows)));
    box.append(el("p", { class: "note" }, t("report.crosstable_note", { n })));
  }

  // ------------------------------------------------------------------ course

  function course() {
    const box = body("course");
    const c = S.course;
    const labels = S.leaderboard.deal_scores.map((b) => b.label).slice(0, PALETTE.length);
    if (!c.deals.length) { box.append(el("p", {}, t("report.no_course"))); return; }
    const W = 760, H = 300, L = 48, R = 12, T = 12, B = 34;
    const values = labels.flatMap((l) => c.series[l].filter((v) => v !== null));
    let lo = Math.min(...values), hi = Math.max(...values);
    const pad = Math.max(0.02, (hi - lo) * 0.05);
    lo = Math.max(0, lo - pad); hi = Math.min(1, hi + pad);
    const maxX = c.deals[c.deals.length - 1];
    const x = (d) => L + (W - L - R) * d / maxX;
    const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1));
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "course-chart", role: "img",
      "aria-label": t("report.course_label") });
    for (let k = 0; k <= 4; k++) {
      const v = lo + (hi - lo) * k / 4;
      chart.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
        svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(2)));
    }
    for (let k = 0; k <= 4; k++) {
      const d = Math.round(maxX * k / 4);
      chart.append(svg("text", { x: x(d), y: H - B + 16, "text-anchor": "middle" }, d));
    }
    chart.append(svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, t("report.course_axis")));
    labels.forEach((label, k) => {
      const pts = c.deals.map((d, i) => [d, c.series[label][i]]).filter((p) => p[1] !== null);
      if (!pts.length) return;
      chart.append(svg("polyline", {
        points: pts.map(([d, v]) => `${x(d).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
        fill: "none", stroke: PALETTE[k], "stroke-width": 2 }, svg("title", {}, label)));
    });
    box.append(chart);
    box.append(el("div", { class: "legend" }, labels.map((label, k) =>
      el("span", {}, el("i", { style: `background:${PALETTE[k]}` }), label))));
    const more = S.leaderboard.deal_scores.length - labels.length;
    box.append(el("p", { class: "note" }, t("report.course_note") +
      (more > 0 ? t("report.course_more", { drawn: labels.length, more }) : "")));
  }

  // ------------------------------------------------------------------ config

  function config() {
    const box = body("config");
    if (S.config) box.append(el("h3", {}, "config.yaml"), el("pre", { class: "config" }, S.config));
    else box.append(el("p", {}, t("report.no_config")));
    box.append(el("p", {}, t("report.records_note", { records: S.records.join(", "), versions: S.versions.arena.join(", ") })));
    const rows = Object.entries(S.bots).flatMap(([label, bot]) => bot.versions.map((v) =>
      el("tr", {}, el("td", { class: "left" }, label), el("td", { class: "left" }, v.bot),
        el("td", { class: "left" }, v.plugin), el("td", { class: "left" }, v.version))));
    box.append(el("table", { class: "versions" },
      el("thead", {}, el("tr", {}, ["label", "bot", "plugin", "version"].map((h) => el("th", { class: "left" }, t("report.col." + h))))),
      el("tbody", {}, rows)));
  }

  function problems() {
    if (!S.skipped.length && !S.unreplayable.length) return;
    const section = document.getElementById("problems");
    section.hidden = false;
    const box = body("problems");
    for (const line of S.skipped) box.append(el("p", { class: "problem" }, t("report.skipped", { line })));
    for (const line of S.unreplayable) box.append(el("p", { class: "problem" }, t("report.not_replayable_line", { line })));
  }

  // ------------------------------------------------------------------ match list

  const list = { bot: "", text: "", page: 0, hits: [] };

  function filterMatches(label) {
    list.bot = label;
    const select = document.getElementById("match-bot");
    if (select) select.value = label;
    list.page = 0;
    renderMatches();
  }

  function matchList() {
    const box = body("matches");
    const select = el("select", { id: "match-bot", "aria-label": t("report.col.bot"),
      onchange: (e) => filterMatches(e.target.value) },
      el("option", { value: "" }, t("report.all_bots")),
      [...M.labels].sort().map((l) => el("option", { value: l }, l)));
    const search = el("input", { id: "match-search", type: "search", placeholder: t("report.search"), "aria-label": t("report.search"),
      oninput: (e) => { list.text = e.target.value; list.page = 0; renderMatches(); } });
    box.append(el("div", { class: "filters" }, select, search, el("span", { id: "match-count" })));
    box.append(el("table", { class: "match-list" },
      el("thead", {}, el("tr", {}, el("th", { class: "left" }, t("report.col.match")), el("th", {}, t("report.col.round")),
        el("th", { class: "left" }, t("report.col.result")), el("th", {}, t("report.col.faults")))),
      el("tbody", { id: "match-rows" })));
    box.append(el("div", { class: "pager" },
      el("button", { id: "page-prev", onclick: () => { list.page--; renderMatches(); } }, t("report.previous")),
      el("span", { id: "page-info" }),
      el("button", { id: "page-next", onclick: () => { list.page++; renderMatches(); } }, t("report.next"))));
    renderMatches();
  }

  function renderMatches() {
    const bot = list.bot === "" ? -1 : M.labels.indexOf(list.bot);
    const text = list.text.trim().toLowerCase();
    const hits = [];
    for (let i = 0; i < M.ids.length; i++) {
      if (bot >= 0 && !M.seats[i].includes(bot)) continue;
      if (text && !M.ids[i].toLowerCase().includes(text)) continue;
      hits.push(i);
    }
    const pages = Math.max(1, Math.ceil(hits.length / PAGE));
    list.page = Math.max(0, Math.min(list.page, pages - 1));
    const rows = hits.slice(list.page * PAGE, (list.page + 1) * PAGE).map((i) => {
      const result = M.ranking[i].map((seat) =>
        el("span", { class: M.seats[i][seat] === bot ? "who mine" : "who" },
          `${M.labels[M.seats[i][seat]]} ${M.scores[i][seat]}`));
      return el("tr", { "data-match": M.ids[i] },
        el("td", { class: "left" }, el("a", { href: "#" + linkFor(M.ids[i], 0, 0) }, M.ids[i])),
        el("td", {}, M.rounds[i] ?? ""),
        el("td", { class: "left" }, result, M.errors[i] ? el("span", { class: "problem" }, t("report.not_replayable")) : null,
          M.stand_in && M.stand_in[i] ? el("span", { class: "stand-in" }, t("report.stand_in_match")) : null),
        el("td", {}, M.faults[i] || ""));
    });
    document.getElementById("match-rows").replaceChildren(...rows);
    document.getElementById("match-count").textContent = t("report.match_count", { shown: hits.length, total: M.ids.length });
    document.getElementById("page-info").textContent = t("report.page_of", { page: list.page + 1, pages });
    document.getElementById("page-prev").disabled = list.page === 0;
    document.getElementById("page-next").disabled = list.page >= pages - 1;
  }

  // ------------------------------------------------------------------ replay data

  const batches = new Map(); // number -> Promise of the batch's matches
  const waiting = new Map(); // number -> resolve
  let matchIndex = null;

  window.ARENA_BATCH = function (number, packed) {
    const resolve = waiting.get(number);
    if (!resolve) return;
    waiting.delete(number);
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    resolve(new Response(stream).text().then((text) => JSON.parse(text)));
  };

  function loadBatch(number) {
    if (!batches.has(number)) {
      batches.set(number, new Promise((resolve, reject) => {
        waiting.set(number, resolve);
        const name = String(number).padStart(5, "0");
        const script = el("script", { src: `data/replays/${name}.js` });
        script.onerror = () => reject(new Error(`data/replays/${name}.js is missing`));
        document.head.append(script);
      }).then((value) => value));
    }
    return batches.get(number);
  }

  async function loadMatch(id) {
    if (matchIndex === null) matchIndex = new Map(M.ids.map((m, i) => [m, i]));
    const i = matchIndex.get(id);
    if (i === undefined) throw new Error(t("report.no_match", { id }));
    // the oldest matches of a long run are listed without their replay (docs/report.md)
    if (i < (M.replayed_from || 0) * M.batch) {
      throw new Error(t("report.not_replayed", { id, replayed: M.ids.length - M.replayed_from * M.batch }));
    }
    const batch = await loadBatch(Math.floor(i / M.batch));
    return batch[i % M.batch];
  }

  // ------------------------------------------------------------------ replay viewer

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const ORDER = "3456789TJQKA2";
  const RED = new Set(["H", "D"]);

  // One notation on the page: a card is drawn and written as its rank and suit (10♥, Jkr),
  // never as the protocol's text (TH, JK), which stays in its title.
  // The rank in the page's language's letters (i18n.js's rankText, as the seat page).
  function cardText(card) {
    if (card === "JK") return t("report.joker");
    return window.arenaI18n.rankText(card[0]) + (SUITS[card[1]] || card[1]);
  }

  function moveText(text) {
    return text === "pass" ? t("report.pass") : text.split(" ").map(cardText).join(" ");
  }

  function cardNode(card, extra) {
    if (card === "JK") return el("span", { class: "card joker " + (extra || ""), title: card }, cardText(card));
    return el("span", { class: "card" + (RED.has(card[1]) ? " red" : "") + (extra ? " " + extra : ""), title: card },
      cardText(card));
  }

  function moveNodes(text) {
    return text === "pass" ? t("report.pass") : text.split(" ").map((c) => cardNode(c, "small"));
  }

  function cardKey(card) {
    if (card === "JK") return 99;
    return ORDER.indexOf(card[0]) * 4 + "CDHS".indexOf(card[1]);
  }

  function take(hand, cards) {
    for (const card of cards) {
      const k = hand.indexOf(card);
      if (k >= 0) hand.splice(k, 1);
    }
  }

  // The state after `pos` events of a deal: hands, pile, trick, who is out, revolution.
  function stateAt(deal, players, pos) {
    const hands = deal.hands.map((h) => (h ? h.split(" ") : []));
    for (const [from, to, cards] of deal.exchanges) {
      const list = cards ? cards.split(" ") : [];
      take(hands[from], list);
      hands[to].push(...list);
    }
    hands.forEach((h) => h.sort((a, b) => cardKey(a) - cardKey(b)));
    const state = { hands, pile: null, trick: [], out: [], forfeited: [], revolution: false,
      passed: new Set(), last: null, clears: 0 };
    for (let k = 0; k < pos; k++) {
      const [seat, text, , flags, fault] = deal.events[k];
      if (fault !== undefined) {
        state.trick.push({ seat, text: `fault: ${fault}`, kind: fault, fault: true });
        if (flags & 8) { state.forfeited.push(seat); state.hands[seat] = []; }
      } else if (text === "pass") {
        state.passed.add(seat);
        state.trick.push({ seat, text });
      } else {
        take(state.hands[seat], text.split(" "));
        state.pile = { seat, text };
        state.passed = new Set();
        state.trick.push({ seat, text });
        if (flags & 4) state.out.push(seat);
      }
      if (flags & 2) state.revolution = !state.revolution;
      state.last = k;
      if (flags & 1) {
        state.clearedPile = state.pile;
        state.cleared = state.trick;
        state.trick = [];
        state.pile = null;
        state.passed = new Set();
        state.clears++;
      } else {
        state.cleared = null;
        state.clearedPile = null;
      }
    }
    state.toMove = pos < deal.events.length ? deal.events[pos][0] : null;
    return state;
  }

  const viewer = { match: null, deal: 0, pos: 0, timer: null };

  // Links count deals from 1, as the deal buttons and `arena show --deal` do; the viewer
  // counts them from 0 inside.
  function linkFor(id, deal, pos) {
    return `match=${encodeURIComponent(id)}&deal=${deal + 1}&move=${pos}`;
  }

  function parseHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has("match")) return null;
    return { id: params.get("match"), deal: Number(params.get("deal") || 1) - 1, pos: Number(params.get("move") || 0) };
  }

  async function openReplay(id, deal, pos) {
    const box = document.getElementById("replay");
    box.hidden = false;
    document.body.classList.add("replaying");
    if (!viewer.match || viewer.match.id !== id) {
      box.replaceChildren(el("p", { class: "loading" }, t("report.loading", { id })));
      try {
        viewer.match = await loadMatch(id);
      } catch (err) {
        box.replaceChildren(el("p", { class: "problem" }, String(err.message || err)),
          el("button", { onclick: closeReplay }, t("report.close")));
        viewer.match = null;
        return;
      }
      buildViewer();
    }
    const match = viewer.match;
    viewer.deal = Math.max(0, Math.min(Number.isFinite(deal) ? deal : 0, match.deals.length - 1));
    const events = match.deals[viewer.deal] ? match.deals[viewer.deal].events.length : 0;
    viewer.pos = Math.max(0, Math.min(Number.isFinite(pos) ? pos : 0, events));
    render();
  }

  function closeReplay() {
    stop();
    document.getElementById("replay").hidden = true;
    document.body.classList.remove("replaying");
    viewer.match = null;
    history.replaceState(null, "", location.pathname + location.search + "#matches");
  }

  function seatName(seat) {
    // a person by the display name, else as the seat page calls one with none
    const s = viewer.match.seats[seat];
    if (s && s.host === "web") return s.name || t("table.seat.player_n", { number: seat + 1 });
    return s ? s.label : t("report.seat", { seat });
  }

  // The moves a person's stand-in made in a deal, by their number among the deal's moves.
  function standInMoves(m, deal) {
    const out = new Set();
    for (const s of m.seats) {
      for (const [d, move] of (s.stand_in ? s.stand_in.moves : [])) if (d === deal) out.add(move);
    }
    return out;
  }

  function buildViewer() {
    const m = viewer.match;
    const box = document.getElementById("replay");
    const dealButtons = m.deals.map((d, k) => el("button", { class: "deal-button", "data-deal": k,
      onclick: () => go(k, 0) }, t("report.deal", { n: k + 1 })));
    box.replaceChildren(...[
      el("div", { class: "replay-head" },
        el("h2", {}, t("report.match_title", { id: m.id })),
        el("span", { class: "meta" }, t("report.seed", { seed: m.seed }) + (m.set ? t("report.set", { set: m.set }) : "") +
          (m.round !== null && m.round !== undefined ? t("report.round", { round: m.round }) : "") +
          ` · ${m.rules ? rulesText(m.rules) : ""}`),
        el("button", { class: "close", onclick: closeReplay, title: t("report.close_key") }, "✕")),
      m.error ? el("p", { class: "problem" }, t("report.no_replay", { error: m.error })) : null,
      el("div", { class: "deal-bar" }, dealButtons,
        el("span", { class: "meta" }, t("report.final"), m.ranking.map((seat) => `${seatName(seat)} ${m.scores[seat]}`).join(", "))),
      el("div", { class: "controls" },
        el("button", { id: "r-first", title: t("report.key_start"), onclick: () => go(viewer.deal, 0) }, "|◀"),
        el("button", { id: "r-prev", title: t("report.key_back"), onclick: () => step(-1) }, "◀"),
        el("button", { id: "r-play", title: t("report.key_play"), onclick: toggle }, t("report.play")),
        el("button", { id: "r-next", title: t("report.key_step"), onclick: () => step(1) }, "▶"),
        el("button", { id: "r-last", title: t("report.key_end"), onclick: () => go(viewer.deal, Infinity) }, "▶|"),
        el("input", { id: "r-slider", type: "range", min: 0, max: 0, value: 0, "aria-label": t("report.move"),
          oninput: (e) => go(viewer.deal, Number(e.target.value)) }),
        el("span", { id: "r-pos" }),
        el("select", { id: "r-speed", "aria-label": t("report.speed") },
          el("option", { value: "800" }, t("report.slow")), el("option", { value: "350", selected: true }, t("report.normal")),
          el("option", { value: "80" }, t("report.fast"))),
        el("a", { id: "r-link", href: "#", title: t("report.link_title") }, t("report.link"))),
      el("div", { class: "table-area" },
        el("div", { id: "r-seats", class: "seats" }),
        el("div", { class: "centre" },
          el("div", { id: "r-status", class: "status" }),
          el("div", { class: "pile-box" }, el("div", { class: "label" }, t("report.pile")), el("div", { id: "r-pile", class: "pile" })),
          el("div", { class: "label" }, t("report.trick")), el("ol", { id: "r-trick", class: "trick" }),
          el("div", { id: "r-result", class: "result" }),
          el("div", { class: "label" }, t("report.exchange")), el("ul", { id: "r-exchange", class: "exchange" }),
          el("div", { id: "r-faults" })),
        el("div", { class: "log-box" }, el("div", { class: "label" }, t("report.moves")), el("ol", { id: "r-log", class: "log" })))
    ].filter((node) => node !== null));
  }

  function rulesText(rules) {
    const on = ["runs", "revolution", "eight_stop", "pass_is_final"].filter((k) => rules[k]);
    return t("report.rules_deals", { n: rules.rounds }) + (rules.jokers ? t("report.rules_jokers", { n: rules.jokers }) : "") +
      (on.length ? ", " + on.map((k) => t("report.rule." + k)).join(", ") : "") + t("report.rules_fault", { policy: word("policy", rules.on_fault) });
  }

  function go(deal, pos) {
    const m = viewer.match;
    if (!m) return;
    if (deal !== viewer.deal) stop();
    viewer.deal = Math.max(0, Math.min(deal, m.deals.length - 1));
    const events = m.deals[viewer.deal].events.length;
    viewer.pos = Math.max(0, Math.min(pos, events));
    render();
  }

  function step(delta) {
    const m = viewer.match;
    if (!m) return;
    const events = m.deals[viewer.deal].events.length;
    let { deal, pos } = viewer;
    pos += delta;
    if (pos > events && deal < m.deals.length - 1) { deal++; pos = 0; }
    else if (pos < 0 && deal > 0) { deal--; pos = m.deals[deal].events.length; }
    go(deal, pos);
  }

  function toggle() { if (viewer.timer) stop(); else play(); }

  function play() {
    stop();
    const speed = Number(document.getElementById("r-speed").value);
    viewer.timer = setInterval(() => {
      const m = viewer.match;
      const events = m.deals[viewer.deal].events.length;
      if (viewer.pos >= events && viewer.deal >= m.deals.length - 1) { stop(); return; }
      step(1);
    }, speed);
    document.getElementById("r-play").textContent = t("report.pause");
  }

  function stop() {
    if (viewer.timer) clearInterval(viewer.timer);
    viewer.timer = null;
    const button = document.getElementById("r-play");
    if (button) button.textContent = t("report.play");
  }

  function render() {
    const m = viewer.match;
    const deal = m.deals[viewer.deal];
    const players = m.seats.length;
    const pos = viewer.pos;
    const state = stateAt(deal, players, pos);
    const ended = pos >= deal.events.length;
    const hash = linkFor(m.id, viewer.deal, pos);
    history.replaceState(null, "", "#" + hash);
    document.getElementById("r-link").href = "#" + hash;
    document.querySelectorAll(".deal-button").forEach((b) =>
      b.classList.toggle("current", Number(b.dataset.deal) === viewer.deal));
    const slider = document.getElementById("r-slider");
    slider.max = deal.events.length; slider.value = pos;
    document.getElementById("r-pos").textContent = t("report.move_of", { pos, total: deal.events.length });
    const lastEvent = pos > 0 ? deal.events[pos - 1] : null;

    // seats
    const seats = [];
    for (let s = 0; s < players; s++) {
      const role = deal.roles ? deal.roles[s] : null;
      const place = state.out.indexOf(s);
      let badge = "";
      if (state.forfeited.includes(s)) badge = t("report.forfeited");
      else if (place >= 0) badge = t("report.out_place", { place: place + 1 });
      else if (state.passed.has(s)) badge = t("report.passed");
      const classes = ["seat"];
      if (state.toMove === s && !ended) classes.push("to-move");
      if (lastEvent && lastEvent[0] === s) classes.push("last-mover");
      seats.push(el("div", { class: classes.join(" "), "data-seat": s },
        el("div", { class: "seat-head" },
          el("b", {}, seatName(s)), el("span", { class: "meta" }, " " + t("report.seat", { seat: s }) + (role ? ` · ${t("role." + role)}` : "")),
          el("span", { class: "badge" }, badge),
          el("span", { class: "count" }, t(state.hands[s].length === 1 ? "report.one_card" : "report.cards", { count: state.hands[s].length }))),
        m.seats[s].stand_in ? el("div", { class: "stand-in" }, t(m.seats[s].stand_in.decisions === 1 ? "report.stand_in_seat_one" : "report.stand_in_seat",
          { bot: m.seats[s].stand_in.bot, count: m.seats[s].stand_in.decisions }).trim()) : "",
        el("div", { class: "hand" }, state.hands[s].map((c) => cardNode(c)))));
    }
    document.getElementById("r-seats").replaceChildren(...seats);

    // centre
    let status = "";
    if (pos === 0) status = t("report.leads", { n: viewer.deal + 1, who: seatName(deal.leader) });
    else if (lastEvent) {
      const [seat, text, time, flags, fault] = lastEvent;
      const who = seatName(seat);
      status = fault !== undefined ? t("report.fault_status", { who, fault: word("fault", fault) }) + (flags & 8 ? t("report.leaves") : "")
        : text === "pass" ? t("report.passes", { who }) : t("report.plays", { who, move: moveText(text) });
      if (time !== null && time !== undefined) status += ` (${ms(time)} ms)`;
      if (flags & 2) status += t("report.revolution_status");
      if (flags & 4) status += t("report.goes_out");
      if (flags & 1) status += t("report.trick_ends_status");
    }
    const statusNode = document.getElementById("r-status");
    statusNode.replaceChildren(status, state.revolution ? el("span", { class: "revolution" }, t("report.reversed")) : "");
    const pile = state.pile || state.clearedPile;
    document.getElementById("r-pile").replaceChildren(
      pile ? el("span", { class: state.pile ? "" : "cleared" },
        el("span", { class: "meta" }, seatName(pile.seat) + " "), pile.text.split(" ").map((c) => cardNode(c)),
        state.pile ? "" : el("span", { class: "meta" }, t("report.pile_cleared")))
        : el("span", { class: "meta" }, t("report.pile_empty")));
    const trick = state.trick.length ? state.trick : state.cleared || [];
    document.getElementById("r-trick").replaceChildren(...trick.map((entry) =>
      el("li", { class: entry.fault ? "problem" : "" }, `${seatName(entry.seat)}: `,
        entry.fault ? t("report.fault_entry", { fault: word("fault", entry.kind) }) : moveNodes(entry.text))));
    const result = document.getElementById("r-result");
    if (ended && deal.finish_order) {
      result.replaceChildren(el("div", { class: "label" }, t("report.deal_result", { n: viewer.deal + 1 })),
        el("ol", { class: "finish" }, deal.finish_order.map((seat) =>
          el("li", { "data-seat": seat }, `${seatName(seat)}`, el("span", { class: "points" }, " " +
            t(deal.points[seat] === 1 ? "report.one_point" : "report.points", { count: deal.points[seat] }))))));
      result.hidden = false;
    } else {
      result.replaceChildren();
      result.hidden = true;
    }
    document.getElementById("r-exchange").replaceChildren(...(deal.exchanges.length ? deal.exchanges.map(([from, to, cards, kind]) =>
      el("li", {}, `${seatName(from)} → ${seatName(to)}: `, (cards ? cards.split(" ") : []).map((c) => cardNode(c, "small")), ` (${t("report.kind." + kind)})`))
      : [el("li", { class: "meta" }, t("report.no_exchange"))]));
    document.getElementById("r-faults").replaceChildren(...(deal.faults.length ? [el("div", { class: "label" }, t("report.col.faults")),
      el("ul", {}, deal.faults.map(([seat, kind, move, stage, detail]) =>
        el("li", { class: "problem" }, t("report.fault_line", { who: seatName(seat), kind: word("fault", kind), move, stage, detail }))))] : []));

    // log: a window of moves around the current one
    const log = document.getElementById("r-log");
    const from = Math.max(0, pos - 12), to = Math.min(deal.events.length, from + 30);
    const standIn = standInMoves(m, deal.deal);
    const moveNumber = [];  // each event's number among the deal's moves (faults are none)
    deal.events.reduce((n, e) => { moveNumber.push(n); return e[4] === undefined ? n + 1 : n; }, 0);
    log.replaceChildren(...deal.events.slice(from, to).map(([seat, text, time, flags, fault], k) => {
      const index = from + k + 1;
      const stoodIn = fault === undefined && standIn.has(moveNumber[from + k]);
      const classes = [index === pos ? "current" : "", flags & 1 ? "clear" : "", fault !== undefined ? "problem" : ""];
      return el("li", { value: index, class: classes.join(" ").trim(), onclick: () => go(viewer.deal, index) },
        `${seatName(seat)}: `, fault !== undefined ? t("report.fault_log", { fault: word("fault", fault) }) : moveNodes(text),
        el("span", { class: "meta" }, time !== null && time !== undefined ? ` ${ms(time)} ms` : ""),
        flags & 2 ? el("span", { class: "revolution" }, t("report.revolution_log")) : "",
        flags & 4 ? el("span", { class: "meta" }, t("report.out_log")) : "",
        flags & 1 ? el("span", { class: "meta" }, t("report.trick_ends_log")) : "",
        stoodIn ? el("span", { class: "stand-in" }, t("report.stand_in_move")) : "");
    }));
  }

  document.addEventListener("keydown", (e) => {
    if (document.getElementById("replay").hidden || !viewer.match) return;
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const keys = {
      ArrowRight: () => step(1), ArrowLeft: () => step(-1),
      Home: () => go(viewer.deal, 0), End: () => go(viewer.deal, Infinity),
      PageDown: () => go(viewer.deal + 1, 0), PageUp: () => go(viewer.deal - 1, 0),
      " ": toggle, Escape: closeReplay,
    };
    const action = keys[e.key];
    if (action) { e.preventDefault(); action(); }
  });

  function route() {
    const target = parseHash();
    if (target) openReplay(target.id, target.deal, target.pos);
    else if (!document.getElementById("replay").hidden) closeReplay();
  }
  window.addEventListener("hashchange", route);

  header();
  leaderboard();
  crosstable();
  course();
  matchList();
  config();
  problems();
  route();
  document.body.dataset.ready = "1";
})();
