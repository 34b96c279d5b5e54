// The page /enter: register, submit, and list one's own submissions. Every text from the
// server goes in as text, never as markup.
(function () {
  "use strict";

  const { el, call } = window.arenaPage;  // page.js

  function say(id, ok, text) {
    const box = document.getElementById(id);
    box.className = ok ? "" : "problem";
    box.replaceChildren(text);
  }

  async function listMine(token) {
    const box = document.querySelector("#mine .body");
    try {
      const data = await call("/api/submissions", { headers: { Authorization: `Bearer ${token}` } });
      const rows = data.submissions.map((s) => el("tr", { "data-label": s.label },
        el("td", { class: "left" }, s.label), el("td", {}, s.version), el("td", { class: "left state" }, s.state),
        el("td", { class: "left detail" }, s.detail),
        el("td", { class: "left" }, new Date(s.created * 1000).toISOString().replace("T", " ").slice(0, 19)),
        el("td", { class: "left meta" }, s.sha256.slice(0, 12))));
      box.replaceChildren(el("p", {}, `${data.entrant}: ${data.submissions.length} submission(s). `,
        el("a", { href: `/entrant/${encodeURIComponent(data.entrant)}`, id: "own-page" }, "Your page in the league")),
        el("table", { class: "submissions" }, el("thead", {}, el("tr", {},
          el("th", { class: "left" }, "label"), el("th", {}, "version"), el("th", { class: "left" }, "state"), el("th", { class: "left" }, "detail"),
          el("th", { class: "left" }, "submitted (UTC)"), el("th", { class: "left" }, "sha256"))),
        el("tbody", {}, ...rows)));
    } catch (e) {
      box.replaceChildren(el("p", { class: "problem" }, e.message));
    }
  }

  document.getElementById("register-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = document.getElementById("name").value;
    try {
      const data = await call("/api/entrants", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name }) });
      const box = document.getElementById("register-result");
      box.className = "";
      box.replaceChildren(`Registered ${data.name}. Your token, shown this once (keep it): `,
        el("code", { id: "new-token" }, data.token));
      document.getElementById("token").value = data.token;
    } catch (e) {
      say("register-result", false, e.message);
    }
  });

  document.getElementById("submit-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = document.getElementById("token").value.trim();
    const label = document.getElementById("label").value.trim();
    const file = document.getElementById("file").files[0];
    if (!file) return;
    const query = label ? `?label=${encodeURIComponent(label)}` : "";
    try {
      const data = await call(`/api/submissions${query}`, { method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" }, body: file });
      say("submit-result", true, `Submitted ${data.label} version ${data.version}: ${data.state}.`);
    } catch (e) {
      say("submit-result", false, e.message);
    }
    listMine(token);
  });

  document.getElementById("token").addEventListener("change", (event) => {
    if (event.target.value.trim()) listMine(event.target.value.trim());
  });
})();
