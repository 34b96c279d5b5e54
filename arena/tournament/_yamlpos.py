"""Where a key path of a YAML document sits in its file, for error messages."""

from __future__ import annotations

from collections.abc import Sequence

import yaml


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
