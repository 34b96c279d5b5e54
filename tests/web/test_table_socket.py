"""People's tables against a live server on 127.0.0.1: links, tokens, the seat socket as
an adversary would use it, a whole match through two people's sockets, the record."""

from __future__ import annotations

import contextlib
import json
import queue
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx_ws import WebSocketDisconnect, WebSocketSession, WebSocketUpgradeError, connect_ws

from arena.records import read_records
from tests.web.conftest import start_server, stop


class Socket:
    """A seat's socket (httpx-ws) with ``send`` and ``recv(timeout)`` (TimeoutError)."""

    def __init__(self, ws: WebSocketSession) -> None:
        self.ws = ws
        self.pending: dict[str, Any] | None = None
        """The latest request (play, exchange) heard and not answered yet."""

    def send(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self, timeout: float) -> str:
        try:
            text = self.ws.receive_text(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        kind = json.loads(text)["type"]
        if kind in ("play", "exchange"):
            self.pending = json.loads(text)
        elif kind in ("turn", "match_end"):
            self.pending = None
        return text


@contextlib.contextmanager
def connect(link: str) -> Iterator[Socket]:
    """The socket of the seat whose link is ``link``."""
    url = re.sub(r"^(http://[^/]+)/t/", r"\1/ws/t/", link)
    with httpx.Client(timeout=60) as client, connect_ws(url, client) as ws:
        yield Socket(ws)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[str]]]:
    """``arena serve OUT --table ...`` with one table of two people and two bots open; the
    module's tests open more tables, all from this one address."""
    out = tmp_path_factory.mktemp("tables")
    process, url = start_server("serve", str(out), "--port", "0", "--table", "--preset", "runs",
                                "--bots", "greedy", "random", "--people", "2",
                                "--rounds", "2", "--tables-per-client", "32")
    assert process.stdout is not None
    links = read_links(process, 2)
    try:
        yield url, out, links
    finally:
        stop(process)


def read_table(process: subprocess.Popen[str], count: int) -> tuple[str, list[str]]:
    """The table's one link and the ``count`` seat links ``arena serve --table --people``
    prints, each on a line of its own, the table's first (the server's other lines, its
    stderr among them, are skipped)."""
    assert process.stdout is not None
    links: list[str] = []
    while len(links) < count + 1:
        line = process.stdout.readline()
        assert line, f"the server printed {len(links)} links of {count + 1}"
        if line.startswith("http://"):
            links.append(line.strip())
    assert re.fullmatch(r"http://[^/]+/t/[0-9a-f]+", links[0]), links[0]
    return links[0], links[1:]


def read_links(process: subprocess.Popen[str], count: int) -> list[str]:
    """The ``count`` seat links ``arena serve --table --people`` prints after the table's."""
    return read_table(process, count)[1]


def _open(url: str, seats: list[str], **more: Any) -> list[str]:
    answer = httpx.post(f"{url}/api/tables", json={"seats": seats, "preset": "runs", **more},
                        timeout=60)
    assert answer.status_code == 200, answer.text
    links: list[str] = answer.json()["links"]
    return links


def _next(ws: Socket, *types: str, timeout: float = 30) -> dict[str, Any]:
    """The next message of one of ``types`` (skipping others)."""
    end = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if message["type"] in types:
            return message


def _answer(ws: Socket, request: dict[str, Any]) -> None:
    """Answer with the first legal move or cards, at a person's pace (the seat's gate lets
    10 messages a second through)."""
    time.sleep(0.1)
    ws.pending = None
    if request["type"] == "play":
        ws.send(json.dumps({"type": "move", "move": request["legal"][0]}))
    else:
        ws.send(json.dumps({"type": "exchange",
                            "cards": request["view"]["hand"][:request["count"]]}))


