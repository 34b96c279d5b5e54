"""docs/rules.md section 7: roles and the card exchange between deals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.game import IllegalMove, Match, Rules

from .helpers import RANKS, drive, names, top_cards

ROLE_NAMES = ("president", "vice-president", "vice-scum", "scum")


def _pairs(history_deal: dict) -> Counter[tuple[int, int, int, str]]:
    return Counter(
        (e["from"], e["to"], len(e["cards"]), e["kind"]) for e in history_deal["exchanges"]
    )


def test_exchange_defaults_to_2_1() -> None:
    """Rule: "Card exchange (option `exchange`, default `[2, 1]`)"."""
    assert tuple(Rules().exchange) == (2, 1)


def test_there_is_no_exchange_before_the_first_deal_of_a_match() -> None:
    """Rule: "Before every deal but the first of a match": deal 0 starts with a move."""
    m = Match(Rules(rounds=2), 4, 3)
    assert m.pending is not None and m.pending.kind == "play"
    drive(m)
    assert m.history[0]["exchanges"] == []
    assert m.history[0]["roles"] == [None] * 4
    assert m.history[1]["exchanges"] != []


@pytest.mark.parametrize("players", [4, 5, 6, 8])
def test_roles_come_from_the_previous_deals_finishing_order(players: int) -> None:
    """Rule: "Roles come from the previous deal's finishing order: 1st President, 2nd
    Vice-President, last Scum, second-to-last Vice-Scum."""
    m = Match(Rules(rounds=3), players, 17)
    drive(m, random.Random(1))
    for d in (1, 2):
        order = m.history[d - 1]["finish_order"]
        roles = m.history[d]["roles"]
        expected: list[str | None] = [None] * players
        expected[order[0]] = "president"
        expected[order[1]] = "vice-president"
        expected[order[-2]] = "vice-scum"
        expected[order[-1]] = "scum"
        assert roles == expected


@pytest.mark.parametrize("players", [4, 5, 7])
def test_scum_gives_two_highest_cards_to_president_and_vice_scum_one_to_vice_president(
    players: int,
) -> None:
    """Rule: "With `exchange: [2, 1]` the Scum gives their 2 highest cards ... to the President
    ...; the Vice-Scum gives their highest card to the Vice-President"."""
    m = Match(Rules(rounds=2, jokers=2), players, 23)
    drive(m)
    order = m.history[0]["finish_order"]
    d1 = m.history[1]
    pres, vp, vs, scum = order[0], order[1], order[-2], order[-1]
    gifts = {(e["from"], e["to"]): e["cards"] for e in d1["exchanges"] if e["kind"] == "gift"}
    assert set(gifts) == {(scum, pres), (vs, vp)}
    assert names(gifts[(scum, pres)]) == top_cards(d1["hands"][scum], 2)
    assert names(gifts[(vs, vp)]) == top_cards(d1["hands"][vs], 1)
    assert _pairs(d1) == Counter(
        {(scum, pres, 2, "gift"): 1, (pres, scum, 2, "return"): 1,
         (vs, vp, 1, "gift"): 1, (vp, vs, 1, "return"): 1}
    )  # fmt: skip


def test_scum_gives_two_highest_spades_first_then_hearts() -> None:
    """Rule: "The Scum gives their 2 highest cards (jokers highest, then by rank in the normal
    order ...; between cards of one rank, spades first, then hearts, diamonds, clubs)"."""
    tie_breaks = jokers_given = 0
    for seed in range(40):
        m = Match(Rules(rounds=2, jokers=seed % 3), 4, seed)
        drive(m)
        d1 = m.history[1]
        scum = m.history[0]["finish_order"][-1]
        gift = next(
            e["cards"] for e in d1["exchanges"] if e["kind"] == "gift" and e["from"] == scum
        )
        dealt = d1["hands"][scum]
        assert names(gift) == top_cards(dealt, 2), (seed, dealt)
        if "JK" in gift:
            jokers_given += 1
        naturals = [c for c in gift if c != "JK"]
        if naturals:
            cut = min(naturals, key=lambda c: RANKS.index(c[0]))[0]
            held = [c for c in dealt if c[0] == cut and c != "JK"]
            if len(held) > sum(1 for c in naturals if c[0] == cut):
                tie_breaks += 1  # the suit order decided which card of that rank went
    # the cases that matter did occur
    assert jokers_given > 0 and tie_breaks > 0


