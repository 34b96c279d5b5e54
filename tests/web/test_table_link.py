"""A table's one link (``BASE/t/TABLE``), what every seat hears of the table's people (their
names, who is away), the deals a reopened page gets back, and the stand-in that plays for a
person away past the seat's absence limit: against a live server."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from arena.records import read_records
from tests.web.conftest import start_server, stop
from tests.web.test_table_socket import _answer, _next, connect, server

__all__ = ["server"]  # a fixture, used by name


def _open(url: str, seats: list[str], **more: Any) -> dict[str, Any]:
    answer = httpx.post(f"{url}/api/tables", json={"seats": seats, "preset": "runs", **more},
                        timeout=60)
    assert answer.status_code == 200, answer.text
    opened: dict[str, Any] = answer.json()
    return opened


def _seat_of(client: httpx.Client, link: str) -> str:
    """Where the table's link sends this browser (its cookies kept between calls)."""
    answer = client.get(link)
    assert answer.status_code == 303, answer.text
    assert answer.headers["cache-control"] == "no-store"
    return answer.headers["location"]


def _seat(link: str) -> str:
    """A seat's link without its token: the table's link gives a browser a secret of its
    own for the seat (the server keeps no token to hand out), so only the seat compares."""
    return link.partition("?token=")[0]