def test_the_cli_prints_one_link_per_person_each_with_its_own_token(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, links = server
    assert len(links) == 2 and all(link.startswith(url + "/t/") for link in links)
    tokens = {link.partition("?token=")[2] for link in links}
    assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)
    listed = httpx.get(f"{url}/api/tables", timeout=60).json()
    assert listed and not any(t in json.dumps(listed) for t in tokens)


def test_a_wrong_token_gets_nothing(server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    link = _open(url, ["person", "greedy", "random"])[0]
    wrong = link[:-2] + ("AA" if not link.endswith("AA") else "BB")
    assert httpx.get(link, timeout=60).status_code == 200
    for bad in (wrong, link.partition("?")[0], link.replace("/t/", "/t/x")):
        page = httpx.get(bad, timeout=60)
        assert page.status_code == 404 and "token" not in page.text
        with pytest.raises(WebSocketUpgradeError), connect(bad):
            pass


def test_bad_messages_get_an_error_on_that_socket_only_and_change_nothing(
        server: tuple[str, Path, list[str]]) -> None:
    url, out, _ = server
    links = _open(url, ["person", "person", "greedy", "random"], rounds=1)
    with connect(links[0]) as mine, connect(links[1]) as other:
        start = _next(mine, "start")
        assert start["seat"] == 0 and "seed" not in start
        mine.send("{not json")
        assert "not a JSON" in _next(mine, "error")["message"]
        mine.send(json.dumps({"type": "name", "name": "x" * 5000}))
        assert "longer than" in _next(mine, "error")["message"]
        mine.send(json.dumps({"type": "hello"}))
        assert "unknown message type" in _next(mine, "error")["message"]
        mine.send(json.dumps({"type": "exchange", "cards": ["3C"]}))
        assert "no exchange" in _next(mine, "error")["message"]
        for _ in range(60):  # far more than the gate lets through
            mine.send(json.dumps({"type": "move", "move": "pass"}))
        errors: list[str] = []  # until the gate's, however late at load; then the rest
        while not any("too many messages" in e for e in errors):
            errors.append(_next(mine, "error")["message"])
        with contextlib.suppress(TimeoutError):
            while True:
                mine.recv(timeout=2)
        # the other person's socket heard none of it
        try:
            while True:
                assert json.loads(other.recv(timeout=0.5))["type"] != "error"
        except TimeoutError:
            pass
        time.sleep(2.5)  # the gate refills
        # Play the match out: both people answer their first legal move.
        done = 0
        sockets = [mine, other]
        while done < 2:
            for ws in sockets:
                if ws.pending is not None:  # heard while the errors were read
                    _answer(ws, ws.pending)
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] in ("play", "exchange"):
                    if message["type"] == "play" and ws is mine and message["view"]["pile"]:
                        ws.send(json.dumps({"type": "move", "move": "3C 3D 3H 3S 4C"}))
                        error = _next(ws, "error")["message"]
                        assert "do not hold" in error or ":" in error
                    _answer(ws, message)
                if message["type"] == "match_end":
                    done += 1
    match_id = start["match_id"]
    records = [r for r in read_records(out / "tables" / "records.jsonl")
               if r["match_id"] == match_id]
    assert len(records) == 1
    record = records[0]
    assert [s["host"] for s in record["seats"]] == ["web", "web", "process", "process"]
    assert not any(d["faults"] for d in record["deals"])  # nothing a browser sent got in


