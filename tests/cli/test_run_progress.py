"""Progress of arena run: labelled elapsed time, time left, a rate that is not fooled by the
first burst, and plain lines when there is no terminal."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console
from rich.progress import Progress

from arena.cli import main
from arena.cli.progress import (
    LineReporter,
    MatchBar,
    RateMeter,
    TimingColumn,
    clock_text,
    plan_lines,
    progress_bar,
)
from arena.tournament import Standings


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_rate_from_the_first_burst_and_a_rate_over_the_run_after() -> None:
    clock = FakeClock()
    meter = RateMeter(clock, warmup=2.0)
    meter.start(0)
    clock.now += 0.005
    for done in range(1, 11):  # ten workers finish together at once
        meter.update(done)
    assert meter.rate() is None and meter.remaining(100) is None
    clock.now = 102.5
    assert meter.rate() == 10 / 2.5
    assert meter.remaining(100) == 90 / 4.0


def test_the_rate_follows_the_last_window_and_falls_while_nothing_finishes() -> None:
    clock = FakeClock()
    meter = RateMeter(clock, window=30.0)
    meter.start(500)  # resumed matches do not count
    for done in range(501, 601):  # 100 matches, one every 0.1 s
        clock.now += 0.1
        meter.update(done)
    assert abs((meter.rate() or 0) - 10.0) < 1e-9
    for done in range(601, 661):  # then one a second for a minute
        clock.now += 1.0
        meter.update(done)
    assert abs((meter.rate() or 0) - 1.0) < 0.05
    clock.now += 30.0  # stalled
    assert (meter.rate() or 0) < 0.6


def test_the_timing_text_is_labelled() -> None:
    clock = FakeClock()
    meter = RateMeter(clock)
    meter.start(0)
    clock.now += 84
    meter.update(84)
    assert meter.describe(168) == "elapsed 0:01:24  left 0:01:24  1.0 matches/s"
    assert clock_text(None) == "-:--:--" and clock_text(3725) == "1:02:05"
    progress = Progress(TimingColumn(meter))
    task = progress.add_task("x", total=168)
    assert str(TimingColumn(meter).render(progress.tasks[task])).startswith("elapsed 0:01:24")


def test_without_a_terminal_a_line_every_tenth_and_every_few_seconds() -> None:
    clock = FakeClock()
    out = io.StringIO()
    reporter = LineReporter(Console(file=out, width=200), "demo", every_s=5.0, clock=clock)
    reporter.start(1000, 0, Standings([]), 2)
    for _ in range(200):  # 20% of the run in 50 s: a line per 5 s and per tenth
        clock.now += 0.25
        reporter.match({}, Standings([]))
    lines = out.getvalue().splitlines()
    assert lines[0] == "1000 matches on 2 worker(s)"
    progress = lines[1:]
    assert len(progress) == 10  # at 5, 10, ..., 50 s; the tenths fall on the same lines
    assert progress[-1] == ("demo: 200/1000 matches (20.0%)  elapsed 0:00:50  left 0:03:20  "
                            "4.0 matches/s")


def test_arena_run_without_a_terminal_prints_progress_lines(tmp_path: Path) -> None:
    config = tmp_path / "t.yaml"
    config.write_text("name: t\nplayers: 2\nrules: {rounds: 1}\nrepeat: 10\njobs: 1\n"
                      "bots: [greedy, random]\n")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("t: ")]
    assert [line.split()[1] for line in lines] == [f"{i}/10" for i in range(1, 11)]
    assert all(" elapsed " in line and " left " in line and "matches/s" in line
               for line in lines)


def test_a_league_says_its_matches_are_chosen_round_by_round() -> None:
    """A league's length is not known in advance: no "0 matches", no time left."""
    assert plan_lines(0, 0, 2, bounded=False) == [
        "matches chosen round by round, on 2 worker(s)"]
    assert plan_lines(0, 12, 1, bounded=False)[0] == "resuming: 12 matches already recorded"
    assert plan_lines(60, 5, 2, bounded=True) == [
        "resuming: 5 of 60 matches already recorded", "at most 60 matches on 2 worker(s)"]
    clock = FakeClock()
    out = io.StringIO()
    reporter = LineReporter(Console(file=out, width=200), "season", every_s=5.0, clock=clock)
    reporter.start(0, 0, Standings([]), 2)
    for _ in range(40):
        clock.now += 0.25
        reporter.match({}, Standings([]))
    lines = out.getvalue().splitlines()
    assert lines[0] == "matches chosen round by round, on 2 worker(s)"
    assert lines[1].startswith("season: 20 matches  elapsed 0:00:05  ")
    assert "left" not in lines[1] and "/0" not in lines[1]


