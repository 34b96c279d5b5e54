// What the live pages share: elements, text (data-i18n keys, English fallback), the socket.
(function () {
  "use strict";

  function text(key, fallback, values) {
    let out = typeof window.t === "function" ? window.t(key, values) : null;
    if (!out || out === key) out = fallback;
    for (const [name, value] of Object.entries(values || {})) out = out.replaceAll(`{${name}}`, String(value));
    return out;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // A socket that subscribes to `topics` and calls onEvent(event) for each event; it
  // reconnects (after 1, 2, 4... up to 10 s) when the server goes away.
  function follow(topics, onEvent, onState) {
    let wait = 1000;
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/ws`);
      socket.onopen = () => {
        wait = 1000;
        onState(true);
        for (const topic of topics) socket.send(JSON.stringify({ subscribe: topic }));
      };
      socket.onmessage = (message) => {
        let event;
        try { event = JSON.parse(message.data); } catch (e) { return; }
        onEvent(event);
      };
      socket.onclose = () => {
        onState(false);
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 10000);
      };
    }
    open();
  }

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  // A move as protocol text (5H 6H 7H, JK=7H 8H 9H, pass) as card chips.
  function moveNode(move) {
    if (move === "pass") return el("span", { class: "pass", "data-i18n": "live.pass" }, text("live.pass", "pass"));
    const shown = move.includes("=") ? move.split("=")[1] : move;
    const joker = move.includes("=");
    return el("span", { class: "move" }, shown.split(" ").map((card) => {
      if (card === "JK") return el("span", { class: "card joker" }, "🃏");
      const suit = card.slice(-1), rank = card.slice(0, -1);
      const red = suit === "H" || suit === "D";
      return el("span", { class: `card${red ? " red" : ""}${joker ? " joker-as" : ""}` },
        (rank === "T" ? "10" : rank) + (SUITS[suit] || suit));
    }));
  }

  window.ARENA_LIVE = { text, el, follow, moveNode };
})();
