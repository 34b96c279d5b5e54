"""A config's YAML: parsed once, bounded, and where a key path sits in its file.

The text is composed into nodes once; the data is constructed from those nodes and the
nodes kept for line numbers. Aliases are expanded only in that data's readers (a YAML
alias shares its node), so before anything reads it the size of the document as expanded
is counted, without expanding it: an "alias bomb" (a few lines whose aliases expand to
billions of values) is refused in one line, in microseconds, as is a recursive alias.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

MAX_VALUES = 100_000
"""The most values (scalars, lists, mappings) a config may hold once its aliases are
expanded; a real config holds a few hundred."""


class YamlProblem(ValueError):
    """A YAML document that parses but cannot be read safely: ``line`` and what."""

    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        super().__init__(message)


def load_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The document's data and its root node (None when empty), parsing the text once.

    Raises ``yaml.YAMLError`` for bad YAML and :class:`YamlProblem` for a document too big
    once expanded, recursive, or nested deeper than Python can follow.
    """
    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
            if root is None:
                return None, None
            check_size(root)
            return loader.construct_document(root), root
        except RecursionError:
            raise YamlProblem(None, "the YAML is nested too deeply") from None
    finally:
        loader.dispose()


def check_size(root: yaml.Node) -> None:
    """Count the values of ``root`` as its aliases expand them (each shared node once, by
    memo): :class:`YamlProblem` beyond :data:`MAX_VALUES` or for a node that contains itself."""
    size: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            open_.discard(key)
            size[key] = 1 + sum(size[id(child)] for child in children)
            if size[key] > MAX_VALUES:
                raise YamlProblem(
                    node.start_mark.line + 1,
                    f"the YAML expands to more than {MAX_VALUES} values through its aliases "
                    "(&anchor and *alias); write the config out",
                )
            continue
        if key in size:
            continue
        if key in open_:
            raise YamlProblem(node.start_mark.line + 1, "a YAML alias refers to a value that "
                              "contains it (a recursive alias)")
        open_.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in size)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def node_line(root: yaml.Node | None, path: Sequence[str | int]) -> int | None:
    """The 1-based line of the deepest node of ``root`` that ``path`` reaches.

    Path elements that name nothing in the document (pydantic adds the tag of a
    tagged union, e.g. ``format.swiss.rounds``) are skipped, so the line is
    that of the nearest existing ancestor when a key is missing. For a key, the
    line of the key itself is given, which is where an editor should jump.
    """
    if root is None:
        return None
    node: yaml.Node = root
    line = node.start_mark.line + 1
    for element in path:
        found: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(element):
                    found = value_node
                    line = key_node.start_mark.line + 1
                    break
        elif (
            isinstance(node, yaml.SequenceNode)
            and isinstance(element, int)
            and 0 <= element < len(node.value)
        ):
            found = node.value[element]
            line = found.start_mark.line + 1
        if found is not None:
            node = found
    return line


def duplicate_keys(
    node: yaml.Node | None, path: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], int]]:
    found: list[tuple[tuple[str | int, ...], int]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                found.append(((*path, key), key_node.start_mark.line + 1))
            seen.add(key)
            found.extend(duplicate_keys(value_node, (*path, key)))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            found.extend(duplicate_keys(item, (*path, i)))
    return found


def yaml_problem(exc: yaml.YAMLError, text: str) -> tuple[int | None, str]:
    """A YAML parser error as its line number and one line."""
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
        line = text.count("\n", 0, exc.position) + 1
        problem = f"{exc.reason} (character #x{exc.character:04x})" if isinstance(
            exc.character, int) else str(exc.reason)
    else:
        problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        problem = f"{problem} ({context} started on line {context_mark.line + 1})"
    if line is None:
        problem = problem.split("\n in ")[0]
    problem = " ".join(str(problem).split())
    return line, f"YAML syntax error: {problem}"
