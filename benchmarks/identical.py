"""Identical results across two checkouts: the same seeds give the same records, standings
and ratings, byte for byte once the timings are taken out.

Runs the same tournaments in checkout A and checkout B (each with its own ``.venv``, as
``make`` builds it), one config per format, together holding every host kind:

- ``round_robin``: tables of 5 under the ``uecda`` preset, with an ``inline`` bot, a
  ``process`` bot, a ``command`` bot (``examples/perl-bot``, if ``perl`` is at hand) and a
  ``uecda`` client (the checkout's own ``arena uecda-client``);
- ``gauntlet``: a challenger (``process``) against every pair of a field at tables of 3;
- ``swiss``: seven bots, tables of 4 and of 3, three rounds, duplicate sets;
- ``sprt``: an A/B test played set by set until its stopping rule (or its cap);
- ``league``: rounds of duplicate sets chosen from the fit, until a budget of deals.

Each runs with ``arena run CONFIG --out DIR --jobs 1 --quiet`` (one job: the records'
order, and so the ratings fitted in that order, are part of what is compared), then
``arena ratings DIR --json``. Compared, after the timing fields are removed (``think_us``,
``wall_s`` in records; ``wall_s``, ``elapsed``, ``started``/``finished`` times, wherever
they appear in standings.json and the ratings): every line of ``records.jsonl``,
``standings.json`` and the ratings' JSON. Prints one line per file, ``same`` or
``DIFFERS``, then the fields only one side has (a field B added, such as a new limit, is
listed but is not a difference of the results) and the first values that differ; exits 1
if a value differs or a field of A is missing from B.

    python benchmarks/identical.py A B [--work DIR] [--keep]

e.g. ``python benchmarks/identical.py /tmp/base0 .`` (A's tree at an older commit,
``git archive COMMIT | tar -x -C /tmp/base0``, with its venv).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIMING = frozenset({"think_us", "wall_s", "elapsed", "elapsed_s", "started", "finished",
                    "timestamp", "seconds", "duration_s", "ms"})
"""Fields that hold a measured time, not a function of the seeds."""


def configs(perl: bool) -> dict[str, str]:
    """The YAML of each tournament; ``{arena}`` stands for the checkout's ``arena`` program,
    ``{checkout}`` for the checkout (a command's relative path is read from the config's
    folder)."""
    command = ("  - command: perl {checkout}/examples/perl-bot/bot.pl\n    label: perl\n"
               if perl else "")
    return {
        "round_robin": f"""name: rr
seed: 11
rules: {{preset: uecda, rounds: 3}}
players: 5
format: {{type: round_robin}}
bots:
  - command: {{arena}} uecda-client greedy --host {{host}} --port {{port}}
    protocol: uecda
    label: greedy-uecda
  - name: greedy
    host: process
    label: greedy-process
{command}  - name: lowest
  - name: random
  - name: highest
limits: {{move_ms: 3000, start_ms: 20000}}
""",
        "gauntlet": """name: gauntlet
seed: 12
rules: {preset: runs, rounds: 3}
players: 3
format: {type: gauntlet, challengers: [greedy-process]}
duplicate: true
bots:
  - name: greedy
    host: process
    label: greedy-process
  - name: lowest
  - name: random
  - name: highest
limits: {move_ms: 3000, start_ms: 20000}
""",
        "swiss": """name: swiss
seed: 13
rules: {preset: standard, rounds: 2}
players: 4
format: {type: swiss, rounds: 3, odd: short_tables}
duplicate: true
bots:
  - name: greedy
  - name: lowest
  - name: highest
  - name: random
  - name: random
    label: random-2
  - name: passer
  - name: greedy
    label: greedy-2
""",
        "sprt": """name: sprt
seed: 14
rules: {preset: daifugo, rounds: 2}
players: 4
format: {type: sprt, challenger: greedy, baseline: lowest, elo0: 0, elo1: 50,
         alpha: 0.05, beta: 0.05, max_sets: 12}
bots:
  - name: greedy
  - name: lowest
""",
        "league": """name: league
seed: 15
rules: {preset: standard, rounds: 2}
players: 3
format: {type: league, tables_per_round: 2, resamples: 20, stop: {deals: 60}}
bots:
  - name: greedy
  - name: lowest
  - name: highest
  - name: random
  - name: passer
