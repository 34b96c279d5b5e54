"""One start message: what a bot's process is sent and what a person's seat is shown."""

from __future__ import annotations

from arena.game import Rules
from arena.referee import StartInfo
from arena.referee.lowlevel import PROTOCOL_VERSION, start_message
from arena.seeds import bot_seed
from arena.web._person import PersonSeat


def _info() -> StartInfo:
    return StartInfo(seat=2, players=4, rules=Rules.preset("runs"), match_id="m-1",
                     labels=["a", "b", "c", "d"], seed=12345, limits={"move_ms": 1000})


def test_a_bots_start_carries_its_id_and_its_own_seed_in_protocol_order() -> None:
    info = _info()
    message = start_message(info, 7)
    assert list(message) == ["type", "id", "protocol", "seat", "players", "match_id", "labels",
                             "rules", "limits", "seed"]
    assert (message["type"], message["id"], message["protocol"]) == ("start", 7,
                                                                      PROTOCOL_VERSION)
    assert message["seed"] == bot_seed(12345, 2) != info.seed
    assert message["rules"] == info.rules.to_dict() and message["labels"] == list(info.labels)


def test_a_persons_seat_is_shown_the_same_start_without_id_or_seed() -> None:
    info = _info()
    seat = PersonSeat(2, "c", seat_ms=30000)
    sent: list[dict[str, object]] = []
    seat.send = sent.append  # type: ignore[method-assign, assignment]
    seat.begin(info)
    bot = start_message(info, 7)
    del bot["id"], bot["seed"]
    assert sent == [{**bot, "seat_ms": 30000}]
    assert "seed" not in sent[0]  # a person draws no random numbers: no seed to leak
