"""Hypothesis property tests over whole deals and matches with every option combination."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.game import Deal, IllegalMove, Match, Move, Rules

from .helpers import FULL_DECK, names, played_cards, snapshot
from .strategies import any_rules, players, seeds

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _random_moves(deal: Deal, rng: random.Random, limit: int) -> list[Move]:
    played = []
    while not deal.finished and len(played) < limit:
        m = rng.choice(deal.legal_moves())
        deal.play(m)
        played.append(m)
    return played


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False))
def test_random_deals_terminate_with_a_full_finishing_order_and_conserve_cards(
    rules: Rules, n: int, seed: int, rng: random.Random
) -> None:
    """Section 3: every deal ends ("when one player is left holding cards, they take last place
    and the deal ends") with every seat in the finishing order; no card appears or vanishes."""
    deal = Deal.new(rules, n, seed)
    dealt = Counter(str(c) for s in range(n) for c in deal.hand(s))
    steps = 0
    while not deal.finished:
        steps += 1
        assert steps < 5000
        deal.play(rng.choice(deal.legal_moves()))
        held = Counter(str(c) for s in range(n) for c in deal.hand(s))
        assert held + played_cards(deal) == dealt
    assert sorted(deal.finish_order) == list(range(n))
    limit = rules.pass_limit
    if limit and len(deal.moves) >= limit and all(
            m.kind == "pass" for _, m in deal.moves[-limit:]):
        return  # section 12: pass_limit ended the deal, its holders keep their cards
    last = deal.finish_order[-1]
    assert all(not deal.hand(s) for s in deal.finish_order[:-1])
    assert Counter(str(c) for c in deal.hand(last)) + played_cards(deal) == dealt


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False))
def test_a_deal_replayed_from_its_seed_and_move_list_ends_in_the_same_state(
    rules: Rules, n: int, seed: int, rng: random.Random
) -> None:
    """Section 3: "Every move is recorded": the seed and the moves reproduce the deal."""
    deal = Deal.new(rules, n, seed)
    _random_moves(deal, rng, rng.randrange(1, 400))
    again = Deal.new(rules, n, seed)
    for seat, m in deal.moves:
        assert again.to_move == seat
        again.play(str(m))
    assert snapshot(again, n) == snapshot(deal, n)


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False))
def test_copy_is_independent(rules: Rules, n: int, seed: int, rng: random.Random) -> None:
    """`deal.copy()` is independent: a copy played to the end leaves the original unchanged."""
    deal = Deal.new(rules, n, seed)
    _random_moves(deal, rng, rng.randrange(0, 60))
    before = snapshot(deal, n)
    twin = deal.copy()
    _random_moves(twin, rng, 10_000)
    assert twin.finished
    assert snapshot(deal, n) == before
    _random_moves(deal, rng, 3)
    assert twin.finished and sorted(twin.finish_order) == list(range(n))


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False), st.data())
def test_views_are_identical_when_only_other_players_hidden_cards_differ(
    rules: Rules, n: int, seed: int, rng: random.Random, data: st.DataObject
) -> None:
    """Section 10: a view holds "never another player's cards": two deals that differ only in the
    cards other players still hide give the same `view(seat).to_dict()` at every step."""
    dealt = Deal.new(rules, n, seed)
    hands = [names(dealt.hand(s)) for s in range(n)]
    leader = dealt.to_move
    assert leader is not None
    seat = data.draw(st.integers(0, n - 1), label="observer")
    # play a random sequence, noting which cards each seat shows
    probe = Deal.from_hands(rules, hands, leader)
    script = _random_moves(probe, rng, rng.randrange(0, 300))
    shown: list[Counter[str]] = [Counter() for _ in range(n)]
    for s, m in probe.moves:
        shown[s].update(str(c) for c in m.cards)
    # deal the cards the other seats never show among them at random, keeping their counts
    hidden = {s: list((Counter(hands[s]) - shown[s]).elements()) for s in range(n) if s != seat}
    pool = [c for cards in hidden.values() for c in cards]
    rng.shuffle(pool)
    other = [list(h) for h in hands]
    for s, cards in hidden.items():
        other[s] = list((shown[s]).elements()) + pool[: len(cards)]
        pool = pool[len(cards) :]
    a = Deal.from_hands(rules, hands, leader)
    b = Deal.from_hands(rules, other, leader)
    assert a.view(seat).to_dict() == b.view(seat).to_dict()
    for m in script:
        a.play(m)
        b.play(m)
        da, db = a.view(seat).to_dict(), b.view(seat).to_dict()
        assert da == db
        assert json.dumps(da, sort_keys=True) == json.dumps(db, sort_keys=True)
        assert set(a.view(seat).legal_moves()) == set(b.view(seat).legal_moves())


