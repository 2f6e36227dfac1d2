"""Exact cover (Karp's 21; Knuth's Algorithm X): a universe of elements and a list of subsets;
choose subsets so that every element lies in exactly one chosen subset. The kind
``exactcover``; the family ``exactcover``.

Construction: the universe split at random into a hidden cover of subsets of 1 to
``max_size`` elements, then ``n_decoys`` more random subsets; all shuffled and named S1, S2 …
The draw is repeated (at most ``max_attempts`` times) until the hidden cover is the only exact
cover (MiniSat with it excluded), then proved again from scratch by Glucose; the tests
enumerate every choice of subsets.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..errors import ConfigError, GenerationError, certify
from ..fields import integer, params
from ..kinds.puzzle import certify_unique
from ..logic.cnf import CNF
from ..rng import shuffled
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "exactcover"


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """Every element in exactly one chosen subset (one clause for "at least", pairs for "at
    most"); subset k is variable k."""
    cl: list[list[int]] = []
    for e in range(1, d["n_elements"] + 1):
        having = [k + 1 for k, s in enumerate(d["subsets"]) if e in s]
        cl.append(having)
        cl += [[-a, -b] for a, b in itertools.combinations(having, 2)]

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {f"S{k + 1}": "1" if model.get(k + 1) else "0" for k in range(len(d["subsets"]))}

    return CNF(cl, len(d["subsets"])), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    if any(v not in ("0", "1") for v in sol.values()):
        return "every subset is 1 (chosen) or 0 (not chosen)"
    count = dict.fromkeys(range(1, d["n_elements"] + 1), 0)
    for k, s in enumerate(d["subsets"]):
        if sol[f"S{k + 1}"] == "1":
            for e in s:
                count[e] += 1
    bad = [e for e, n in count.items() if n != 1]
    return "" if not bad else f"element {bad[0]} is covered {count[bad[0]]} times"


@params
class ExactCoverParams:
    n_elements: int = integer(2, 2000, default=10)
    max_size: int = integer(1, default=3, note="at most n_elements")
    n_decoys: int = integer(0, default=6, note="at most 4·n_elements")
    max_attempts: int = integer(1, 100_000, default=1000)

    def validate(self) -> None:
        if self.max_size > self.n_elements:
            raise ConfigError("max_size", self.max_size, "must be an integer in 1..n_elements")
        if self.n_decoys > 4 * self.n_elements:
            raise ConfigError("n_decoys", self.n_decoys, "must be an integer in 0..4·n_elements")


class ExactCoverFamily(
    DeclaredFamily, name=NAME, params=ExactCoverParams, example={"n_elements": 8, "n_decoys": 4}
):
    def generate(self, p: ExactCoverParams, rng: np.random.Generator) -> Built:
        from ..logic.sat import new_solver

        n = p.n_elements
        for attempt in range(1, p.max_attempts + 1):
            order = (rng.permutation(n) + 1).tolist()
            cover: list[list[int]] = []
            while order:
                k = int(rng.integers(1, p.max_size + 1))
                cover.append(sorted(order[:k]))
                order = order[k:]
            decoys = []
            for _ in range(p.n_decoys):
                k = int(rng.integers(1, p.max_size + 1))
                decoys.append(sorted((rng.permutation(n)[:k] + 1).tolist()))
            every = cover + decoys
            if len({tuple(s) for s in every}) < len(every):
                continue  # a repeated subset: two covers by name
            perm = shuffled(rng, len(every))
            subsets = [every[k] for k in perm]
            chosen = {perm.index(k) for k in range(len(cover))}
            data: dict[str, Any] = {
                "n_elements": n, "subsets": subsets, "n_cover": len(cover),
                "cells": [f"S{k + 1}" for k in range(len(subsets))], "domain": ["0", "1"],
                "solution": {f"S{k + 1}": "1" if k in chosen else "0" for k in range(len(subsets))},
            }  # fmt: skip
            cnf, _ = encode(data)
            lits = [k + 1 if k in chosen else -(k + 1) for k in range(len(subsets))]
            with new_solver("minisat22", cnf.clauses) as s:
                s.add_clause([-x for x in lits])
                if s.solve():
                    continue  # another cover exists: draw again
            certify_unique(cnf, list(range(1, len(subsets) + 1)), lits)
            certify(check(data, data["solution"]) == "", "the hidden cover is exact")
            meta = {
                "n_elements": n,
                "n_subsets": len(subsets),
                "n_cover": len(cover),
                "attempts": attempt,
            }
            return solved(data, "minisat22+glucose4", meta)
        raise GenerationError(
            f"{NAME}: no instance with one exact cover in {p.max_attempts} draws; use fewer decoys"
        )

    knobs = (
        Knob("n_elements", lambda prob, _: prob["n_elements"], exact, "elements", levels=(6, 12)),
        Knob("max_size", lambda prob, _: max(len(s) for s in prob["subsets"]), exact,
             "largest subset", levels=(2, 3), at={"n_elements": 12}),
        Knob("n_decoys", lambda prob, _: len(prob["subsets"]) - prob["n_cover"], exact,
             "subsets outside the cover", levels=(4, 8)),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"n_elements": 6 + 3 * lv, "n_decoys": 3 + 2 * lv, "max_size": 3},
        "subsets",
        lambda p: float(len(p.problem["subsets"])),
        "n_elements = 6 + 3 · level, n_decoys = 3 + 2 · level, subsets of up to 3 elements; the "
        "measure is the number of subsets (log2 of the choices)",
        highest=28,
        ceiling="past it 1,000 random draws (seed 0) no longer yield one exact cover: the "
        "decoys make several",
    )


ASK = ask('{"solution": {"S1": 1 or 0, "S2": 1 or 0, ...}} (1 = chosen) for every subset')


def words(d: dict[str, Any]) -> str:
    sets = "\n".join(f"S{k + 1} = {{{', '.join(map(str, s))}}}" for k, s in enumerate(d["subsets"]))
    return (
        f"Choose some of these subsets of {{1, …, {d['n_elements']}}} so that every number from 1 to "
        f"{d['n_elements']} is in exactly one chosen subset:\n\n{sets}\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    eqs = []
    for e in range(1, d["n_elements"] + 1):
        having = [f"S{k + 1}" for k, s in enumerate(d["subsets"]) if e in s]
        eqs.append(" + ".join(having) + " = 1")
    return (
        f"Variables S1 … S{len(d['subsets'])} in {{0, 1}}. Solve:\n\n"
        + "\n".join(eqs)
        + f"\n\n{ASK}"
    )


register_solution_puzzle(ExactCoverFamily(), check, encode, words, formal)
