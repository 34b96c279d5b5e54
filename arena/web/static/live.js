// The run's page: standings, matches in play and finished, the report; live over /ws.
(function () {
  "use strict";
  const { text, el, follow } = window.ARENA_LIVE;
  const state = { matches: [], standings: null, updates: 0, recorded: null, total: null, open: false };

  function body(id) { return document.querySelector(`#${id} .body`); }
  function num(value, digits) { return value === null || value === undefined ? "–" : Number(value).toFixed(digits); }

  function headers(cells) {
    return el("thead", {}, el("tr", {}, cells.map(([fallback, key, left]) =>
      el("th", { class: left ? "left" : null, "data-i18n": key }, text(key, fallback)))));
  }

  function signed(value) { return value === null || value === undefined ? "–" : (value >= 0 ? "+" : "") + Number(value).toFixed(2); }

  // A league's own leaderboard: its entrants best first by strength (the document's rows
  // are in that order), anchors and retired entrants marked, the stopping rule's state.
  function leagueTable(doc) {
    const board = doc.ratings.league;
    const rows = doc.standings;
    const head = headers([["#", "live.col_rank"], ["bot", "live.col_bot", true],
      ["strength", "live.col_strength"], ["interval", "live.col_interval"], ["sets", "live.col_sets"],
      ["deals", "live.col_deals"], ["", "live.col_status", true], ["matches", "live.col_matches"],
      ["faults", "live.col_faults"]]);
    const table = el("table", { class: "standings league", "data-matches": doc.matches },
      head, el("tbody", {}, rows.map((row) => {
        const marks = [];
        if (row.anchor) marks.push(text("live.anchor", "anchor"));
        if (!row.active) marks.push(text("live.retired", "retired"));
        if (row.flagged) marks.push(text("live.flagged", "faults in most matches"));
        const played = row.sets > 0;
        const kind = [row.active ? null : "retired", row.flagged ? "flagged" : null].filter(Boolean).join(" ");
        return el("tr", { "data-label": row.label, class: kind || null },
          el("td", {}, row.rank ?? "-"), el("td", { class: "left bot" }, row.label),
          el("td", {}, played ? signed(row.strength) : "–"),
          el("td", {}, played ? `${signed(row.strength_low)} … ${signed(row.strength_high)}`
            : text("live.no_sets", "no sets yet")),
          el("td", {}, row.sets), el("td", {}, row.deals),
          el("td", { class: "left meta" }, marks.join(", ")), el("td", {}, row.matches),
          el("td", {}, row.faults));
      })));
    const values = { top: board.top, p: board.p_top.toFixed(2), round: board.round ?? "–",
      deals: doc.ratings.deals, level: Math.round(board.confidence * 100) };
    const stop = board.confident === null || board.confident === undefined
      ? text("live.league_state", "League round {round}, {deals} deals: P(order of top {top}) {p}", values)
      : text("live.league_state_stop", "League round {round}, {deals} deals: P(order of top {top}) {p} (stops at {confident})",
        { ...values, confident: board.confident });
    return [table,
      el("p", { class: "league-stop", id: "league-stop" }, stop),
      el("p", { class: "note" }, text("live.league_note",
        "The league's own ranking: Plackett-Luce strengths with their {level}% intervals, as arena ratings gives them. A retired entrant keeps its strength and has no rank.", values)),
      el("h3", { "data-i18n": "live.deal_scores" }, text("live.deal_scores", "Mean deal scores")),
      el("p", { class: "note", "data-i18n": "live.deal_scores_note" }, text("live.deal_scores_note",
        "Not the league's ranking: a mean deal score depends on whom the league seated together.")),
      el("table", { class: "deal-scores" },
        headers([["#", "live.col_rank"], ["bot", "live.col_bot", true], ["deal score", "live.col_deal_score"],
          ["interval", "live.col_interval"]]),
        el("tbody", {}, doc.ratings.deal_scores.map((line) => el("tr", { "data-label": line.label },
          el("td", {}, line.rank), el("td", { class: "left bot" }, line.label),
          el("td", {}, num(line.score, 3)),
          el("td", {}, `${num(line.score_low, 3)} … ${num(line.score_high, 3)}`)))))];
  }

  function standingsTable(doc) {
    const head = headers([["#", "live.col_rank"], ["bot", "live.col_bot", true], ["matches", "live.col_matches"],
      ["match score", "live.col_match_score"], ["wins", "live.col_wins"], ["points/match", "live.col_points"],
      ["deal score", "live.col_deal_score"], ["interval", "live.col_interval"], ["faults", "live.col_faults"],
      ["timeouts", "live.col_timeouts"]]);
    return [el("table", { class: "standings", "data-matches": doc.matches }, head,
      el("tbody", {}, doc.standings.map((row) => el("tr", { "data-label": row.label },
        el("td", {}, row.rank), el("td", { class: "left bot" }, row.label), el("td", {}, row.matches),
        el("td", {}, num(row.match_score, 3)),
        el("td", {}, `${row.wins} (${Math.round(100 * (row.win_rate || 0))}%)`),
        el("td", {}, num(row.mean_points, 2)), el("td", {}, num(row.deal_score, 3)),
        el("td", {}, `${num(row.deal_score_low, 3)} … ${num(row.deal_score_high, 3)}`),
        el("td", {}, row.faults), el("td", {}, row.timeouts)))))];
  }

  function renderStandings(doc) {
    state.standings = doc;
    const rows = doc.standings || [];
    const box = body("standings");
    if (!rows.length) return;
    const league = doc.ranking === "league" && doc.ratings && doc.ratings.league;
    box.replaceChildren(...(league ? leagueTable(doc) : standingsTable(doc)),
      el("p", { class: "note", id: "recorded" }, text("live.recorded", "{n} matches recorded", { n: doc.matches })));
    state.recorded = doc.matches;
    showProgress();
    state.updates += 1;
    document.body.dataset.standingsUpdates = String(state.updates);
  }

  // The header counts the run's matches: those recorded, and of how many when the run's
  // length is known (a league's is not: it chooses each round as it goes).
  function showProgress() {
    const recorded = state.recorded ?? 0;
    const total = state.open ? null : state.total;
    const line = total && total > recorded
      ? text("live.progress_of", "({n} of {total} matches recorded)", { n: recorded, total })
      : text("live.progress", "({n} matches recorded)", { n: recorded });
    document.getElementById("progress").textContent = line;
  }

  function result(match) {
    if (!match.ranking || !match.scores) return "";
    return match.ranking.map((seat) => `${match.labels[seat]} ${match.scores[seat]}`).join(" · ");
  }

  // The match list by id: the topic's first message (the latest finished matches and every
  // match in play, with how many matches there are in all), then what changed.
  const list = new Map();
  function mergeMatches(event) {
    if (event.type === "matches") list.clear();
    for (const m of event.matches) list.set(m.id, m);
    for (const id of event.gone || []) list.delete(id);
    let over = list.size - 400;  // the page keeps the latest; the API pages through the rest
    for (const [id, m] of list) {
      if (over <= 0) break;
      if (m.state !== "playing" && m.state !== "held") { list.delete(id); over -= 1; }
    }
    renderMatches([...list.values()], event.total);
  }

  function renderMatches(matches, total) {
    state.matches = matches;
    const playing = matches.filter((m) => m.state === "playing");
    const done = matches.filter((m) => m.state !== "playing");
    const inPlay = matches.length - done.length + done.filter((m) => m.state === "held").length;
    state.recorded = (total ?? matches.length) - inPlay;
    showProgress();
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
      if (m.state === "finished" && m.people) {  // a people's table's: in the people's report
        cell = el("a", { href: `/report/people/#match=${encodeURIComponent(m.id)}&deal=1&move=0`, class: "replay-link people",
          "data-i18n": "live.replay" }, text("live.replay", "replay"));
      } else if (m.state === "finished") {
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
    else if (event.topic === "matches" && event.matches) mergeMatches(event);
    else if (event.topic === "report" && event.type === "report") reloadReport();
    else if (event.topic === "progress" && event.type === "progress") {
      state.total = event.total;
      showProgress();
    } else if (event.topic === "league" && event.status) {
      state.open = true;
      showProgress();
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
    fetch("/api/matches?last=400").then((r) => r.json()).then((doc) => { if (doc.matches) mergeMatches({ type: "matches", ...doc }); });
    follow(["standings", "matches", "report", "progress", "league"], onEvent, onState);
  }
  ARENA_LIVE.afterLanguage(boot);
})();
