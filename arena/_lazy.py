"""Names a module imports only when they are first read (a module ``__getattr__``, PEP 562).

The top-level namespace and the referee's faces name what lives in heavier modules (the
tournament, the process hosts, the sandbox) without importing them: a run of inline bots
never loads trio's process machinery (docs/architecture.md, "Start-up"). Each keeps a table
of its lazy names and hands its ``__getattr__`` to :func:`lazy_attribute`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["lazy_attribute"]


def lazy_attribute(module: str, names: Mapping[str, str], name: str) -> Any:
    """``module``'s attribute ``name``, imported from where ``names`` says (``"pkg.mod"``,
    or ``"pkg.mod:attr"`` where the attribute is named otherwise there) and kept in
    ``module`` from then on; an ``AttributeError`` for a name not in ``names``."""
    where = names.get(name)
    if where is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    path, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(path), attribute or name)
    setattr(sys.modules[module], name, value)
    return value
