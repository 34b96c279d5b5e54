"""``arena report --open`` says so when no browser can be opened, and where the report is."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.records import RecordWriter
from arena.referee import run_match
from tests.report.helpers import clumsy_spec


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    with RecordWriter(tmp_path / "records.jsonl") as writer:
        writer.write(run_match(clumsy_spec("m1", "forfeit", 11)))
    return tmp_path


def test_open_without_a_browser_says_so_and_prints_the_path(
        run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []

    def no_browser(url: str, *args: object, **kwargs: object) -> bool:
        opened.append(url)
        return False  # what webbrowser.open answers where it finds no browser to run

    monkeypatch.setattr(webbrowser, "open", no_browser)
    result = CliRunner().invoke(main, ["report", str(run_folder), "--open", "--quiet"])
    assert result.exit_code == 0
    index = run_folder / "report" / "index.html"
    assert opened == [index.resolve().as_uri()]
    assert result.stderr == (f"warning: could not open a browser (no display?): open {index} "
                             "yourself\n")


def test_open_with_a_browser_says_nothing_more(
        run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: True)
    result = CliRunner().invoke(main, ["report", str(run_folder), "--open", "--quiet"])
    assert result.exit_code == 0 and result.stderr == ""
