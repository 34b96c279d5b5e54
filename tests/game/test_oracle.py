"""The engine's move generation and judging against an independent brute-force reading of the
rules (oracle.py): every combination of small hands, every option."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.game import Move, Rules

from . import oracle
from .helpers import legal_set, moves

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def situations(draw: st.DrawFn) -> tuple[Rules, list[str], oracle.Combo | None, bool]:
    """A rules object, a small hand drawn from a dense window of cards (so that sets and runs
    occur), a pile made from other cards (or none), and the order in force."""
    rules = Rules(
        jokers=draw(st.integers(0, 2)),
        runs=draw(st.booleans()),
        equal_beats=draw(st.booleans()),
        revolution=draw(st.booleans()),
        eight_stop=draw(st.booleans()),
        runs_above=draw(st.booleans()),
        run_revolution=draw(st.sampled_from([0, 3, 5])),
        spade_three=draw(st.booleans()),
        top_clears=draw(st.booleans()),
        suit_lock=draw(st.booleans()),
        lead_pass=draw(st.booleans()),
        pass_limit=20,
    )
    low = draw(st.integers(0, 8))
    width = draw(st.integers(3, 13 - low))
    suits = draw(st.lists(st.sampled_from(oracle.SUITS), min_size=1, max_size=4, unique=True))
    pool = [oracle.RANKS[r] + s for r in range(low, low + width) for s in suits]
    pool += ["JK"] * rules.jokers
    chosen = draw(st.lists(st.sampled_from(range(len(pool))), max_size=9, unique=True))
    hand = [pool[i] for i in chosen]
    rest = [c for i, c in enumerate(pool) if i not in chosen]
    pile = None
    if rest and draw(st.booleans()):
        candidates = sorted(oracle.combos(rest, rules.runs), key=oracle.Combo.text)
        pile = draw(st.sampled_from(candidates))
    revolution = rules.revolution and draw(st.booleans())
    return rules, hand, pile, revolution


def _lock(rules: Rules, pile: oracle.Combo | None) -> frozenset[str]:
    """With ``suit_lock`` drawn, the pile's own suits as the lock in force (section 12)."""
    if not rules.suit_lock or pile is None or (pile.kind == "set" and not pile.naturals):
        return frozenset()
    return oracle.suits_of(pile, frozenset())


@SETTINGS
@given(situations())
def test_legal_moves_are_exactly_the_combinations_the_rules_allow(
    situation: tuple[Rules, list[str], oracle.Combo | None, bool],
) -> None:
    """Sections 2 and 4: `legal_moves` lists every distinct legal move once, and nothing else."""
    rules, hand, pile, revolution = situation
    pile_move = None if pile is None else Move.parse(pile.text())
    lock = _lock(rules, pile)
    expected = oracle.legal_texts(hand, pile, revolution, rules.runs, rules.equal_beats,
                                  runs_above=rules.runs_above, spade_three=rules.spade_three,
                                  lead_pass=rules.lead_pass, lock=lock)
    found = legal_set(rules.legal_moves(hand, pile_move, revolution, "".join(sorted(lock))))
    missing = sorted(t for t in expected if Move.parse(t) not in found)
    extra = sorted(str(m) for m in found - moves(*expected))
    assert not missing and not extra, (hand, pile and pile.text(), revolution, missing, extra)


@SETTINGS
@given(situations())
def test_beats_clears_and_starts_revolution_agree_with_the_rules(
    situation: tuple[Rules, list[str], oracle.Combo | None, bool],
) -> None:
    """Sections 4, 5 and 6 for every combination of the hand: may it be played on the pile, does
    it clear it, does it start a revolution."""
    rules, hand, pile, revolution = situation
    pile_move = None if pile is None else Move.parse(pile.text())
    for combo in oracle.combos(hand, runs=True):
        m = Move.parse(combo.text())
        assert m.kind == combo.kind and len(m) == combo.size
        assert m.rank == combo.rank
        if combo.kind == "set" or rules.runs:
            lock = _lock(rules, pile)
            expected = oracle.beats(combo, pile, revolution, rules.equal_beats,
                                    runs_above=rules.runs_above, spade_three=rules.spade_three,
                                    lock=lock)
            judged = rules.why_not(m, pile_move, revolution, _mask(lock)) is None
            assert judged is expected, (combo.text(), pile, lock)
        assert rules.clears(m, revolution) is oracle.clears(combo, revolution, rules.eight_stop,
                                                            rules.top_clears)
        assert rules.starts_revolution(m) is oracle.starts_revolution(
            combo, rules.revolution, rules.run_revolution)
        assert oracle.from_text(str(m)) == combo, (str(m), combo)


def _mask(lock: frozenset[str]) -> int:
    return sum(1 << oracle.SUITS.index(s) for s in lock)


def test_the_oracle_itself_on_the_hand_checked_examples() -> None:
    """The oracle agrees with the hand-derived examples of test_combinations.py."""
    assert len(oracle.legal_texts(["5H", "6H", "7H", "JK"], None, False, True, True)) == 15
    assert len(oracle.legal_texts(["5H", "7H", "JK", "JK"], None, False, True, True)) == 11
    assert oracle.legal_texts(["3H", "JK", "JK"], None, False, True, True) == {
        "3H", "JK", "JK JK", "3H JK", "3H JK JK",
    }  # fmt: skip
