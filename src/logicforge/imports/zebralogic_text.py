"""ZebraLogic's puzzle text read back into logicforge's clues: the houses, the attributes and
their values, and each clue sentence matched to a clue type over mentioned values (stems,
aliases, the puzzle's own introductions), refused with the sentence when it is not one of the
public templates; :func:`solve_unique` proves the grid unique.

Example:
    >>> parse_clue("The dog owner is in the second house.", [["dog", "cat"]], ["pet"]).type
    'FoundAt'
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import LogicforgeError
from ..families.zebra.clues import ORDINALS, Clue
from ..families.zebra.encoding import clue_clauses, structure_clauses, var
from .limits import current

# ZebraLogic's intro line → the answer key its prompts use (from the public puzzles' templates)
KEYS = {
    "Each person has a unique name": "Name",
    "Each mother is accompanied by their child": "Children",
    "Each person has a favorite color": "Color",
    "Each person has a unique favorite color": "Color",
    "Each person has a unique birthday month": "Birthday",
    "Each person has a unique hobby": "Hobby",
    "Each person has a unique level of education": "Education",
    "Each person has a unique type of pet": "Pet",
    "Each person has an occupation": "Occupation",
    "Each person lives in a unique style of house": "HouseStyle",
    "Each person prefers a unique type of vacation": "Vacation",
    "Everyone has a unique favorite cigar": "Cigar",
    "Everyone has something unique for lunch": "Food",
    "People have unique favorite book genres": "BookGenre",
    "People have unique favorite music genres": "MusicGenre",
    "People have unique favorite sports": "FavoriteSport",
    "People have unique heights": "Height",
    "People own unique car models": "CarModel",
    "People use unique phone models": "PhoneModel",
    "The mothers' names in different houses are unique": "Mother",
    "The people are of nationalities": "Nationality",
    "The people keep unique animals": "Animal",
    "They all have a unique favorite flower": "Flower",
}
UNARY = [("NotAt", r"\bis not in the (\w+) house\b"), ("FoundAt", r"\bis in the (\w+) house\b")]
BINARY = [
    ("DirectLeft", r"\bis directly left of\b"),
    ("DirectRight", r"\bis directly right of\b"),
    ("SideBySide", r"\bare next to each other\b"),
    ("LeftOf", r"\bis somewhere to the left of\b"),
    ("RightOf", r"\bis somewhere to the right of\b"),
    ("OneBetween", r"^there is one house between\b"),
    ("TwoBetween", r"^there are two houses between\b"),
]
_STOP = {
    *("a", "an", "the", "of", "in", "is", "are", "each", "every", "person", "people"),
    *("everyone", "they", "all", "has", "have", "unique", "different", "for", "by"),
    *("their", "who", "whose", "one", "and", "to"),
}
_TOKEN = re.compile(r"[a-z0-9]+")
# values whose adjective is not a prefix of them ("the Swedish person" for ``swede``)
ALIASES = {
    "swede": "swedish",
    "dane": "danish",
    "spaniard": "spanish",
    "dutchman": "dutch",
    "pole": "polish",
    "finn": "finnish",
    "scot": "scottish",
    "brit": "british",
    "turk": "turkish",
    "swiss": "swiss",
}


class PuzzleError(LogicforgeError):
    """A puzzle text that cannot be read as ZebraLogic's (the message names the clue)."""


def _stem(w: str) -> str:
    w = w.lower().replace("'s", "").replace("'", "")
    return w[:-1] if len(w) > 3 and w.endswith("s") else w


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text.lower())]


@lru_cache(maxsize=4096)
def _value_tokens(value: str) -> list[str]:
    return [t for t, _, _ in _tokens(value)]


def _mentions(
    sentence: str, values: list[list[str]], intros: list[str]
) -> list[tuple[int, int, int]]:
    """(attribute, value, start) of each person named in ``sentence``, in order."""
    toks = _tokens(sentence)
    cands: list[tuple[int, int, int, int, int, int]] = []  # (-len, -exact, i, j, a, v)
    for a, vals in enumerate(values):
        for v, value in enumerate(vals):
            vt = _value_tokens(value)
            if not vt:
                continue
            for i in range(len(toks) - len(vt) + 1):
                words = [t for t, _, _ in toks[i : i + len(vt)]]
                if words[:-1] != vt[:-1]:
                    continue
                last, want = words[-1], vt[-1]
                exact = last == want
                near = len(want) >= 3 and (last.startswith(want) or _stem(last) == _stem(want))
                near = near or (len(vt) == 1 and ALIASES.get(want) == last)
                if exact or near:
                    cands.append((-len(vt), -int(exact), i, i + len(vt), a, v))
    taken: set[int] = set()
    spans: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for _neg, _ex, i, j, a, v in sorted(cands):
        if (i, j) in spans:  # the same words, another attribute's value
            if not any(x == a for x, _ in spans[(i, j)]):
                spans[(i, j)].append((a, v))
            continue
        if any(k in taken for k in range(i, j)):
            continue
        taken.update(range(i, j))
        spans[(i, j)] = [(a, v)]
    out = []
    prev_end = 0
    for (i, j), opts in sorted(spans.items()):
        start = toks[i][1]
        if len(opts) > 1:  # a value two attributes share: the phrase decides
            context = {_stem(w) for w, _, _ in _tokens(sentence[prev_end:start])} - _STOP
            score = [
                len(context & ({_stem(w) for w, _, _ in _tokens(intros[a])} - _STOP))
                for a, _ in opts
            ]
            best = max(score)
            pick = [o for o, s in zip(opts, score, strict=True) if s == best]
            if best == 0 and any(a == 0 for a, _ in opts):
                pick = [o for o in opts if o[0] == 0]
            if len(pick) != 1:
                shown = sentence[start : toks[j - 1][2]]
                raise PuzzleError(f"{shown!r} could be several attributes' value")
            opts = pick
        out.append((opts[0][0], opts[0][1], start))
        prev_end = toks[j - 1][2]
    return out


