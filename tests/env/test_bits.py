"""The flags of an observation (arena/env/_bits.py) and their twin in C (_bits.c, built where
the install compiles the engine) give the same bytes and refuse the same input."""

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
TWINS = [REFERENCE, installed] if installed.__file__ != str(SOURCE) else [REFERENCE]


def _c_twin() -> ModuleType:
    if installed.__file__ == str(SOURCE):
        pytest.skip("the C twin of arena/env/_bits.py is not built here (pure engine)")
    return installed


@pytest.mark.parametrize("twin", TWINS, ids=lambda m: Path(m.__file__ or "").suffix)
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1200).flatmap(lambda n: st.tuples(st.integers(0, 2**n - 1),
                                                         st.just(n))))
def test_bit_i_is_byte_i(twin: ModuleType, case: tuple[int, int]) -> None:
    bits, n = case
    out = twin.flags(bits, n)
    assert bytes(out) == bytes((bits >> i) & 1 for i in range(n))
    assert not memoryview(out).readonly  # the observation over it may be written


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1200).flatmap(lambda n: st.tuples(st.integers(0, 2**(n + 8) - 1),
                                                         st.just(n))))
def test_the_twins_agree(case: tuple[int, int]) -> None:
    c = _c_twin()
    bits, n = case
    try:
        expected: object = bytes(REFERENCE.flags(bits, n))
    except OverflowError as error:
        expected = (OverflowError, str(error))
        with pytest.raises(OverflowError) as raised:
            c.flags(bits, n)
        assert (OverflowError, str(raised.value)) == expected
        return
    assert bytes(c.flags(bits, n)) == expected


@pytest.mark.parametrize("bits, n, error", [(-1, 8, OverflowError), (256, 8, OverflowError),
                                             (1, -1, ValueError), (2**600, 587, OverflowError)])
@pytest.mark.parametrize("twin", TWINS, ids=lambda m: Path(m.__file__ or "").suffix)
def test_bad_input_is_refused(twin: ModuleType, bits: int, n: int,
                              error: type[Exception]) -> None:
    with pytest.raises(error):
        twin.flags(bits, n)
