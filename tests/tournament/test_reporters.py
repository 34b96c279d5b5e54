"""Several reporters heard as one (``Reporters``): every call reaches each, in order."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.tournament import Reporter, Reporters, Standings, run_tournament

from .helpers import load_records


class Heard(Reporter):
    """Keeps ``(name, call)`` for every call it hears, in a list shared by several."""

    def __init__(self, name: str, heard: list[tuple[str, str]]) -> None:
        self.name = name
        self.heard = heard

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        self.heard.append((self.name, "start"))

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        self.heard.append((self.name, "match"))

    def note(self, line: str) -> None:
        self.heard.append((self.name, f"note {line}"))

    def stop(self) -> None:
        self.heard.append((self.name, "stop"))


def test_every_call_reaches_each_reporter_in_the_lists_order() -> None:
    heard: list[tuple[str, str]] = []
    both = Reporters([Heard("a", heard), None, Heard("b", heard)])
    both.note("hello")
    both.stop()
    both.sprt(None)  # type: ignore[arg-type]  # the base Reporter ignores it
    assert heard == [("a", "note hello"), ("b", "note hello"), ("a", "stop"), ("b", "stop")]


def test_a_run_tells_each_reporter_of_every_match(small_config: Path, tmp_path: Path) -> None:
    heard: list[tuple[str, str]] = []
    run_tournament(small_config, out=tmp_path / "out", jobs=1,
                   reporter=Reporters([Heard("a", heard), Heard("b", heard)]))
    matches = len(load_records(tmp_path / "out" / "records.jsonl"))
    assert matches
    assert heard[:2] == [("a", "start"), ("b", "start")]
    assert heard[-2:] == [("a", "stop"), ("b", "stop")]
    assert [name for name, call in heard if call == "match"] == ["a", "b"] * matches
