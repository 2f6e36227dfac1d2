"""The nine ZebraLogic clue types. Each has exactly one semantic definition — a relation on house
positions — used by the SAT encoder, the verifier and (through its template) the renderer.

Positions are 0-based internally; text uses "first … tenth". DirectLeft and DirectRight are one
type in the paper's list of nine (FoundAt, NotAt, SameHouse, DirectLeft/Right, SideBySide, LeftOf,
RightOf, OneBetween, TwoBetween) and two relations here.

Example:
    >>> TYPES["OneBetween"].holds(0, 2), TYPES["OneBetween"].holds(0, 1)
    (True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import CertificationError

ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
]


@dataclass(frozen=True)
class ClueType:
    name: str
    unary: bool  # (item, house) when true, (item, item) otherwise
    relation: Callable[[int, int], bool]
    template: str  # {A}, {B} noun phrases; {h} an ordinal
    weight: float  # default preference to keep (higher = kept more often)

    def holds(self, p: int, q: int) -> bool:
        return self.relation(p, q)


TYPES: dict[str, ClueType] = {
    t.name: t
    for t in [
        ClueType("FoundAt", True, lambda p, h: p == h, "{A} is in the {h} house.", 1.0),
        ClueType("NotAt", True, lambda p, h: p != h, "{A} is not in the {h} house.", 0.6),
        ClueType("SameHouse", False, lambda p, q: p == q, "{A} is {B}.", 1.0),
        ClueType("DirectLeft", False, lambda p, q: p == q - 1, "{A} is directly left of {B}.", 0.8),
        ClueType(
            "DirectRight", False, lambda p, q: p == q + 1, "{A} is directly right of {B}.", 0.8
        ),
        ClueType(
            "SideBySide",
            False,
            lambda p, q: abs(p - q) == 1,
            "{A} and {B} are next to each other.",
            0.7,
        ),
        ClueType("LeftOf", False, lambda p, q: p < q, "{A} is somewhere to the left of {B}.", 0.5),
        ClueType(
            "RightOf", False, lambda p, q: p > q, "{A} is somewhere to the right of {B}.", 0.5
        ),
        ClueType(
            "OneBetween",
            False,
            lambda p, q: abs(p - q) == 2,
            "There is one house between {A} and {B}.",
            0.6,
        ),
        ClueType(
            "TwoBetween",
            False,
            lambda p, q: abs(p - q) == 3,
            "There are two houses between {A} and {B}.",
            0.6,
        ),
    ]
}


@dataclass(frozen=True)
class Clue:
    """A clue over puzzle items (attribute index, value index); ``second`` is a house index for
    unary types and another item for binary ones."""

    type: str
    a: tuple[int, int]
    second: int | tuple[int, int]

    def holds(self, pos: Sequence[Sequence[int]]) -> bool:
        """True of the grid whose ``pos[attr][value]`` is the house of that value."""
        t = TYPES[self.type]
        p = pos[self.a[0]][self.a[1]]
        if t.unary:
            if not isinstance(self.second, int):
                raise CertificationError(
                    "certification failed: a unary clue's second part is a house number"
                )
            return t.holds(p, self.second)
        if not isinstance(self.second, tuple):
            raise CertificationError(
                "certification failed: a binary clue's second part is an (attribute, value) pair"
            )
        return t.holds(p, pos[self.second[0]][self.second[1]])

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "a": list(self.a)}
        if isinstance(self.second, int):
            d["house"] = self.second
        else:
            d["b"] = list(self.second)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Clue:
        second: int | tuple[int, int] = (
            int(d["house"]) if "house" in d else (int(d["b"][0]), int(d["b"][1]))
        )
        return cls(str(d["type"]), (int(d["a"][0]), int(d["a"][1])), second)

    def text(self, phrase: Callable[[int, int], str]) -> str:
        """English sentence; ``phrase(attr, value)`` names the person with that value."""
        t = TYPES[self.type]
        if t.unary:
            if not isinstance(self.second, int):
                raise CertificationError(
                    "certification failed: a unary clue's second part is a house number"
                )
            s = t.template.format(A=phrase(*self.a), h=ORDINALS[self.second])
        else:
            if not isinstance(self.second, tuple):
                raise CertificationError(
                    "certification failed: a binary clue's second part is an (attribute, value) pair"
                )
            s = t.template.format(A=phrase(*self.a), B=phrase(*self.second))
        return s[0].upper() + s[1:]
