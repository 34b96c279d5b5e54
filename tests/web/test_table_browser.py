"""Two people at one table in two browser contexts, with two bots, through clicks alone.

Playwright drives Debian's Chromium (no browser download); skipped, with the reason shown,
where Playwright or Chromium is missing. Set ARENA_SCREENSHOTS=DIR to keep the seat page's
screenshots (docs/img holds the ones docs/web.md shows).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from arena.records import read_records
from tests.browser import browser, skip_without_chromium, wait_until
from tests.web.conftest import start_server, stop
from tests.web.test_table_socket import read_table

skip_without_chromium()

__all__ = ["browser"]  # a fixture, used by name

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[3-9TJQKA2][CDHS]|JK)(?![A-Za-z0-9])")


SUITS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}

# What a seat page offers, read in one go (one draw): whether Play shows, how many cards
# Give asks for (null when hidden), the hand's cards and the moves offered (each as its
# data attribute), the decisions asked so far and the deals over.
OFFER = """() => ({
    play: !document.getElementById('play').hidden,
    give: document.getElementById('give').hidden ? null
        : Number(document.getElementById('give').dataset.count),
    hand: [...document.querySelectorAll('#hand button')].map((b) => b.dataset.card),
    moves: [...document.querySelectorAll('#moves button')].map((b) => b.dataset.move),
    asks: document.body.dataset.asks,
    deals: document.querySelectorAll('#deals li').length})"""


def _offer(page: Any) -> dict[str, Any]:
    """The page's offer (:data:`OFFER`), each move offered checked against the hand drawn
    with it: a person is never offered a move with a card they do not hold."""
    offer: dict[str, Any] = page.evaluate(OFFER)
    for move in offer["moves"]:
        cards = [] if move == "pass" else ["JK" if c.startswith("JK") else c
                                           for c in move.split()]
        left = list(offer["hand"])
        for card in cards:
            assert card in left, f"{move!r} offered with the hand {offer['hand']}"
            left.remove(card)
    return offer


def _cards_shown(page: Any) -> set[str]:
    """The cards a page shows (the live view writes 10\u2665 for TH, \U0001f0cf for JK),
    and any card written in the protocol's text, as protocol text."""
    shown = set(CARD.findall(page.locator("body").inner_text()))
    for text in page.eval_on_selector_all(".card", "els => els.map(e => e.textContent)"):
        text = text.strip()
        if text == "\U0001f0cf":
            shown.add("JK")
        elif text and text[-1] in SUITS:
            shown.add(("T" if text[:-1] == "10" else text[:-1]) + SUITS[text[-1]])
    return shown


