"""Records: one JSON line per match through their own sink; torn lines are skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import structlog

from arena.records import RecordError, RecordWriter, configure_logging, read_records


def record(n: int) -> dict[str, object]:
    """A small record that readers take: two seats, no deals."""
    return {"schema": 1, "type": "match", "match_id": f"m{n}", "scores": [n, 0],
            "seats": [{"label": "a"}, {"label": "b"}], "deals": []}


def test_each_record_is_one_line_in_order(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with RecordWriter(path) as writer:
        for n in range(3):
            writer.write(record(n))
    lines = path.read_text().splitlines()
    assert [json.loads(line) for line in lines] == [record(n) for n in range(3)]
    assert list(read_records(path)) == [record(n) for n in range(3)]


def test_a_record_is_on_disk_as_soon_as_write_returns(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    writer = RecordWriter(path)
    writer.write(record(1))
    assert json.loads(path.read_text()) == record(1)  # before close
    writer.close()


def test_operational_logs_never_reach_the_records_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("DEBUG", json_logs=True)
    path = tmp_path / "r.jsonl"
    with RecordWriter(path) as writer:
        structlog.get_logger("arena.test").warning("an operational message", seat=1)
        writer.write(record(7))
    assert list(read_records(path, strict=True)) == [record(7)]
    captured = capsys.readouterr()
    assert "an operational message" in captured.err and "m7" not in captured.err
    assert captured.out == ""
    configure_logging()


def test_a_torn_last_line_is_reported_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with RecordWriter(path) as writer:
        writer.write(record(1))
    with open(path, "a") as f:
        f.write(json.dumps(record(2))[:15])  # a writer killed mid-line
    skipped: list[str] = []
    assert list(read_records(path, on_skip=skipped.append)) == [record(1)]
    assert len(skipped) == 1 and ":2: torn last line" in skipped[0]
    with pytest.raises(RecordError, match=":2:"):
        list(read_records(path, strict=True))


def test_appending_after_a_torn_line_starts_a_fresh_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record(1)) + "\n" + '{"schema": 1, "ty')
    with RecordWriter(path) as writer:
        writer.write(record(3))
    skipped: list[str] = []
    assert list(read_records(path, on_skip=skipped.append)) == [record(1), record(3)]
    assert len(skipped) == 1


def test_a_writer_killed_mid_stream_loses_nothing_it_finished(tmp_path: Path) -> None:
    """A child process writes records and is killed; every record it finished is readable."""
    path = tmp_path / "r.jsonl"
    script = textwrap.dedent(f"""
        import os, sys
        from arena.records import RecordWriter
        w = RecordWriter({str(path)!r})
        for n in range(5):
            w.write({{"schema": 1, "match_id": f"m{{n}}", "seats": [{{"label": "a"}}],
                     "deals": [], "pad": "x" * 5000}})
        w._file.write('{{"schema": 1, "match_id": "torn", "pad": "')
        w._file.flush()
        os._exit(9)
    """)
    proc = subprocess.run([sys.executable, "-c", script], env={**os.environ}, check=False)
    assert proc.returncode == 9
    skipped: list[str] = []
    got = [r["match_id"] for r in read_records(path, on_skip=skipped.append)]
    assert got == [f"m{n}" for n in range(5)] and len(skipped) == 1


def test_lines_that_are_not_records_are_skipped_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('[1, 2]\n{"no": "schema"}\n' + json.dumps(record(1)) + "\n\n")
    skipped: list[str] = []
    assert list(read_records(path, on_skip=skipped.append)) == [record(1)]
    reason = "not a record (no 'schema' field); skipped"
    assert [s.split(": ", 1)[1] for s in skipped] == [reason] * 2


def test_a_missing_file_has_no_records(tmp_path: Path) -> None:
    assert list(read_records(tmp_path / "none.jsonl")) == []


def test_event_key_is_refused_rather_than_mangled(tmp_path: Path) -> None:
    with RecordWriter(tmp_path / "r.jsonl") as writer, pytest.raises(ValueError, match="event"):
        writer.write({"schema": 1, "event": "x"})


def test_logging_configured_before_structlog_is_imported_applies_at_the_first_message(
    tmp_path: Path,
) -> None:
    log = tmp_path / "arena.log"
    program = textwrap.dedent(f"""
        import sys
        from arena.records import configure_logging, get_logger
        configure_logging("INFO", json_logs=True, file={str(log)!r})
        logger = get_logger("arena.test")
        assert "structlog" not in sys.modules  # nothing logged yet: not imported
        logger.info("first message", seat=2)
        assert "structlog" in sys.modules
    """)
    subprocess.run([sys.executable, "-c", program], check=True, timeout=60,
                   env={k: v for k, v in os.environ.items() if k != "ARENA_LOG_FILE"})
    (line,) = log.read_text().splitlines()
    entry = json.loads(line)
    assert (entry["event"], entry["seat"], entry["level"]) == ("first message", 2, "info")
