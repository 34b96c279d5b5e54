// The seat page: one person's seat at a table, over the seat's WebSocket.
// The socket sends the requests a bot of this seat gets (docs/protocol.md: start, play,
// exchange, end_deal) plus the seat's own view before each other player's turn ("turn"),
// the table's people (names, who is away), the match's end and errors (docs/web.md,
// "People at the table"). What happened between two views is told in the log (an ARIA
// live region). Everything shown is set as text, never as HTML.
"use strict";
(function () {
  // The page's messages (arena/web/locales/*/table.json), once i18n.js has loaded them.
  const t = (key, values) => window.arenaI18n.t(key, values);
  const cards = window.arenaCards;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const parts = location.pathname.split("/");  // /t/<table>/<seat>
  const table = parts[2], me = Number(parts[3]);
  const PARTNER = { "president": "scum", "scum": "president",
                    "vice-president": "vice-scum", "vice-scum": "vice-president" };
  // ask: the request the seat was sent last (play, exchange), null once a view without
  // one came or its deal ended; answered: the page answered it, so its controls stay away
  // until the server asks again or refuses the answer.
  const state = { start: null, view: null, ask: null, answered: false, picked: new Set(),
                  deals: [], people: {}, taken: null, told: null, end: null };
  let socket = null, retry = 500, over = false;

  const { el, clock } = cards;
  // A seat as people read it: the display name, else a bot's label, else "Player N".
  const name = (seat) => {
    const person = state.people[seat];
    if (person && person.name) return person.name;
    if (person) return t("table.seat.player_n", { number: seat + 1 });
    return (state.start && state.start.labels[seat]) || "#" + (seat + 1);
  };
  const who = (seat) => seat === me ? t("table.seat.you_name", { name: name(seat) }) : name(seat);
  const moveText = (move) => window.arenaI18n.moveText(move);
  const cardsText = (list) => list.map((c) => window.arenaI18n.cardText(c)).join(" ") || "—";

  const showError = (text) => { $("error").textContent = text || ""; $("error").hidden = !text; };

  // One line in the log (the live region reads it out); the newest last, 400 kept.
  function say(text, cls) {
    const log = $("log");
    log.append(el("li", text, cls ? { "class": cls } : {}));
    while (log.children.length > 400) log.firstChild.remove();
    $("log-box").scrollTop = $("log-box").scrollHeight;
  }

  // ------------------------------------------------------------------ what happened

  function narrate(prev, view) {
    const same = prev && prev.deal === view.deal;
    if (!same) {
      const total = state.start ? state.start.rules.rounds : "?";
      say(t("term.deal", { number: view.deal + 1, total }), "deal");
      const mine = view.players[me] && view.players[me].role;
      if (mine) say(t("table.seat.your_role", { role: t("role." + mine) }));
    }
    tellExchange(view);
    const before = same ? prev.plays.length : 0;
    const fresh = view.plays.slice(before);
    const trick = same ? prev.trick.slice() : [];
    const cut = trick.length + fresh.length > view.trick.length ? fresh.length - view.trick.length : -1;
    fresh.forEach((play, index) => {
      trick.push(play);
      say(play.move === "pass" ? t("table.seat.passes", { name: who(play.seat) })
        : t("table.seat.plays", { name: who(play.seat), move: moveText(play.move) }));
      if (index === cut - 1) trickTaken(trick);
    });
    if (same) {
      const byPlace = [...view.players].sort((a, b) => view.places.indexOf(a.seat) - view.places.indexOf(b.seat));
      for (const p of byPlace) {
        if (p.out && !prev.players[p.seat].out) {
          say(t("table.seat.goes_out", { name: who(p.seat), place: view.places.indexOf(p.seat) + 1 }));
        }
      }
      if (view.revolution !== prev.revolution) {
        say(t(view.revolution ? "table.seat.revolution_on" : "table.seat.revolution_off"), "big");
      }
    }
  }

  // The trick ends: its last play (not a pass) takes it and stays on view a moment.
  function trickTaken(trick) {
    const last = [...trick].reverse().find((p) => p.move !== "pass");
    if (!last) return;
    state.taken = { seat: last.seat, move: last.move };
    say(t("table.seat.takes", { name: who(last.seat) }), "big");
  }

  // The exchange as it happens, with whom: the partner is the seat of the opposite role.
  function tellExchange(view) {
    const ex = view.exchange;
    const told = state.told && state.told.deal === view.deal ? state.told : { deal: view.deal, gave: 0, received: 0 };
    state.told = told;
    if (!ex) return;
    const role = view.players[me].role;
    const partner = view.players.find((p) => p.role && p.role === PARTNER[role]);
    const other = partner ? name(partner.seat) : "?";
    if (ex.gave.length > told.gave) {
      say(t("table.seat.you_give", { cards: cardsText(ex.gave), name: other }), "big");
      told.gave = ex.gave.length;
    }
    if (ex.received.length > told.received) {
      say(t("table.seat.gives_you", { cards: cardsText(ex.received), name: other }), "big");
      told.received = ex.received.length;
    }
  }

  // ------------------------------------------------------------------ drawing

  function renderSeats(view) {
    const list = $("seats");
    list.replaceChildren();
    const n = view.players.length;
    for (let k = 1; k <= n; k++) {
      const p = view.players[(me + k) % n];
      const item = el("li", null, { "class": "seat", "data-seat": p.seat });
      if (p.seat === view.to_move && !over) item.classList.add("turn");
      if (p.seat === me) item.classList.add("me");
      if (p.out) item.classList.add("out");
      item.append(el("strong", who(p.seat), { "class": "name" }));
      if (p.role) item.append(el("span", t("role." + p.role), { "class": "role" }));
      item.append(el("span", t("card.count", { count: p.cards }), { "class": "count" }));
      item.append(el("span", t("table.seat.points_n", { points: p.score }), { "class": "score" }));
      let what = "";
      if (p.out) what = t("table.seat.out_place", { place: view.places.indexOf(p.seat) + 1 });
      else if (p.passed) what = t("table.seat.passed");
      else if (p.seat === view.to_move) what = t("table.seat.to_move");
      const person = state.people[p.seat];
      if (person && person.until !== null && p.seat !== me && !over) {
        const left = Math.max(0, Math.round((person.until - performance.now()) / 1000));
        what = (what ? what + " · " : "") + t("table.seat.away", { time: clock(left) });
      }
      item.append(el("span", what, { "class": "state" }));
      if (person && person.stood_in) {
        item.append(el("span", t("table.seat.stood_in", { bot: person.stand_in, count: person.stood_in }), { "class": "stand-in" }));
      }
      list.append(item);
    }
  }

  function renderPile(view) {
    const pile = $("pile");
    pile.replaceChildren();
    const top = [...view.trick].reverse().find((p) => p.move !== "pass");
    if (view.pile && top) {
      state.taken = null;
      pile.append(cards.move(view.pile));
      $("pile-by").textContent = t("table.seat.played_by", { name: who(top.seat) });
    } else if (state.taken) {
      pile.append(cards.move(state.taken.move));
      pile.classList.add("taken");
      $("pile-by").textContent = t("table.seat.takes", { name: who(state.taken.seat) });
    } else {
      $("pile-by").textContent = t("table.seat.pile_empty");
    }
    if (!state.taken) pile.classList.remove("taken");
    $("revolution").hidden = !view.revolution;
    const trick = $("trick");
    trick.replaceChildren();
    for (const p of view.trick) trick.append(el("li", name(p.seat) + ": " + moveText(p.move)));
  }

  function renderHand(view) {
    const hand = $("hand");
    hand.replaceChildren();
    const asked = asking() !== null;
    cards.sorted(view.hand).forEach((card, index) => {
      const button = cards.face(el("button", null, { type: "button", "data-card": card,
        "aria-pressed": String(state.picked.has(index)) }), card);
      button.disabled = !asked;
      button.addEventListener("click", () => {
        if (state.picked.has(index)) state.picked.delete(index); else state.picked.add(index);
        button.setAttribute("aria-pressed", String(state.picked.has(index)));
        $("choices").hidden = true;
      });
      hand.append(button);
    });
  }

  function render() {
    const view = state.view;
    if (!view) return;
    renderSeats(view);
    renderPile(view);
    renderHand(view);
    renderAsk();
    renderStatus(view);
  }

  function renderStatus(view) {
    const status = $("status");
    let mine = false;
    if (over) status.textContent = t("table.seat.match_over");
    else if (state.ask && state.answered) status.textContent = t("table.seat.waiting");
    else if (state.ask) {
      mine = true;
      status.textContent = state.ask.type === "exchange"
        ? t("table.seat.exchange_pick", { count: state.ask.count }) : t("table.seat.your_turn");
    } else if (view.to_move !== null && view.to_move !== undefined) {
      status.textContent = t("table.seat.waiting_for", { name: name(view.to_move) });
    } else status.textContent = t("table.seat.waiting");
    status.classList.toggle("mine", mine);
    document.title = (mine ? "\u25b6 " + t("table.seat.your_turn") + " \u00b7 " : "") + t("table.seat.title");
  }

  function picks() {
    const hand = cards.sorted(state.ask ? state.ask.view.hand : []);
    return [...state.picked].sort((a, b) => a - b).map((i) => hand[i]);
  }

  // The decision the person may answer now, if any.
  function asking() {
    return over || state.answered ? null : state.ask;
  }

  function renderAsk() {
    const ask = asking();
    const playing = ask !== null && ask.type === "play";
    $("play").hidden = !playing;
    $("pass").hidden = !(playing && ask.legal.includes("pass"));
    $("give").hidden = !(ask && ask.type === "exchange");
    $("give").dataset.count = ask && ask.type === "exchange" ? String(ask.count) : "";
    $("moves-section").hidden = !playing;
    $("hint").textContent = !ask ? "" : playing ? t("table.seat.pick") :
      t("table.seat.exchange_pick", { count: ask.count });
    $("moves").replaceChildren(...(playing ? ask.legal.map(moveButton) : []));
  }

  function moveButton(move) {
    const button = el("button", moveText(move), { type: "button", "class": "move", "data-move": move });
    button.addEventListener("click", () => answered({ type: "move", move }));
    return button;
  }

  // ------------------------------------------------------------------ answering

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // A decision answered: its controls go until the server asks again (or refuses it).
  function answered(message) {
    send(message);
    state.answered = true;
    state.picked = new Set();
    for (const id of ["play", "pass", "give", "moves-section", "choices"]) $(id).hidden = true;
    for (const b of $("hand").querySelectorAll("button")) b.disabled = true;
    if (state.view) renderStatus(state.view);  // no longer the seat's turn while it travels
  }

  function playPicked() {
    const ask = asking();
    if (!ask || ask.type !== "play") return;
    const picked = picks();
    if (!picked.length) { showError(t("table.seat.no_pick")); return; }
    const moves = cards.matching(picked, ask.legal);
    if (moves.length === 1) { answered({ type: "move", move: moves[0] }); return; }
    if (moves.length > 1) {  // a joker that may stand in more than one place: which?
      const box = $("choices");
      box.replaceChildren(el("p", t("table.seat.which")), ...moves.map(moveButton));
      box.hidden = false;
      return;
    }
    // Not a legal move: the server answers with the rules' reason.
    answered({ type: "move", move: picked.join(" ") });
  }

  // ------------------------------------------------------------------ results

  // A deal's end: the table as it stands then (every hand played out, the points in), in
  // place of the last view, which came before the deal's last move.
  function settle(result, tell) {
    const prev = state.view;
    if (!prev || prev.deal !== result.deal) return;
    const view = Object.assign({}, prev, {
      plays: result.moves, trick: [], pile: null, to_move: null, places: result.finish_order,
      hand: [],
      players: prev.players.map((p) => Object.assign({}, p, {
        cards: 0, out: true, passed: false, score: result.scores[p.seat] })) });
    if (tell) narrate(prev, Object.assign({}, view, { trick: view.plays.slice(-1) }));
    state.view = view;
    state.taken = null;
    // No decision of a finished deal stands: its moves are not offered with the empty hand.
    state.ask = null;
    state.picked = new Set();
  }

  function endDeal(result) {
    settle(result, true);
    state.deals.push(result);
    const points = result.points.map((p, s) => name(s) + " " + p).join(", ");
    say(t("table.seat.deal_over", { number: result.deal + 1, points }), "big");
    renderDeals();
    render();
  }

  function renderDeals() {
    $("results").hidden = state.deals.length === 0 && !state.end;
    $("deals").replaceChildren(...state.deals.map((r) => el("li", t("table.seat.deal_line", {
      number: r.deal + 1, order: r.finish_order.map(name).join(", "),
      points: r.points.map((p, s) => name(s) + " " + p).join(", ") }))));
    const end = state.end;
    if (!end) return;
    if (end.error) {
      $("match-result").textContent = t("table.seat.failed") + ": " + end.error;
      return;
    }
    const line = end.ranking.map((s, i) => (i + 1) + ". " + name(s) + " " + end.scores[s]).join(", ");
    const stood = Object.keys(state.people).filter((s) => state.people[s].stood_in).map((s) => name(Number(s)));
    $("match-result").textContent = t("table.seat.final", { line }) +
      (stood.length ? " · " + t("table.seat.partly", { names: stood.join(", ") }) : "");
  }

  function endMatch(end) {
    over = true;
    state.ask = null;
    state.end = end;
    renderDeals();
    render();
    if (!end.error) say($("match-result").textContent, "big");
  }

  function people(message) {
    const known = Object.keys(state.people).length > 0;
    const now = performance.now();
    for (const p of message.people) {
      const before = state.people[p.seat];
      const until = p.away_s === null ? null : now + p.away_s * 1000;
      if (known && before && !over) {
        if (before.until === null && until !== null && p.seat !== me) {
          say(t("table.seat.is_away", { name: name(p.seat), time: clock(Math.round(p.away_s)) }));
        } else if (before.until !== null && until === null && p.seat !== me) say(t("table.seat.back", { name: name(p.seat) }));
        if (p.stood_in > before.stood_in && until !== null && !before.standing) {
          say(t("table.seat.stands_in", { bot: p.stand_in, name: who(p.seat) }), "big");
        }
      }
      state.people[p.seat] = { name: p.name, until, stand_in: p.stand_in, stood_in: p.stood_in,
        standing: until !== null && (p.stood_in > (before ? before.stood_in : 0) || Boolean(before && before.standing)) };
    }
    renderDeals();
    render();
  }

  function onMessage(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    document.dispatchEvent(new CustomEvent("arena-seat", { detail: message }));  // seat-again.js
    switch (message.type) {
      case "start":
        state.start = message; over = false; state.deals = []; state.view = null;
        state.end = null; $("log").replaceChildren(); renderDeals(); break;
      case "play": case "exchange": case "turn": {
        if (message.type !== "turn") {
          // How many decisions the seat was asked (a page's tests wait on it).
          document.body.dataset.asks = String(Number(document.body.dataset.asks || 0) + 1);
          showError("");
        }
        const prev = state.view;
        state.ask = message.type === "turn" ? null : message;
        state.answered = false;
        state.picked = new Set();
        narrate(prev, message.view);
        state.view = message.view;
        // A reopened page hears the deals' results before the latest view.
        const done = state.deals.find((r) => r.deal === message.view.deal);
        if (done) settle(done, false);
        render();
        break;
      }
      case "end_deal": endDeal(message.result); break;
      case "match_end": endMatch(message); break;
      case "people": people(message); break;
      case "name": $("name").value = message.name; break;
      case "error":  // an answer refused: the decision is still asked
        state.answered = false;
        showError(cards.errorText(message)); render(); break;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = scheme + "//" + location.host + "/ws/t/" + encodeURIComponent(table) + "/" +
      encodeURIComponent(me) + "?token=" + encodeURIComponent(params.get("token") || "");
    socket = new WebSocket(url);
    socket.addEventListener("open", () => { retry = 500; });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      if (over) return;
      if (event.code === 4000) {
        $("status").textContent = t("table.seat.elsewhere");
        return;
      }
      $("status").textContent = t("table.seat.reconnecting");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }

  $("play").addEventListener("click", playPicked);
  $("pass").addEventListener("click", () => answered({ type: "move", move: "pass" }));
  $("give").addEventListener("click", () => answered({ type: "exchange", cards: picks() }));
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "name", name: $("name").value });
  });
  // The away seats' clocks run down on the page between the server's word.
  setInterval(() => {
    if (state.view && Object.values(state.people).some((p) => p.until !== null)) renderSeats(state.view);
  }, 1000);
  window.arenaI18n.ready.then(() => {
    $("status").textContent = t("table.seat.connecting");
    const rules = $("rules-link");
    rules.href = "/rules?lang=" + encodeURIComponent(window.arenaI18n.lang);
    connect();
  });
})();
