// The seat page's "Play again": once the match is over, one person opens the table's next
// match (POST /api/tables/TABLE/again with the seat's token), with the same seats, and every
// page of the table hears of it ({"type": "again", "table": ID}) and offers its own seat
// there: the same seat number, the same token. seat.js passes its messages on as
// "arena-seat" events.
"use strict";
(function () {
  const t = (key, values) => window.arenaI18n.t(key, values);
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const [, , table, seat] = location.pathname.split("/");  // /t/<table>/<seat>
  const token = params.get("token") || "";
  const lang = () => "&lang=" + encodeURIComponent(window.arenaI18n.lang);

  function offer(next) {
    const link = $("again-link");
    if (!link.hidden) return;
    link.href = "/t/" + encodeURIComponent(next) + "/" + encodeURIComponent(seat) +
      "?token=" + encodeURIComponent(token) + lang();
    link.hidden = false;
    $("again").hidden = true;
  }

  document.addEventListener("arena-seat", (event) => {
    const message = event.detail;
    if (message.type === "match_end" && !message.error) {
      $("again-box").hidden = false;
      if (message.match) {  // the match's replay in the people's report (docs/web.md)
        $("replay-link").href = "/report/people/" + lang().replace("&", "?") + "#match=" +
          encodeURIComponent(message.match) + "&deal=1&move=0";
        $("replay-link").hidden = false;
      }
      if (message.again) offer(message.again);
    } else if (message.type === "again") offer(message.table);
  });

  $("again").addEventListener("click", async () => {
    const response = await fetch("/api/tables/" + encodeURIComponent(table) + "/again", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    const answer = await response.json();
    if (!response.ok) {
      $("error").textContent = answer.error;
      $("error").hidden = false;
      return;
    }
    location.assign(answer.link + lang());
  });
})();
