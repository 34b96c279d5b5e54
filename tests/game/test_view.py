"""docs/rules.md section 10: what a player sees."""

from __future__ import annotations

import json
import random

from arena.game import Deal, Match, Rules

from .helpers import drive, names, play

THREE = [["3C", "9C", "KC", "5S", "5H"], ["4C", "8C", "QC", "6S"], ["5C", "6C", "7C", "6D", "2D"]]


def _strings(value: object) -> list[str]:
    """Every string (keys and values) anywhere in a JSON-ready structure."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def card_tokens(view_dict: dict) -> set[str]:
    """Every card name written anywhere in a view's mapping (a joker declaration counts), but
    in its rules (whose ``opening_card`` names a card that everybody knows)."""
    out = set()
    for text in _strings({k: v for k, v in view_dict.items() if k != "rules"}):
        for token in text.replace("=", " ").replace(",", " ").split():
            if len(token) == 2 and token[0] in "3456789TJQKA2" and token[1] in "CDHS":
                out.add(token)
    return out


def test_a_player_sees_its_own_hand() -> None:
    """Rule: "Its own hand"."""
    deal = Deal.from_hands(Rules(), THREE, 0)
    for seat in range(3):
        view = deal.view(seat)
        assert view.seat == seat
        assert names(view.hand) == names(deal.hand(seat)) == sorted(THREE[seat])
        assert sorted(view.to_dict()["hand"]) == sorted(THREE[seat])
        assert view.to_dict()["seat"] == seat


def test_a_player_sees_every_players_card_count_out_and_passed_since_the_last_play() -> None:
    """Rule: "every player's card count, ... whether they are out, whether they have passed since
    the last play"."""
    deal = Deal.from_hands(Rules(), [["3C", "9C", "KC"], ["4C"], ["5C", "6C", "7C"]], 0)
    play(deal, "3C", "4C", "pass")
    players = deal.view(0).to_dict()["players"]
    assert [p["cards"] for p in players] == [2, 0, 3]
    assert [p["out"] for p in players] == [False, True, False]
    assert players[2]["passed"] is True and players[0]["passed"] is False
    deal.play("9C")
    players = deal.view(2).to_dict()["players"]
    assert [p["passed"] for p in players] == [False, False, False]  # a play resets "passed"
    assert not deal.finished
    assert list(deal.view(1).counts) == [1, 0, 3]


def test_with_pass_is_final_a_player_sees_who_sits_out_this_trick() -> None:
    """Rule: "(with `pass_is_final`) whether they sit out this trick"."""
    deal = Deal.from_hands(Rules(pass_is_final=True), THREE, 0)
    play(deal, "3C", "pass", "5C")
    for seat in range(3):
        players = deal.view(seat).to_dict()["players"]
        assert [p["sat_out"] for p in players] == [False, True, False]
    play(deal, "9C", "pass")  # trick over
    players = deal.view(1).to_dict()["players"]
    assert [p["sat_out"] for p in players] == [False, False, False]


def test_a_player_sees_every_players_role_and_score() -> None:
    """Rule: "every player's ... role, score"."""
    m = Match(Rules(rounds=2), 4, 13)
    drive(m, stop_after_deal=0)
    drive_exchange = m.pending
    assert drive_exchange.kind == "exchange"
    order = m.history[0]["finish_order"]
    for seat in range(4):
        players = m.view(seat).to_dict()["players"]
        assert [p["score"] for p in players] == list(m.scores) == m.history[0]["points"]
        roles = [p["role"] for p in players]
        assert roles[order[0]] == "president" and roles[order[-1]] == "scum"
        assert roles[order[1]] == "vice-president" and roles[order[-2]] == "vice-scum"


def test_a_player_sees_the_pile_and_the_plays_of_the_current_trick() -> None:
    """Rule: "the pile (the combination on top and the plays of the current trick)"."""
    deal = Deal.from_hands(Rules(), THREE, 0)
    play(deal, "3C", "4C", "pass", "9C")
    d = deal.view(1).to_dict()
    assert d["pile"] == "9C"
    assert [(t["seat"], t["move"]) for t in d["trick"] if t["move"] != "pass"] == [
        (0, "3C"),
        (1, "4C"),
        (0, "9C"),
    ]
    play(deal, "pass", "pass")  # the trick ends
    d = deal.view(1).to_dict()
    assert d["pile"] is None
    assert [t for t in d["trick"] if t["move"] != "pass"] == []


def test_a_player_sees_every_public_play_of_the_deal_so_far() -> None:
    """Rule: "every public play of the deal so far"."""
    deal = Deal.from_hands(Rules(), THREE, 0)
    script = ["3C", "4C", "pass", "9C", "pass", "pass", "5H 5S", "pass", "6C 6D"]
    play(deal, *script)
    expected = [(s, str(m)) for s, m in deal.moves]
    assert len(expected) == len(script)
    for seat in range(3):
        plays = deal.view(seat).to_dict()["plays"]
        assert [(p["seat"], p["move"]) for p in plays] == expected


