"""``zebra`` family: certified-unique, irredundant logic-grid puzzles (ZebraLogic, §2.3).

Generation, per puzzle, on the shared canonical pool of its size (see :mod:`.encoding`):

1. order the candidate clues by weighted random keys (u^(1/w), weights per clue type — simpler
   types have higher weights and are kept more often);
2. find by binary search the shortest prefix of that order whose clues leave the canonical grid
   as the only solution (UNSAT once the grid is blocked), and shrink it to the solver's core;
3. deletion pass, least-preferred first: drop a clue whenever the rest still forces uniqueness
   (shrinking to each new core). The result is irredundant — every remaining clue is needed;
4. relabel: pick the M attributes (Name always) and N values of each from the pool and a random
   permutation per attribute, which turns the canonical grid into the hidden solution;
5. re-check independently: a fresh MiniSat on a fresh encoding of the emitted clues must find the
   hidden grid as a model and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import ConfigError
from ...registry import FAMILIES
from .clues import TYPES, Clue
from .encoding import clue_clauses, size_pool, structure_clauses, var
from .pool import ATTRIBUTES

NAME = "zebra"
KIND = "zebra"
ALL_TYPES = tuple(TYPES)
SIZE_GROUPS = [(1e3, "Small"), (1e6, "Medium"), (1e10, "Large"), (math.inf, "X-Large")]


def size_group(n: int, m: int) -> str:
    """The paper's groups by search space (N!)^M: Small < 10³ ≤ Medium < 10⁶ ≤ Large < 10¹⁰ ≤ X-Large."""
    s = math.factorial(n) ** m
    return next(g for lim, g in SIZE_GROUPS if s < lim)


@dataclass(frozen=True)
class ZebraParams:
    n_houses: int = 4
    n_attributes: int = 4
    clue_types: tuple[str, ...] = ALL_TYPES
    weights: dict[str, float] = field(default_factory=dict)  # per clue type; default: clues.TYPES
    z3_runs: int = (
        0  # Z3 solves with shuffled clue order and seeds, for the conflicts measure (paper: 32)
    )

    def __post_init__(self) -> None:
        for k in ("n_houses", "n_attributes"):
            v = getattr(self, k)
            if not isinstance(v, int) or not 2 <= v <= 10:
                raise ConfigError(k, v, "must be an integer in 2..10")
        types = tuple(self.clue_types)
        unknown = [t for t in types if t not in TYPES]
        if unknown or not types:
            raise ConfigError(
                "clue_types", list(self.clue_types), f"choose from {', '.join(TYPES)}"
            )
        object.__setattr__(self, "clue_types", types)
        if not isinstance(self.z3_runs, int) or not 0 <= self.z3_runs <= 1000:
            raise ConfigError("z3_runs", self.z3_runs, "must be an integer in 0..1000")
        for k, w in self.weights.items():
            if k not in TYPES or not isinstance(w, int | float) or w <= 0:
                raise ConfigError("weights", {k: w}, "keys are clue types, values positive numbers")


def _reduce(pool: Any, rng: np.random.Generator, weights: dict[str, float]) -> list[int]:
    """Irredundant clue set, decided by satisfiability answers only.

    Every query ("is the grid unique under these clues?") has one true answer whatever the shared
    solver has learnt before, so the result depends only on the seed — solver cores, which do
    depend on the solver's history, are deliberately not used.
    """
    w = np.array([weights.get(c.type, TYPES[c.type].weight) for c in pool.clues])
    keys = rng.random(len(w)) ** (1.0 / w)
    order = np.argsort(-keys).tolist()  # most preferred first
    hi = min(len(order), 2 * pool.n * pool.m)
    while not pool.unique_with(order[:hi]):  # grow until unique …
        if hi == len(order):
            raise AssertionError("all true clues together must determine the grid")
        hi = min(len(order), 2 * hi)
    lo = hi // 2 + 1
    while lo < hi:  # … then the shortest unique prefix
        mid = (lo + hi) // 2
        if pool.unique_with(order[:mid]):
            hi = mid
        else:
            lo = mid + 1
    current = order[:hi]
    for c in reversed(order[:hi]):  # deletion pass, least preferred first
        rest = [x for x in current if x != c]
        if rest and pool.unique_with(rest):
            current = rest
    return current


def recheck(n: int, m: int, clues: list[Clue], pos: list[list[int]]) -> None:
    """Independent certificate: a fresh MiniSat on a fresh encoding finds the hidden grid and no other."""
    from pysat.solvers import Solver

    hidden = [var(n, a, v, pos[a][v]) for a in range(m) for v in range(n)]
    with Solver(name="minisat22", bootstrap_with=structure_clauses(n, m)) as s:
        for c in clues:
            for cl in clue_clauses(n, c):
                s.add_clause(cl)
        assert s.solve(assumptions=hidden), "the hidden grid must satisfy every clue"
        s.add_clause([-x for x in hidden])
        assert not s.solve(), "the puzzle must have exactly one solution"


