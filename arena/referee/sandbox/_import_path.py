"""Where a Python child process finds what the referee imports (its ``PYTHONPATH``), for
the child's environment and for what the sandbox shows it."""

from __future__ import annotations

import os
import sys

__all__ = ["import_path"]


def import_path() -> list[str]:
    """Where a Python child finds what the referee imports: the folders of the packages
    an editable install serves, then ``sys.path`` (the folders that exist)."""
    return _import_roots() + [p for p in sys.path if p and os.path.isdir(p)]


def _import_roots() -> list[str]:
    """Directories of loaded top-level packages that ``sys.path`` does not show.

    An editable install serves its packages through an import hook rather
    than a path entry; a child process must find those same packages, ahead
    of any same-named directory on the path (a test folder called ``bots``
    would otherwise shadow the real ``bots`` package in the child).
    """
    on_path = {os.path.abspath(p) for p in sys.path if p}
    roots: list[str] = []
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if "." in name or not isinstance(file, str) or os.path.basename(file) != "__init__.py":
            continue  # only regular packages: a stray module's folder could shadow anything
        package = os.path.dirname(os.path.abspath(file))
        if os.path.basename(package) != name:
            continue
        where = os.path.dirname(package)
        if where not in on_path and where not in roots:
            roots.append(where)
    return roots
