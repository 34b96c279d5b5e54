// The run's page: standings, matches in play and finished, the report; live over /ws.
(function () {
  "use strict";
  const { text, el, follow } = window.ARENA_LIVE;
  const state = { matches: [], standings: null, updates: 0 };

  function body(id) { return document.querySelector(`#${id} .body`); }
  function num(value, digits) { return value === null || value === undefined ? "–" : Number(value).toFixed(digits); }

  function renderStandings(doc) {
    state.standings = doc;
    const rows = doc.standings || [];
    const box = body("standings");
    if (!rows.length) return;
    const head = [["#", "live.col_rank"], ["bot", "live.col_bot"], ["matches", "live.col_matches"],
      ["match score", "live.col_match_score"], ["wins", "live.col_wins"], ["points/match", "live.col_points"],
      ["deal score", "live.col_deal_score"], ["interval", "live.col_interval"], ["faults", "live.col_faults"],
      ["timeouts", "live.col_timeouts"]];
    const table = el("table", { class: "standings", "data-matches": doc.matches },
      el("thead", {}, el("tr", {}, head.map(([fallback, key], i) =>
        el("th", { class: i === 1 ? "left" : null, "data-i18n": key }, text(key, fallback))))),
      el("tbody", {}, rows.map((row) => el("tr", {},
        el("td", {}, row.rank), el("td", { class: "left bot" }, row.label), el("td", {}, row.matches),
        el("td", {}, num(row.match_score, 3)),
        el("td", {}, `${row.wins} (${Math.round(100 * (row.win_rate || 0))}%)`),
        el("td", {}, num(row.mean_points, 2)), el("td", {}, num(row.deal_score, 3)),
        el("td", {}, `${num(row.deal_score_low, 3)} … ${num(row.deal_score_high, 3)}`),
        el("td", {}, row.faults), el("td", {}, row.timeouts)))));
    box.replaceChildren(table, el("p", { class: "note", id: "recorded" },
      text("live.recorded", "{n} matches recorded", { n: doc.matches })));
    state.updates += 1;
    document.body.dataset.standingsUpdates = String(state.updates);
  }

  function result(match) {
    if (!match.ranking || !match.scores) return "";
    return match.ranking.map((seat) => `${match.labels[seat]} ${match.scores[seat]}`).join(" · ");
  }

  function renderMatches(matches) {
    state.matches = matches;
    const playing = matches.filter((m) => m.state === "playing");
    const done = matches.filter((m) => m.state !== "playing");
    const live = body("playing");
    if (!playing.length) {
      live.replaceChildren(el("p", { class: "note", "data-i18n": "live.none_playing" },
        text("live.none_playing", "No match is being played.")));
    } else {
      live.replaceChildren(el("ul", { class: "playing" }, playing.map((m) => el("li", {},
        el("a", { href: `/match?id=${encodeURIComponent(m.id)}`, class: "match-link", "data-id": m.id }, m.id),
        " ", el("span", { class: "meta" }, m.labels.join(", ")),
        m.scores ? el("span", { class: "meta" }, ` (${m.scores.join(" : ")})`) : null))));
    }
    const shown = done.slice(-200).reverse();
    const rows = shown.map((m) => {
      let cell;
      if (m.state === "finished") {
        cell = el("a", { href: `/report/#match=${encodeURIComponent(m.id)}&deal=1&move=0`, target: "report-frame",
          class: "replay-link", "data-i18n": "live.replay", onclick: () => showReport() }, text("live.replay", "replay"));
      } else if (m.state === "waiting") {
        cell = el("span", { class: "meta", "data-i18n": "live.waiting" }, text("live.waiting", "waiting for its set"));
      } else if (m.state === "held") {
        cell = el("span", { class: "meta", "data-i18n": "live.held" }, text("live.held", "in play; shown once its set is complete"));
      } else {
        cell = el("span", { class: "problem", "data-i18n": "live.error" }, text("live.error", "not played (error)"));
      }
      return el("tr", { "data-id": m.id, "data-state": m.state }, el("td", { class: "left" }, m.id),
        el("td", {}, m.round ?? ""), el("td", { class: "left" }, result(m)), el("td", { class: "left" }, cell));
    });
    const box = body("matches");
    box.replaceChildren(...[el("table", { class: "match-list" },
      el("thead", {}, el("tr", {},
        el("th", { class: "left", "data-i18n": "live.col_match" }, text("live.col_match", "match")),
        el("th", { "data-i18n": "live.col_round" }, text("live.col_round", "round")),
        el("th", { class: "left", "data-i18n": "live.col_result" }, text("live.col_result", "result (best first, points)")),
        el("th", { class: "left" }))),
      el("tbody", {}, rows)),
      done.length > shown.length ? el("p", { class: "note" },
        text("live.latest", "the latest {n} of {total}", { n: shown.length, total: done.length })) : null]
      .filter((node) => node !== null));
  }

  function showReport() { document.getElementById("report").scrollIntoView(); }

  // The report frame is reloaded when a new build is out, never while it loads (a reload
  // would cut its files off midway) and never while a replay is being watched.
  const frame = { loading: true, due: false };
  document.getElementById("report-frame").addEventListener("load", () => {
    frame.loading = false;
    if (frame.due) reloadReport();
  });

  function reloadReport() {
    const box = document.getElementById("report-frame");
    const win = box.contentWindow;
    if (frame.loading || (win && win.location.hash.includes("match="))) { frame.due = true; return; }
    frame.due = false;
    frame.loading = true;
    box.src = "/report/?t=" + Date.now();
  }

  function onEvent(event) {
    if (event.topic === "standings" && event.standings) renderStandings(event.standings);
    else if (event.topic === "matches" && event.matches) renderMatches(event.matches);
    else if (event.topic === "report" && event.type === "report") reloadReport();
    else if (event.topic === "progress" && event.type === "progress") {
      document.getElementById("progress").textContent = text("live.progress", "({total} matches in the run)", { total: event.total });
    } else if (event.topic === "league" && event.status) {
      const box = document.getElementById("league");
      box.hidden = false;
      box.textContent = text("live.league", "League round {round}, {deals} deals", { round: event.status.round, deals: event.status.deals })
        + (event.status.stop ? ` (${event.status.stop})` : "");
    }
  }

  function onState(connected) {
    const status = document.getElementById("status");
    status.dataset.i18n = connected ? "live.connected" : "live.disconnected";
    status.textContent = connected ? text("live.connected", "Live: this page updates by itself.")
      : text("live.disconnected", "Not connected to the server; trying again…");
    document.body.dataset.connected = connected ? "1" : "0";
  }

  function boot() {
    fetch("/api/standings").then((r) => r.json()).then((doc) => { if (doc.standings) renderStandings(doc); });
    fetch("/api/matches").then((r) => r.json()).then((doc) => { if (doc.matches) renderMatches(doc.matches); });
    follow(["standings", "matches", "report", "progress", "league"], onEvent, onState);
  }
  ARENA_LIVE.afterLanguage(boot);
})();
