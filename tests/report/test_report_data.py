"""The report's data: replays as the rules engine gives them, numbers as the ratings give them."""

from __future__ import annotations

import base64
import copy
import gzip
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.report import CLEAR, FORFEIT, OUT, ReplayError, replay_deals, write_report
from arena.report._stats import ThinkTimes

from .helpers import folder_records, js_value


def _batch(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="ascii")
    packed = text[text.index('"') + 1:text.rindex('"')]
    value: list[dict[str, Any]] = json.loads(gzip.decompress(base64.b64decode(packed)))
    return value


def test_replayed_events_are_the_recorded_moves_and_faults(run_folder: Path) -> None:
    faults_seen = 0
    for record in folder_records(run_folder):
        deals = replay_deals(record)
        assert len(deals) == len(record["deals"])
        for deal, events in zip(record["deals"], deals, strict=True):
            moves = [e for e in events if e.fault is None]
            assert [(e.seat, e.text) for e in moves] == list(zip(deal["movers"], deal["moves"],
                                                                  strict=True))
            assert [e.ms for e in moves] == [us / 1000 for us in deal["think_us"]]
            faults = [(e.seat, e.fault) for e in events if e.fault is not None]
            assert faults == [(f["seat"], f["kind"]) for f in deal["faults"]]
            faults_seen += len(faults)
            forfeited = [e.seat for e in events if e.flags & FORFEIT]
            assert forfeited == [f["seat"] for f in deal["forfeits"]]
            # seats that went out by playing their last card, in order, lead the finish order
            out = [e.seat for e in events if e.flags & OUT]
            assert out == deal["finish_order"][:len(out)]
            assert len(out) >= len(deal["finish_order"]) - 1 - len(forfeited)
            # a trick ends only after a play opened it, and the last one ends with the deal;
            # after a trick ends, the next seat leads
            opened = False
            for event in events:
                if event.fault is None and event.text != "pass":
                    opened = True
                if event.flags & CLEAR:
                    assert opened, (record["match_id"], deal["deal"], event)
                    opened = False
                elif event.fault is None and not opened:
                    assert event.text != "pass"  # the leader may not pass
            assert not opened
    assert faults_seen >= 4  # the clumsy bot's faults, under both fault policies


def test_a_move_the_rules_refuse_names_the_match_and_deal(run_folder: Path) -> None:
    record = copy.deepcopy(folder_records(run_folder)[0])
    deal = record["deals"][0]  # deal 0: no exchange, the dealt hands are held
    held = set(deal["hands"][deal["movers"][0]])
    deal["moves"][0] = next(c for hand in deal["hands"] for c in hand if c not in held)
    with pytest.raises(ReplayError, match=rf"match {record['match_id']}, deal 0: .*does not hold"):
        replay_deals(record)


def test_a_record_that_does_not_replay_is_kept_and_marked(tmp_path: Path,
                                                          run_folder: Path) -> None:
    records = folder_records(run_folder)
    bad = copy.deepcopy(records[2])
    bad["deals"][0]["movers"][3] = (bad["deals"][0]["movers"][3] + 1) % 4
    lines = [json.dumps(r) for r in [*records[:2], bad, *records[3:]]]
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = write_report(tmp_path, resamples=0)
    assert len(result.unreplayable) == 1 and bad["match_id"] in result.unreplayable[0]
    index = js_value(tmp_path / "report" / "data" / "matches.js", "ARENA_MATCHES")
    assert list(index["errors"]) == ["2"]
    entry = _batch(tmp_path / "report" / "data" / "replays" / "00000.js")[2]
    assert entry["error"] == result.unreplayable[0]
    assert [e[1] for e in entry["deals"][0]["events"]] == bad["deals"][0]["moves"]


def test_summary_holds_the_leaderboard_arena_ratings_prints(run_folder: Path) -> None:
    summary = js_value(run_folder / "report" / "data" / "summary.js", "ARENA_SUMMARY")
    out = CliRunner().invoke(main, ["ratings", "--json", "--resamples", "200",
                                    str(run_folder / "records.jsonl")])
    assert out.exit_code == 0, out.output
    assert summary["leaderboard"] == json.loads(out.output)
    assert summary["name"] == "report-test"
    assert "seed: 7" in summary["config"]


