"""The output folder of a run: the config's copy, the secret seed, the records' file.

Every file the run writes here is opened without following a symbolic link: a link
planted in the folder (an empty ``records.jsonl`` pointing elsewhere, a ``secret-seed``
pointing at a file to create) is refused with one line, never written through.
``secret-seed`` is readable by its owner only (mode 0600): it deals every hand.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from arena.records import RECORDS, TailReader
from arena.seeds import SEED_LIMIT, secret_seed
from arena.tournament._config import ConfigError, TournamentConfig, parse_config
from arena.tournament._config._table import format_of
from arena.tournament._recordlog import repair_tail

CONFIG_COPY = "config.yaml"
SECRET_SEED = "secret-seed"
"""Where a run keeps the seed it drew for a config without one (to resume, and to publish)."""


class TournamentError(RuntimeError):
    """The tournament cannot go on (records of another tournament, a failed match...)."""


def output_dir(config: TournamentConfig, out: str | os.PathLike[str] | None = None) -> Path:
    """Where a run writes: ``out``, else the config's ``out``, else ``runs/<name>``."""
    return Path(out if out is not None else config.out or Path("runs") / config.name)


def make_run_folder(folder: Path) -> None:
    """Make a run's output folder (and its parents) where it is missing: of mode 0700, its
    user's alone, so that a sandboxed bot of another run, nobody outside too, cannot read
    it (docs/security.md); a folder that exists keeps its mode. OSError as ``mkdir``."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)


def refuse_link(path: Path) -> None:
    """TournamentError when ``path`` is a symbolic link (the run writes only real files)."""
    if path.is_symlink():
        raise TournamentError(
            f"{path} is a symbolic link; the run writes only files of its own there "
            "(remove the link, or choose another --out)"
        )


def write_new(path: Path, text: str, mode: int = 0o644) -> None:
    """Create ``path`` with ``text``, never through a symbolic link (``OSError`` else)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        os.fchmod(fd, mode)  # an existing file keeps its mode otherwise
        file.write(text)


def _has_records(folder: Path) -> bool:
    records = folder / RECORDS
    return records.exists() and records.stat().st_size > 0


def keep_secret_seed(folder: Path) -> int:
    """The seed kept in ``folder``, or a new secret one, kept there before any match is played."""
    path = folder / SECRET_SEED
    refuse_link(path)
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        if _has_records(folder):
            raise TournamentError(
                f"{folder} holds records of a run with a secret seed, but no {SECRET_SEED} file "
                "to resume it with; choose another --out"
            ) from None
        seed = secret_seed()
        try:
            write_new(path, f"{seed}\n", 0o600)
        except OSError as exc:
            raise TournamentError(
                f"cannot keep the secret seed in {path}: {exc.strerror}"
            ) from None
        return seed
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {exc.strerror}") from None
    if not text.isdigit() or int(text) >= SEED_LIMIT:
        raise TournamentError(f"{path}: not a seed ({text[:40]!r}); choose another --out")
    return int(text)


def _resume_identity(cfg: TournamentConfig) -> dict[str, Any]:
    """What a resumed run must share with the run it resumes: the format says (a league's
    field and stopping rule may change, its journal keeps their history)."""
    return format_of(cfg.format).resume_identity(cfg)


def journal_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The lines of a plan's journal (``league.jsonl``), numbered from 1, after cutting off
    a last line a kill left without its newline (what it held is chosen again)."""
    refuse_link(path)
    try:
        repair_tail(path)
        lines = TailReader(path).lines()
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {exc.strerror}") from None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            line = None
        if not isinstance(line, dict):
            raise TournamentError(f"{path}, line {number}: not a JSON object; choose another "
                                  "--out")
        yield number, line


def keep_journal_line(path: Path, line: Mapping[str, Any]) -> None:
    """Append one line to a plan's journal, never through a symbolic link."""
    refuse_link(path)
    try:
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(line, sort_keys=True) + "\n")
    except OSError as exc:
        raise TournamentError(f"cannot write {path}: {exc.strerror}") from None


def keep_config_copy(folder: Path, cfg: TournamentConfig, text: str | None) -> None:
    """Write config.yaml beside the records, or check a resumed run uses the same config."""
    copy = folder / CONFIG_COPY
    refuse_link(copy)
    refuse_link(folder / RECORDS)
    if copy.exists():
        try:
            previous = parse_config(copy.read_text(encoding="utf-8"), source=str(copy),
                                    check_bots=False)
        except ConfigError as exc:
            raise TournamentError(f"cannot resume: {exc}") from None
        old, new = _resume_identity(previous), _resume_identity(cfg)
        if old != new:
            changed = sorted(key for key in set(old) | set(new) if old.get(key) != new.get(key))
            raise TournamentError(
                f"{folder} holds a run of a different tournament ({', '.join(changed)} "
                "changed); choose another --out, or delete the folder to start over"
            )
        return
    if _has_records(folder):
        raise TournamentError(
            f"{folder} holds records but no {CONFIG_COPY}; choose another --out"
        )
    if text is None:
        text = yaml.safe_dump(
            cfg.model_dump(mode="json", exclude_none=True, exclude_unset=True), sort_keys=False
        )
    write_new(copy, text)
