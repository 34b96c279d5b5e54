"""Command start-up: wall time of ``arena --help``, ``arena bots`` and others, each a fresh
process, against the floor of starting Python itself in the same run.

Every command imports only its own module (arena.cli's lazy group), so the command list and
the bot list do not wait for numpy, pydantic, trio or rich's live display. Prints the median
of --runs runs and the machine's load.

    python benchmarks/startup.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

CLI = "import sys; sys.argv[0] = 'arena'; from arena.cli import main; main()"
CASES: list[tuple[str, list[str]]] = [
    ("python -c pass (floor)", ["-c", "pass"]),
    ("arena --help", ["-c", CLI, "--help"]),
    ("arena bots", ["-c", CLI, "bots"]),
    ("arena validate configs/demo.yaml", ["-c", CLI, "validate", "configs/demo.yaml"]),
    ("arena match random random --rounds 1", ["-c", CLI, "match", "random", "random",
                                              "--rounds", "1", "--seed", "1"]),
]


def median_wall(args: list[str], runs: int) -> float:
    """Median wall time of ``python ARGS`` over ``runs`` fresh processes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    floor = None
    for label, args in CASES:
        wall = median_wall(args, runs)
        floor = wall if floor is None else floor
        print(f"{label:<40} {wall * 1000:7.0f} ms median of {runs} "
              f"({(wall - floor) * 1000:+.0f} ms over the floor)")
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
