"""The flags of an observation (arena/env/_bits.py) and their twin in C (_bits.c, built where
the install compiles the engine) give the same bytes and refuse the same input alike."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="the extra 'env' (numpy) is not installed")

import arena.env._bits as installed  # the C twin where it was built

SOURCE = Path(__file__).resolve().parents[2] / "arena" / "env" / "_bits.py"


def _reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arena_env_bits_reference", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REFERENCE = _reference()
BUILT = installed.__file__ != str(SOURCE)
TWINS = [REFERENCE, installed] if BUILT else [REFERENCE]
IDS = ["python", "c"] if BUILT else ["python"]

# Pieces as the encoding makes them (most of a machine word or less) and wider ones, zero,
# and now and then a negative one; offsets anywhere near the flags, a few past them.
PIECES = st.one_of(st.just(0), st.integers(0, 2**63 - 1), st.integers(0, 2**200),
                   st.integers(-3, -1))
CASES = st.integers(0, 700).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(-1, n + 2), PIECES), max_size=16)))


def _answer(module: ModuleType, n: int, offsets: list[int], pieces: list[int]) -> object:
    try:
        return bytes(module.compose(n, offsets, pieces))
    except (ValueError, TypeError) as error:
        return (type(error).__name__, str(error))


def _expected(n: int, offsets: list[int], pieces: list[int]) -> bytes:
    flags = bytearray(n)
    for offset, piece in zip(offsets, pieces, strict=True):
        for j in range(piece.bit_length()):
            if piece >> j & 1:
                flags[offset + j] = 1
    return bytes(flags)


@pytest.mark.parametrize("twin", TWINS, ids=IDS)
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 700).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.integers(0, n).flatmap(lambda at: st.tuples(st.just(at),
                                                    st.integers(0, 2**(n - at) - 1))),
    max_size=16))))
def test_each_bit_of_a_piece_sets_its_flag(twin: ModuleType,
                                            case: tuple[int, list[tuple[int, int]]]) -> None:
    n, laid = case
    offsets, pieces = [at for at, _ in laid], [piece for _, piece in laid]
    out = twin.compose(n, tuple(offsets), pieces)
    assert out.dtype == "int8" and out.shape == (n,)
    assert bytes(out) == _expected(n, offsets, pieces)
    assert not memoryview(out).readonly  # the observation over it may be written


@pytest.mark.parametrize("twin", TWINS, ids=IDS)
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 700).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, n - 1), max_size=40))))
def test_one_int_is_laid_at_every_offset(twin: ModuleType, case: tuple[int, list[int]]) -> None:
    n, offsets = case  # the legal-action mask: a 1 at each legal action
    out = twin.compose(n, offsets, 1)
    assert out.dtype == "int8" and out.shape == (n,)
    assert bytes(out) == _expected(n, offsets, [1] * len(offsets))


@settings(max_examples=500, deadline=None)
@given(CASES)
def test_the_twins_agree_on_any_input(case: tuple[int, list[tuple[int, int]]]) -> None:
    if not BUILT:
        pytest.skip("the C twin of arena/env/_bits.py is not built here (pure engine)")
    n, laid = case
    offsets, pieces = [at for at, _ in laid], [piece for _, piece in laid]
    assert _answer(installed, n, offsets, pieces) == _answer(REFERENCE, n, offsets, pieces)


@pytest.mark.parametrize("args, error", [
    ((-1, (), []), "a count of flags is not negative, not -1"),
    ((8, (0,), [1, 2]), "1 offsets for 2 pieces"),
    ((8, (-1,), [1]), "a piece and its offset are not negative, not 1 at -1"),
    ((8, (0,), [-5]), "a piece and its offset are not negative, not -5 at 0"),
    ((8, (0,), [256]), "a piece at 0 has a bit past flag 8"),
    ((600, (10,), [2**590]), "a piece at 10 has a bit past flag 600"),
    ((8, (0,), ["1"]), "compose(): offsets and pieces are ints"),
    ((8, (0, 9), 1), "a piece at 9 has a bit past flag 8"),
    ((8, (-2,), 1), "a piece and its offset are not negative, not 1 at -2"),
])
@pytest.mark.parametrize("twin", TWINS, ids=IDS)
def test_bad_input_is_refused_in_words(twin: ModuleType, args: tuple[object, ...],
                                       error: str) -> None:
    with pytest.raises((ValueError, TypeError)) as raised:
        twin.compose(*args)
    assert str(raised.value) == error
