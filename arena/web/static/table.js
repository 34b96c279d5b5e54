// The table-opening page: rules, seats (a person or a bot), deals; answers with the
// people's links (POST /api/tables, docs/web.md "People at the table").
"use strict";
(function () {
  // The page's messages (arena/web/locales/*/table.json), once i18n.js has loaded them.
  const t = (key, values) => window.arenaI18n.t(key, values);
  const $ = (id) => document.getElementById(id);
  let options = { presets: ["standard"], bots: [] };

  function seatSelect(index) {
    const select = document.createElement("select");
    select.setAttribute("aria-label", t("table.open.seat") + " " + index);
    const person = new Option(t("table.open.person"), "person");
    select.append(person);
    for (const bot of options.bots) select.append(new Option(bot, bot));
    if (index > 0 && options.bots.length) select.value = options.bots[(index - 1) % options.bots.length];
    return select;
  }

  function renderSeats() {
    const count = Math.max(2, Math.min(8, Number($("players").value) || 4));
    const list = $("seats");
    const old = [...list.querySelectorAll("select")].map((s) => s.value);
    list.replaceChildren();
    for (let i = 0; i < count; i++) {
      const select = seatSelect(i);
      if (old[i] !== undefined) select.value = old[i];
      const item = document.createElement("li");
      item.append(select);
      list.append(item);
    }
  }

  async function load() {
    const response = await fetch("/api/tables/options");
    options = await response.json();
    // The quickest bot first: a table opened as it comes plays at once.
    options.bots.sort((a, b) => (b === "greedy") - (a === "greedy"));
    const preset = $("preset");
    for (const name of options.presets) preset.append(new Option(name, name));
    renderSeats();
  }

  $("players").addEventListener("change", renderSeats);
  $("copy").addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText($("table-link").href).catch(() => {});
  });
  $("table-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const number = (id) => ($(id).value === "" ? null : Number($(id).value));
    const body = {
      preset: $("preset").value,
      seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
      rounds: number("rounds"),
      seat_ms: number("seat-ms"),
    };
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json();
    const error = $("error");
    error.hidden = response.ok;
    error.textContent = response.ok ? "" : answer.error;
    if (!response.ok) return;
    const share = $("table-link");
    share.href = answer.table;
    share.textContent = answer.table;
    const links = $("links");
    links.replaceChildren();
    for (const link of answer.links) {
      const item = document.createElement("li");
      const anchor = document.createElement("a");
      anchor.href = link;
      anchor.textContent = link;
      item.append(anchor);
      links.append(item);
    }
    $("links-section").hidden = false;
  });
  window.arenaI18n.ready.then(load);
})();