def test_a_leagues_line_in_a_log_comes_at_most_every_5_seconds_and_at_its_stop() -> None:
    from arena.tournament import LeagueStatus

    clock = FakeClock()
    out = io.StringIO()
    reporter = LineReporter(Console(file=out, width=100), "lg", clock=clock)
    for round_ in range(30):  # a round every half second
        stop = "deals" if round_ == 29 else None
        reporter.league(LeagueStatus(round=round_, deals=16 * round_, top=3, confident=None,
                                     p_top=None, stop=stop, order=[], ratings=[]))
        clock.now += 0.5
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "lg: round 0", "lg: round 10", "lg: round 20", "lg: round 29"]
    assert lines[-1].endswith("stopped (deals)")


def test_the_live_bar_keeps_to_one_line_of_a_narrow_terminal() -> None:
    """At 60 columns (and 40) the bar shrinks or goes and the timing drops its least telling
    parts, a long name is cut: one line, never wrapped; at 120 the whole bar is there."""
    from arena.cli._run import LiveReporter

    for name in ("demo", "a-very-long-tournament-name-indeed-x"):
        for width in (40, 60, 80, 120):
            out = io.StringIO()
            console = Console(file=out, width=width, force_terminal=True, color_system=None)
            reporter = LiveReporter(console, name)
            reporter.meter.clock = FakeClock()  # elapsed 0:00:00 however slow the rendering
            reporter.meter.start(0)
            task = reporter.progress.add_task(name, total=1800)
            reporter.progress.update(task, completed=1200)
            console.print(reporter.progress.get_renderable())
            lines = out.getvalue().splitlines()
            assert len(lines) == 1 and len(lines[0]) <= width, (width, lines)
            assert "1200/1800" in lines[0] and "left -:--:--" in lines[0], (width, lines)
            assert ("━" in lines[0]) == (width >= 70 + len(name) - 4), (width, lines)
            if width >= 60 + len(name) - 4:
                assert "elapsed 0:00:00  left -:--:--  -- matches/s" in lines[0]


def _terminal(width: int, out: io.StringIO | None = None) -> Console:
    return Console(file=out or io.StringIO(), width=width, force_terminal=True,
                   color_system=None)


def test_the_training_bar_is_the_run_bar_and_keeps_to_one_line_of_a_narrow_terminal() -> None:
    """python -m arena.train's improvement draws arena run's bar: where the columns are few
    the bar goes and the timing drops its least telling parts, on one line; at 80 the timing
    is whole, at 120 the bar is there too, the matches labelled as the run's are."""
    for width in (40, 60, 80, 120):
        bar = MatchBar(_terminal(width), print)
        bar.meter.clock = FakeClock()  # elapsed 0:00:00 however slow the rendering
        bar(1200, 1800, "improve: step 3/4")
        assert bar.progress is not None
        out = io.StringIO()
        _terminal(width, out).print(bar.progress.get_renderable())
        bar.stop()
        lines = out.getvalue().splitlines()
        assert len(lines) == 1 and len(lines[0]) <= width, (width, lines)
        assert "1200/1800" in lines[0] and "left -:--:--" in lines[0], (width, lines)
        assert ("━" in lines[0]) == (width == 120), (width, lines)
        if width >= 80:
            assert lines[0].startswith("improve: step 3/4")
            assert "elapsed 0:00:00  left -:--:--  -- matches/s" in lines[0]


def test_the_training_bar_prints_the_lines_above_it_and_goes_when_all_are_played() -> None:
    echoed: list[str] = []
    out = io.StringIO()
    with progress_bar(echoed.append, out=_terminal(80), err=_terminal(80, out)) as (line, bar):
        assert isinstance(bar, MatchBar)
        line("improve: cloned, held out 0.500")  # before the bar: through echo
        bar(1, 3, "improve: step 1/1")
        line("improve: step 1/1, points 2.00 / 1.00")  # above the bar, on its console
        assert bar.progress is not None
        bar(3, 3, "improve: done")
        assert bar.progress is None  # all played: the bar is taken away
        line("export: done")
    assert echoed == ["improve: cloned, held out 0.500", "export: done"]
    assert "improve: step 1/1, points 2.00 / 1.00" in out.getvalue()


def test_without_a_terminal_the_training_stage_prints_its_lines_alone() -> None:
    """To a file or a pipe (stdout or stderr not a terminal): no bar, the lines through echo
    as they were, each step's line being its progress."""
    for out, err in ((Console(file=io.StringIO()), _terminal(80)),
                     (_terminal(80), Console(file=io.StringIO()))):
        echoed: list[str] = []
        with progress_bar(echoed.append, out=out, err=err) as (line, bar):
            assert bar is None
            line("improve: step 1/2, points 2.00 / 1.00")
        assert echoed == ["improve: step 1/2, points 2.00 / 1.00"]
