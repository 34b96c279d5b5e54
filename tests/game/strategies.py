"""Hypothesis strategies shared by the property and stateful tests."""

from __future__ import annotations

from hypothesis import strategies as st

from arena.game import Rules

EXCHANGES = [(), (1,), (2, 1), (3, 2, 1)]


@st.composite
def any_rules(draw: st.DrawFn, rounds: tuple[int, int] = (1, 3)) -> Rules:
    """Rules with every option drawn."""
    pass_limit = draw(st.sampled_from([0, 0, 6, 20]))
    return Rules(
        runs_above=draw(st.booleans()),
        run_revolution=draw(st.sampled_from([0, 3, 5])),
        suit_lock=draw(st.booleans()),
        spade_three=draw(st.booleans()),
        top_clears=draw(st.booleans()),
        opening_card=draw(st.sampled_from(["3C", "3D", "9S"])),
        scum_leads=draw(st.booleans()),
        lead_pass=bool(pass_limit) and draw(st.booleans()),
        trick_end=draw(st.sampled_from(["others", "all-but-one"])),
        pass_limit=pass_limit,
        exchange_fault=draw(st.sampled_from(["lowest", "highest"])),
        jokers=draw(st.integers(0, 2)),
        runs=draw(st.booleans()),
        equal_beats=draw(st.booleans()),
        pass_is_final=draw(st.booleans()),
        revolution=draw(st.booleans()),
        eight_stop=draw(st.booleans()),
        exchange=list(draw(st.sampled_from(EXCHANGES))),
        rounds=draw(st.integers(*rounds)),
        on_fault=draw(st.sampled_from(["forfeit", "pass"])),
    )


players = st.integers(2, 8)
seeds = st.integers(0, 2**64 - 1)
