# `from __future__ import annotations`: annotations stay strings in
# __annotations__, forward references to classes defined later work, and
# typing.get_type_hints turns them back into objects.
from __future__ import annotations

import __future__
import typing
from dataclasses import dataclass, fields


@dataclass
class Node:
    name: str
    children: list[Node]
    parent: Node | None = None

    def add(self, child: Node) -> Node:
        child.parent = self
        self.children.append(child)
        return child


def build(spec: dict[str, list[str]]) -> Tree:
    return Tree(spec)


class Tree:
    def __init__(self, spec: dict[str, list[str]]) -> None:
        self.spec = spec


print(Node.__annotations__)
print(build.__annotations__)
print([(f.name, f.type) for f in fields(Node)])
print(typing.get_type_hints(build))
print(typing.get_type_hints(Node.add))
root = Node("root", [])
leaf = root.add(Node("leaf", []))
print(leaf.parent.name, [c.name for c in root.children])
print(__future__.annotations.compiler_flag > 0, __future__.annotations.mandatory is None or True)
print(sorted(__future__.all_feature_names)[:3])
print(__future__.division.getOptionalRelease()[:2], __future__.division.getMandatoryRelease()[:2])
