"""Benchmark: how the server, `arena ratings` and `arena report` grow with the records.

    .venv/bin/python benchmarks/growth.py [--sizes 1000,10000,100000,1000000]
        [--timeout 300] [--report-max 1000000] [--tmp DIR] [--measure serve,ratings,report]
        [--replays N]
    .venv/bin/python benchmarks/growth.py --served DIR


For each size N, a run folder of N matches (the demo tournament's records copied under fresh
ids, ``benchmarks/_records.py``) and its config; then, timed:

- serve: the server's first read of the folder (``RunFolder.refresh`` until it caught up:
  every record parsed),
  the first match list (``/api/matches``' entries, each computed once), the next list after
  one more record (what changed only: ``MatchIndex.changes``), and a page of the API
  (``last=200``), with the server's memory (its process's peak RSS growth);
- ``arena ratings OUT --json --resamples 0`` and ``arena report OUT``, whole commands
  (start-up included), each given ``--timeout`` seconds (the report only up to
  ``--report-max`` matches), and the CPU seconds each took, its workers included (``cpu``:
  what the machine's load does not change). ``--replays N`` is given to the report.

``--measure`` names what is measured (all three by default; a column not measured shows -).

``--served DIR``: ``arena serve DIR`` itself, over HTTP, on a run folder as it is (a large
one made once and kept, as a visitor finds it): the seconds from the command's start until
it listens, until each of what the run's page asks (``/``, its script, ``/api/messages``,
``/api/standings``, ``/api/matches?last=400``) first answers, asked at once, and until the
match list holds every match of the folder (the first read over); then the median answer
of each (5 asks), of pages of the list (``offset``/``limit`` at the start, the middle and
the end) and of one match (``/api/matches/ID``); the server's CPU seconds and peak RSS.

Each size's folder is written in ``--tmp`` (a fresh folder in it, removed at the end) and
removed once measured; a size whose records would not fit in the free space there (with a
tenth to spare) is refused before it is written. The load average is printed beside each
size: compare sizes measured in the same run.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from _records import demo_config, replicate

from arena.tournament import run_tournament
from arena.web import RunFolder

ROOT = Path(__file__).resolve().parents[1]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve_times(folder: Path, extra: bytes) -> tuple[float, float, float, float, float]:
    """First read, first list, the list's changes after one more record, a page; RSS growth."""
    rss = _rss_mb()
    t0 = time.perf_counter()
    run = RunFolder(folder)
    while run.refresh()[0]:  # a refresh parses at most 4 MB: as the server's steps do
        pass
    read = time.perf_counter() - t0
    t0 = time.perf_counter()
    run.index.entries()
    listed = time.perf_counter() - t0
    run.index.changes()
    with (folder / "records.jsonl").open("ab") as file:
        file.write(extra)
    t0 = time.perf_counter()
    run.refresh()
    changed, _ = run.index.changes()
    delta = time.perf_counter() - t0
    assert len(changed) >= 1
    t0 = time.perf_counter()
    matches, _ = run.index.page(last=200)  # /api/matches?last=200
    page = time.perf_counter() - t0
    assert len(matches) == 200
    return read, listed, delta, page, _rss_mb() - rss


def shown(value: float | None, timeout: float) -> str:
    """A command's seconds, or that it took longer than ``timeout``."""
    return f"{value:9.1f}" if value is not None else f"{'>' + str(int(timeout)):>9}"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(args: list[str], timeout: float) -> tuple[float | None, float]:
    """A whole command's seconds (None past ``timeout``), and the CPU seconds it and its
    workers took (what the machine's load does not change)."""
    t0, cpu = time.perf_counter(), _children_cpu()
    try:
        subprocess.run([sys.executable, "-c", "from arena.cli import main; main()", *args],
                       check=True, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, _children_cpu() - cpu
    return time.perf_counter() - t0, _children_cpu() - cpu


def timed(args: list[str], timeout: float) -> str:
    """A command's seconds and its CPU seconds, as the table shows them."""
    seconds, cpu = command(args, timeout)
    return f"{shown(seconds, timeout)} {cpu:>7.1f}"


VISITED = ["/", "/static/live.js", "/api/messages?lang=en", "/api/standings",
           "/api/matches?last=400"]
"""What the run's page asks as it opens (live.html, i18n.js, live.js), in order."""


def _ask(url: str) -> tuple[float, bytes]:
    """Seconds to the whole answer of a GET, and its body."""
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=3600) as answer:
        body: bytes = answer.read()
    return time.perf_counter() - t0, body