def test_per_bot_faults_time_losses_and_think_times(run_folder: Path) -> None:
    from .helpers import HOSTILE_LABEL

    summary = js_value(run_folder / "report" / "data" / "summary.js", "ARENA_SUMMARY")
    records = folder_records(run_folder)
    faults: dict[str, int] = {}
    times: dict[str, list[float]] = {}
    for record in records:
        labels = [s["label"] for s in record["seats"]]
        for deal in record["deals"]:
            for fault in deal["faults"]:
                faults[labels[fault["seat"]]] = faults.get(labels[fault["seat"]], 0) + 1
            for seat, us in zip(deal["movers"], deal["think_us"], strict=True):
                times.setdefault(labels[seat], []).append(us / 1000)
    assert faults[HOSTILE_LABEL] >= 4
    for label, bot in summary["bots"].items():
        assert bot["faults"] == faults.get(label, 0)
        assert bot["time_losses"] == 0  # no bot was slow
        assert bot["moves"] == len(times[label])
        ordered = sorted(times[label])
        median = ordered[math.ceil(0.5 * len(ordered)) - 1]
        if median >= 0.01:  # above the rounding of the records, the 1% bins hold
            assert bot["think_median_ms"] == pytest.approx(median, rel=0.011)


def test_think_time_quantiles_are_within_one_percent() -> None:
    rng = random.Random(3)
    values = [rng.lognormvariate(0, 2) for _ in range(100_000)]
    times = ThinkTimes()
    for v in values:
        times.add(v)
    ordered = sorted(values)
    for q in (0.5, 0.95):
        exact = ordered[math.ceil(q * len(ordered)) - 1]
        assert times.quantile(q) == pytest.approx(exact, rel=0.01)


def test_every_match_is_listed_and_replayable_in_its_batch(run_folder: Path) -> None:
    records = folder_records(run_folder)
    index = js_value(run_folder / "report" / "data" / "matches.js", "ARENA_MATCHES")
    assert index["ids"] == [r["match_id"] for r in records]
    entries = _batch(run_folder / "report" / "data" / "replays" / "00000.js")
    assert [e["id"] for e in entries] == index["ids"]
    for record, entry in zip(records, entries, strict=True):
        assert entry["error"] is None
        assert [d["finish_order"] for d in entry["deals"]] == \
            [d["finish_order"] for d in record["deals"]]
        assert entry["scores"] == record["scores"]
        labels = [index["labels"][i] for i in index["seats"][index["ids"].index(entry["id"])]]
        assert labels == [s["label"] for s in record["seats"]]


