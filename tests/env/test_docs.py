"""docs/learning.md stays true: the sizes it gives per preset and the fields it describes."""

from __future__ import annotations

from pathlib import Path

from arena.env import encoding
from arena.game import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_sizes_in_docs_learning_are_the_encodings() -> None:
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    for preset in Rules.PRESETS:
        rules = Rules.preset(preset)
        players = len(rules.points) if rules.points else 4
        coder = encoding(rules, players)
        row = f"| `{preset}` | {players} | {coder.action_size} | {coder.observation_size} |"
        assert row in text, f"docs/learning.md lacks the row {row}"
    for segment in encoding(Rules.preset("runs"), 4).segments:
        assert f"`{segment.name}`" in text, f"docs/learning.md does not describe {segment.name}"




def test_every_public_name_of_arena_env_says_what_it_is() -> None:
    import inspect

    import arena.env

    assert arena.env.__doc__
    missing = [name for name in arena.env.__all__
               if (inspect.isclass(getattr(arena.env, name))
                   or inspect.isfunction(getattr(arena.env, name)))
               and not getattr(arena.env, name).__doc__]
    assert missing == []