def test_the_gift_uses_the_normal_order_never_the_revolution_order() -> None:
    """Rule: "... then by rank in the normal order, never the revolution order"."""
    seen_revolution = 0
    for seed in range(30):
        m = Match(Rules(rounds=2, revolution=True, jokers=1), 4, seed)
        ended_in_revolution = False
        while len(m.history) < 1:
            deal = m.deal
            m.play(m.view(m.pending.seat).legal_moves()[-1])
            if m.deal is not deal:
                ended_in_revolution = deal.revolution
        if not ended_in_revolution:
            continue
        seen_revolution += 1
        drive(m)
        d1 = m.history[1]
        scum = m.history[0]["finish_order"][-1]
        gift = next(
            e["cards"] for e in d1["exchanges"] if e["kind"] == "gift" and e["from"] == scum
        )
        assert names(gift) == top_cards(d1["hands"][scum], 2)
    assert seen_revolution > 0


def test_the_president_then_gives_back_any_2_cards_of_their_choice() -> None:
    """Rule: "to the President, who then gives back any 2 cards of their choice"."""
    for choice in ("received", "lowest", "random"):
        m = Match(Rules(rounds=2), 4, 5)
        drive(m, stop_after_deal=0)
        decision = m.pending
        order = m.history[0]["finish_order"]
        pres, scum = order[0], order[-1]
        assert decision.kind == "exchange" and decision.seat == pres and decision.count == 2
        hand = [str(c) for c in m.view(pres).hand]
        received = m.view(pres).to_dict()["exchange"]["received"]
        assert set(received) <= set(hand)
        if choice == "received":
            back = received
        elif choice == "lowest":
            back = hand[:2]
        else:
            back = random.Random(3).sample(hand, 2)
        scum_before = names(m.deal.hand(scum))
        m.give(back)
        assert names(m.deal.hand(scum)) == sorted(scum_before + list(back))
        assert not set(back) & set(names(m.deal.hand(pres)))
        assert m.pending.kind == "exchange" and m.pending.seat == order[1]
        assert m.pending.count == 1


def test_the_vice_president_gives_back_any_1() -> None:
    """Rule: "the Vice-Scum gives their highest card to the Vice-President, who gives back any
    1"."""
    m = Match(Rules(rounds=2), 5, 8)
    drive(m, stop_after_deal=0)
    order = m.history[0]["finish_order"]
    m.give(names(m.view(order[0]).hand)[-2:])
    assert m.pending.kind == "exchange" and m.pending.seat == order[1]
    vs_before = names(m.deal.hand(order[-2]))
    back = names(m.view(order[1]).hand)[3]
    m.give([back])
    assert names(m.deal.hand(order[-2])) == sorted([*vs_before, back])
    assert m.pending.kind == "play"
    assert m.deal.to_move == order[-1]


def test_an_exchange_return_must_be_exactly_count_cards_held() -> None:
    """The President "gives back any 2 cards of their choice": 2 of its cards, no more, no less."""
    m = Match(Rules(rounds=2), 4, 5)
    drive(m, stop_after_deal=0)
    pres = m.pending.seat
    hand = names(m.view(pres).hand)
    missing = next(c for c in (r + s for r in "3456789TJQKA2" for s in "CDHS") if c not in hand)
    before = [names(m.deal.hand(s)) for s in range(4)]
    for bad in ([hand[0]], hand[:3], [], [hand[0], missing], [hand[0], hand[0]], ["XX", hand[0]]):
        with pytest.raises(IllegalMove):
            m.give(bad)
        assert [names(m.deal.hand(s)) for s in range(4)] == before
        assert m.pending.kind == "exchange" and m.pending.seat == pres
    with pytest.raises(IllegalMove):
        m.play("pass")


