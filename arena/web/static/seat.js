// The seat page: one person's seat at a table, over the seat's WebSocket.
// The socket sends the requests a bot of this seat gets (docs/protocol.md: start, play,
// exchange, end_deal) plus the seat's own view before each other player's turn ("turn"),
// the match's end and errors (docs/web.md, "People at the table"). Everything shown is
// set as text, never as HTML.
"use strict";
(function () {
  // The page's messages (arena/web/locales/*/table.json), once i18n.js has loaded them.
  const t = (key, values) => window.arenaI18n.t(key, values);
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const parts = location.pathname.split("/");  // /t/<table>/<seat>
  const table = parts[2], seatNo = parts[3];
  const state = { start: null, view: null, ask: null, picked: new Set(), deals: [] };
  let socket = null, retry = 500, over = false;

  const el = (tag, text, attrs) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  };
  const label = (seat) => {
    const labels = state.start ? state.start.labels : [];
    const name = seat === Number(seatNo) ? t("table.seat.you") : (labels[seat] || "#" + seat);
    return name + " (" + seat + ")";
  };
  const roleText = (role) => role ? t("role." + role) : "";

  function showError(text) {
    const box = $("error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function renderView(view) {
    if (!view) return;
    const body = $("players").querySelector("tbody");
    body.replaceChildren();
    for (const p of view.players) {
      const row = el("tr");
      if (p.seat === view.to_move) row.classList.add("turn");
      if (p.seat === view.seat) row.classList.add("me");
      let what = "";
      if (p.out) {
        const place = view.places.indexOf(p.seat);
        what = t("table.seat.out") + (place >= 0 ? " #" + (place + 1) : "");
      } else if (p.passed) what = t("table.seat.passed");
      else if (p.seat === view.to_move) what = t("table.seat.to_move");
      for (const cell of [label(p.seat), p.cards, roleText(p.role), p.score, what]) {
        row.append(el("td", cell));
      }
      body.append(row);
    }
    $("pile").textContent = view.pile || "—";
    $("revolution").hidden = !view.revolution;
    const trick = $("trick");
    trick.replaceChildren();
    for (const t of view.trick) trick.append(el("span", label(t.seat) + ": " + t.move + "  "));
    const hand = $("hand");
    hand.replaceChildren();
    for (const card of view.hand) hand.append(el("span", card, { "class": "card" }));
    const ex = view.exchange;
    $("exchange-info").textContent = ex ? t("table.seat.gave") + ": " +
      (ex.gave.join(" ") || "—") + " · " + t("table.seat.received") + ": " +
      (ex.received.join(" ") || "—") : "";
    const status = $("status");
    if (over) return;
    if (view.to_move === view.seat || (state.ask && state.ask.type === "exchange")) {
      status.textContent = t("table.seat.your_turn");
    } else if (view.to_move !== null && view.to_move !== undefined) {
      status.textContent = t("table.seat.waiting_for") + " " + label(view.to_move);
    } else {
      status.textContent = t("table.seat.waiting");
    }
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // A decision answered: its controls go until the server asks again (or refuses it).
  function answered(message) {
    send(message);
    $("moves-section").hidden = true;
    $("exchange").hidden = true;
  }

  function renderAsk() {
    const ask = state.ask;
    $("moves-section").hidden = !(ask && ask.type === "play");
    $("exchange").hidden = !(ask && ask.type === "exchange");
    const moves = $("moves");
    moves.replaceChildren();
    if (ask && ask.type === "play") {
      for (const move of ask.legal) {
        const button = el("button", move, { type: "button", "class": "move" });
        button.addEventListener("click", () => answered({ type: "move", move }));
        moves.append(button);
      }
    }
    const cards = $("exchange-cards");
    cards.replaceChildren();
    if (ask && ask.type === "exchange") {
      $("exchange-count").textContent = String(ask.count);
      state.picked = new Set();
      ask.view.hand.forEach((card, index) => {
        const box = el("input", null, { type: "checkbox", "data-card": card });
        box.addEventListener("change", () => {
          if (box.checked) state.picked.add(index); else state.picked.delete(index);
        });
        const item = el("label");
        item.append(box, document.createTextNode(" " + card));
        cards.append(item);
      });
    }
  }

  function renderDeal(result) {
    $("results").hidden = false;
    const order = result.finish_order.map((s) => label(s)).join(", ");
    const points = result.points.map((p, s) => label(s) + " " + p).join(", ");
    $("deals").append(el("li", t("table.seat.deal") + " " + (result.deal + 1) + ": " +
      t("table.seat.order") + " " + order + "; " +
      t("table.seat.points") + " " + points));
  }

  function renderEnd(end) {
    over = true;
    state.ask = null;
    renderAsk();
    for (const row of document.querySelectorAll("#players tr.turn")) {
      row.classList.remove("turn");
      row.lastChild.textContent = "";
    }
    $("results").hidden = false;
    if (end.error) {
      $("match-result").textContent = t("table.seat.failed") + ": " + end.error;
    } else {
      const names = end.names || [];
      const line = end.ranking.map((s, i) => (i + 1) + ". " + (names[s] || label(s)) + " " +
        end.scores[s]).join(", ");
      $("match-result").textContent = t("table.seat.match_over") + ": " + line;
    }
    $("status").textContent = t("table.seat.match_over");
  }

  function onMessage(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    switch (message.type) {
      case "start":
        state.start = message; over = false; $("deals").replaceChildren(); break;
      case "play": case "exchange":
        // How many decisions the seat was asked (a page's tests wait on it).
        document.body.dataset.asks = String(Number(document.body.dataset.asks || 0) + 1);
        state.ask = message; state.view = message.view; showError("");
        renderView(message.view); renderAsk(); break;
      case "turn":
        state.ask = null; state.view = message.view; renderView(message.view); renderAsk(); break;
      case "end_deal": renderDeal(message.result); break;
      case "match_end": renderEnd(message); break;
      case "name": $("name").value = message.name; break;
      case "error": showError(message.message); renderAsk(); break;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = scheme + "//" + location.host + "/ws/t/" + encodeURIComponent(table) + "/" +
      encodeURIComponent(seatNo) + "?token=" + encodeURIComponent(params.get("token") || "");
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

  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) answered({ type: "move", move: text });
  });
  $("give").addEventListener("click", () => {
    const hand = state.ask ? state.ask.view.hand : [];
    answered({ type: "exchange", cards: [...state.picked].sort((a, b) => a - b).map((i) => hand[i]) });
  });
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "name", name: $("name").value });
  });
  window.arenaI18n.ready.then(connect);
})();
