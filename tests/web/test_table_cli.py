"""``arena serve --table``'s options: each mistake is one clear line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main


@pytest.mark.parametrize(("args", "needle"), [
    (["--people", "2", "greedy"], "add --table"),
    (["--table", "--bots", "greedy"], "need --people"),
    (["--table", "--people", "8", "--bots", "greedy"], "2 to 8 seats"),
    (["--table", "--people", "1"], "2 to 8 seats"),
    (["--table", "--people", "1", "--port", "0", "--bots", "nosuchbot"], "nosuchbot"),
    (["--table", "--people", "1", "--port", "0", "--bots", "grredy"],
     "unknown bot 'grredy' (installed bots: expert, greedy"),
    (["--table", "--people", "1", "--port", "0", "--preset", "chess", "greedy"], "chess"),
    (["--table", "--port", "0", "--stand-in", "nosuchbot"],
     "the stand-in must be a built-in bot (expert, greedy"),
])
def test_bad_table_options_are_one_line_errors(tmp_path: Path, args: list[str],
                                               needle: str) -> None:
    result = CliRunner().invoke(main, ["serve", str(tmp_path), *args])
    assert result.exit_code != 0
    assert needle in result.output and "Traceback" not in result.output, result.output
    assert "serving" not in result.output  # refused before the server listens
