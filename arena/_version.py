"""arena's version, in a module of its own so that any layer may read it without importing
the top package (the same number as ``version`` in pyproject.toml)."""

__version__ = "0.1.0"
