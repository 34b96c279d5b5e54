"""``arena new-bot``: write a ready bot package to start from, in Python or JavaScript."""

from __future__ import annotations

import re
from pathlib import Path

import click

from arena.cli import InputError, main

__all__ = ["new_bot_command", "write_bot"]

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}\Z")

_PY_PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "arena-{name}"
version = "0.1.0"
description = "{name}: a President bot for arena."
requires-python = ">=3.11"
dependencies = ["arena-president"]

# This entry point is how arena finds the bot: the plugin "{name}" is the module
# {module}, whose register_bots hook registers the bot "{name}". arena lists the bot by
# this line alone and imports the module only in the bot's own process.
[project.entry-points."arena.bots"]
{name} = "{module}"

[tool.setuptools]
packages = ["{module}"]
"""

_PY_MODULE = '''\
"""{name}: a President bot for arena (docs/writing-a-bot.md tells the whole story)."""

from __future__ import annotations

from arena import Bot, hookimpl
from arena.game import Move, View


class {cls}(Bot):
    """Plays its lowest legal move: the first play the engine lists, a pass only if forced."""

    description = "plays its lowest legal move"
    author = "you"

    def play(self, view: View) -> Move:
        """The first legal play (sets from the lowest rank up), else a pass."""
        moves = view.legal_moves()
        plays = [move for move in moves if move.kind != "pass"]
        return plays[0] if plays else Move.PASS


@hookimpl
def register_bots(register) -> None:  # type: ignore[no-untyped-def]
    """Tell arena about the bot: `arena bots` lists it, `arena match {name} random` plays it."""
    register("{name}", {cls})
'''

_PY_TEST = '''\
"""{name} plays a whole match against random bots, every move legal (pytest)."""

from __future__ import annotations

from arena.game import Rules
from arena.referee import play_bots
from bots import RandomBot
from {module} import {cls}


def test_{module}_plays_a_match_against_random() -> None:
    for preset in ("standard", "runs", "daifugo"):
        # The referee judges every answer: a bad one is a fault in the record.
        record = play_bots([{cls}(), RandomBot(), RandomBot(), RandomBot()],
                           Rules.preset(preset), seed=1)
        assert len(record["deals"]) == Rules.preset(preset).rounds
        assert [f for deal in record["deals"] for f in deal["faults"]] == []
'''

_PY_README = """\
# {name}