def test_a_player_sees_the_finishing_order_so_far_and_whether_a_revolution_is_in_force() -> None:
    """Rule: "the finishing order so far; whether a revolution is in force"."""
    r = Rules(revolution=True)
    deal = Deal.from_hands(
        r, [["4C"], ["5C", "5D", "5H", "5S", "9C"], ["6C", "6D", "KC", "KD", "QS"]], 0
    )
    play(deal, "4C")
    assert deal.view(2).to_dict()["finish_order"] == [0]
    assert deal.view(2).to_dict()["revolution"] is False
    play(deal, "pass", "pass")  # the trick ends; seat 0 is out, seat 1 leads
    play(deal, "5C 5D 5H 5S")
    assert all(deal.view(s).to_dict()["revolution"] is True for s in range(3))
    assert deal.view(1).revolution is True


def test_a_player_sees_the_rules_the_deal_number_and_its_seat() -> None:
    """Rule: "the match's rules, deal number and seat"."""
    r = Rules(runs=True, jokers=1, rounds=3, points=[5, 2, 0])
    m = Match(r, 3, 44)
    drive(m, stop_after_deal=1)
    for seat in range(3):
        d = m.view(seat).to_dict()
        assert d["rules"] == r.to_dict()
        assert d["deal"] == 2
        assert d["seat"] == seat
        json.dumps(d)


def test_in_an_exchange_a_player_sees_the_cards_it_gave_and_received() -> None:
    """Rule: "in an exchange, the cards it gave and received"."""
    m = Match(Rules(rounds=2), 4, 15)
    drive(m, stop_after_deal=0)
    order = m.history[0]["finish_order"]
    pres, scum = order[0], order[-1]
    pres_view = m.view(pres).to_dict()["exchange"]
    scum_view = m.view(scum).to_dict()["exchange"]
    assert pres_view["gave"] == [] and len(pres_view["received"]) == 2
    assert sorted(scum_view["gave"]) == sorted(pres_view["received"])
    back = names(m.view(pres).hand)[:2]
    m.give(back)
    m.give(names(m.view(order[1]).hand)[:1])
    assert sorted(m.view(pres).to_dict()["exchange"]["gave"]) == back
    assert sorted(m.view(scum).to_dict()["exchange"]["received"]) == back
    neutral = m.view(order[1]).to_dict()["exchange"]
    assert len(neutral["gave"]) == 1 and len(neutral["received"]) == 1


def test_a_player_never_sees_another_players_cards() -> None:
    """Rule: "Never another player's cards."""
    for seed in range(6):
        r = Rules(jokers=2, runs=True, revolution=True, rounds=2)
        n = 4 + seed % 2  # with 5 players one seat takes no part in the exchange
        m = Match(r, n, seed)
        steps = 0
        while m.pending is not None and steps < 400:
            steps += 1
            decision = m.pending
            for seat in range(n):
                d = m.view(seat).to_dict()
                json.dumps(d)
                mine = set(names(m.deal.hand(seat)))
                public = card_tokens({"plays": [str(mv) for _, mv in m.deal.moves]})
                exchange = d["exchange"] or {"gave": [], "received": []}
                allowed = mine | public | set(exchange["gave"]) | set(exchange["received"])
                hidden = {str(c) for s in range(n) if s != seat for c in m.deal.hand(s)}
                leaked = (card_tokens(d) - allowed) & hidden
                assert not leaked, (seed, seat, leaked)
            if decision.kind == "exchange":
                m.give(names(m.view(decision.seat).hand)[: decision.count])
            else:
                m.play(m.view(decision.seat).legal_moves()[0])


def test_the_view_lists_the_legal_moves_of_the_seat_to_move() -> None:
    """A view serves the seat's decision: `view.legal_moves()` are the deal's legal moves."""
    deal = Deal.from_hands(Rules(), THREE, 0)
    play(deal, "3C")
    assert set(deal.view(1).legal_moves()) == set(deal.legal_moves())
    assert deal.view(1).to_dict()["to_move"] == 1


def test_the_view_attributes_say_what_its_mapping_says() -> None:
    """`View` attributes and `view.to_dict()` show the same things (section 10's list)."""
    r = Rules(pass_is_final=True, revolution=True)
    deal = Deal.from_hands(r, THREE, 0)
    play(deal, "3C", "pass", "5C")
    for seat in range(3):
        view = deal.view(seat)
        d = view.to_dict()
        players = d["players"]
        assert view.seat == d["seat"] == seat
        assert [str(c) for c in view.hand] == d["hand"]
        assert list(view.counts) == [p["cards"] for p in players]
        assert list(view.passed) == [p["passed"] for p in players]
        assert list(view.sat_out) == [p["sat_out"] for p in players]
        assert list(view.out) == [p["out"] for p in players]
        assert str(view.pile) == d["pile"] == "5C"
        assert view.revolution is d["revolution"] is False
        assert view.to_move == d["to_move"] == 0
        assert view.rules == r and view.players == 3
        assert [(s, str(m)) for s, m in view.plays] == [(p["seat"], p["move"]) for p in d["plays"]]
        assert [(s, str(m)) for s, m in view.trick] == [(p["seat"], p["move"]) for p in d["trick"]]
        assert list(view.finish_order) == d["finish_order"]
        assert view.leading is False
    deal.play("9C")
    deal.play("pass")  # the trick ends: seat 0 leads
    assert deal.view(0).leading is True


