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
from typing import Any, NamedTuple

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
    weight: float  # default preference to keep (higher = kept more often); see MIX below

    def holds(self, p: int, q: int) -> bool:
        return self.relation(p, q)


TYPES: dict[str, ClueType] = {
    t.name: t
    for t in [
        ClueType("FoundAt", True, lambda p, h: p == h, "{A} is in the {h} house.", 0.38),
        ClueType("NotAt", True, lambda p, h: p != h, "{A} is not in the {h} house.", 0.64),
        ClueType("SameHouse", False, lambda p, q: p == q, "{A} is {B}.", 1.0),
        ClueType(
            "DirectLeft", False, lambda p, q: p == q - 1, "{A} is directly left of {B}.", 0.085
        ),
        ClueType(
            "DirectRight", False, lambda p, q: p == q + 1, "{A} is directly right of {B}.", 0.004
        ),
        ClueType(
            "SideBySide",
            False,
            lambda p, q: abs(p - q) == 1,
            "{A} and {B} are next to each other.",
            0.08,
        ),
        ClueType(
            "LeftOf", False, lambda p, q: p < q, "{A} is somewhere to the left of {B}.", 0.076
        ),
        ClueType(
            "RightOf", False, lambda p, q: p > q, "{A} is somewhere to the right of {B}.", 0.073
        ),
        ClueType(
            "OneBetween",
            False,
            lambda p, q: abs(p - q) == 2,
            "There is one house between {A} and {B}.",
            0.094,
        ),
        ClueType(
            "TwoBetween",
            False,
            lambda p, q: abs(p - q) == 3,
            "There are two houses between {A} and {B}.",
            0.069,
        ),
    ]
}


# The clue mix of ZebraLogic's public puzzles: shares of clue types over the 176 clues of the 16
# grid-mode puzzles in ZeroEval's released results (2×2 … 6×5; SameHouse 71, NotAt 25, FoundAt 17,
# LeftOf 15, DirectLeft 14, RightOf 13, OneBetween 9, SideBySide 8, TwoBetween 4; ZebraLogic writes
# no "directly right" clue), and its clues per puzzle over the 1,000 puzzles (paper §2.3: mean
# 10.4, median 9). The default weights above were fitted so that the realised mix over the paper's
# 25 sizes (N, M in 2..6) is within MIX_TOLERANCE of every share; FoundAt is kept less often than
# NotAt, as the paper samples the simpler clues for removal more often.
MIX: dict[str, float] = {
    "SameHouse": 0.403,
    "NotAt": 0.142,
    "FoundAt": 0.097,
    "LeftOf": 0.085,
    "DirectLeft": 0.080,
    "RightOf": 0.074,
    "OneBetween": 0.051,
    "SideBySide": 0.045,
    "TwoBetween": 0.023,
    "DirectRight": 0.0,
}
MIX_TOLERANCE = 0.03  # absolute, per clue type's share
CLUES_PER_PUZZLE = (10.4, 9)  # mean, median (paper §2.3)


class Clue(NamedTuple):
    """A clue over puzzle items (attribute index, value index); ``second`` is a house index for
    unary types and another item for binary ones.

    A named tuple: puzzles build, hash (the encoding cache) and compare clues by the dozen, which
    a tuple does in C; its ``repr`` is a dataclass's, which the Z3 measure's cache key reads.
    """

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
            return t.relation(p, self.second)
        if not isinstance(self.second, tuple):
            raise CertificationError(
                "certification failed: a binary clue's second part is an (attribute, value) pair"
            )
        return t.relation(p, pos[self.second[0]][self.second[1]])

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
