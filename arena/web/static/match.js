// A match in play, from its public events (docs/web.md), over /ws.
(function () {
  "use strict";
  const { text, el, follow, moveNode } = window.ARENA_LIVE;
  const id = new URLSearchParams(location.search).get("id") || "";
  const game = { labels: [], deal: null, roles: [], counts: [], scores: [], pile: null, pileBy: null,
    outs: [], revolution: false, events: 0, finished: false };
  document.getElementById("match-id").textContent = id;
  // A people's table (arena.web._tables) has no duplicate set and no tournament to go back to.
  const table = id.startsWith("table-");
  if (table) {
    for (const [node, key] of [["note", "table.watch.public_only"], ["back", "table.watch.back"]]) {
      document.getElementById(node).dataset.i18n = key;
    }
    document.getElementById("back").href = "/tables";
  }

  // A people's table's persons by their display names (public: /api/tables has them).
  const names = {};
  function name(seat) { return names[seat] || (game.labels[seat] ?? `seat ${seat}`); }
  function loadNames() {  // at the start and each deal: a name may be given any time
    fetch("/api/tables").then((r) => r.json()).then((tables) => {
      const mine = tables.find((t) => t.match_id === id);
      if (!mine) return;
      mine.people.forEach((seat, i) => { if (mine.names[i]) names[seat] = mine.names[i]; });
      render();
    }).catch(() => {});
  }
  if (table) loadNames();

  function apply(e) {
    game.events += 1;
    const log = document.querySelector("#log .body");
    let line = null;
    switch (e.type) {
      case "match_start": game.labels = e.labels; break;
      case "deal_start":
        Object.assign(game, { deal: e.deal, roles: e.roles || [], counts: [...e.counts], pile: null, pileBy: null, outs: [], revolution: false });
        line = text("live.deal_start", "Deal {n} is dealt", { n: e.deal + 1 });
        if (table) loadNames();
        break;
      case "exchange":
        line = text("live.exchange", "{from} gives {count} card(s) to {to}", { from: name(e.from), to: name(e.to), count: e.count });
        break;
      case "move":
        game.counts[e.seat] = e.left;
        if (e.move !== "pass") { game.pile = e.move; game.pileBy = e.seat; }
        line = el("span", {}, `${name(e.seat)}: `, moveNode(e.move));
        break;
      case "clear": game.pile = null; game.pileBy = null; game.revolution = e.revolution;
        line = text("live.clear", "The pile is cleared"); break;
      case "out": game.outs.push(e.seat);
        line = text("live.out", "{who} is out, place {place}", { who: name(e.seat), place: e.place + 1 }); break;
      case "fault": line = text("live.fault", "{who}: fault ({kind})", { who: name(e.seat), kind: e.kind }); break;
      case "deal_end": game.scores = e.scores;
        line = text("live.deal_end", "Deal {n} ends: {order}", { n: e.deal + 1, order: e.finish_order.map(name).join(", ") }); break;
      case "match_end": game.scores = e.scores; game.finished = true; over();
        line = text("live.match_end", "The match is over"); break;
      default: break;
    }
    if (line !== null) {
      log.prepend(el("li", { "data-type": e.type }, line));
      while (log.children.length > 300) log.lastChild.remove();
    }
  }

  function render() {
    const box = document.querySelector("#table .body");
    document.getElementById("deal-title").textContent = game.deal === null ? text("live.deal", "Deal")
      : text("live.deal_n", "Deal {n}", { n: game.deal + 1 });
    const seats = game.labels.map((label, seat) => el("tr", { "data-seat": seat, class: game.outs.includes(seat) ? "out" : null },
      el("td", { class: "left bot" }, name(seat)),
      el("td", { class: "left" }, game.roles[seat] ? text("role." + game.roles[seat], game.roles[seat]) : ""),
      el("td", { class: "count" }, game.counts[seat] ?? ""), el("td", {}, game.scores[seat] ?? 0)));
    box.replaceChildren(
      el("div", { class: "pile" }, el("span", { class: "meta", "data-i18n": "live.pile" }, text("live.pile", "On the pile:")), " ",
        game.pile ? el("span", {}, moveNode(game.pile), " ", el("span", { class: "meta" }, name(game.pileBy))) : "–",
        game.revolution ? el("span", { class: "meta" }, " ", text("live.revolution", "(revolution)")) : null),
      el("table", { class: "seats" }, el("thead", {}, el("tr", {},
        el("th", { class: "left", "data-i18n": "live.col_bot" }, text("live.col_bot", "bot")),
        el("th", { class: "left", "data-i18n": "live.col_role" }, text("live.col_role", "role")),
        el("th", { "data-i18n": "live.col_cards" }, text("live.col_cards", "cards")),
        el("th", { "data-i18n": "live.col_score" }, text("live.col_score", "score")))),
      el("tbody", {}, seats)));
    document.body.dataset.events = String(game.events);
  }

  function over() {
    const title = document.getElementById("match-title");
    title.dataset.i18n = "live.match_end";
    title.textContent = text("live.match_end", "The match is over");
  }

  function recorded() {
    over();
    const status = document.getElementById("status");
    status.dataset.i18n = "live.recorded_match";
    if (table) {  // a people's match: its replay is in the people's report, at once
      status.replaceChildren(text("live.recorded_match", "The match is over and recorded."), " ",
        el("a", { id: "replay-link", href: `/report/people/#match=${encodeURIComponent(id)}&deal=1&move=0`, "data-i18n": "live.replay" },
          text("live.replay", "replay")));
      document.body.dataset.recorded = "1";
      return;
    }
    status.replaceChildren(text("live.recorded_match", "The match is over and recorded."), " ",
      el("a", { href: `/report/#match=${encodeURIComponent(id)}&deal=1&move=0`, "data-i18n": "live.replay" }, text("live.replay", "replay")),
      " ", el("span", { class: "meta", "data-i18n": "live.replay_when" }, text("live.replay_when", "(once its duplicate set is finished)")));
    document.body.dataset.recorded = "1";
  }

  function onEvent(event) {
    if (event.type === "batch") {  // what came since the last message, in order
      for (const e of event.events) onEvent(e);
      return;
    }
    if (event.type === "events") {  // the match so far (again, after a reconnection)
      Object.assign(game, { deal: null, roles: [], counts: [], scores: [], pile: null, pileBy: null, outs: [], events: 0 });
      document.querySelector("#log .body").replaceChildren();
      for (const e of event.events) apply(e);
      if (event.labels) game.labels = event.labels;
    }
    else if (event.type === "recorded") { recorded(); return; }
    else if (event.type === "held") {
      document.getElementById("status").textContent = text("live.held_match", "This match is in play beside other matches of its duplicate set: its moves are shown once the set is complete.");
      return;
    }
    else if (event.type === "unknown") {
      document.getElementById("status").textContent = text("live.unknown", "No such match in play.");
      return;
    } else apply(event);
    render();
  }

  function onState(connected) {
    if (document.body.dataset.recorded === "1") return;
    const status = document.getElementById("status");
    status.textContent = connected ? text("live.watching", "Watching live.") : text("live.disconnected", "Not connected to the server; trying again…");
  }

  ARENA_LIVE.afterLanguage(() => {
    render();
    follow([`match:${id}`], onEvent, onState);
  });
})();