A President bot for [arena](https://pypi.org/project/arena-president/). It plays its
lowest legal move: a starting point, not yet an opponent.

## Next steps

1. Install it where arena is installed, editable so your changes count at once:
   `pip install -e .` Then `arena bots` lists `{name}`.
2. Play it: `arena match {name} random random greedy --preset runs`
3. Test it: `pytest tests` (a whole match against `random`, every move legal).
4. Make it smarter in `{module}/__init__.py`: `view` shows your hand, the pile, every
   play of the deal and the other players' card counts; `view.legal_moves()` lists what
   you may play. The built-in `greedy` and `mc` (in arena's `bots/` package) are worked
   examples; `Deal.from_view` lets a bot simulate the rest of the deal.
5. Measure it: `arena ab {name} greedy --preset runs` says whether it beats `greedy`.

docs/writing-a-bot.md, docs/api.md and docs/rules.md in arena tell the rest.
"""

_JS_BOT = """\
#!/usr/bin/env node
// {name}: a President bot for arena in JavaScript (Node.js 18+, no packages). It speaks
// the bot protocol (docs/protocol.md) on stdin/stdout and asks for the legal moves in its
// greeting, so every play request lists them ("pass", when legal, is last).
const readline = require("node:readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\\n");

// Choose a move from the legal ones; `view` is everything this seat may see.
function choose(legal, view) {{
  return legal[0]; // the lowest legal move: the first play listed, a pass only if forced
}}

readline.createInterface({{ input: process.stdin }}).on("line", (line) => {{
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.type === "start") {{
    send({{ type: "ready", id: msg.id, name: "{name}", version: "0.1.0", legal_moves: true }});
  }} else if (msg.type === "play") {{
    send({{ type: "move", id: msg.id, move: choose(msg.legal, msg.view) }});
  }} else if (msg.type === "exchange") {{
    // The hand comes sorted low to high: give back the lowest cards.
    send({{ type: "exchange", id: msg.id, cards: msg.view.hand.slice(0, msg.count) }});
  }} else if (msg.type === "quit") {{
    process.exit(0);
  }}
}});
"""

_JS_TEST = """\
// {name} plays a whole match against random bots through arena, with no fault:
//   node test.js        (needs `arena` on the PATH)
const {{ execFileSync }} = require("node:child_process");
const path = require("node:path");

const bot = `cmd:node ${{path.join(__dirname, "bot.js")}}`;
const out = execFileSync("arena", ["match", bot, "random", "random", "random",
  "--preset", "daifugo", "--seed", "1", "--json"], {{ encoding: "utf8" }});
const result = JSON.parse(out);
if (result.faults.length > 0) {{
  console.error("faults:", result.faults);
  process.exit(1);
}}
console.log(`ok: ranking ${{result.ranking}}, scores ${{result.scores}}`);
"""

_JS_README = """\
# {name}

A President bot for [arena](https://pypi.org/project/arena-president/) in JavaScript. It
asks arena for the legal moves, so it needs no move generator of its own, and plays its
lowest legal move: a starting point, not yet an opponent.

## Next steps

1. Play it: `arena match cmd:"node bot.js" random random greedy --preset runs`
2. Test it: `node test.js` (a whole match against `random` under the `daifugo` rules,
   with jokers, runs and revolutions, and no fault).
3. Make it smarter in `choose(legal, view)` in `bot.js`: `view` shows your hand, the
   pile, every play of the deal and the other players' card counts (docs/protocol.md).
4. Enter it in a tournament: a bot entry `command: node path/to/bot.js` in the config
   (docs/tournaments.md); measure it with `arena ab cmd:"node bot.js" greedy`.
"""


def write_bot(name: str, lang: str, parent: Path) -> Path:
    """Write the package of bot ``name`` in ``lang`` (``python`` or ``js``) under ``parent``.

    Returns the package folder, ``parent / name``. Raises ``ValueError`` for a name that
    cannot be a bot's and ``FileExistsError`` when the folder exists.
    """
    if not _NAME.match(name):
        raise ValueError(f"bot name {name!r}: use 1 to 40 lower-case letters, digits, '-' or "
                         f"'_', starting with a letter")
    if lang not in ("python", "js"):
        raise ValueError(f"unknown language {lang!r} (python or js)")
    folder = parent / name
    if folder.exists():
        raise FileExistsError(f"{folder} already exists; choose another name or folder")
    module = name.replace("-", "_")
    cls = "".join(part.capitalize() for part in re.split(r"[-_]", name)) + "Bot"
    values = {"name": name, "module": module, "cls": cls}
    if lang == "python":
        files = {
            "pyproject.toml": _PY_PYPROJECT,
            f"{module}/__init__.py": _PY_MODULE,
            f"tests/test_{module}.py": _PY_TEST,
            "README.md": _PY_README,
        }
    else:
        files = {"bot.js": _JS_BOT, "test.js": _JS_TEST, "README.md": _JS_README}
    for relative, template in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values))
    return folder


@click.command("new-bot")
@click.argument("name")
@click.option("--lang", type=click.Choice(["python", "js"]), default="python",
              show_default=True, help="The bot's language.")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="Where to create the NAME folder.")
def new_bot_command(name: str, lang: str, parent: Path) -> None:
    """Write a ready bot package NAME: a bot that plays its lowest legal move, a test, a README.

    Python: a pip-installable plugin (`pip install -e NAME`, then `arena bots` lists it).
    js: a command bot for Node.js that asks arena for the legal moves.
    """
    try:
        folder = write_bot(name, lang, parent)
    except (ValueError, FileExistsError) as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"cannot write {parent / name}: {exc.strerror or exc}") from None
    click.echo(f"wrote {folder}/ (see {folder / 'README.md'} for the next steps)")
    if lang == "python":
        click.echo(f"  pip install -e {folder} && arena bots {name} && pytest {folder / 'tests'}")
    else:
        click.echo(f"  node {folder / 'test.js'}")


main.add_command(new_bot_command)
