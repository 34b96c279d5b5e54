// arena's web pages in six languages (docs/web.md, "Languages").
//
// A page marks an element's text with a data-i18n attribute naming its message (and
// data-i18n-title, -placeholder, -aria-label, -alt for attributes; data-i18n-values holds
// JSON that fills the message's {name} placeholders), and its scripts call t(key, values). The catalog comes inlined in the page
// (<script type="application/json" id="i18n-messages">, which a strict CSP allows) or, on a
// page without it, from /api/messages?lang=... (the language of ?lang=, else the menu's
// cookie, else the server's reading of Accept-Language). Once loaded, arenaI18n.ready
// resolves. Cards and moves keep their protocol text where programs read it (messages,
// records, a move button's data-move): cardText and moveText are what people read.
(function () {
  "use strict";

  const COOKIE = "lang";
  const YEAR = 60 * 60 * 24 * 365;
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const ATTRIBUTES = ["title", "placeholder", "aria-label", "alt"];
  const warned = new Set();
  let loaded = false;
  let state = { lang: document.documentElement.lang || "en", languages: [], messages: {} };

  function chosen() {
    const asked = new URLSearchParams(window.location.search).get("lang");
    if (asked) return asked;
    const cookie = document.cookie.split(";").map((part) => part.trim())
      .find((part) => part.startsWith(COOKIE + "="));
    return cookie ? decodeURIComponent(cookie.slice(COOKIE.length + 1)) : "";
  }

  function adopt(data) {
    state = { lang: data.lang, languages: data.languages, messages: data.messages };
    loaded = true;
    document.documentElement.lang = data.lang;
    return state;
  }

  function load() {
    const inline = document.getElementById("i18n-messages");
    if (inline) return Promise.resolve(adopt(JSON.parse(inline.textContent)));
    const url = "/api/messages?lang=" + encodeURIComponent(chosen());
    return fetch(url, { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error("/api/messages answered HTTP " + response.status);
      return response.json();
    }).then(adopt);
  }

  // The message `key`, its {name} placeholders filled from `values`. A key the catalog
  // lacks shows as itself, with one warning on the console; before a fetched catalog has
  // arrived every key shows as itself, silently (wait for arenaI18n.ready).
  function t(key, values) {
    let text = state.messages[key];
    if (typeof text !== "string") {
      if (loaded && !warned.has(key)) {
        warned.add(key);
        console.warn("arena i18n: no message " + JSON.stringify(key) + " in " + state.lang);
      }
      text = key;
    }
    return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) =>
      values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
  }

  // A rank letter of the protocol (3..9, T, J, Q, K, A, 2) as this language writes it.
  function rankText(rank) {
    return "TJQKA".includes(rank) ? t("rank." + rank) : rank;
  }

  // A card of the protocol ("KH", "JK") as people of this language read it ("H♥" in Dutch).
  function cardText(card) {
    const text = String(card).toUpperCase();
    if (text === "JK") return t("card.joker");
    if (text.startsWith("JK=")) return t("card.joker_as", { card: cardText(text.slice(3)) });
    return rankText(text.slice(0, -1)) + (SUITS[text.slice(-1)] || text.slice(-1));
  }

  // A move in protocol text ("5H 6H 7H", "JK=7H 8H 9H", "pass") as people read it.
  function moveText(move) {
    const text = String(move).trim();
    if (text.toLowerCase() === "pass") return t("move.pass");
    return text.split(/\s+/).map(cardText).join(" ");
  }

  function values(element) {
    const raw = element.getAttribute("data-i18n-values");
    if (!raw) return undefined;
    try {
      return JSON.parse(raw);
    } catch (error) {
      console.warn("arena i18n: data-i18n-values is not JSON: " + raw);
      return undefined;
    }
  }

  // Fill every marked element under `root` (the whole page by default).
  function apply(root) {
    const scope = root || document;
    for (const element of scope.querySelectorAll("[data-i18n]")) {
      element.textContent = t(element.getAttribute("data-i18n"), values(element));
    }
    for (const attribute of ATTRIBUTES) {
      for (const element of scope.querySelectorAll("[data-i18n-" + attribute + "]")) {
        const key = element.getAttribute("data-i18n-" + attribute);
        element.setAttribute(attribute, t(key, values(element)));
      }
    }
  }

  // Speak `code` from now on: the cookie for every page, ?lang= for this one.
  function choose(code) {
    document.cookie = COOKIE + "=" + encodeURIComponent(code) +
      "; path=/; max-age=" + YEAR + "; SameSite=Lax";
    const url = new URL(window.location.href);
    url.searchParams.set("lang", code);
    window.location.assign(url.toString());
  }

  // A language menu in `nav.i18n-menu`: the server writes one into its pages (links that
  // work without scripts); an empty one is filled here. A click also sets the cookie.
  function menu(nav) {
    if (!nav.querySelector("a[data-lang]")) {
      const label = document.createElement("span");
      label.className = "i18n-menu-label";
      label.setAttribute("data-i18n", "lang.menu");
      label.textContent = t("lang.menu");
      const list = document.createElement("ul");
      for (const language of state.languages) {
        const link = document.createElement("a");
        link.href = "?lang=" + encodeURIComponent(language.code);
        link.lang = language.code;
        link.hreflang = language.code;
        link.dataset.lang = language.code;
        link.textContent = language.name;
        if (language.code === state.lang) link.setAttribute("aria-current", "true");
        const item = document.createElement("li");
        item.append(link);
        list.append(item);
      }
      nav.setAttribute("aria-label", t("lang.menu"));
      nav.replaceChildren(label, list);
    }
    nav.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-lang]");
      if (!link) return;
      event.preventDefault();
      choose(link.dataset.lang);
    });
  }

  const ready = load();

  function start() {
    ready.then(() => {
      apply(document);
      for (const nav of document.querySelectorAll("nav.i18n-menu")) menu(nav);
      // A page whose script rendered before a fetched catalog came re-renders on this.
      document.dispatchEvent(new CustomEvent("arena-i18n-ready", { detail: { lang: state.lang } }));
    }).catch((error) => console.error("arena i18n: " + error.message));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  window.arenaI18n = {
    t, apply, choose, cardText, moveText, rankText, ready,
    get lang() { return state.lang; },
  };
  window.t = t;
})();
