"""A competition's entrants at people's tables: a guest never takes the name of a bot the
tables offer, nor a person's seat."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from arena.referee import Seat
from arena.web import PERSON, Hub, TableBounds, Tables


def test_a_guest_under_an_offered_name_or_a_persons_is_not_offered(tmp_path: Path) -> None:
    def seat(label: str) -> Seat:
        return Seat(label=label, command="true", host="command")

    guests = {"greedy": seat("greedy"), PERSON: seat(PERSON), "shedder": seat("shedder")}
    tables = Tables(tmp_path, Hub(), base_url="", bounds=TableBounds(bots=("greedy", "mc")),
                    guests=lambda: guests)
    assert dict(tables._guests()) == {"shedder": guests["shedder"]}