def _match_state(m: Match) -> str:
    return json.dumps(
        [str(m.pending), m.deal_number, [m.view(s).to_dict() for s in range(m.players)]]
    )


def _try_an_illegal_answer(m: Match, rng: random.Random) -> None:
    """An answer that does not fit the pending decision raises IllegalMove and changes nothing."""
    decision = m.pending
    hand = [str(c) for c in m.view(decision.seat).hand]
    before = _match_state(m)
    if decision.kind == "exchange":
        wrong = rng.sample(hand, min(len(hand), decision.count + 1)) if rng.random() < 0.5 else []
        attempts = [lambda: m.give(wrong), lambda: m.play("pass")]
    else:
        cards = rng.sample(hand, min(len(hand), rng.randrange(1, 4))) + rng.sample(FULL_DECK, 1)
        text = " ".join(cards)
        attempts = [lambda: m.give(hand[:1])]
        try:
            parsed = Move.parse(text)
        except ValueError:
            parsed = None
        if parsed is None or parsed not in m.view(decision.seat).legal_moves():
            attempts.append(lambda: m.play(text))
    for attempt in attempts:
        try:
            attempt()
        except IllegalMove as exc:
            assert str(exc)
        else:
            raise AssertionError("an illegal answer was accepted")
        assert _match_state(m) == before


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_rules(rounds=(1, 4)), players, seeds, st.randoms(use_true_random=False))
def test_random_matches_with_faults_finish_and_score_every_deal(
    rules: Rules, n: int, seed: int, rng: random.Random
) -> None:
    """Sections 7-9: a match of any options, with random returns, moves and faults, plays its
    `rounds` deals; scores are the sums of the points by place; roles follow the finishing
    orders; the exchange gifts are the givers' highest cards."""
    m = Match(rules, n, seed)
    steps = 0
    while m.pending is not None:
        steps += 1
        assert steps < 20_000
        decision = m.pending
        view = m.view(decision.seat)
        if rng.random() < 0.1:
            _try_an_illegal_answer(m, rng)
        if rng.random() < 0.03:
            m.fault(rng.choice(["timeout", "crash", "illegal", "malformed"]))
        elif decision.kind == "exchange":
            m.give([str(c) for c in rng.sample(list(view.hand), decision.count)])
        else:
            m.play(rng.choice(view.legal_moves()))
    assert m.finished and len(m.history) == rules.rounds
    points = rules.points_for(n)
    totals = [0] * n
    for d, record in enumerate(m.history):
        assert record["deal"] == d
        order = record["finish_order"]
        assert sorted(order) == list(range(n))
        for place, s in enumerate(order):
            assert record["points"][s] == points[place]
            totals[s] += points[place]
        assert sum(len(h) for h in record["hands"]) == 52 + rules.jokers
        if d:
            prev = m.history[d - 1]["finish_order"]
            assert record["roles"][prev[0]] == "president"
            assert record["roles"][prev[-1]] == "scum"
            if rules.scum_leads:
                assert record["leader"] == prev[-1]
    assert list(m.scores) == totals
    json.dumps(m.history)


def _state(deal: Deal, n: int) -> dict[str, object]:
    return {
        "hands": [names(deal.hand(s)) for s in range(n)],
        "to_move": deal.to_move,
        "pile": None if deal.pile is None else str(deal.pile),
        "revolution": deal.revolution,
        "finish_order": list(deal.finish_order),
        "finished": deal.finished,
        "legal": sorted(str(m) for m in deal.legal_moves()),
        "players": [deal.view(s).to_dict()["players"] for s in range(n)],
    }


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False), st.data())
def test_a_deal_rebuilt_from_a_view_and_the_true_hands_plays_on_like_the_original(
    rules: Rules, n: int, seed: int, rng: random.Random, data: st.DataObject
) -> None:
    """`Deal.from_view(view, hands)` (what a bot simulates with): given the hidden hands as they
    are, the rebuilt deal is in the same state and continues exactly like the original."""
    deal = Deal.new(rules, n, seed)
    _random_moves(deal, rng, rng.randrange(0, 120))
    if not deal.finished and rng.random() < 0.3:
        deal.forfeit(rng.choice([s for s in range(n) if deal.hand(s)]))
    seat = data.draw(st.integers(0, n - 1), label="seat")
    rebuilt = Deal.from_view(deal.view(seat), [deal.hand(s) for s in range(n)])
    assert _state(rebuilt, n) == _state(deal, n)
    assert rebuilt.view(seat).to_dict() == deal.view(seat).to_dict()
    while not deal.finished:
        m = rng.choice(deal.legal_moves())
        decided = list(deal.finish_order)
        deal.play(m)
        rebuilt.play(m)
        ours, theirs = _state(rebuilt, n), _state(deal, n)
        if deal.finished and _drawn(deal, rules):
            # section 12: the pass_limit draw comes from the deal's seed, which no view shows;
            # the places decided before it (a forfeit's worst place included) stay the same
            mine, other = ours.pop("finish_order"), theirs.pop("finish_order")
            assert [mine.index(s) for s in decided] == [other.index(s) for s in decided]
            assert sorted(mine) == sorted(other)
        assert ours == theirs


