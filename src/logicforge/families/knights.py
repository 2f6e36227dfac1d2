"""Knights and knaves (Smullyan): on an island every inhabitant is a knight, who always tells
the truth, or a knave, who always lies; each of n inhabitants makes one statement about the
others (or about themselves); say who is what. The kind ``knights``; the family ``knights``.

A statement is a small formula over "X is a knight" atoms: ``is`` (X is a knight / knave),
``and`` / ``or`` of two atoms, ``iff`` (X and Y are the same kind), ``xor`` (exactly one of X
and Y is a knight), ``count`` (exactly k of us are knights). Person i's constraint is
K_i ↔ statement_i. Construction: a hidden assignment and random statements from the item's
stream, redrawn (at most ``max_attempts`` times) until the constraints have exactly one model
— the hidden one, proved by evaluating every constraint on all 2^n assignments at once
(:func:`models`: each atom a 2^n-bit truth table, the constraints their bitwise conjunction);
the tests enumerate the assignments one by one and count the models of the SAT encoding
(:func:`encode`) with a solver.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import GenerationError, certify
from ..fields import integer, params
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "knights"
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy",
         "Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil")  # fmt: skip
KINDS = ("and", "or", "iff", "xor", "is", "count")


def holds(st: dict[str, Any], k: dict[str, bool]) -> bool:
    """Whether a statement is true when ``k`` says who is a knight."""
    t = st["type"]
    if t == "is":
        return k[st["a"]] == (st["role"] == "knight")
    if t == "count":
        return sum(k.values()) == st["k"]
    if t == "iff":
        return k[st["a"]] == k[st["b"]]
    if t == "xor":
        return k[st["a"]] != k[st["b"]]
    a = k[st["a"]] == (st["ra"] == "knight")
    b = k[st["b"]] == (st["rb"] == "knight")
    return (a and b) if t == "and" else (a or b)


@functools.lru_cache(maxsize=16)
def _tables(n: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """All-ones over the 2^n assignments (assignment a: person i is a knight iff bit i of a is
    set), person i's "is a knight" table, and the table of "exactly k are knights" per k."""
    full = (1 << (1 << n)) - 1
    knight = tuple(sum(1 << a for a in range(1 << n) if a >> i & 1) for i in range(n))
    count = tuple(sum(1 << a for a in range(1 << n) if a.bit_count() == k) for k in range(n + 1))
    return full, knight, count


def models(people: list[str], statements: list[dict[str, Any]]) -> int:
    """The assignments that keep every constraint K_i ↔ statement_i, as a 2^n-bit set: bit a is
    set iff assignment a (person i a knight iff bit i of a) is a model.

    Example:
        >>> models(["Alice", "Bob"], [{"type": "is", "a": "Bob", "role": "knave"},
        ...                           {"type": "iff", "a": "Alice", "b": "Bob"}])
        2
    """
    full, knight, count = _tables(len(people))
    at = {p: knight[i] for i, p in enumerate(people)}

    def atom(x: str, role: str) -> int:
        return at[x] if role == "knight" else full ^ at[x]

    fits = full
    for p, st in zip(people, statements, strict=True):
        t = st["type"]
        if t == "is":
            s = atom(st["a"], st["role"])
        elif t == "count":
            s = count[st["k"]]
        elif t == "and":
            s = atom(st["a"], st["ra"]) & atom(st["b"], st["rb"])
        elif t == "or":
            s = atom(st["a"], st["ra"]) | atom(st["b"], st["rb"])
        elif t == "iff":
            s = full ^ at[st["a"]] ^ at[st["b"]]
        else:  # xor
            s = at[st["a"]] ^ at[st["b"]]
        fits &= full ^ at[p] ^ s  # K_p ↔ s
    return fits


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    if any(v not in ("knight", "knave") for v in sol.values()):
        return "everyone is a knight or a knave"
    k = {p: sol[p] == "knight" for p in d["cells"]}
    for p, st in zip(d["cells"], d["statements"], strict=True):
        if holds(st, k) != k[p]:
            return (
                f"{p} is a {sol[p]}, but their statement is {'true' if holds(st, k) else 'false'}"
            )
    return ""


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """K_i ↔ statement_i: a statement about at most two people as a truth table over the
    people involved (each assignment that breaks the equivalence excluded by one clause);
    ``count`` through cardinality constraints (sequential counters) behind selectors. The
    people are variables 1 … n; the counters' auxiliaries follow."""
    import itertools

    from pysat.card import CardEnc, EncType

    people = d["cells"]
    idx = {p: i + 1 for i, p in enumerate(people)}
    cl: list[list[int]] = []
    top = len(people)
    lits = [idx[q] for q in people]
    for p, st in zip(people, d["statements"], strict=True):
        if st["type"] == "count":  # K_p → Σ K = k;  ¬K_p → Σ K ≤ k − 1  or  Σ K ≥ k + 1
            k, me = st["k"], idx[p]
            enc = CardEnc.equals(lits=lits, bound=k, top_id=top, encoding=EncType.seqcounter)
            top = max(top, enc.nv)
            cl += [[-me, *c] for c in enc.clauses]
            either = [me]
            for bound, make in ((k - 1, CardEnc.atmost), (k + 1, CardEnc.atleast)):
                if 0 <= bound <= len(people):
                    top += 1
                    sel = top
                    enc = make(lits=lits, bound=bound, top_id=top, encoding=EncType.seqcounter)
                    top = max(top, enc.nv)
                    cl += [[-sel, *c] for c in enc.clauses]
                    either.append(sel)
            cl.append(either)
            continue
        inv = sorted({p, st["a"], *([st["b"]] if "b" in st else [])}, key=people.index)
        for vals in itertools.product((False, True), repeat=len(inv)):
            kk = dict(zip(inv, vals, strict=True))
            full = {q: kk.get(q, False) for q in people}
            if holds(st, full) != kk[p]:
                cl.append([-idx[q] if kk[q] else idx[q] for q in inv])

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {q: "knight" if model.get(idx[q]) else "knave" for q in people}

    return CNF(cl, top), decode


