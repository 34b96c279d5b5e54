"""The report replayed by several worker processes is the report replayed by one, byte for
byte, and a refresh still reuses the batches it can."""

from __future__ import annotations

from pathlib import Path

from arena.records import RecordWriter
from arena.referee import run_match
from arena.report import BATCH, write_report

from .helpers import clumsy_spec, copied_run


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_replaying_with_workers_writes_the_same_report(run_folder: Path,
                                                       tmp_path: Path) -> None:
    lines = (run_folder / "records.jsonl").read_bytes().splitlines(keepends=True)
    # enough matches for several batches: the run's, again and again under new ids
    copies = (BATCH * 3) // len(lines) + 1
    one, many = tmp_path / "one", tmp_path / "many"
    for folder in (one, many):
        copied_run(run_folder, folder, copies)
    with RecordWriter(one / "records.jsonl") as writer, \
            RecordWriter(many / "records.jsonl") as other:
        record = run_match(clumsy_spec("zz-last", "pass", 5))
        writer.write(record)
        other.write(record)
    first = write_report(one, resamples=50, jobs=1)
    second = write_report(many, resamples=50, jobs=2)
    assert first.batches == second.batches >= 3
    assert first.matches == second.matches == copies * len(lines) + 1
    assert first.unreplayable == second.unreplayable
    expected = _files(one / "report")
    got = _files(many / "report")
    assert set(expected) == set(got)
    for name in expected:
        if name != "data/summary.js":  # it names its own folder
            assert expected[name] == got[name], name
    again = write_report(many, resamples=50, jobs=2)  # nothing new: every full batch reused
    assert again.reused == again.batches - 1
    assert _files(many / "report")["data/matches.js"] == got["data/matches.js"]
