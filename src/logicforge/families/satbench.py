"""``satbench`` family: SATBench-style formulas (SATBench §3) — variables as multi-dimensional
arrays x(i, j[, k]), clause count as the difficulty axis, and UNSAT items made by planting a
contradiction pattern among filler clauses.

Patterns over k distinct variables v1 … vk (each one a minimal unsatisfiable set on its own):

* ``implication-cycle`` — (v1), v1 → v2 → … → vk, vk → ¬v1;
* ``frozen-chain`` — (v1), v1 → v2 → … → vk, (¬vk);
* ``exactly-one-conflict`` — exactly one of v1 … vk, yet (v1) and (v2);
* ``full-block`` — all 2^k clauses over k variables (k ≤ 3);
* ``xor-chain`` — v1 ⊕ v2, v2 ⊕ v3, …, vk ⊕ v1 for odd k (an odd parity cycle).

Fillers are clauses of width 1–3 satisfied by a planted assignment, so they neither cause nor
break the contradiction. A SAT item uses the same pattern with a clause of its minimal core removed
(repeated until satisfiable) and fillers satisfied by one of its models — SAT and UNSAT items look alike. Every label is the solver's;
every UNSAT item records a **computed** minimal unsatisfiable subset (MUSX deletion over the
whole formula by core-guided deletion, which may differ from the planted pattern) as clause indices, checked UNSAT here
and minimal in the tests. Buckets (SATBench): easy 4–19 clauses, medium 20–30, hard 31–50.

Example:
    >>> import logicforge as lf
    >>> p = lf.generate("satbench", {"n_clauses": 12, "target_label": "UNSAT"}, count=1, seed=0)[0]
    >>> p.label, p.metadata["bucket"], len(p.oracle["mus"]) >= 2
    ('UNSAT', 'easy', True)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..errors import ConfigError, certify
from ..logic.cnf import CNF
from ..logic.sat import minimal_unsat_core as mus
from ..logic.sat import solve
from ..registry import FAMILIES
from ..rng import shuffled
from .base import Built, DeclaredFamily
from .knobs import clause_count
from .levels import Levels

NAME = "satbench"
PATTERNS = ("implication-cycle", "frozen-chain", "exactly-one-conflict", "full-block", "xor-chain")


def bucket(n_clauses: int) -> str:
    return "easy" if n_clauses <= 19 else "medium" if n_clauses <= 30 else "hard"


@dataclass(frozen=True)
class SATBenchParams:
    n_clauses: int = 12
    target_label: Literal["SAT", "UNSAT"] = "UNSAT"
    dims: tuple[int, ...] = (3, 3)
    pattern: str = "random"
    # how formulas are made: "planted" (a contradiction pattern among fillers, as the public
    # SATBench code) or "sampled" (random clauses until the solver gives the label, as the
    # paper's text describes)
    method: str = "planted"
    # array shapes to draw one from per formula (e.g. [[3, 4], [5, 7]]); empty: always ``dims``
    dims_choices: tuple[tuple[int, ...], ...] = ()
    # relative weights of clause widths 1, 2, 3 for fillers and sampled clauses
    widths: tuple[float, ...] = (1.0, 1.0, 1.0)
    max_attempts: int = 2000  # sampled: formulas drawn before giving up on the label

    def __post_init__(self) -> None:
        if self.method not in ("planted", "sampled"):
            raise ConfigError("method", self.method, "choose planted or sampled")
        choices = tuple(tuple(d) for d in self.dims_choices)
        for d in choices:
            if not 1 <= len(d) <= 3 or not all(isinstance(x, int) and 1 <= x <= 20 for x in d):
                raise ConfigError(
                    "dims_choices", [list(x) for x in choices], "each one to three sizes in 1..20"
                )
            if int(np.prod(d)) < 4:
                raise ConfigError("dims_choices", list(d), "need at least 4 variables")
        object.__setattr__(self, "dims_choices", choices)
        w = tuple(self.widths)
        if len(w) != 3 or any(not isinstance(x, int | float) or x < 0 for x in w) or not sum(w):
            raise ConfigError("widths", list(w), "three non-negative weights for widths 1, 2, 3")
        object.__setattr__(self, "widths", w)
        if not isinstance(self.max_attempts, int) or not 1 <= self.max_attempts <= 1_000_000:
            raise ConfigError("max_attempts", self.max_attempts, "must be an integer in 1..1000000")
        if not isinstance(self.n_clauses, int) or not 4 <= self.n_clauses <= 200:
            raise ConfigError("n_clauses", self.n_clauses, "must be an integer in 4..200")
        if self.target_label not in ("SAT", "UNSAT"):
            raise ConfigError("target_label", self.target_label, "must be SAT or UNSAT")
        dims = tuple(self.dims)
        if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) and 1 <= d <= 20 for d in dims):
            raise ConfigError("dims", list(self.dims), "one to three sizes in 1..20")
        if int(np.prod(dims)) < 4:
            raise ConfigError("dims", list(dims), "need at least 4 variables")
        object.__setattr__(self, "dims", dims)
        if self.pattern not in ("random", *PATTERNS):
            raise ConfigError("pattern", self.pattern, f"choose random or {', '.join(PATTERNS)}")


def pattern_clauses(name: str, vs: list[int]) -> list[list[int]]:
    k = len(vs)
    if name == "implication-cycle":
        return [[vs[0]], *([-vs[i], vs[i + 1]] for i in range(k - 1)), [-vs[-1], -vs[0]]]
    if name == "frozen-chain":
        return [[vs[0]], *([-vs[i], vs[i + 1]] for i in range(k - 1)), [-vs[-1]]]
    if name == "exactly-one-conflict":
        return [list(vs), *([-a, -b] for a, b in itertools.combinations(vs, 2)), [vs[0]], [vs[1]]]
    if name == "full-block":
        return [
            [v if s else -v for v, s in zip(vs, signs, strict=True)]
            for signs in itertools.product((1, 0), repeat=k)
        ]
    certify(name == "xor-chain" and k % 2 == 1, 'name == "xor-chain" and k % 2 == 1')
    out = []
    for i in range(k):  # vs[i] ⊕ vs[i+1]: (a ∨ b) ∧ (¬a ∨ ¬b)
        a, b = vs[i], vs[(i + 1) % k]
        out += [[a, b], [-a, -b]]
    return out


def _size(name: str, k: int) -> int:
    return len(pattern_clauses(name, list(range(1, k + 1))))


def _names(dims: tuple[int, ...]) -> list[str]:
    return [
        "x(" + ", ".join(map(str, idx)) + ")"
        for idx in itertools.product(*(range(d) for d in dims))
    ]


class SATBenchFamily(
    DeclaredFamily, name=NAME, kind="cnf", params=SATBenchParams, example={"n_clauses": 6}
):
    knobs = (clause_count("clauses emitted (pattern plus random fillers)", levels=(8, 20, 40)),)
    levels = Levels(
        lambda lv: {"n_clauses": 4 + 3 * lv},
        "clauses",
        lambda p: float(len(p.problem["clauses"])),
        "n_clauses = 4 + 3 · level (4 … 34) over the default 3 × 3 array",
    )

    def generate(self, p: SATBenchParams, rng: np.random.Generator) -> Built:
        dims = p.dims_choices[int(rng.integers(len(p.dims_choices)))] if p.dims_choices else p.dims
        n = int(np.prod(dims))
        widths = np.asarray(p.widths, float) / sum(p.widths)

        uniform = p.widths == (1.0, 1.0, 1.0)  # the default, drawn as before the knob existed

        def random_clause(satisfied_by: dict[int, bool] | None) -> list[int]:
            w = int(rng.integers(1, 4)) if uniform else int(rng.choice(3, p=widths)) + 1
            vars_ = [int(v) + 1 for v in rng.choice(n, min(w, n), replace=False)]
            c = [v if rng.random() < 0.5 else -v for v in vars_]
            if satisfied_by is not None and not any(
                (x > 0) == satisfied_by.get(abs(x), False) for x in c
            ):
                c[0] = -c[0]  # make the planted assignment satisfy it
            return c

        if p.method == "sampled":
            return self._sampled(p, dims, n, rng, random_clause)
        pats = [p.pattern] if p.pattern != "random" else list(PATTERNS)
        options = []
        for name in pats:
            ks = (
                range(3, 4)
                if name == "full-block"
                else range(3, min(n, 9) + 1, 2 if name == "xor-chain" else 1)
            )
            options += [(name, k) for k in ks if _size(name, k) <= p.n_clauses and k <= n]
        if not options:
            raise ConfigError("n_clauses", p.n_clauses, f"too few for pattern {p.pattern}")
        name, k = options[int(rng.integers(len(options)))]
        vs = [int(v) + 1 for v in rng.choice(n, k, replace=False)]
        vs = [v if rng.random() < 0.5 else -v for v in vs]  # random polarities
        core = pattern_clauses(name, vs)
        if p.target_label == "SAT":  # the same pattern with core clauses taken out until SAT
            while (sol := solve(CNF(core, n))).model is None:
                m = mus(core, n)
                core.pop(m[int(rng.integers(len(m)))])
            planted = {abs(x): x > 0 for x in sol.model}
        else:
            planted = {v: bool(rng.random() < 0.5) for v in range(1, n + 1)}
        fillers: list[list[int]] = []
        while len(core) + len(fillers) < p.n_clauses:
            fillers.append(random_clause(planted))
        clauses = core + fillers
        order = shuffled(rng, len(clauses))
        clauses = [clauses[i] for i in order]
        planted_idx = sorted(order.index(i) for i in range(len(core)))
        cnf = CNF(clauses, n)
        sol = solve(cnf, stats=True)
        certify(sol.label == p.target_label, "the construction must give the asked label")
        oracle = sol.to_json()
        if sol.label == "UNSAT":
            m = mus([list(c) for c in clauses], n)
            certify(
                solve(CNF([clauses[i] for i in m], n)).label == "UNSAT",
                'solve(CNF([clauses[i] for i in m], n)).label == "UNSAT"',
            )
            oracle["mus"] = m
        meta = {
            "n_vars": n,
            "n_clauses": len(clauses),
            "bucket": bucket(len(clauses)),
            "pattern": name,
            "pattern_size": k,
            "dims": list(dims),
            "planted_clauses": planted_idx,
            "method": "planted",
        }
        problem = {**cnf.to_json(), "var_names": _names(dims)}
        return problem, sol.label, oracle, meta

    def _sampled(
        self,
        p: SATBenchParams,
        dims: tuple[int, ...],
        n: int,
        rng: np.random.Generator,
        clause: Any,
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
        """Random clauses (widths by ``widths``) over the array, drawn again until the solver
        gives the target label; a failure after ``max_attempts`` says what to change."""
        draws = 0
        while draws < p.max_attempts:
            draws += 1
            clauses = [clause(None) for _ in range(p.n_clauses)]
            cnf = CNF(clauses, n)
            sol = solve(cnf, stats=True)
            if sol.label == p.target_label:
                break
        else:
            raise ConfigError(
                "method",
                "sampled",
                f"no {p.target_label} formula of {p.n_clauses} clauses over {n} variables in "
                f"{p.max_attempts} draws; use fewer variables, other widths, or method: planted",
            )
        oracle = sol.to_json()
        if sol.label == "UNSAT":
            m = mus([list(c) for c in clauses], n)
            certify(solve(CNF([clauses[i] for i in m], n)).label == "UNSAT", "the MUS is UNSAT")
            oracle["mus"] = m
        meta = {
            "n_vars": n,
            "n_clauses": len(clauses),
            "bucket": bucket(len(clauses)),
            "dims": list(dims),
            "method": "sampled",
            "draws": draws,
        }
        return {**cnf.to_json(), "var_names": _names(dims)}, sol.label, oracle, meta


FAMILIES.register(NAME, SATBenchFamily())