def say(st: dict[str, Any], speaker: str) -> str:
    """The statement as the speaker says it."""

    def who(x: str) -> str:
        return "I" if x == speaker else x

    def atom(x: str, role: str) -> str:
        be = "am" if x == speaker else "is"
        return f"{who(x)} {be} a {role}"

    t = st["type"]
    if t == "is":
        return atom(st["a"], st["role"])
    if t == "count":
        return f"exactly {st['k']} of us {'is a knight' if st['k'] == 1 else 'are knights'}"
    if t == "and":
        return f"{atom(st['a'], st['ra'])} and {atom(st['b'], st['rb'])}"
    if t == "or":
        return f"{atom(st['a'], st['ra'])} or {atom(st['b'], st['rb'])}"
    if t == "iff":
        return f"{who(st['a'])} and {who(st['b'])} are the same kind"
    return f"exactly one of {who(st['a'])} and {who(st['b'])} is a knight"


def statement_formula(st: dict[str, Any]) -> str:
    def atom(x: str, role: str = "knight") -> str:
        return f"K({x})" if role == "knight" else f"¬K({x})"

    t = st["type"]
    if t == "is":
        return atom(st["a"], st["role"])
    if t == "count":
        return f"count(K) = {st['k']}"
    a, b = atom(st["a"], st.get("ra", "knight")), atom(st["b"], st.get("rb", "knight"))
    return {"and": f"{a} ∧ {b}", "or": f"{a} ∨ {b}", "iff": f"K({st['a']}) ↔ K({st['b']})",
            "xor": f"K({st['a']}) ⊕ K({st['b']})"}[t]  # fmt: skip


@params
class KnightsParams:
    n_people: int = integer(2, len(NAMES), default=3)
    max_attempts: int = integer(1, 100_000, default=2000)


def _statement(u: list[float], me: str, but: dict[str, list[str]]) -> dict[str, Any]:
    """A random statement for ``me`` from five uniforms in [0, 1): its type, the people it is
    about and the roles it names (``but[x]``: everyone except x)."""
    t = KINDS[int(u[0] * len(KINDS))]
    if t == "count":
        return {"type": "count", "a": me, "k": int(u[1] * (len(but) + 1))}
    others = but[me]
    if t == "is":
        return {"type": "is", "a": others[int(u[1] * len(others))], "role": _role(u[3])}
    a = others[int(u[1] * len(others))]
    rest = but[a]
    st: dict[str, Any] = {"type": t, "a": a, "b": rest[int(u[2] * len(rest))]}
    if t in ("and", "or"):
        st |= {"ra": _role(u[3]), "rb": _role(u[4])}
    return st


