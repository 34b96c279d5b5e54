"""Big record files made from real ones, for the benchmarks that read or render records.

Not a benchmark itself (``make bench`` runs ``benchmarks/[!_]*.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

from arena.tournament import TournamentConfig, load_config

DEMO = Path(__file__).resolve().parents[1] / "configs" / "demo.yaml"


def demo_config(repeat: int) -> TournamentConfig:
    """The demo tournament (configs/demo.yaml: its six bots, Runs rules, duplicate 4-seat round
    robin) played ``repeat`` times over: 15 tables x 4 seatings x ``repeat`` matches."""
    return load_config(DEMO).model_copy(update={"repeat": repeat})


def replicate(
    source: Path, target: Path, *, matches: int | None = None, deals: int | None = None
) -> tuple[int, int]:
    """Copies of the records in ``source`` under fresh match and set ids (``~1``, ``~2`` ...
    appended from the second copy on), written to ``target`` until ``matches`` matches or
    ``deals`` deals are written: (matches, deals) written."""
    templates: list[tuple[list[bytes], int]] = []
    for raw in source.read_bytes().splitlines():
        record = json.loads(raw)
        parts = [raw]
        for key in ("match_id", "set"):
            value = record[key]
            if value is None:
                continue
            field = b'"%s":%s' % (key.encode(), json.dumps(value).encode())
            assert raw.count(field) == 1, f"{key} of {record['match_id']} not found once"
            head, tail = parts.pop().split(field)
            parts += [head + b'"%s":"%s' % (key.encode(), value.encode()), b'"' + tail]
        templates.append((parts, len(record["deals"])))

    def enough(m: int, d: int) -> bool:
        return (matches is not None and m >= matches) or (deals is not None and d >= deals)

    written_matches = written_deals = copy = 0
    with target.open("wb") as out:
        while not enough(written_matches, written_deals):
            mark = b"~%d" % copy if copy else b""
            for parts, count in templates:
                if enough(written_matches, written_deals):
                    break
                out.write(mark.join(parts) + b"\n")
                written_matches += 1
                written_deals += count
            copy += 1
    return written_matches, written_deals