class Person:
    """One person's browser context on a seat's link, every error and request noted."""

    def __init__(self, browser: Any, link: str, base: str, locale: str = "en-US") -> None:
        self.context = browser.new_context(locale=locale,
                                           viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        # (Chromium asks for /favicon.ico itself when a page names no icon: not the page's.)
        self.page.on("console", lambda m: m.type in ("error", "warning")
                     and not m.location.get("url", "").endswith("/favicon.ico")
                     and self.errors.append(f"console {m.type}: {m.text} {m.location}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("response", lambda r: r.status >= 400
                     and self.errors.append(f"HTTP {r.status}: {r.url}"))
        self.page.on("request", lambda r: None if r.url.startswith(base)
                     or r.url.startswith(base.replace("http://", "ws://"))
                     else self.outside.append(r.url))
        self.link = link
        self.clicked: list[tuple[int, str]] = []  # (deal, move) in order
        self.page.goto(link)
        # the seat's number, where the link (a table's one link too) led
        path = self.page.url.split("?")[0].split("/t/")
        self.seat = int(path[1].split("/")[1]) if len(path) > 1 and "/" in path[1] else -1

    def deal(self) -> int:
        return int(self.page.locator("#deals li").count())

    def over(self) -> bool:
        return bool(self.page.locator("#match-result").inner_text().strip())

    def wait(self, asks: str) -> None:
        """Until the decision answered is gone: its controls hidden, or the next asked."""
        wait_until(self.page, "(document.getElementById('play').hidden && "
                   "document.getElementById('give').hidden) || "
                   f"document.body.dataset.asks !== {json.dumps(asks)}")

    def pick(self, cards: list[str]) -> None:
        """Click the hand's cards ``cards`` (a card named twice: two of them)."""
        used: dict[str, int] = {}
        for card in cards:
            self.page.locator(f'#hand button[data-card="{card}"]').nth(used.get(card, 0)).click()
            used[card] = used.get(card, 0) + 1

    def act(self) -> bool:
        """Play the first legal move by clicking its cards and Play (or Pass), or give the
        first cards asked; whether it did."""
        page = self.page
        # what is asked, the hand and the moves from one draw (the page redraws on every
        # event; while a decision is asked, the hand and the moves stay as drawn)
        offer = _offer(page)
        asks: str = offer["asks"]
        if offer["give"] is not None:
            self.pick(offer["hand"][:offer["give"]])
            page.locator("#give").click()
            self.wait(asks)
            return True
        if offer["play"] and offer["moves"]:
            move: str = offer["moves"][0]
            # the move's button is named as the page writes the move
            name = page.evaluate("(m) => window.arenaI18n.moveText(m)", move)
            assert page.get_by_role("button", name=name, exact=True).count() >= 1
            deal: int = offer["deals"]
            if move == "pass":
                page.locator("#pass").click()
            else:
                self.pick(["JK" if c.startswith("JK") else c for c in move.split()])
                page.locator("#play").click()
                if page.locator("#choices").is_visible():  # a joker that fits twice
                    page.locator(f'#choices button[data-move="{move}"]').click()
            self.clicked.append((deal, move))
            self.wait(asks)
            return True
        return False


def test_two_people_play_a_match_to_the_end_by_clicks(browser: Any, tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table",
                                "--preset", "runs", "--bots", "greedy", "mc", "--people", "2",
                                "--rounds", "2")
    try:
        assert process.stdout is not None
        link, seats = read_table(process, 2)
        assert all(seat.startswith(link + "/") for seat in seats)
        _play(browser, url, link, tmp_path)
    finally:
        stop(process)


def _play(browser: Any, url: str, link: str, out: Path) -> None:
    """Two people take their seats through the table's one link and play it out."""
    shots = os.environ.get("ARENA_SCREENSHOTS")
    ann = Person(browser, link, url)
    bo = Person(browser, link + "?lang=nl", url, locale="nl-NL")
    assert (ann.seat, bo.seat) == (0, 1)
    table = link.rsplit("/", 1)[1]
    match_id = f"table-{table}"
    watcher = Person(browser, f"{url}/match?id={match_id}", url)
    ann.page.fill("#name", "Ann <b>")
    ann.page.get_by_role("button", name="Save").click()
    # The Dutch page speaks Dutch.
    wait_until(bo.page, "document.querySelector('#hand-h').textContent.trim() !== ''")
    assert bo.page.locator("#hand-h").inner_text() == "Jouw hand"
    assert ann.page.locator("#hand-h").inner_text() == "Your hand"
    # The language menu and the rules, in the page's language.
    assert bo.page.locator("nav.i18n-menu a[data-lang]").count() == 6
    assert bo.page.locator("#rules-link").get_attribute("href") == "/rules?lang=nl"
    # Names are shown to the others.
    wait_until(bo.page, "document.getElementById('seats').textContent.includes('Ann <b>')")
    # Cards drawn as cards, with the Dutch ranks (B V H A) on the Dutch page.
    bo.page.wait_for_selector("#hand button.card")
    ranks = set(bo.page.eval_on_selector_all("#hand .rank", "els => els.map(e => e.textContent)"))
    assert ranks and ranks <= {*"3456789", "10", "B", "V", "H", "A", "2", "\u2605"}, ranks
    seen: list[tuple[int, int, set[str]]] = []  # (seat, its clicks so far, cards on view)
    resumed = False
    end = time.monotonic() + 240
    while not (ann.over() and bo.over()):
        assert time.monotonic() < end, "the match did not end in time: " + " | ".join(
            p.page.locator("#status").inner_text() + " / " + p.page.locator("#error").inner_text()
            for p in (ann, bo))
        acted = False
        for person in (ann, bo):
            if person.page.locator("#moves-section").is_visible():
                # The table waits for this person: what does the watcher see?
                seen.append((person.seat, len(person.clicked), _cards_shown(watcher.page)))
                if shots and not person.clicked:
                    person.page.screenshot(path=str(Path(shots) / "web-seat.png"),
                                           full_page=True)
            acted = person.act() or acted
        if ann.deal() and not resumed:
            # Closing the page and opening the table's link again gets the seat back, with
            # the deals played so far.
            deals = ann.deal()
            ann.page.close()
            ann.page = ann.context.new_page()
            ann.page.on("pageerror", lambda e: ann.errors.append(f"page error: {e}"))
            ann.page.on("console", lambda m: m.type in ("error", "warning")
                        and ann.errors.append(f"console {m.type}: {m.text}"))
            ann.page.goto(ann.link)
            ann.page.wait_for_selector("#seats li")
            assert ann.page.url.split("/t/")[1].split("?")[0].endswith("/0")
            assert ann.deal() == deals
            resumed = True
        if not acted:
            time.sleep(0.1)
    if shots:
        ann.page.screenshot(path=str(Path(shots) / "web-seat-end.png"), full_page=True)
    time.sleep(0.5)
    record = next(r for r in read_records(out / "tables" / "records.jsonl")
                  if r["match_id"] == match_id)
    assert [s["host"] for s in record["seats"]] == ["web", "web", "process", "process"]
    assert record["seats"][0]["name"] == "Ann <b>"
    assert "Ann <b>" in ann.page.locator("#match-result").inner_text()
    assert resumed
    # The final table is the record's: every hand played out, the last deal's points in.
    for person in (ann, bo):
        boxes = person.page.locator("#seats li")
        shown = {int(b.get_attribute("data-seat") or -1): b.inner_text()
                 for b in boxes.all()}
        assert sorted(shown) == [0, 1, 2, 3]
        for seat, text in shown.items():
            assert re.search(rf"\b{record['scores'][seat]}\b", text), (seat, text)
            assert re.search(r"\b0\b", text), (seat, text)
    # What happened was told: the tricks taken, the exchange with names, the result.
    log = ann.page.locator("#log").inner_text()
    assert "takes the trick" in log and "You give" in log and "gives you" in log, log
    assert "Final result" in log
    assert not any(d["faults"] for d in record["deals"])
    for person in (ann, bo):
        made = [(d["deal"], m) for d in record["deals"]
                for s, m in zip(d["movers"], d["moves"], strict=True) if s == person.seat]
        assert made == person.clicked
    # The watcher never saw a card before it was played in the match (and it did see cards
    # played): no hand, no exchanged card.
    assert seen and any(cards for _, _, cards in seen)
    everything = {c for d in record["deals"] for m in d["moves"] for c in CARD.findall(m)}
    for seat, clicks, cards in seen:
        if clicks == len((ann if seat == 0 else bo).clicked):
            # asked after its last move (the match ending as the page looked): every card
            # the watcher saw was played in the match
            assert cards <= everything, f"the watcher saw {sorted(cards - everything)}"
            continue
        deal_no, _ = (ann if seat == 0 else bo).clicked[clicks]
        deal = record["deals"][deal_no]
        mine = [i for i, s in enumerate(deal["movers"]) if s == seat]
        before = clicks - sum(1 for d, _ in (ann if seat == 0 else bo).clicked[:clicks]
                              if d < deal_no)
        # public by then: the earlier deals' plays (their log stays), this deal's so far
        moves = [m for d in record["deals"][:deal_no] for m in d["moves"]]
        played = {c for m in moves + deal["moves"][:mine[before]] for c in CARD.findall(m)}
        assert cards <= played, f"the watcher saw {sorted(cards - played)} before their play"
    # The spectator's page of a people's table: the match's end said, roles in words, no
    # duplicate set nor tournament spoken of.
    wait_until(watcher.page,
               "document.querySelector('h1').textContent.startsWith('The match is over')")
    body = watcher.page.locator("body").inner_text()
    assert "duplicate" not in body and "tournament" not in body, body
    assert "Ann <b>" in watcher.page.locator("#table tbody").inner_text()  # her name
    roles = watcher.page.eval_on_selector_all("#table tbody td:nth-child(2)",
                                              "els => els.map(e => e.textContent)")
    assert roles and set(roles) <= {"President", "Vice-President", "Vice-Scum", "Scum"}, roles
    # The match's end links to its replay, and the run's page lists it with that link.
    replay = f"#match={match_id}&deal=1&move=0"
    for person in (ann, bo):
        href = person.page.locator("#replay-link").get_attribute("href") or ""
        assert href.startswith("/report/people/?lang=") and href.endswith(replay), href
    watcher.page.goto(f"{url}/")
    watcher.page.wait_for_selector(
        f'tr[data-id="{match_id}"][data-state="finished"] a.replay-link.people'
        f'[href="/report/people/{replay}"]')
    # Play again: Ann opens the next match, Bo's page offers his seat there.
    ann.page.get_by_role("button", name="Play again").click()
    ann.page.wait_for_url(re.compile(r".*/t/(?!" + table + r")[0-9a-f]+/0\?token=.*"))
    bo.page.wait_for_selector("#again-link:not([hidden])")
    bo.page.locator("#again-link").click()
    bo.page.wait_for_url(re.compile(r".*/t/(?!" + table + r")[0-9a-f]+/1\?token=.*lang=nl"))
    for person in (ann, bo):
        person.page.wait_for_selector("#seats li")
        assert not person.over()
    assert ann.page.url.split("/t/")[1].split("/")[0] == bo.page.url.split("/t/")[1].split("/")[0]
    for person in (ann, bo, watcher):
        assert (person.link, person.errors, person.outside) == (person.link, [], [])


def test_the_table_page_opens_a_table_and_shows_its_links(browser: Any, tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table")
    try:
        opener = Person(browser, f"{url}/tables", url)
        page = opener.page
        page.wait_for_selector("#seats select")
        page.select_option("#preset", "runs")
        page.fill("#players", "3")
        page.dispatch_event("#players", "change")
        selects = page.locator("#seats select")
        assert selects.count() == 3
        # the quickest bot is offered first, and the page has its language menu
        assert selects.nth(1).input_value() == "greedy"
        assert page.locator("nav.i18n-menu a[data-lang]").count() == 6
        selects.nth(0).select_option("person")
        selects.nth(1).select_option("greedy")
        selects.nth(2).select_option("person")
        page.fill("#rounds", "1")
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_selector("#table-link[href]")
        shared = page.locator("#table-link").inner_text()
        assert re.fullmatch(re.escape(url) + r"/t/[0-9a-f]+", shared)
        links = page.eval_on_selector_all("#links a", "els => els.map(e => e.textContent)")
        assert len(links) == 2 and all(link.startswith(shared + "/") for link in links)
        assert [link.split("?")[0].rsplit("/", 1)[1] for link in links] == ["0", "2"]
        # a bot that is not installed: the server's one-line reason, on the page
        page.evaluate("""() => { const s = document.querySelector('#seats select');
            s.append(new Option('nosuchbot', 'nosuchbot')); s.value = 'nosuchbot'; }""")
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_selector("#error:not([hidden])")
        assert "nosuchbot" in page.locator("#error").inner_text()
        # the refused request's 400, which the browser notes, and nothing else
        assert opener.errors and all("400" in e and "/api/tables" in e for e in opener.errors)
        assert opener.outside == []
    finally:
        stop(process)


def test_the_seat_page_offers_a_decision_only_while_it_stands(browser: Any,
                                                              tmp_path: Path) -> None:
    """The page offers what the seat is asked, with the hand of the same view, until it
    answers: a message heard meanwhile does not bring the answered decision back (a refusal
    does), and once the deal's end is heard nothing of that deal is offered, its last
    request's moves least of all (they would name cards no longer in the hand drawn).

    The seat's socket is played by the test (Playwright's WebSocket routing) with the
    messages a person's seat got in a match played in-process: its play that ended a deal,
    the deal's end, the next deal's requests."""
    import trio

    from arena.web._person import PersonSeat
    from tests.web.test_person import _page, _play, _spec

    _, seen = trio.run(_play, PersonSeat(0, "p"), _page, _spec(3))
    kinds = [m["type"] for m in seen]
    # the person's answer ended a deal that is not the match's last
    last = next(i for i in range(len(kinds) - 1)
                if kinds[i] == "play" and kinds[i + 1] == "end_deal" and "match_end" not in
                kinds[i + 2:i + 3])
    after = next(i for i in range(last + 2, len(kinds)) if kinds[i] in ("play", "exchange"))
    process, _ = start_server("serve", str(tmp_path), "--port", "0", "--table", "--preset",
                              "runs", "--bots", "greedy", "random", "--people", "1")
    try:
        _, (seat,) = read_table(process, 1)
        page = browser.new_page()
        routes: list[Any] = []
        sent: list[dict[str, Any]] = []

        def socket(route: Any) -> None:  # the seat's socket, its server the test
            route.on_message(lambda text: sent.append(json.loads(text)))
            routes.append(route)

        page.route_web_socket(re.compile(r".*/ws/t/.*"), socket)
        page.goto(seat)
        wait_until(page, "document.getElementById('status').textContent.trim() !== ''")
        while not routes:
            page.wait_for_timeout(50)  # the page connects once its messages are loaded

        def say(*messages: dict[str, Any]) -> None:
            asks = page.evaluate("document.body.dataset.asks || '0'")
            for message in messages:
                routes[-1].send(json.dumps(message))
            asked = sum(m["type"] in ("play", "exchange") for m in messages)
            wait_until(page, f"Number(document.body.dataset.asks || '0') === "
                             f"{int(asks) + asked}")

        request = seen[last]
        say(*seen[:last + 1])
        offer = _offer(page)
        assert offer["play"] and offer["moves"] == request["legal"]
        assert sorted(offer["hand"]) == sorted(request["view"]["hand"])

        def answer(before: int) -> None:
            """Click the first move's cards and Play; the socket hears it after ``before``
            messages."""
            move = request["legal"][0]
            for card in ["JK" if c.startswith("JK") else c for c in move.split()]:
                page.locator(f'#hand button[data-card="{card}"]').first.click()
            page.locator("#play").click()
            wait_until(page, "document.getElementById('play').hidden")
            while len(sent) < before + 1:
                page.wait_for_timeout(50)
            assert sent[-1] == {"type": "move", "move": move}

        answer(0)
        # The answer on its way: the page no longer says it is the seat's turn.
        status = page.locator("#status").inner_text().lower()
        assert "your turn" not in status and "waiting" in status, status
        assert not page.title().startswith("\u25b6"), page.title()
        # Someone's name heard while the answer is on its way: the answer stands.
        say({"type": "people", "people": [{"seat": 0, "name": "Ann", "away_s": None,
                                           "stand_in": "", "stood_in": 0}]})
        wait_until(page, "document.getElementById('seats').textContent.includes('Ann')")
        offer = _offer(page)
        assert not offer["play"] and offer["moves"] == []
        assert page.locator("#hand button:enabled").count() == 0
        # Refused: the decision is asked still, and answered again.
        say({"type": "error", "message": "too many messages: slow down"})
        wait_until(page, "!document.getElementById('play').hidden")
        assert _offer(page)["moves"] == request["legal"]
        answer(1)
        # The deal ends with that answer: nothing of the deal is offered.
        deals = seen[last + 1]["result"]["deal"] + 1
        say(seen[last + 1])
        wait_until(page, f"document.querySelectorAll('#deals li').length === {deals}")
        offer = _offer(page)
        assert not offer["play"] and offer["give"] is None and offer["moves"] == []
        assert "your turn" not in page.locator("#status").inner_text().lower()
        # The next deal's request is offered as asked.
        say(*seen[last + 2:after + 1])
        offer = _offer(page)
        if kinds[after] == "play":
            assert offer["play"] and offer["moves"] == seen[after]["legal"]
        else:
            assert offer["give"] == seen[after]["count"]
        assert sorted(offer["hand"]) == sorted(seen[after]["view"]["hand"])
        # A request left unanswered on the page when its deal ends (the seat's clock ran
        # out, its fault's move the deal's last): nothing of the deal is offered either.
        page.reload()
        while len(routes) < 2:
            page.wait_for_timeout(50)
        say(*seen[:last + 1])
        assert _offer(page)["moves"] == request["legal"]
        say(seen[last + 1])
        wait_until(page, f"document.querySelectorAll('#deals li').length === {deals}")
        offer = _offer(page)
        assert not offer["play"] and offer["moves"] == [] and offer["hand"] == []
        page.close()
    finally:
        stop(process)
