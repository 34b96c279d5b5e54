"""``arena match``: play one match between bots and show (or record) the result."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click
import yaml

from arena.cli import main
from arena.cli._closing import match_closing
from arena.cli._seats import seat_specs
from arena.cli._start_checks import refuse_unstartable, sandbox_option, sandboxed
from arena.game import Rules
from arena.records import RecordWriter, configure_logging
from arena.referee import Limits, MatchSpec, MatchSpecError, Seat, run_match
from arena.seeds import SEED_LIMIT, secret_seed


def _fail(message: str) -> NoReturn:
    """Bad input: one line on stderr and exit status 2, never a traceback."""
    click.echo(f"arena match: error: {message}", err=True)
    sys.exit(2)


def _rules(preset: str | None, pairs: Sequence[str], rounds: int | None) -> Rules:
    mapping: dict[str, Any] = {}
    if preset:
        mapping["preset"] = preset
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            _fail(f"--rules wants KEY=VALUE, got {pair!r}")
        try:
            mapping[key.strip()] = yaml.safe_load(text) if text.strip() else None
        except yaml.YAMLError:
            _fail(f"--rules {key.strip()}: cannot read value {text!r}")
    if rounds is not None:
        mapping["rounds"] = rounds
    try:
        return Rules.from_dict(mapping)
    except (TypeError, ValueError) as exc:
        _fail(f"bad rules: {exc}")


def _seats(bots: Sequence[str], host: str | None) -> list[Seat]:
    """The seats (``arena.cli._seats.seat_specs``); a bad one exits with status 2."""
    try:
        return [Seat.from_dict(seat) for seat in seat_specs(bots, host)]
    except ValueError as exc:  # MatchSpecError included
        _fail(str(exc))


def _summary(record: dict[str, Any]) -> dict[str, Any]:
    faults = [
        {key: fault.get(key) for key in ("deal", "seat", "bot", "kind", "move", "detail")}
        for deal in record["deals"]
        for fault in deal["faults"]
    ]
    return {
        "match_id": record["match_id"],
        "seed": record["seed"],
        "seats": [seat["label"] for seat in record["seats"]],
        "ranking": record["ranking"],
        "scores": record["scores"],
        "faults": faults,
        "decisions": record["decisions"],
        "wall_s": record["wall_s"],
    }


def _print_readable(record: dict[str, Any], summary: dict[str, Any]) -> None:
    labels = summary["seats"]
    rules = record["rules"]
    title = "match" if record["match_id"] == "match" else f"match {record['match_id']}"
    click.echo(
        f"{title}: {len(labels)} players, {len(record['deals'])} deal(s), "
        f"seed {record['seed']}"
    )
    width = max(len(label) for label in labels)
    fault_count = [0] * len(labels)
    for fault in summary["faults"]:
        fault_count[fault["seat"]] += 1
    places = [[deal["finish_order"].index(seat) + 1 for deal in record["deals"]]
              for seat in range(len(labels))]
    click.echo(f"  {'place':<5}  {'seat':<4}  {'bot':<{width}}  {'points':>6}  faults  places")
    for place, seat in enumerate(summary["ranking"], start=1):
        click.echo(
            f"  {place:<5}  {seat:<4}  {labels[seat]:<{width}}  {summary['scores'][seat]:>6}  "
            f"{fault_count[seat]:>6}  {' '.join(str(p) for p in places[seat])}"
        )
    for fault in summary["faults"]:
        detail = fault["detail"] or ""
        detail = detail if len(detail) <= 160 else detail[:160] + "..."
        click.echo(
            f"  fault: deal {fault['deal']} move {fault['move']} seat {fault['seat']} "
            f"({fault['bot']}): {fault['kind']}: {detail}"
        )
    on_fault = rules.get("on_fault", "forfeit")
    click.echo(
        f"  {summary['decisions']} decisions in {summary['wall_s']:.2f} s (on_fault: {on_fault})"
    )


@click.command("match")
@click.argument("bots", nargs=-1, required=True)
@click.option("--preset", help="Rules preset: standard, runs, daifugo, uecda.")
@click.option("--rules", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="Set one rules option (repeatable), e.g. --rules jokers=2.")
@click.option("--rounds", type=click.IntRange(min=1), help="Deals in the match.")
@click.option("--seed", type=click.IntRange(min=0, max=SEED_LIMIT - 1),
              help="Match seed (random if omitted).")
@click.option("--host", type=click.Choice(["inline", "process"]), default=None,
              help="Where installed bots run (default: inline for the built-in bots, "
              "process for a third-party plugin's: inline runs its code in arena's own "
              "process, a trust decision; docs/security.md).")
@click.option("--move-ms", type=int, default=Limits().move_ms, show_default=True,
              help="Time per decision in milliseconds.")
@click.option("--bank-ms", type=int, default=None,
              help="Chess-clock reserve per seat for the whole match, in milliseconds.")
@click.option("--records", "records_path", type=click.Path(dir_okay=False),
              help="Append the match record (one JSON line) to this file.")
@click.option("--match-id", default="match", show_default=True, help="Id written in the record.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
@click.option("--verbose", "-v", is_flag=True, help="Print each answer as the bots give it.")
@click.option("--trace", is_flag=True,
              help="Print every protocol line to and from process and command bots.")
@sandbox_option
def match_command(
    bots: tuple[str, ...],
    preset: str | None,
    rule_pairs: tuple[str, ...],
    rounds: int | None,
    seed: int | None,
    host: str | None,
    move_ms: int,
    bank_ms: int | None,
    records_path: str | None,
    match_id: str,
    as_json: bool,
    verbose: bool = False,
    trace: bool = False,
    sandbox: bool | None = None,
) -> None:
    """Play one match between BOTs (2 to 8) and print the result.

    A BOT is a registered bot name (see `arena bots`), a `module:Class`
    reference (found from the current directory too), or
    `cmd:<command line>` for a program speaking the bot protocol
    (docs/protocol.md), or `cmd-uecda:<command line>` for a UECda 20070
    client ({host} and {port} filled in, docs/uecda.md); `LABEL=` in front names the seat, as in
    `node=cmd:"node bot.js"`. The same seed gives the same match.
    """
    if not 2 <= len(bots) <= 8:
        _fail(f"a match needs 2 to 8 bots, got {len(bots)}")
    seats = _seats(bots, host)
    if any(seat.name is not None and ":" in seat.name for seat in seats):
        # `module:Class` bots are found from the current directory, as with `python -m`.
        sys.path.insert(0, os.getcwd())
    configure_logging("ERROR")  # faults are printed below; warnings would repeat them
    sandbox = sandboxed(sandbox)
    rules = _rules(preset, rule_pairs, rounds)
    if seed is None:
        seed = secret_seed()
    try:
        limits = Limits(move_ms=move_ms, bank_ms=bank_ms, sandbox=sandbox)
        spec = MatchSpec(match_id=match_id, seed=seed, seats=tuple(seats), rules=rules,
                         limits=limits)
    except ValueError as exc:  # MatchSpecError included
        _fail(str(exc))
    _play_and_show(spec, records_path, as_json=as_json, verbose=verbose, trace=trace)


def _play_and_show(spec: MatchSpec, records_path: str | None, *, as_json: bool,
                   verbose: bool, trace: bool) -> None:
    """Start every bot once, open the records file, play the match, record and print it."""
    try:
        refuse_unstartable(spec.seats, rules=spec.rules, limits=spec.limits)
    except MatchSpecError as exc:
        _fail(str(exc))
    writer = None
    if records_path is not None:
        try:
            writer = RecordWriter(records_path)
        except OSError as exc:
            _fail(f"cannot open records file {records_path!r}: {exc.strerror or exc}")
    try:
        hosts = None
        if verbose or trace:  # printed on stderr under --json, which owns stdout
            from arena.cli._watch import watched_hosts

            hosts = watched_hosts(spec, verbose=verbose, trace=trace, err=as_json)
        record = run_match(spec, hosts=hosts)
    except MatchSpecError as exc:
        _fail(str(exc))
    if writer is not None:
        with writer:
            writer.write(record)
    summary = _summary(record)
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print_readable(record, summary)
    match_closing(record, quiet=as_json)


main.add_command(match_command)
