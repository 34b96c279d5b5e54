"""Every reader of records skips a malformed line with a warning and never raises: the
records reader, ``arena ratings`` (its fast reader and the plain one alike), the report and
``arena show``. Lines are real records with one value replaced anywhere by anything a JSON
line can hold (a seat of 99 or -1, an integer of 400 digits, ``true``, a list...), plus
lines nested too deeply to decode."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from arena.cli import main
from arena.cli._show import print_match
from arena.game import Rules
from arena.ratings import Results, read_many
from arena.ratings._scan import read_results
from arena.records import SUMMARY, parse_record, parse_summary, read_records
from arena.referee import Limits, MatchSpec, Seat, run_match
from arena.report import write_report

GOOD = run_match(MatchSpec(
    match_id="good", seed=11, rules=Rules.preset("standard", rounds=2), limits=Limits(),
    seats=(Seat(label="greedy", name="greedy"), Seat(label="random", name="random"),
           Seat(label="lowest", name="lowest"))))

NESTED = ["[" * 100_000 + "]" * 100_000, '{"schema": 2, "x": ' + "[" * 50_000 + "]" * 50_000 + "}"]

ODD = st.sampled_from([-1, 3, 99, 10**400, -(10**400), True, False, None, 1.5, 1e300, "x",
                       "", [], {}, [0, 0, 0], [99], [-1, 0, 1], {"seat": 99}])
JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=8)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def replaced(record: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(record))
    place = copy
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return copy


PLACES = [p for p in paths(GOOD) if p and p[0] not in ("rules", "limits")] + [
    ("rules",), ("limits",), ("rules", "jokers"), ("rules", "exchange")]


def check_every_reader(tmp_path: Path, line: str, *, commands: bool = True) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + line + "\n", encoding="utf-8")
    heard: list[str] = []
    records = list(read_records(path, on_skip=heard.append))
    assert records[0] == GOOD
    assert len(records) + len(heard) == 2  # the line is read or skipped with one message
    assert all(message.startswith(f"{path}:2: ") for message in heard)
    # the server's summary of a line (arena.web) takes exactly what the records reader does
    whole = parse_record(line.encode())
    assert parse_summary(line.encode()) == (whole if isinstance(whole, str) else {
        **{key: whole.get(key) for key in SUMMARY},
        "seats": [{"label": s.get("label"), "name": s.get("name")}
                  for s in whole.get("seats") or ()]})

    plain = Results()
    plain.extend(read_many([path], lambda message: None))
    fast = read_results([path], lambda message: None)
    # the fast reader takes exactly what the plain one does
    assert (fast.matches, len(fast), fast.skipped) == (plain.matches, len(plain), plain.skipped)

    console = Console(file=io.StringIO(), width=100)
    for record in records:
        if record.get("type", "match") == "match":
            print_match(console, record)
    write_report(tmp_path, resamples=20)
    if not commands:
        return
    result = CliRunner().invoke(main, ["ratings", str(path)])
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "Traceback" not in result.stderr


@settings(max_examples=int(os.environ.get("ARENA_EXAMPLES", "40")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_line_with_any_value_replaced_never_makes_a_reader_raise(
        tmp_path: Path, data: st.DataObject) -> None:
    place = data.draw(st.sampled_from(PLACES), label="place")
    value = data.draw(ODD | JSON, label="value")
    check_every_reader(tmp_path, json.dumps(replaced(GOOD, place, value)), commands=False)


@pytest.mark.parametrize(("place", "value"), [
    (("deals", 0, "movers", 0), 99),          # seat 99: an IndexError in show and the report
    (("ranking",), [99, 0, 1]),               # a ranking entry out of range
    (("deals", 0, "movers", 0), 10**400),     # an integer of 400 digits
    (("deals", 0, "movers", 0), -1),          # a negative seat, silently another seat
    (("deals", 0, "movers", 0), True),        # a boolean, equal to seat 1 but no seat
    (("deals", 0, "movers", 0), 1.0),         # a number that is no whole seat
    (("deals", 0, "finish_order"), [-1, 0, 1]),
    (("deals", 1, "leader"), 10**400),
    (("deals", 0, "faults"), [{"seat": -1, "kind": "crash", "detail": "x"}]),
])
def test_a_seat_out_of_range_is_skipped_with_a_warning_naming_the_line(
        tmp_path: Path, place: tuple[Any, ...], value: Any) -> None:
    line = json.dumps(replaced(GOOD, place, value))
    heard: list[str] = []
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    assert list(read_records(path, on_skip=heard.append)) == []
    (message,) = heard
    assert message.startswith(f"{path}:1: not a record (")
    check_every_reader(tmp_path, line)


@pytest.mark.parametrize("line", NESTED, ids=["array", "object"])
def test_a_line_nested_too_deeply_is_skipped_by_every_reader(tmp_path: Path, line: str) -> None:
    heard: list[str] = []
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    assert list(read_records(path, on_skip=heard.append)) == []
    assert heard == [f"{path}:1: not a record (nested too deeply); skipped"]
    check_every_reader(tmp_path, line)


def test_show_and_report_warn_once_per_bad_line_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    bad = [json.dumps(replaced(GOOD, ("deals", 0, "movers", 0), 99)), NESTED[0]]
    path.write_text("\n".join([*bad, json.dumps(GOOD)]) + "\n", encoding="utf-8")
    for args in (["show", str(path), "good"], ["report", str(tmp_path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
        assert len(warnings) == 2 and "Traceback" not in result.stderr


@pytest.mark.parametrize("odd", ["NaN", "Infinity", '"\\ud800"', str(2**70), "1e400"])
def test_a_line_json_reads_and_the_fast_decoder_refuses_reads_as_json_reads_it(
        tmp_path: Path, odd: str) -> None:
    """The records reader decodes a line with msgspec first; a value msgspec refuses where
    ``json.loads`` takes it (NaN, a lone surrogate, an integer past 64 bits) gives the
    record ``json.loads`` gives, never a skipped line."""
    line = json.dumps(GOOD)[:-1] + f', "extra": {odd}}}'
    path = tmp_path / "records.jsonl"
    path.write_text(line + "\n" + json.dumps(GOOD) + "\n")
    skipped: list[str] = []
    got = list(read_records(path, on_skip=skipped.append))
    assert skipped == []
    expected = json.loads(line)
    assert len(got) == 2 and got[1] == GOOD
    assert json.dumps(got[0]) == json.dumps(expected)
    assert repr(got[0]["extra"]) == repr(expected["extra"])


def test_a_line_that_is_json_but_no_object_is_skipped(tmp_path: Path) -> None:
    """A line of JSON text that is no object (a string, a number) is no record, whichever
    decoder read it."""
    path = tmp_path / "records.jsonl"
    path.write_text('"text"\n7\n"\\ud800"\n' + json.dumps(GOOD) + "\n")
    skipped: list[str] = []
    assert list(read_records(path, on_skip=skipped.append)) == [GOOD]
    assert [message.split(": ", 1)[1] for message in skipped] == [
        "not a record (no 'schema' field); skipped"] * 3


@pytest.mark.parametrize("key", ["scores", "ranking"])
def test_a_record_without_its_totals_is_read_and_shown_as_not_recorded(tmp_path: Path,
                                                                         key: str) -> None:
    # The reader checks these where present: null is a record every reader takes, and
    # ``arena show`` prints its deals and says the final totals are not recorded.
    line = json.dumps(replaced(GOOD, (key,), None))
    check_every_reader(tmp_path, line)
    console = Console(file=io.StringIO(), width=100)
    print_match(console, json.loads(line))
    assert "final: not recorded" in console.file.getvalue()  # type: ignore[attr-defined]