def test_the_table_link_seats_each_browser_once_then_shows_the_match(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    opened = _open(url, ["person", "greedy", "person"], rounds=1)
    table = opened["table"].rsplit("/", 1)[1]
    assert opened["table"] == f"{url}/t/{table}"
    seats = [link.removeprefix(url) for link in opened["links"]]
    with (httpx.Client(timeout=60) as ann, httpx.Client(timeout=60) as bo,
          httpx.Client(timeout=60) as late):
        first = _seat_of(ann, opened["table"])
        assert _seat(first) == _seat(seats[0]) and first != seats[0]
        cookie = ann.cookies.jar
        assert [(c.path, c.has_nonstandard_attr("HttpOnly")) for c in cookie] == [
            (f"/t/{table}", True)]
        assert _seat_of(ann, opened["table"]) == first  # the same browser: the same seat
        assert _seat(_seat_of(bo, opened["table"])) == _seat(seats[1])
        assert _seat_of(ann, opened["table"]) == first
        # the table is full: the match's page, for anyone else
        assert _seat_of(late, opened["table"]) == f"/match?id=table-{table}"
        assert ann.get(url + first).status_code == 200
        # another table's seat's token is no seat here: the next free one is given
        token = next(iter(cookie)).value or ""
        other = _open(url, ["person", "person", "greedy"], rounds=1)
        with httpx.Client(headers={"Cookie": f"arena-seat={token}"}, timeout=60) as stranger:
            assert _seat(_seat_of(stranger, other["table"])) == _seat(
                other["links"][0].removeprefix(url))
    assert httpx.get(f"{url}/t/nosuchtable", timeout=60).status_code == 404


def test_a_seat_whose_own_link_was_opened_is_not_given_by_the_table_link(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    opened = _open(url, ["person", "person", "greedy"], rounds=1)
    with connect(opened["links"][0]) as ws:
        _next(ws, "start")
        with httpx.Client(timeout=60) as bo:
            assert _seat(_seat_of(bo, opened["table"])) == _seat(
                opened["links"][1].removeprefix(url))


def test_every_seat_hears_the_peoples_names_and_who_is_away(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    links = _open(url, ["person", "greedy", "person"], rounds=1)["links"]
    with connect(links[0]) as ann:
        people = _next(ann, "people")["people"]
        assert [p["seat"] for p in people] == [0, 2]
        assert people[0]["away_s"] is None and 0 < people[1]["away_s"] <= 120
        with connect(links[1]) as bo:
            assert _next(ann, "people")["people"][1]["away_s"] is None
            bo.send(json.dumps({"type": "name", "name": "  Bo\u0007 "}))
            named = _next(ann, "people")["people"]
            assert (named[1]["name"], named[0]["name"]) == ("Bo", "")
        away = _next(ann, "people")["people"][1]
        assert away["name"] == "Bo" and 119 <= away["away_s"] <= 120


def test_a_reopened_page_gets_the_earlier_deals_before_the_latest_view(
        server: tuple[str, Path, list[str]]) -> None:
    url, _, _ = server
    link = _open(url, ["person", "greedy", "random"], rounds=2)["links"][0]
    with connect(link) as ws:
        while True:
            message = _next(ws, "play", "exchange", "end_deal")
            if message["type"] == "end_deal":
                break
            _answer(ws, message)
        first = message["result"]
    with connect(link) as ws:
        kinds = []
        while not kinds or kinds[-1] not in ("play", "exchange", "turn"):
            message = json.loads(ws.recv(timeout=30))
            kinds.append(message["type"])
            if message["type"] == "end_deal":
                assert message["result"] == first
        assert kinds[0] == "start" and kinds.count("end_deal") == 1
        assert kinds.index("end_deal") < len(kinds) - 1


def test_a_seat_left_past_its_limit_is_played_by_the_stand_in_and_recorded(
        tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table",
                                "--absence-s", "1", "--stand-in", "lowest")
    try:
        opened = _open(url, ["person", "greedy", "random"], rounds=1)
        match_id = "table-" + opened["table"].rsplit("/", 1)[1]
        end = time.monotonic() + 60
        path = tmp_path / "tables" / "records.jsonl"
        while not path.exists() or match_id not in path.read_text():  # the line, not the file
            assert time.monotonic() < end, "the stand-in did not play the match out"
            time.sleep(0.2)
        record = next(r for r in read_records(path) if r["match_id"] == match_id)
    finally:
        stop(process)
    assert not record["deals"][0]["faults"]  # no timeout: the stand-in played
    stand_in = record["seats"][0]["stand_in"]
    assert stand_in["bot"] == "lowest" and stand_in["decisions"]
    deal = record["deals"][0]
    assert [deal["movers"][d["move"]] for d in stand_in["decisions"]] == [0] * len(
        stand_in["decisions"])
    assert len(stand_in["decisions"]) == deal["movers"].count(0)
    assert "stand_in" not in record["seats"][1]


def test_the_people_play_again_at_the_same_seats_with_the_same_links(tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table",
                                "--absence-s", "1")
    try:
        opened = _open(url, ["person", "greedy", "person"], rounds=1)
        old = opened["table"].rsplit("/", 1)[1]
        tokens = dict(zip((0, 2), (link.partition("?token=")[2] for link in opened["links"]),
                          strict=True))
        with httpx.Client(timeout=60) as ann:  # Ann takes seat 0 through the table's link
            assert _seat(_seat_of(ann, opened["table"])).endswith("/0")
            again = f"{url}/api/tables/{old}/again"
            playing = httpx.post(again, json={"token": tokens[0]}, timeout=60)
            assert playing.status_code == 409  # playing
            end = time.monotonic() + 60  # the stand-in plays for both
            while not (tmp_path / "tables" / "records.jsonl").exists():
                assert time.monotonic() < end
                time.sleep(0.2)
            time.sleep(0.5)
            for bad in ({"token": "x" * 32}, {"token": 5}, [], "{"):
                answer = httpx.post(again, json=bad, timeout=60) if bad != "{" else httpx.post(
                    again, content=b"{", timeout=60)
                assert answer.status_code == 404, (bad, answer.text)
            first = httpx.post(again, json={"token": tokens[2]}, timeout=60).json()
            new = first["table"].rsplit("/", 1)[1]
            assert new != old and first["link"] == f"/t/{new}/2?token={tokens[2]}"
            # the others' own links: the same token at the same seat
            assert httpx.post(again, json={"token": tokens[0]}, timeout=60).json() == {
                "table": first["table"], "link": f"/t/{new}/0?token={tokens[0]}"}
            # the same table link, the same browser: its seat at the new table
            assert _seat(_seat_of(ann, opened["table"])) == f"/t/{new}/0"
            # a page of the old seat hears where the table plays again
            with connect(opened["links"][0]) as ws:
                assert _next(ws, "match_end")["again"] == new
            assert httpx.get(f"{url}/t/{new}/0?token={tokens[0]}", timeout=60).status_code == 200
    finally:
        stop(process)