def test_a_whole_match_through_two_sockets_is_recorded_with_names_as_text(
        server: tuple[str, Path, list[str]]) -> None:
    url, out, _ = server
    links = _open(url, ["greedy", "person", "random", "person"], rounds=2)
    sent: dict[int, list[str]] = {1: [], 3: []}
    match_id = "table-" + links[0].split("/t/")[1].split("/")[0]
    heard: list[dict[str, Any]] = []
    with connect(links[0]) as a, connect(links[1]) as b, connect(f"{url}/ws") as watcher:
        watcher.send(json.dumps({"subscribe": f"match:{match_id}"}))
        a.send(json.dumps({"type": "name", "name": "<img src=x onerror=alert(1)>Ann"}))
        b.send(json.dumps({"type": "name", "name": "Bo\u0000b"}))
        seats = {a: 1, b: 3}
        ended = 0
        while ended < 2:
            for ws, seat in seats.items():
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] == "play":
                    sent[seat].append(message["legal"][0])
                if message["type"] in ("play", "exchange"):
                    assert message["view"]["seat"] == seat
                    _answer(ws, message)
                if message["type"] == "match_end":
                    ended += 1
                    assert message["names"][1].startswith("<img")
                    assert message["match"] == match_id  # the seat page's replay link
            with contextlib.suppress(TimeoutError):
                while True:
                    heard.append(json.loads(watcher.recv(timeout=0.01)))
        # The spectator's last frames may come after the people's match_end (a frame at most
        # every 0.1 s, later at load): heard up to the match's own end (the deadline bounds
        # a hang).
        deadline = time.monotonic() + 60
        while not any(e.get("type") in ("match_end", "recorded") for m in heard
                      for e in (m.get("events") or [m])):
            assert time.monotonic() < deadline, f"the match's end not heard: {heard[-3:]}"
            with contextlib.suppress(TimeoutError):
                heard.append(json.loads(watcher.recv(timeout=1)))
    record = next(r for r in read_records(out / "tables" / "records.jsonl")
                  if r["match_id"] == match_id)
    assert record["seats"][1]["host"] == record["seats"][3]["host"] == "web"
    listed = httpx.get(f"{url}/api/matches", timeout=30).json()["matches"]
    assert {"id": match_id, "state": "finished", "people": True} in [
        {k: m[k] for k in ("id", "state", "people") if k in m} for m in listed]
    assert record["seats"][1]["name"] == "<img src=x onerror=alert(1)>Ann"
    assert record["seats"][3]["name"] == "Bob"
    assert len(record["deals"]) == 2
    for seat, moves in sent.items():
        made = [m for d in record["deals"] for s, m in zip(d["movers"], d["moves"], strict=True)
                if s == seat]
        assert made == moves
    assert record["seed"] is not None and record["set"] is None
    # A spectator heard the table's match move by move, and never a hand or a seed.
    events = [e for m in heard for e in (m.get("events") or [m])]
    moves = [e["move"] for e in events if e.get("type") == "move"]
    assert moves == [m for d in record["deals"] for m in d["moves"]]
    assert not any(key in e for e in events for key in ("hand", "hands", "seed"))


def test_reopening_a_link_resumes_the_seat_where_it_was(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    link = _open(url, ["person", "greedy", "random"], rounds=1)[0]
    with connect(link) as ws:
        first = _next(ws, "play", "exchange")
    with connect(link) as ws:
        assert _next(ws, "start")["seat"] == 0
        again = _next(ws, "play", "exchange")
        assert again == first  # the same decision, still waiting
        _answer(ws, again)
        assert _next(ws, "turn", "play", "end_deal")
    with connect(link) as one, connect(link) as two:
        _next(two, "start")
        with pytest.raises(WebSocketDisconnect):  # one page per seat: the older is closed
            while True:
                one.recv(timeout=10)


def test_a_bad_table_request_is_a_clear_error(server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    for body, needle in (({"seats": ["greedy", "random"]}, "person"),
                         ({"seats": ["person", "nosuchbot"]}, "nosuchbot"),
                         ({"seats": ["person", "greedy"], "preset": "chess"}, "chess"),
                         ({"seats": "person"}, "seats"),
                         ({"seats": ["person", "greedy"], "rounds": 0}, "rounds"),
                         ({"seats": ["person", "greedy"], "x": 1}, "unknown")):
        answer = httpx.post(f"{url}/api/tables", json=body, timeout=60)
        assert answer.status_code == 400 and needle in answer.json()["error"], answer.text
    answer = httpx.post(f"{url}/api/tables", content=b"{oops", timeout=60)
    assert answer.status_code == 400