def _drawn(deal: Deal, rules: Rules) -> bool:
    """Whether the deal ended by ``pass_limit`` passes in a row."""
    limit = rules.pass_limit
    return bool(limit) and len(deal.moves) >= limit and all(
        m.kind == "pass" for _, m in deal.moves[-limit:])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_rules(rounds=(1, 3)), players, seeds, st.randoms(use_true_random=False))
def test_a_match_replays_from_its_seed_and_answers_and_its_history_replays_deal_by_deal(
    rules: Rules, n: int, seed: int, rng: random.Random
) -> None:
    """Section 3, "every move is recorded", and section 9, "every fault is recorded": the same
    seed and answers give the same match, and each history entry (dealt hands, exchanges,
    leader, moves, forfeits) replays to its finishing order."""
    m = Match(rules, n, seed)
    answers: list[tuple[str, object]] = []
    while m.pending is not None:
        decision = m.pending
        view = m.view(decision.seat)
        if rng.random() < 0.02:
            kind = rng.choice(["timeout", "crash", "illegal", "malformed"])
            m.fault(kind)
            answers.append(("fault", kind))
        elif decision.kind == "exchange":
            back = [str(c) for c in rng.sample(list(view.hand), decision.count)]
            m.give(back)
            answers.append(("give", back))
        else:
            move = rng.choice(view.legal_moves())
            m.play(move)
            answers.append(("play", str(move)))
    again = Match(rules, n, seed)
    for kind, answer in answers:
        if kind == "fault":
            again.fault(answer)  # type: ignore[arg-type]
        elif kind == "give":
            again.give(answer)  # type: ignore[arg-type]
        else:
            again.play(answer)  # type: ignore[arg-type]
    assert again.finished
    assert json.dumps(again.history) == json.dumps(m.history)
    assert again.scores == m.scores and again.ranking() == m.ranking()
    for record in m.history:
        hands = [Counter(h) for h in record["hands"]]
        for e in record["exchanges"]:
            hands[e["from"]] -= Counter(e["cards"])
            hands[e["to"]] += Counter(e["cards"])
        deal = Deal.from_hands(rules, [list(h.elements()) for h in hands], record["leader"],
                               record["seed"])
        forfeits = record.get("forfeits", [])
        for index, step in enumerate(record["moves"]):
            for f in forfeits:
                if f["move"] == index and deal.hand(f["seat"]):
                    deal.forfeit(f["seat"])
            assert deal.to_move == step["seat"]
            deal.play(step["move"])
        for f in forfeits:
            if f["move"] == len(record["moves"]) and not deal.finished:
                deal.forfeit(f["seat"])
        assert deal.finished and deal.finish_order == record["finish_order"]


@SETTINGS
@given(any_rules(), players, seeds, st.randoms(use_true_random=False), st.data())
def test_a_view_rebuilt_from_its_parts_is_the_same_view(
    rules: Rules, n: int, seed: int, rng: random.Random, data: st.DataObject
) -> None:
    """`View.from_state` (how a bot in another process gets its view back) gives a view equal to
    the original: same mapping, same legal moves, whether the hand is cards or one string."""
    from arena.game import View

    deal = Deal.new(rules, n, seed)
    _random_moves(deal, rng, rng.randrange(0, 150))
    seat = data.draw(st.integers(0, n - 1), label="seat")
    view = deal.view(seat)
    for hand in (list(view.hand), " ".join(str(c) for c in view.hand)):
        rebuilt = View.from_state(
            view.rules,
            view.seat,
            view.number,
            hand=hand,
            to_move=view.to_move,
            pile=view.pile,
            revolution=view.revolution,
            counts=view.counts,
            passed=view.passed,
            sat_out=view.sat_out,
            trick=view.trick,
            plays=view.plays,
            places=view.places,
            roles=view.roles,
            scores=view.scores,
        )
        assert rebuilt.to_dict() == view.to_dict()
        assert set(rebuilt.legal_moves()) == set(view.legal_moves())
        if deal.to_move == seat:
            assert set(rebuilt.legal_moves()) == set(deal.legal_moves())
