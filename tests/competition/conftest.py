"""What every competition test shares: an entry's folder lives under /tmp by design (outside
the run folder, which is 0700, for the sandboxed bot to read), keyed by its run folder; a
test's run folder is its ``tmp_path`` (or ``tmp_path/out``), whose entries are removed once
the test ends. The served leagues of the modules remove theirs as they stop."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.competition import entry_folder


@pytest.fixture(autouse=True)
def _forget_entries(tmp_path: Path) -> Iterator[None]:
    yield
    for run in (tmp_path, tmp_path / "out"):
        shutil.rmtree(entry_folder(run, "-").parent, ignore_errors=True)
