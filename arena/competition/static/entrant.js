// The page /entrant/NAME: an entrant's versions, strength over the rounds (drawn here, in
// SVG), recent matches, faults, a people's table against it, and, with its token, its own
// logs. Every text from the server goes in as text, never as markup.
(function () {
  "use strict";

  const COLOURS = ["#1a6396", "#b5430f", "#2f7d32", "#7b3fa0", "#8a6d00", "#0f6f78", "#a3264f"];
  const name = decodeURIComponent(location.pathname.slice("/entrant/".length));
  const api = `/api/entrants/${encodeURIComponent(name)}`;

  const { el, svg, call } = window.arenaPage;  // page.js

  const fixed = (x) => (x === null || x === undefined ? "" : Number(x).toFixed(2));
  const when = (t) => (t ? new Date(t * 1000).toISOString().replace("T", " ").slice(0, 19) : "");

  function table(className, heads, rows) {
    return el("table", { class: className },
      el("thead", {}, el("tr", {}, ...heads.map(([text, left]) => el("th", { scope: "col", class: left ? "left" : null }, text)))),
      el("tbody", {}, ...rows));
  }

  function versions(data) {
    const rows = data.versions.map((v) => el("tr", { "data-label": v.league_label || v.label, class: v.flagged ? "flagged" : null },
      el("td", { class: "left bot" }, v.league_label || `${v.label} (version ${v.version})`),
      el("td", { class: "left state" }, v.state),
      el("td", { class: "left detail" }, v.detail || ""),
      el("td", { class: "left" }, when(v.submitted)),
      el("td", {}, v.rank === null || v.rank === undefined ? "" : v.rank),
      el("td", { class: "strength" }, fixed(v.strength)),
      el("td", {}, v.strength_low === undefined || v.strength_low === null ? "" : `${fixed(v.strength_low)} to ${fixed(v.strength_high)}`),
      el("td", {}, v.sets ?? ""), el("td", {}, v.matches ?? ""),
      el("td", { class: "left" }, v.flagged ? "faults in most matches" : "")));
    const box = document.querySelector("#versions .body");
    if (!rows.length) { box.replaceChildren(el("p", { class: "note" }, "No version yet.")); return; }
    box.replaceChildren(table("versions", [["version", true], ["state", true], ["detail", true], ["submitted (UTC)", true],
      ["rank"], ["strength"], ["95% interval"], ["sets"], ["matches"], ["flag", true]], rows));
  }

  function plot(data) {
    const box = document.querySelector("#rating .plot-box");
    // from the entrant's first rated round on: the league's rounds before it are not its own
    const all = Object.entries(data.history.entrants).filter(([, points]) => points && points.some((p) => p));
    const first = Math.min(...all.map(([, points]) => points.findIndex((p) => p)));
    const rounds = data.history.rounds.slice(first);
    const series = all.map(([label, points]) => [label, points.slice(first)]);
    if (!rounds.length || !series.length) { box.replaceChildren(el("p", { class: "note" }, "No rated round yet.")); return; }
    const values = series.flatMap(([, points]) => points.filter((p) => p).flatMap((p) => [p[1], p[2]]));
    let low = Math.min(...values), high = Math.max(...values);
    if (high - low < 1e-6) { low -= 1; high += 1; }
    const W = 640, H = 280, L = 48, R = 12, T = 12, B = 34;
    const x = (i) => L + (rounds.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (rounds.length - 1));
    const y = (v) => T + ((high - v) * (H - T - B)) / (high - low);
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "plot",
      "aria-label": `Strength of ${data.name} after each of ${rounds.length} rounds, with its 95% interval` },
    svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
    svg("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }),
    svg("text", { x: L - 6, y: y(high) + 4, "text-anchor": "end" }, fixed(high)),
    svg("text", { x: L - 6, y: y(low) + 4, "text-anchor": "end" }, fixed(low)),
    svg("text", { x: L, y: H - 12, "text-anchor": "start" }, `round ${rounds[0]}`),
    svg("text", { x: W - R, y: H - 12, "text-anchor": "end" }, `round ${rounds[rounds.length - 1]}`));
    const legend = el("ul", { class: "legend" });
    series.forEach(([label, points], n) => {
      const colour = COLOURS[n % COLOURS.length];
      const seen = points.map((p, i) => [i, p]).filter(([, p]) => p);
      const band = seen.map(([i, p]) => `${x(i)},${y(p[2])}`).concat(seen.slice().reverse().map(([i, p]) => `${x(i)},${y(p[1])}`));
      chart.append(svg("polygon", { points: band.join(" "), fill: colour, "fill-opacity": 0.12, stroke: "none" }));
      chart.append(svg("polyline", { points: seen.map(([i, p]) => `${x(i)},${y(p[0])}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
      for (const [i, p] of seen) {
        chart.append(svg("line", { x1: x(i), x2: x(i), y1: y(p[1]), y2: y(p[2]), stroke: colour, "stroke-opacity": 0.35 }));
        chart.append(svg("circle", { cx: x(i), cy: y(p[0]), r: 3, fill: colour },
          svg("title", {}, `${label}, round ${rounds[i]}: ${fixed(p[0])} (${fixed(p[1])} to ${fixed(p[2])})`)));
      }
      const swatch = svg("svg", { width: 14, height: 4, class: "swatch", "aria-hidden": "true" }, svg("rect", { width: 14, height: 4, fill: colour }));
      legend.append(el("li", {}, swatch, label));
    });
    box.replaceChildren(chart, legend);
  }

  function matches(data) {
    const box = document.querySelector("#matches .body");
    if (!data.matches.length) { box.replaceChildren(el("p", { class: "note" }, "No match yet.")); return; }
    const rows = data.matches.map((m) => el("tr", { "data-match": m.id },
      el("td", { class: "left" }, m.round ?? ""),
      el("td", { class: "left bot" }, m.label),
      el("td", { class: "left" }, m.labels.filter((l, i) => i !== m.seat).join(", ")),
      el("td", {}, m.place === null ? "" : m.place + 1),
      el("td", {}, m.scores ? m.scores[m.seat] : ""),
      el("td", {}, m.faults),
      el("td", { class: "left" }, m.link ? el("a", { href: m.link, class: "replay-link" }, m.state === "playing" ? "watch" : "replay")
        : (m.state === "waiting" ? "waiting for its set" : m.state))));
    box.replaceChildren(table("matches", [["round", true], ["as", true], ["against", true], ["place"], ["points"], ["faults"], ["", true]], rows));
  }

  function faults(data) {
    const lines = data.versions.filter((v) => v.league_label).map((v) => {
      const kinds = Object.entries(v.faults || {}).map(([k, n]) => `${k} in ${n}`).join(", ");
      return el("li", { class: v.flagged ? "problem" : null },
        `${v.league_label}: faulted in ${v.faulted_matches} of ${v.matches || 0} matches` + (kinds ? ` (${kinds})` : "") +
        (v.flagged ? ": flagged, faults in most of its matches" : ""));
    });
    document.querySelector("#faults .body").replaceChildren(lines.length ? el("ul", {}, ...lines)
      : el("p", { class: "note" }, "No version in the league yet."),
    el("p", { class: "note" }, "A version is flagged once it has played 3 matches or more and faulted in more than half of them. The faults' details are the entrant's own (below)."));
  }

  async function play(data) {
    const box = document.querySelector("#play .body");
    let offered = [];
    try { offered = (await call("/api/tables/options")).bots || []; } catch (e) { offered = null; }
    // a table seats a label's entered version (an entrant's) or a bot by its name (the organiser's)
    const label = data.versions.filter((v) => v.state === "entered").map((v) => v.label)
      .filter((l) => offered && offered.includes(l)).pop();
    if (!label) {
      box.replaceChildren(el("p", { class: "note" }, offered === null
        ? "This league has no people's tables open (submissions: {tables: true} opens them)."
        : "This bot is not among the bots this server's people's tables offer."));
      return;
    }
    const button = el("button", { type: "button", id: "open-table" }, `Open a table against ${label}`);
    const said = el("p", { role: "status" });
    button.addEventListener("click", async () => {
      try {
        const table = await call("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ seats: ["person", label] }) });
        location.assign(table.table);
      } catch (e) { said.className = "problem"; said.replaceChildren(e.message); }
    });
    box.replaceChildren(button, said);
  }

  function own(data) {
    const parts = [];
    for (const version of data.logs) {
      for (const log of version.logs) {
        parts.push(el("h3", {}, `${version.label} version ${version.version}: ${log.name}`),
          el("pre", { class: "log", tabindex: 0, role: "region", "aria-label": `${version.label} version ${version.version}: ${log.name}` }, log.text));
      }
    }
    if (!parts.length) parts.push(el("p", { class: "note" }, "No log kept yet."));
    const rows = data.faults.map((f) => el("tr", {},
      el("td", { class: "left" }, f.match), el("td", { class: "left" }, f.label), el("td", {}, f.deal), el("td", {}, f.move),
      el("td", { class: "left" }, `${f.kind} (${f.stage})`), el("td", { class: "left detail" }, f.detail)));
    parts.push(el("h3", {}, "Your bot's faults in its matches, with its output"),
      rows.length ? el("div", { class: "body", tabindex: 0, role: "region", "aria-label": "Your bot's faults" },
        table("own-faults", [["match", true], ["as", true], ["deal"], ["move"], ["fault", true], ["detail and output", true]], rows))
        : el("p", { class: "note" }, "None in its finished matches."));
    document.querySelector("#own .body").replaceChildren(...parts);
  }

  document.getElementById("token-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = document.getElementById("token").value.trim();
    const box = document.querySelector("#own .body");
    try {
      own(await call(`${api}/private`, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" }));
    } catch (e) {
      box.replaceChildren(el("p", { class: "problem", role: "alert" }, e.message));
    }
  });

  // The public part follows the league: read again every REFRESH_MS while the page is shown.
  const REFRESH_MS = 20000;
  async function load() {
    document.getElementById("title").replaceChildren(`${name}: an entrant of the league`);
    document.title = `arena: ${name}`;
    try {
      const data = await call(api);
      document.getElementById("flag").replaceChildren(data.flagged ? "Flagged: a version of this bot faults in most of its matches." : "");
      versions(data); plot(data); matches(data); faults(data);
      await play(data);
      document.body.dataset.loaded = "1";
    } catch (e) {
      document.getElementById("problem").replaceChildren(e.message);
      document.body.dataset.loaded = "error";
    }
    setTimeout(() => { if (!document.hidden) load(); else document.addEventListener("visibilitychange", load, { once: true }); }, REFRESH_MS);
  }
  load();
})();