def parse_clue(sentence: str, values: list[list[str]], intros: list[str]) -> Clue:
    """One ZebraLogic clue sentence as a :class:`Clue` (positions 0-based)."""
    low = sentence.strip().lower()
    for name, pat in UNARY:
        m = re.search(pat, low)
        if m:
            if m.group(1) not in ORDINALS:
                raise PuzzleError(f"unknown house {m.group(1)!r}")
            who = _mentions(sentence[: m.start()], values, intros)
            if len(who) != 1:
                raise PuzzleError(f"expected one person, found {len(who)}")
            return Clue(name, (who[0][0], who[0][1]), ORDINALS.index(m.group(1)))
    kind = next((n for n, pat in BINARY if re.search(pat, low)), "SameHouse")
    masked = re.sub(
        next((p for n, p in BINARY if n == kind), r"^$"), lambda x: " " * len(x.group(0)), low
    )
    who = _mentions(masked, values, intros)
    if len(who) != 2:
        raise PuzzleError(f"expected two people for {kind}, found {len(who)}")
    (a1, v1, _), (a2, v2, _) = who
    return Clue(kind, (a1, v1), (a2, v2))


def parse_puzzle(text: str) -> tuple[int, list[str], list[list[str]], list[Clue]]:
    """(houses, intro lines, values per attribute, clues) of a ZebraLogic puzzle text."""
    m = re.search(r"There are (\d+) houses", text)
    if m is None:
        raise PuzzleError("no 'There are N houses' sentence")
    n = int(m.group(1))
    lim = current()
    if n > lim.max_houses:
        raise PuzzleError(
            f"{n} houses, over the max_houses limit of {lim.max_houses} "
            "(raise it with --limit max_houses=N)"
        )
    head, sep, body = text.partition("## Clues:")
    if not sep:
        raise PuzzleError("no '## Clues:' section")
    intros, values = [], []
    for line in head.splitlines():
        if line.lstrip().startswith("- ") and "`" in line:
            intro, _, rest = line.strip()[2:].partition(":")
            vals = re.findall(r"`([^`]*)`", rest)
            if len(vals) != n:
                raise PuzzleError(f"attribute {intro!r} lists {len(vals)} values for {n} houses")
            intros.append(intro.strip())
            values.append(vals)
            if len(values) > lim.max_attributes:
                raise PuzzleError(
                    f"more than {lim.max_attributes} attributes, the max_attributes limit "
                    "(raise it with --limit max_attributes=N)"
                )
    if not values:
        raise PuzzleError("no attribute lines (' - <intro>: `a`, `b`, …')")
    clues = []
    for num, sentence in re.findall(r"^\s*(\d+)\.\s*(.+?)\s*$", body, re.M):
        try:
            clues.append(parse_clue(sentence, values, intros))
        except PuzzleError as e:
            raise PuzzleError(f"clue {num} ({sentence!r}): {e}") from None
    if not clues:
        raise PuzzleError("no numbered clues")
    return n, intros, values, clues


def solve_unique(n: int, m: int, clues: list[Clue]) -> tuple[list[list[int]] | None, int]:
    """(pos[attr][value] = house of the first solution, or None; solutions found, at most 2)."""
    from pysat.solvers import Solver

    with Solver(name="glucose4", bootstrap_with=structure_clauses(n, m)) as s:
        for c in clues:
            for cl in clue_clauses(n, c):
                s.add_clause(cl)
        if not s.solve():
            return None, 0
        model = set(x for x in s.get_model() if x > 0)
        pos = [
            [next(h for h in range(n) if var(n, a, v, h) in model) for v in range(n)]
            for a in range(m)
        ]
        s.add_clause([-var(n, a, v, pos[a][v]) for a in range(m) for v in range(n)])
        return pos, 1 + bool(s.solve())
