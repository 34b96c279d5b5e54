// Cards drawn as cards, for the seat page (and any page that loads it after i18n.js), and
// the few helpers the seat page draws with.
// A card of the protocol ("TH", "JK", "JK=7H") becomes an element with its rank in the
// page's language (arenaI18n.rankText: the Turkish page writes the king P) and its suit's
// symbol, red for hearts and diamonds; a joker says so. Everything is set as text.
"use strict";
(function () {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RANKS = "3456789TJQKA2";

  // Where a card sorts in a hand: by rank (3 low, 2 high), then suit; jokers last.
  function order(card) {
    if (card.startsWith("JK")) return 1000;
    return RANKS.indexOf(card.slice(0, -1)) * 4 + "CDHS".indexOf(card.slice(-1));
  }

  function sorted(cards) {
    return [...cards].sort((a, b) => order(a) - order(b));
  }

  // The card's face: its rank and suit as two spans (a joker: its word, and the card it
  // stands for in a run or set).
  function face(node, card) {
    const i18n = window.arenaI18n;
    node.classList.add("card");
    if (card.startsWith("JK")) {
      node.classList.add("joker");
      node.append(span("rank", "\u2605"), span("suit", i18n.t("card.joker")));
      if (card.startsWith("JK=")) node.append(span("as", "= " + i18n.cardText(card.slice(3))));
      return node;
    }
    const suit = card.slice(-1);
    if (suit === "H" || suit === "D") node.classList.add("red");
    node.append(span("rank", i18n.rankText(card.slice(0, -1))), span("suit", SUITS[suit] || suit));
    return node;
  }

  function span(cls, text) {
    const node = document.createElement("span");
    node.className = cls;
    node.textContent = text;
    return node;
  }

  // A card to look at.
  function drawn(card) {
    return face(document.createElement("span"), card);
  }

  // A move's cards drawn in a row ("pass": nothing).
  function move(text) {
    const row = document.createElement("span");
    row.className = "cards";
    if (String(text).trim().toLowerCase() !== "pass") {
      for (const card of String(text).trim().split(/\s+/)) row.append(drawn(card));
    }
    return row;
  }

  // The cards a move takes from a hand, sorted ("JK=7H" is the joker).
  function taken(text) {
    if (String(text).trim().toLowerCase() === "pass") return [];
    return String(text).trim().split(/\s+/).map((c) => (c.startsWith("JK") ? "JK" : c)).sort();
  }

  // The legal moves that play exactly `cards` (a joker may stand in more than one place).
  function matching(cards, legal) {
    const want = [...cards].sort().join(" ");
    return legal.filter((m) => want !== "" && taken(m).join(" ") === want);
  }

  // An element with `text` (as text) and attributes.
  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  // Seconds as m:ss.
  const clock = (s) => Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");

  // A seat's error message as the page says it: the rules' refusal (its code, with the
  // cards and suits in the page's words) in the page's language, any other as sent.
  function errorText(message) {
    if (!message.code) return message.message;
    const values = Object.assign({ reason: message.message }, message.values || {});
    if (values.cards) values.cards = window.arenaI18n.moveText(values.cards);
    if (values.suits) values.suits = [...values.suits].map((s) => window.arenaI18n.cardText("2" + s).slice(-1)).join("");
    return window.arenaI18n.t("table.refusal." + message.code, values);
  }

  window.arenaCards = { face, drawn, move, sorted, matching, taken, el, clock, errorText };
})();