""",
    }


def untimed(value: Any) -> Any:
    """``value`` with every timing field removed, at any depth."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def canonical(text: str) -> list[Any]:
    """Each JSON line (or the one JSON document) of ``text``, untimed."""
    text = text.strip()
    if not text:
        return []
    try:
        return [untimed(json.loads(text))]
    except json.JSONDecodeError:
        return [untimed(json.loads(line)) for line in text.splitlines() if line.strip()]


def run(checkout: Path, name: str, yaml_text: str, work: Path) -> dict[str, list[str]]:
    """Play tournament ``name`` in ``checkout``; its compared files, canonical."""
    arena = checkout / ".venv" / "bin" / "arena"
    folder = work / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    config = folder / "config.yaml"
    config.write_text(yaml_text.replace("{arena}", str(arena)).replace("{checkout}", str(checkout)),
                      encoding="utf-8")
    out = folder / "out"
    started = time.monotonic()
    done = subprocess.run([str(arena), "run", str(config), "--out", str(out), "--jobs", "1",
                           "--quiet"], cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{checkout}: arena run {name} failed ({done.returncode}): "
                 f"{done.stderr.strip().splitlines()[-1:] or done.stdout[-300:]}")
    ratings = subprocess.run([str(arena), "ratings", str(out), "--json"], cwd=checkout,
                             capture_output=True, text=True, check=True).stdout
    print(f"  {checkout}: {name} in {time.monotonic() - started:.1f} s", flush=True)
    return {
        "records.jsonl": canonical((out / "records.jsonl").read_text(encoding="utf-8")),
        "standings.json": canonical((out / "standings.json").read_text(encoding="utf-8")),
        "arena ratings --json": canonical(ratings),
    }


def differences(a: Any, b: Any, path: str = "") -> tuple[set[str], set[str], list[str]]:
    """How ``b`` differs from ``a``: the fields only ``b`` has, those only ``a`` has (paths,
    list positions as ``[]``) and the values that differ (path and both values)."""
    added: set[str] = set()
    removed: set[str] = set()
    changed: list[str] = []
    if isinstance(a, dict) and isinstance(b, dict):
        added |= {f"{path}.{k}" for k in b.keys() - a.keys()}
        removed |= {f"{path}.{k}" for k in a.keys() - b.keys()}
        for key in a.keys() & b.keys():
            more = differences(a[key], b[key], f"{path}.{key}")
            added |= more[0]
            removed |= more[1]
            changed += more[2]
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            more = differences(x, y, f"{path}[]")
            added |= more[0]
            removed |= more[1]
            changed += more[2]
    elif a != b:
        changed.append(f"{path or '.'}: {json.dumps(a)[:120]} vs {json.dumps(b)[:120]}")
    return added, removed, changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="first checkout (with .venv)")
    parser.add_argument("b", type=Path, help="second checkout (with .venv)")
    parser.add_argument("--work", type=Path, help="where to play (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the run folders")
    parser.add_argument("--only", action="append", help="only this format (repeatable)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="arena-identical-"))
    perl = shutil.which("perl") is not None
    print(f"load {os.getloadavg()[0]:.2f}; command host: "
          f"{'perl bot' if perl else 'skipped (no perl)'}", flush=True)
    differ = 0
    try:
        for name, text in configs(perl).items():
            if args.only and name not in args.only:
                continue
            a = run(args.a.resolve(), name, text, work / "a")
            b = run(args.b.resolve(), name, text, work / "b")
            for what in a:
                added, removed, changed = differences(a[what], b[what])
                verdict = "DIFFERS" if changed or removed else "same"
                print(f"{name:12} {what:22} {verdict} ({len(a[what])} lines)", flush=True)
                for field in sorted(added):
                    print(f"    field only in B: {field}")
                for field in sorted(removed):
                    print(f"    field only in A: {field}")
                for change in changed[:5]:
                    print(f"    {change}")
                differ += bool(changed or removed)
    finally:
        if not args.keep and args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"load {os.getloadavg()[0]:.2f}; {'all identical' if not differ else f'{differ} differ'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