def test_batches_split_every_batch_size_matches(tmp_path: Path, run_folder: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.report._batches as build

    monkeypatch.setattr(build, "BATCH", 4)
    (tmp_path / "records.jsonl").write_bytes((run_folder / "records.jsonl").read_bytes())
    result = write_report(tmp_path, resamples=0)
    files = sorted((tmp_path / "report" / "data" / "replays").iterdir())
    assert [f.name for f in files] == ["00000.js", "00001.js", "00002.js", "00003.js"]
    assert result.batches == 4
    assert [len(_batch(f)) for f in files] == [4, 4, 4, 2]
    assert js_value(tmp_path / "report" / "data" / "matches.js", "ARENA_MATCHES")["batch"] == 4


def test_the_oldest_matches_beyond_replays_are_listed_without_their_replay(
        tmp_path: Path, run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.report._batches as build

    monkeypatch.setattr(build, "BATCH", 4)
    data = (run_folder / "records.jsonl").read_bytes()
    (tmp_path / "records.jsonl").write_bytes(data + b"torn")  # a line skipped counts too
    every = tmp_path / "every"
    every.mkdir()
    (every / "records.jsonl").write_bytes(data)
    write_report(every, resamples=0)
    result = write_report(tmp_path, resamples=0, replays=6, on_skip=lambda message: None)
    # 15 lines, the last 6 replayed: lines 10 to 15, so batches 2 and 3 (matches 9 to 14)
    assert result.unreplayed == 8 and result.matches == 14 and result.batches == 4
    index = js_value(tmp_path / "report" / "data" / "matches.js", "ARENA_MATCHES")
    assert index["replayed_from"] == 2 and len(index["ids"]) == 14
    everything = js_value(every / "report" / "data" / "matches.js", "ARENA_MATCHES")
    assert everything["replayed_from"] == 0
    assert {k: v for k, v in index.items() if k != "replayed_from"} == \
        {k: v for k, v in everything.items() if k != "replayed_from"}
    replays = tmp_path / "report" / "data" / "replays"
    assert sorted(p.name for p in replays.iterdir()) == ["00002.js", "00003.js"]
    for name in ("00002.js", "00003.js"):
        assert _batch(replays / name) == _batch(every / "report" / "data" / "replays" / name)
    # replays=None replays every match; a cap beyond the records too
    for replays_kept in (None, 15):
        result = write_report(tmp_path, resamples=0, replays=replays_kept,
                              on_skip=lambda message: None)
        assert result.unreplayed == 0 and len(list(replays.iterdir())) == 4
    assert write_report(tmp_path, resamples=0, replays=0,
                        on_skip=lambda message: None).unreplayed == 14
    assert not list(replays.iterdir())


def test_a_torn_last_line_is_reported_and_the_rest_kept(tmp_path: Path,
                                                        run_folder: Path) -> None:
    data = (run_folder / "records.jsonl").read_bytes()
    (tmp_path / "records.jsonl").write_bytes(data + data.splitlines()[0][:300])
    heard: list[str] = []
    result = write_report(tmp_path, resamples=0, on_skip=heard.append)
    assert result.matches == 14
    assert len(heard) == 1 and "torn last line" in heard[0] and ":15:" in heard[0]


def test_cli_writes_the_report_and_rewrites_it_whole(tmp_path: Path, run_folder: Path) -> None:
    (tmp_path / "records.jsonl").write_bytes((run_folder / "records.jsonl").read_bytes())
    runner = CliRunner()
    for _ in range(2):
        out = runner.invoke(main, ["report", str(tmp_path)])
        assert out.exit_code == 0, out.output
        assert out.output.strip().endswith(str(tmp_path / "report" / "index.html"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl", "report"]
    names = sorted(p.name for p in (tmp_path / "report").iterdir())
    assert names == ["data", "i18n.css", "i18n.js", "index.html", "report.css", "report.js"]


def test_a_served_folder_with_only_peoples_matches_says_where_they_are(
        tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "records.jsonl").write_text("")
    out = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
    assert out.output.strip().endswith("add --people")


def test_peoples_tables_are_reported_apart_with_people(tmp_path: Path,
                                                       run_folder: Path) -> None:
    lines = (run_folder / "records.jsonl").read_text(encoding="utf-8").splitlines()
    (tmp_path / "records.jsonl").write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    (tmp_path / "tables").mkdir()
    person = json.loads(lines[0])
    person.update(match_id="table-ab", set=None)
    (tmp_path / "tables" / "records.jsonl").write_text(json.dumps(person) + "\n")
    out = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert out.stderr.strip() == (f"note: {tmp_path}/tables/records.jsonl holds 1 people's "
                                  f"tables' match, not in this report: arena report "
                                  f"{tmp_path} --people")
    quiet = CliRunner().invoke(main, ["report", str(tmp_path), "-q"])
    assert quiet.exit_code == 0 and quiet.output == ""
    run_index = js_value(tmp_path / "report" / "data" / "matches.js", "ARENA_MATCHES")
    assert "table-ab" not in run_index["ids"] and len(run_index["ids"]) == 13
    out = CliRunner().invoke(main, ["report", str(tmp_path), "--people"])
    assert out.exit_code == 0 and out.stderr == "", out.output
    index = tmp_path / "tables" / "report" / "index.html"
    assert out.stdout.strip() == f"report of 1 people's tables' matches: {index}"
    data = index.parent / "data"
    assert js_value(data / "matches.js", "ARENA_MATCHES")["ids"] == ["table-ab"]
    assert js_value(data / "summary.js", "ARENA_SUMMARY")["people"] is True
    empty = tmp_path / "empty"
    empty.mkdir()
    out = CliRunner().invoke(main, ["report", str(empty), "--people"])
    assert out.exit_code == 2 and "no people's tables' matches here" in out.output


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "nowhere: no records.jsonl here"),
    (["{tmp}", "--records", "{tmp}/missing.jsonl"], "missing.jsonl: no such records file"),
])
def test_cli_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    out = CliRunner().invoke(main, ["report", *args])
    assert out.exit_code == 2
    assert message in out.output and len(out.output.strip().splitlines()) == 1


def test_a_rebuild_reuses_the_replay_files_of_unchanged_matches(
        tmp_path: Path, run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.report._batches as build

    monkeypatch.setattr(build, "BATCH", 4)
    lines = (run_folder / "records.jsonl").read_text(encoding="utf-8").splitlines()
    records = tmp_path / "records.jsonl"
    records.write_text("\n".join(lines[:10]) + "\n", encoding="utf-8")
    replays = tmp_path / "report" / "data" / "replays"
    assert write_report(tmp_path, resamples=0).reused == 0
    first = {p.name: p.read_bytes() for p in replays.iterdir()}
    assert len(first) == 3  # 4 + 4 + 2

    # the run goes on: the full files are copied, the rest is replayed
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = write_report(tmp_path, resamples=0)
    assert result.reused == 2 and result.batches == 4
    assert all((replays / name).read_bytes() == first[name] for name in ("00000.js", "00001.js"))
    assert _batch(replays / "00002.js")[3]["id"] == json.loads(lines[11])["match_id"]

    # a match that changed is replayed again, with its batch
    changed = json.loads(lines[5])
    changed["wall_s"] += 1
    changed["deals"][0]["think_us"][0] = 123000
    lines[5] = json.dumps(changed)
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = write_report(tmp_path, resamples=0)
    assert result.reused == 2  # batches 0 and 2
    assert _batch(replays / "00001.js")[1]["deals"][0]["events"][0][2] == 123.0

    # a report of another format is not reused
    index = tmp_path / "report" / "data" / "matches.js"
    index.write_text(index.read_text(encoding="utf-8").replace('"format":[1,', '"format":[0,'),
                     encoding="utf-8")
    assert write_report(tmp_path, resamples=0).reused == 0


def test_the_reports_catalogs_are_the_web_pages_own() -> None:
    """The report reads arena/web/locales as files (it needs no web extra): the same
    languages and, for its areas, the same messages as the served pages' catalogs."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from arena.report._messages import AREAS, LANGUAGES, catalogs
    from arena.web._i18n import LANGUAGE_NAMES, areas, catalog
    from arena.web._i18n import LANGUAGES as WEB

    assert LANGUAGES == WEB
    found = catalogs()
    keys = {key for area in AREAS for key in areas("en")[area]}
    for lang in LANGUAGES:
        assert found[lang] == {k: v for k, v in catalog(lang).items() if k in keys}
        assert found[lang]["lang.name"] == LANGUAGE_NAMES[lang]


def test_an_unknown_language_is_one_line(tmp_path: Path, run_folder: Path) -> None:
    (tmp_path / "records.jsonl").write_bytes((run_folder / "records.jsonl").read_bytes())
    out = CliRunner().invoke(main, ["report", str(tmp_path), "--lang", "xx"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
    assert "--lang 'xx': the report speaks en, nl, da, pl, no, tr" in out.output


def test_every_fault_kind_and_policy_has_the_reports_word() -> None:
    """report.js writes a record's fault kinds and fault policies in the page's language
    (report.fault.<kind>, report.policy.<policy>: keys built at run time)."""
    from arena.game import FAULT_KINDS
    from arena.game._rules import ON_FAULT_CHOICES
    from arena.report._messages import LANGUAGES, catalogs

    for lang in LANGUAGES:
        words = catalogs()[lang]
        assert [k for k in FAULT_KINDS if f"report.fault.{k}" not in words] == [], lang
        assert [p for p in ON_FAULT_CHOICES if f"report.policy.{p}" not in words] == [], lang