def z3_complexity(
    n: int, m: int, clues: list[Clue], runs: int, rng: np.random.Generator
) -> dict[str, float]:
    """Mean Z3 conflicts, decisions and propagations over ``runs`` solves with the clues shuffled
    and a fresh random seed each time (the paper's complexity measure, 32 runs there). Z3 encodes
    each clue from its type's relation over house positions — the same single definition."""
    try:
        import z3
    except ImportError:
        raise ConfigError("z3_runs", runs, "needs z3: pip install 'logicforge[zebra]'") from None
    totals = {"conflicts": 0.0, "decisions": 0.0, "propagations": 0.0}
    for _ in range(runs):
        pos = [[z3.Int(f"p{a}_{v}") for v in range(n)] for a in range(m)]
        s = z3.Solver()
        s.set("random_seed", int(rng.integers(2**31)))
        for a in range(m):
            s.add(z3.Distinct(pos[a]), *[z3.And(x >= 0, x < n) for x in pos[a]])
        for i in rng.permutation(len(clues)).tolist():
            c = clues[i]
            t = TYPES[c.type]
            p = pos[c.a[0]][c.a[1]]
            if isinstance(c.second, int):
                s.add(z3.Or([p == h for h in range(n) if t.holds(h, c.second)]))
            else:
                q = pos[c.second[0]][c.second[1]]
                s.add(
                    z3.Or(
                        [
                            z3.And(p == h1, q == h2)
                            for h1 in range(n)
                            for h2 in range(n)
                            if t.holds(h1, h2)
                        ]
                    )
                )
        assert s.check() == z3.sat
        st = s.statistics()
        present = set(st.keys())
        for k in totals:
            totals[k] += float(st.get_key_value(k)) if k in present else 0.0
    return {f"z3_{k}": round(v / runs, 3) for k, v in totals.items()}


class ZebraFamily:
    name = NAME
    kind = KIND
    Params = ZebraParams

    def generate(
        self, p: ZebraParams, rng: np.random.Generator
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
        n, m = p.n_houses, p.n_attributes
        pool = size_pool(n, m, p.clue_types)
        chosen = _reduce(pool, rng, p.weights)
        canon = [pool.clues[i] for i in chosen]
        # relabel: attributes (Name first), values, and a permutation per attribute
        others = rng.choice(len(ATTRIBUTES) - 1, m - 1, replace=False) + 1
        attrs = [ATTRIBUTES[0], *(ATTRIBUTES[int(i)] for i in others)]
        values = [
            [a.values[int(i)] for i in rng.choice(len(a.values), n, replace=False)] for a in attrs
        ]
        perm = [
            rng.permutation(n).tolist() for _ in range(m)
        ]  # canonical value v -> puzzle value perm[a][v]
        clues = [
            Clue(
                c.type,
                (c.a[0], perm[c.a[0]][c.a[1]]),
                c.second
                if isinstance(c.second, int)
                else (c.second[0], perm[c.second[0]][c.second[1]]),
            )
            for c in canon
        ]
        order = rng.permutation(len(clues)).tolist()  # present clues in random order
        clues = [clues[i] for i in order]
        pos = [[0] * n for _ in range(m)]
        for a in range(m):
            for v in range(n):
                pos[a][perm[a][v]] = v  # canonical value v sits in house v
        assert all(c.holds(pos) for c in clues)
        recheck(n, m, clues, pos)
        grid = [
            [values[a][next(v for v in range(n) if pos[a][v] == h)] for a in range(m)]
            for h in range(n)
        ]
        hist: dict[str, int] = {}
        for c in clues:
            hist[c.type] = hist.get(c.type, 0) + 1
        problem = {
            "n_houses": n,
            "n_attributes": m,
            "attributes": [a.name for a in attrs],
            "values": values,
            "clues": [c.to_json() for c in clues],
            "solution": {
                "header": ["House", *(a.name for a in attrs)],
                "rows": [[str(h + 1), *grid[h]] for h in range(n)],
            },
        }
        log_space = m * math.log10(math.factorial(n))
        meta = {
            "n_houses": n,
            "n_attributes": m,
            "size": f"{n}*{m}",
            "log10_search_space": round(log_space, 4),
            "size_group": size_group(n, m),
            "n_clues": len(clues),
            "clue_types": hist,
        }
        if p.z3_runs:
            meta |= z3_complexity(n, m, clues, p.z3_runs, rng)
        return problem, "SAT", {"solver": "glucose4+minisat22", "unique": True}, meta


FAMILIES.register(NAME, ZebraFamily())