def _role(u: float) -> str:
    return "knight" if u < 0.5 else "knave"


def _uniforms(rng: np.random.Generator, first: list[list[float]]) -> Iterator[list[float]]:
    """Up to 48 draws of five uniforms: the four in ``first``, then four per call."""
    yield from first
    for _ in range(11):
        yield from rng.random((4, 5)).tolist()


_BITS = tuple(1 << i for i in range(len(NAMES)))
LEVEL_PEOPLE = (7, 7, 7, 8, 8, 8, 9, 9, 10, 11, 12)


class KnightsFamily(DeclaredFamily, name=NAME, params=KnightsParams, example={"n_people": 3}):
    def generate(self, p: KnightsParams, rng: np.random.Generator) -> Built:
        people = list(NAMES[: p.n_people])
        but = {q: [x for x in people if x != q] for q in people}
        for attempt in range(1, p.max_attempts + 1):
            hidden = {
                q: u < 0.5 for q, u in zip(people, rng.random(len(people)).tolist(), strict=True)
            }
            sts, first = [], rng.random((len(people), 4, 5)).tolist()
            for q, tries in zip(people, first, strict=True):  # a statement true iff q is a knight
                for u in _uniforms(rng, tries):
                    st = _statement(u, q, but)
                    if holds(st, hidden) == hidden[q]:
                        sts.append(st)
                        break
            if len(sts) < len(people):
                continue
            fits = models(people, sts)
            me = sum(bit for bit, q in zip(_BITS, people, strict=False) if hidden[q])
            certify(fits >> me & 1 == 1, "the hidden assignment keeps every statement")
            if fits != 1 << me:
                continue  # another assignment fits too: draw again
            sol = {q: "knight" if hidden[q] else "knave" for q in people}
            data = {
                "cells": people,
                "domain": ["knight", "knave"],
                "statements": sts,
                "solution": sol,
            }
            certify(check(data, sol) == "", "the solution keeps every statement")
            meta = {"n_people": len(people), "n_knights": sum(hidden.values()), "attempts": attempt}
            return solved(data, "truth-table", meta)
        raise GenerationError(
            f"{NAME}: no puzzle with one solution in {p.max_attempts} draws; raise max_attempts"
        )

    knobs = (
        Knob(
            "n_people", lambda prob, _: len(prob["cells"]), exact, "inhabitants", levels=(2, 4, 6)
        ),
    )
    levels = Levels(
        lambda lv: {"n_people": LEVEL_PEOPLE[lv]},
        "people",
        lambda p: float(len(p.problem["cells"])),
        "n_people 7, 7, 7, 8, 8, 8, 9, 9, 10, 11, 12 over levels 0-10 (from 7 people: 128 "
        "assignments; at 5, all-knaves was right 1 time in 40); the measure is the number "
        "of inhabitants (log2 of the assignments)"
        "; past 10 one more inhabitant every 2 levels (13 at 11 … 16 at 17)",
        beyond=lambda lv: {"n_people": 12 + (lv - 9) // 2},
        highest=18,
        ceiling="at most 16 inhabitants: uniqueness is proved over all 2^n truth tables",
    )


ASK = ask('{"solution": {"Name": "knight" or "knave", ...}} naming everyone')


def words(d: dict[str, Any]) -> str:
    lines = [
        f'{q} says: "{say(st, q)[0].upper() + say(st, q)[1:]}."'
        for q, st in zip(d["cells"], d["statements"], strict=True)
    ]
    return (
        "On an island, every inhabitant is either a knight, who always tells the truth, or a knave, "
        f"who always lies. You meet {len(d['cells'])} inhabitants: {', '.join(d['cells'])}.\n\n"
        + "\n".join(lines)
        + f"\n\nWho is a knight and who is a knave?\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    eqs = [
        f"K({q}) ↔ ({statement_formula(st)})"
        for q, st in zip(d["cells"], d["statements"], strict=True)
    ]
    return (
        f"K(x) is true when x is a knight and false when x is a knave, for x in {{{', '.join(d['cells'])}}}; "
        "count(K) is how many K(x) are true. All of these hold:\n\n"
        + "\n".join(eqs)
        + f"\n\nGive K for everyone as knight (true) or knave (false).\n\n{ASK}"
    )


register_solution_puzzle(KnightsFamily(), check, encode, words, formal)