def test_a_finished_deals_result_shows_a_player_no_other_hand() -> None:
    """Rule: "Never another player's cards": `Match.result_for(seat)`, how a finished deal is told
    to a player, holds the public record and only the seat's own dealt hand and exchanges."""
    for seed in range(4):
        n = 4 + seed % 2
        m = Match(Rules(rounds=3, jokers=2, runs=True, on_fault="forfeit"), n, seed)
        rng = random.Random(seed)
        while m.pending is not None:
            decision = m.pending
            if rng.random() < 0.01:
                m.fault("crash", "the bot said 2S 2H")
            elif decision.kind == "exchange":
                m.give(names(m.view(decision.seat).hand)[: decision.count])
            else:
                m.play(rng.choice(m.view(decision.seat).legal_moves()))
        totals = [0] * n
        for number, entry in enumerate(m.history):
            totals = [t + p for t, p in zip(totals, entry["points"], strict=True)]
            public = card_tokens({"moves": [mv["move"] for mv in entry["moves"]]})
            for seat in range(n):
                result = m.result_for(seat, number)
                json.dumps(result)
                assert result["hand"] == entry["hands"][seat]
                assert result["finish_order"] == entry["finish_order"]
                assert result["points"] == entry["points"]
                assert result["moves"] == [{"seat": mv["seat"], "move": mv["move"]}
                                           for mv in entry["moves"]]  # fmt: skip
                assert result["scores"] == totals
                own = [e for e in entry["exchanges"] if seat in (e["from"], e["to"])]
                assert result["exchanges"] == own
                allowed = set(entry["hands"][seat]) | public
                allowed |= {c for e in own for c in e["cards"]}
                assert not card_tokens(result) - allowed, (seed, number, seat)
        assert m.result_for(0) == m.result_for(0, len(m.history) - 1)


def test_the_hand_as_text_is_the_sorted_cards_and_reads_back_as_the_same_hand() -> None:
    rules = Rules(jokers=2)
    rng = random.Random(4)
    for seed in range(20):
        deal = Deal.new(rules, 4, seed)
        while not deal.finished:
            view = deal.view(deal.to_move or 0)
            assert view.hand_text == " ".join(str(card) for card in view.hand)
            copy = type(view).from_state(
                rules, view.seat, view.number, hand=view.hand_text, to_move=view.to_move,
                pile=view.pile, revolution=view.revolution, counts=view.counts,
                passed=view.passed, sat_out=view.sat_out, trick=view.trick, plays=view.plays,
                places=view.places, roles=view.roles, scores=view.scores)
            assert copy.hand == view.hand
            deal.play(rng.choice(deal.legal_moves()))


def test_a_deals_view_sets_every_field_a_view_has_as_its_constructor_would() -> None:
    # Deal.view makes its views without calling View's constructor (it runs at every
    # decision): every field must still be set, to what the constructor makes of the parts.
    from arena.game import View

    rules = Rules.preset("runs")
    rng = random.Random(9)
    match = Match(rules, 4, 21)
    seen = 0
    # The fields: its __slots__, or, compiled by mypyc (which keeps no __slots__), the
    # attributes mypyc lists.
    names = getattr(View, "__slots__", None) or View.__mypyc_attrs__
    assert "_nplays" in names and "_exchange" in names
    while not match.finished:
        decision = match.pending
        assert decision is not None
        view = match.view(decision.seat)
        fields = {name: getattr(view, name) for name in names}  # none unset
        rebuilt = View.from_state(
            rules, view.seat, view.number, hand=view.hand_text, to_move=view.to_move,
            pile=view.pile, revolution=view.revolution, counts=view.counts,
            passed=view.passed, sat_out=view.sat_out, trick=view.trick, plays=view.plays,
            places=view.places, roles=view.roles, scores=view.scores,
            exchange=(view.gave, view.received) if view.gave or view.received else None)
        assert view.to_dict() == rebuilt.to_dict()
        assert view.legal_moves() == rebuilt.legal_moves()
        assert fields["_nplays"] == len(view.plays) and fields["_ntrick"] == len(view.trick)
        seen += bool(view.gave)
        if decision.kind == "play":
            match.play(rng.choice(view.legal_moves()))
        else:
            match.give(rng.sample(view.hand, decision.count))
    assert seen