@pytest.mark.parametrize("players", [2, 3])
def test_with_fewer_than_4_players_only_the_first_pair_exchanges(players: int) -> None:
    """Rule: "With fewer than 4 players only the first pair exchanges."""
    m = Match(Rules(rounds=3), players, 31)
    drive(m)
    for d in (1, 2):
        order = m.history[d - 1]["finish_order"]
        assert _pairs(m.history[d]) == Counter(
            {(order[-1], order[0], 2, "gift"): 1, (order[0], order[-1], 2, "return"): 1}
        )


@pytest.mark.parametrize("off", [[], (), False])
def test_exchange_empty_or_false_turns_it_off(off: object) -> None:
    """Rule: "`exchange: []` (or `false`) turns it off"."""
    r = Rules.from_dict({"exchange": off, "rounds": 3})
    assert tuple(r.exchange) == ()
    m = Match(r, 4, 2)
    while m.pending is not None:
        assert m.pending.kind == "play"
        m.play(m.view(m.pending.seat).legal_moves()[0])
    assert len(m.history) == 3
    assert all(d["exchanges"] == [] for d in m.history)


@pytest.mark.parametrize(
    ("exchange", "players", "pairs"),
    [((3, 2, 1), 6, 3), ((3, 2, 1), 7, 3), ((3, 2, 1), 5, 2), ((3, 2, 1), 4, 2), ((1,), 4, 1),
     ((3,), 3, 1), ((3, 2, 1), 8, 3)],
)  # fmt: skip
def test_other_exchange_lists_are_allowed_3_2_1_needs_6_players_for_all_pairs(
    exchange: tuple[int, ...], players: int, pairs: int
) -> None:
    """Rule: "Other lists are allowed (`[3, 2, 1]` needs at least 6 players for all pairs)."""
    m = Match(Rules(rounds=2, exchange=list(exchange)), players, 12)
    drive(m)
    order = m.history[0]["finish_order"]
    expected: Counter[tuple[int, int, int, str]] = Counter()
    for i in range(pairs):
        hi, lo = order[i], order[players - 1 - i]
        expected[(lo, hi, exchange[i], "gift")] += 1
        expected[(hi, lo, exchange[i], "return")] += 1
    assert _pairs(m.history[1]) == expected
    for e in m.history[1]["exchanges"]:
        if e["kind"] == "gift":
            assert names(e["cards"]) == top_cards(m.history[1]["hands"][e["from"]], len(e["cards"]))


def test_the_exchange_is_made_before_the_deal_is_played_and_the_scum_leads() -> None:
    """Rule: "Before every deal but the first" the exchange; section 3: "Every later deal is led
    by the previous deal's last-placed player (the Scum)"."""
    m = Match(Rules(rounds=2), 4, 9)
    drive(m, stop_after_deal=0)
    assert m.deal.moves == []
    drive(m)
    d1 = m.history[1]
    assert d1["leader"] == m.history[0]["finish_order"][-1]
    assert d1["moves"][0]["seat"] == d1["leader"]


@pytest.mark.parametrize("players", [2, 3])
def test_with_fewer_than_4_players_there_are_no_vice_roles(players: int) -> None:
    """Rule: "With fewer than 4 players only the first pair exchanges" (docs/rules.md: "and there
    are no Vice roles")."""
    m = Match(Rules(rounds=2), players, 6)
    drive(m)
    order = m.history[0]["finish_order"]
    expected: list[str | None] = [None] * players
    expected[order[0]], expected[order[-1]] = "president", "scum"
    assert m.history[1]["roles"] == expected


def test_all_gifts_are_made_before_the_returns_are_asked_for() -> None:
    """docs/rules.md: "all the automatic gifts are made first, then the returns are asked for, the
    President's first, then the Vice-President's"."""
    m = Match(Rules(rounds=2), 6, 2)
    drive(m, stop_after_deal=0)
    order = m.history[0]["finish_order"]
    dealt = [names(m.deal.hand(s)) for s in range(6)]  # hands now, after the gifts
    assert m.pending.seat == order[0]
    d = m.view(order[1]).to_dict()["exchange"]
    assert len(d["received"]) == 1 and set(d["received"]) <= set(dealt[order[1]])
    vice_scum = m.view(order[-2]).to_dict()["exchange"]
    assert vice_scum["gave"] == d["received"]
    assert not set(vice_scum["gave"]) & set(dealt[order[-2]])
