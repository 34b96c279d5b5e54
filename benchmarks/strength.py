"""Benchmark: an arena bot against the UECda community's champion, at arena's UECda host.

    UECDA_KIT_CLIENT=... UECDA_FUJIGOKORO=... UECDA_FUJIGOKORO_PARAMS=... \\
        nice -n 10 .venv/bin/python benchmarks/strength.py [--bot mc] [--games 1000]

Not part of ``make test`` or ``make bench``'s floor: it needs two public programs built
outside the project (docs/uecda.md, "The strength benchmark", names them and where their
sources are), and it builds nothing. Missing programs are named in one line, status 2.

One table of five at the ``uecda`` preset (blocks of ``--rounds`` games, points 5 to 1):
FujiGokoro, the arena bot (``--bot``, default ``mc``, the strongest built-in) and three
copies of the contest kit's default client, in duplicate sets (every bot in every seat of the
same cards, docs/tournaments.md), played by ``arena run`` at a ``--move-ms`` limit (1000 ms,
the contest's). Then, per bot: games, mean UECda points per game and its 95% interval, by a
cluster bootstrap over blocks (a match of ``--rounds`` games: the games of a block share
classes and exchanges, so the block is the unit); the paired difference bot - FujiGokoro
over the same games, with its interval, clustered the same way; timeouts and rejected plays
(``illegal`` faults) per bot. The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml

from arena.ratings._bootstrap import bootstrap_ratio
from arena.records import deal_moves, read_records

ROOT = Path(__file__).resolve().parents[1]
ARENA = Path(sys.executable).with_name("arena")
KITS = ("kit-1", "kit-2", "kit-3")
CHAMPION = "fujigokoro"
FUJI_ARGS = "-th 1 -sc 50"
"""FujiGokoro's flags by default: one thread, 50 simulations a decision (docs/uecda.md,
"The strength benchmark", says why)."""


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="mc", help="arena bot to measure (default: mc)")
    parser.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    parser.add_argument("--rounds", type=int, default=100,
                        help="games per block, the match (default 100, the contest's)")
    parser.add_argument("--move-ms", type=int, default=1000, help="move limit (default 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="matches at once (default 1)")
    parser.add_argument("--seed", type=int, default=2007, help="tournament seed")
    parser.add_argument("--kit", default=env("UECDA_KIT_CLIENT"),
                        help="the kit's default client binary (or $UECDA_KIT_CLIENT)")
    parser.add_argument("--fujigokoro", default=env("UECDA_FUJIGOKORO"),
                        help="FujiGokoro's out/client (or $UECDA_FUJIGOKORO)")
    parser.add_argument("--fujigokoro-params", default=env("UECDA_FUJIGOKORO_PARAMS"),
                        help="its parameter folder (or $UECDA_FUJIGOKORO_PARAMS)")
    parser.add_argument("--fujigokoro-args", default=env("UECDA_FUJIGOKORO_ARGS", FUJI_ARGS),
                        help=f"FujiGokoro's own flags (default {FUJI_ARGS!r}, which keeps it "
                             "inside the contest's limit on a loaded machine; "
                             "or $UECDA_FUJIGOKORO_ARGS)")
    parser.add_argument("--out", type=Path, default=None,
                        help="run folder (default: a temporary one); an existing one resumes")
    parser.add_argument("--records", type=Path, default=None,
                        help="only read these records (a records.jsonl) and print the tables")
    return parser.parse_args(argv)


def _missing(args: argparse.Namespace) -> str | None:
    """One line naming what is missing, or None."""
    wanted = [("--kit / UECDA_KIT_CLIENT", args.kit, "the UECda kit's default client"),
              ("--fujigokoro / UECDA_FUJIGOKORO", args.fujigokoro, "FujiGokoro's out/client")]
    for flag, path, what in wanted:
        if not path:
            return f"strength: {what} is not given ({flag}); see docs/uecda.md"
        if not (Path(path).is_file() and os.access(path, os.X_OK)):
            return f"strength: {what} {path!r} ({flag}) is not an executable file"
    if not args.fujigokoro_params or not Path(args.fujigokoro_params).is_dir():
        return (f"strength: FujiGokoro's parameter folder {args.fujigokoro_params!r} "
                "(--fujigokoro-params / UECDA_FUJIGOKORO_PARAMS) is not a folder "
                "(an empty one runs it without learned parameters)")
    if args.games < 5 * args.rounds:
        return (f"strength: --games {args.games} is less than one duplicate set "
                f"(5 rotations x {args.rounds} games)")
    return None


def _config(args: argparse.Namespace) -> dict[str, object]:
    params = str(Path(args.fujigokoro_params).resolve()).rstrip("/") + "/"
    fuji = [str(Path(args.fujigokoro).resolve()), "-i", params,
            *shlex.split(args.fujigokoro_args), "-h", "{host}", "-p", "{port}"]
    kit = [str(Path(args.kit).resolve()), "-h", "{host}", "-p", "{port}"]
    sets = max(1, args.games // (5 * args.rounds))
    bots: list[dict[str, object]] = [
        {"command": shlex.join(fuji), "protocol": "uecda", "label": CHAMPION},
        {"name": args.bot, "label": args.bot},
    ]
    bots += [{"command": shlex.join(kit), "protocol": "uecda", "label": label}
             for label in KITS]
    return {
        "name": "strength",
        "seed": args.seed,
        "rules": {"preset": "uecda", "rounds": args.rounds},
        "players": 5,
        "format": {"type": "round_robin"},
        "duplicate": True,
        "repeat": sets,
        "bots": bots,
        "limits": {"move_ms": args.move_ms, "start_ms": 20000},
    }


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _blocks(records: Path, bot: str) -> tuple[dict[str, list[list[float]]],
                                              dict[str, dict[str, int]],
                                              dict[str, list[float]]]:
    """Per label: one [points, games] per block (match); fault counts per label; and the
    think time (ms) of every move per label, as the referee timed it."""
    blocks: dict[str, list[list[float]]] = defaultdict(list)
    think: dict[str, list[float]] = defaultdict(list)
    diffs: list[list[float]] = []
    clean: list[list[float]] = []  # the differences of the blocks the champion played faultless
    faults: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for record in read_records(records):
        labels = [seat["label"] for seat in record["seats"]]
        sums: dict[str, float] = defaultdict(float)
        games = len(record["deals"])
        for deal in record["deals"]:
            for seat, points in enumerate(deal["points"]):
                sums[labels[seat]] += points
            for fault in deal.get("faults", []):
                faults[labels[fault["seat"]]][fault["kind"]] += 1
            for move in deal_moves(deal):
                if move.ms is not None:
                    think[labels[move.seat]].append(move.ms)
        for label in labels:
            blocks[label].append([sums[label], games])
        if bot in labels and CHAMPION in labels:
            diffs.append([sums[bot] - sums[CHAMPION], games])
            seat = labels.index(CHAMPION)
            if not any(f["seat"] == seat for deal in record["deals"]
                       for f in deal.get("faults", [])):
                clean.append(diffs[-1])
    blocks[f"{bot} - {CHAMPION}"] = diffs
    blocks["clean"] = clean
    return blocks, faults, think


def _interval(rows: list[list[float]], seed: int) -> tuple[float, float, float, int]:
    data = np.asarray(rows, dtype=np.float64).reshape(-1, 2)
    if len(data) == 0:
        return (float("nan"),) * 3 + (0,)  # type: ignore[return-value]
    low, high = bootstrap_ratio(data[:, 0], data[:, 1], 4000, 0.95,
                                np.random.default_rng(seed))
    return float(data[:, 0].sum() / data[:, 1].sum()), low, high, int(data[:, 1].sum())


def _think(times: list[float]) -> str:
    if not times:
        return "-"
    median, p99 = np.percentile(times, [50, 99])
    return f"{median:.0f}, {p99:.0f}, {max(times):.0f}"


def report(records: Path, bot: str) -> str:
    """The tables of a finished run, as text."""
    blocks, faults, think = _blocks(records, bot)
    if not blocks.get(bot) or not blocks.get(CHAMPION):
        return f"strength: {records} holds no games of both {bot} and {CHAMPION}"
    kit_rows = [row for label in KITS for row in blocks.get(label, [])]
    lines = ["| bot | games | blocks | points/game | 95% (blocks) | timeouts | rejected "
             "| think ms: median, 99%, max |",
             "|---|---|---|---|---|---|---|---|"]
    for label, rows in [(CHAMPION, blocks[CHAMPION]), (bot, blocks[bot]),
                        ("kit (3, pooled)", kit_rows)]:
        mean, low, high, games = _interval(rows, 1)
        names = KITS if label.startswith("kit") else (label,)
        timeouts = sum(faults[n].get("timeout", 0) for n in names)
        rejected = sum(faults[n].get("illegal", 0) for n in names)
        times = [ms for n in names for ms in think.get(n, [])]
        lines.append(f"| {label} | {games} | {len(rows)} | {mean:.3f} | {low:.3f}-{high:.3f} "
                     f"| {timeouts} | {rejected} | {_think(times)} |")
    mean, low, high, games = _interval(blocks[f"{bot} - {CHAMPION}"], 2)
    lines.append("")
    lines.append(f"paired difference {bot} - {CHAMPION}: {mean:+.3f} points per game, "
                 f"95% {low:+.3f} to {high:+.3f} ({games} games, "
                 f"{len(blocks[bot])} blocks)")
    if len(blocks["clean"]) < len(blocks[bot]):
        mean, low, high, games = _interval(blocks["clean"], 3)
        lines.append(f"  in the {len(blocks['clean'])} blocks {CHAMPION} played without a fault: "
                     f"{mean:+.3f}, 95% {low:+.3f} to {high:+.3f} ({games} games)")
    other = {label: dict(kinds) for label, kinds in faults.items()
             if set(kinds) - {"timeout", "illegal"}}
    if other:
        lines.append(f"other faults: {json.dumps(other, sort_keys=True)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    if args.records is not None:
        if not args.records.is_file():
            print(f"strength: no records file {args.records}", file=sys.stderr)
            return 2
        print(report(args.records, args.bot))
        return 0
    problem = _missing(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    config = _config(args)
    sets = int(config["repeat"])  # type: ignore[call-overload]
    out = args.out or Path(tempfile.mkdtemp(prefix="arena-strength-"))
    out.mkdir(parents=True, exist_ok=True)
    path = out / "strength.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    print(f"{sets} duplicate sets x 5 rotations x {args.rounds} games = "
          f"{sets * 5 * args.rounds} games; {args.bot}, {CHAMPION}, 3 kit clients; "
          f"move limit {args.move_ms} ms; out {out}")
    print(f"load average before: {_load()} ({os.cpu_count()} cores)")
    start = time.monotonic()
    done = subprocess.run([str(ARENA if ARENA.exists() else shutil.which("arena") or "arena"),
                           "run", str(path), "--out", str(out), "--jobs", str(args.jobs),
                           "--quiet"], cwd=ROOT, check=False)
    wall = time.monotonic() - start
    print(f"load average after: {_load()}; {wall:.0f} s")
    records = out / "records.jsonl"
    if not records.is_file():
        print(f"strength: the run wrote no records (arena run exited {done.returncode})",
              file=sys.stderr)
        return 1
    print(report(records, args.bot))
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