def _process(pid: int) -> tuple[float, float]:
    """A process's CPU seconds and peak RSS (MB), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text()
    peak = re.search(r"VmHWM:\s+(\d+) kB", status)
    return cpu, (int(peak.group(1)) / 1024 if peak else float("nan"))


def serve_http(folder: Path) -> None:
    """``arena serve folder`` over HTTP, as the module's docstring says."""
    matches = sum(1 for _ in (folder / "records.jsonl").open("rb"))
    print(f"arena serve {folder}: {matches} matches, load average {os.getloadavg()[0]:.2f}",
          flush=True)
    t0 = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()", "serve", str(folder),
         "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r" on (http://\S+?)/ ", server.stdout.readline())
        assert found, "arena serve printed no address"
        url = found.group(1)
        print(f"{'listening':<32} {time.perf_counter() - t0:8.2f} s", flush=True)
        with concurrent.futures.ThreadPoolExecutor(len(VISITED)) as pool:  # as a page asks
            def first(path: str) -> float:
                _ask(url + path)
                return time.perf_counter() - t0
            for path, seconds in zip(VISITED, pool.map(first, VISITED), strict=True):
                print(f"first answer {path:<23} {seconds:8.2f} s", flush=True)
        while True:
            _, body = _ask(url + "/api/matches?limit=1")  # total: the whole list's
            if json.loads(body)["total"] >= matches:
                break
            time.sleep(1.0)
        cpu, peak = _process(server.pid)
        print(f"{'every match listed':<32} {time.perf_counter() - t0:8.2f} s "
              f"(server CPU {cpu:.1f} s, peak RSS {peak:.0f} MB, load "
              f"{os.getloadavg()[0]:.2f})", flush=True)
        _, body = _ask(url + "/api/matches?limit=1")  # the copies' ids (~N) are not served
        first = json.loads(body)["matches"][0]["id"]
        asked = [*VISITED, "/api/matches?offset=0&limit=200",
                 f"/api/matches?offset={matches // 2}&limit=200",
                 f"/api/matches?offset={matches - 200}&limit=200",
                 "/api/matches?state=error&last=200", f"/api/matches/{first}"]
        for path in asked:
            times = [_ask(url + path)[0] for _ in range(5)]
            print(f"median answer {path[:40]:<40} {statistics.median(times) * 1000:9.1f} ms",
                  flush=True)
        cpu, peak = _process(server.pid)
        print(f"server CPU {cpu:.1f} s, peak RSS {peak:.0f} MB; load average "
              f"{os.getloadavg()[0]:.2f}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--report-max", type=int, default=1_000_000)
    parser.add_argument("--tmp", type=Path, default=None)
    parser.add_argument("--measure", default="serve,ratings,report")
    parser.add_argument("--replays", type=int, default=None,
                        help="arena report's --replays (default: its own).")
    parser.add_argument("--served", type=Path, default=None, metavar="DIR",
                        help="Measure arena serve DIR over HTTP instead (a run folder kept).")
    options = parser.parse_args()
    if options.served is not None:
        serve_http(options.served)
        return
    measured = set(options.measure.split(","))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'matches':>8} {'MB':>7} {'read s':>7} {'list s':>7} {'change ms':>9} "
          f"{'page ms':>8} {'RSS MB':>7} {'ratings s':>9} {'cpu':>7} {'report s':>9} {'cpu':>7} "
          f"{'load':>5}")
    with tempfile.TemporaryDirectory(dir=options.tmp) as tmp:
        source = Path(tmp) / "source"
        run_tournament(demo_config(1), out=source, jobs=1)
        lines = (source / "records.jsonl").read_bytes().splitlines(keepends=True)
        per_match = sum(map(len, lines)) / len(lines)
        for size in [int(n) for n in options.sizes.split(",")]:
            free = shutil.disk_usage(tmp).free
            if size * per_match * 1.1 > free:
                print(f"{size:>8} matches: {size * per_match / 2**30:.1f} GB do not fit in the "
                      f"{free / 2**30:.1f} GB free in {tmp}", flush=True)
                continue
            folder = Path(tmp) / f"n{size}"
            folder.mkdir()
            shutil.copyfile(source / "config.yaml", folder / "config.yaml")
            replicate(source / "records.jsonl", folder / "records.jsonl", matches=size)
            extra = lines[0].replace(b'"match_id":"', b'"match_id":"extra-', 1)
            megabytes = (folder / "records.jsonl").stat().st_size / 2**20
            served = f"{'-':>7} {'-':>7} {'-':>9} {'-':>8} {'-':>7}"
            if "serve" in measured:
                read, listed, delta, page, rss = serve_times(folder, extra)
                served = (f"{read:>7.2f} {listed:>7.2f} {delta * 1000:>9.1f} "
                          f"{page * 1000:>8.2f} {rss:>7.0f}")
            limit = options.timeout
            ratings = f"{'-':>9} {'-':>7}"
            if "ratings" in measured:
                ratings = timed(["ratings", str(folder), "--json", "--resamples", "0"], limit)
            report = f"{'-':>9} {'-':>7}"
            if "report" in measured and size <= options.report_max:
                replays = [] if options.replays is None else ["--replays", str(options.replays)]
                report = timed(["report", str(folder), *replays], limit)
            print(f"{size:>8} {megabytes:>7.1f} {served} {ratings} {report} "
                  f"{os.getloadavg()[0]:>5.1f}", flush=True)
            shutil.rmtree(folder)


if __name__ == "__main__":
    main()
