"""Pairing: a labelled CNF and its minimally different twin of the opposite label (ADR paper §5).

Edits are tried in order, each candidate decided by an incremental solver (clauses guarded by
selector literals, one assumption set per candidate):

(a) ``flip`` — negate one literal of one clause;
(b) ``replace`` — replace one literal by a literal of a variable not in the clause (width kept);
(c) ``delete`` — delete one clause (UNSAT → SAT only);
(d) ``delete-min`` — opt-in (``max_deletions`` > 1): UNSAT → SAT when no single edit works: delete a *minimum* set of clauses,
    found as a partial MaxSAT problem (each clause Cᵢ ∨ rᵢ hard, each ¬rᵢ a soft unit of weight 1,
    solved exactly by RC2), so the deletion count is provably minimal — unlike relaxation
    variables left unpenalised, which let "minimal" pairs delete many clauses.

For UNSAT → SAT only clauses of an UNSAT core are candidates: an edit outside the core leaves the
core, hence UNSAT, intact. SAT → UNSAT uses (a) and (b); deletions cannot remove models' absence.
The variable set never changes. A source with no twin within the budget is skipped and counted,
never paired wrongly. Every twin's label is confirmed by two different solvers (CaDiCaL and
MiniSat) and must be the opposite of the source's.

Example:
    >>> import logicforge as lf
    >>> src = lf.generate("ksat/random", {"n_vars": 8, "alpha": 6.0, "target_label": "UNSAT"}, count=1, seed=1)
    >>> pairs, skipped = make_pairs(src)
    >>> sorted(p.label for p in pairs), skipped, pairs[1].metadata["edit"]["distance"]
    (['SAT', 'UNSAT'], 0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..errors import CertificationError, ConfigError, certify
from ..logic.cnf import CNF
from ..logic.sat import solve, unsat_core
from ..registry import TWINS
from ..rng import shuffled
from ..schema import LabelledProblem

Clause = tuple[int, ...]


@dataclass(frozen=True)
class Edit:
    kind: str  # flip | replace | delete | delete-min
    clauses: list[int]  # indices in the source formula
    position: int | None = None  # literal position within the clause (flip / replace)
    old: int | None = None
    new: int | None = None

    @property
    def distance(self) -> int:
        return len(self.clauses) if self.kind.startswith("delete") else 1


class _Tester:
    """One incremental solver over selector-guarded clauses; asks 'is the formula with clause i
    replaced by c (or removed) satisfiable?' through assumptions."""

    def __init__(self, cnf: CNF) -> None:
        from pysat.solvers import Solver

        self.cnf = cnf
        self.s = Solver(name="glucose4")
        self.base = cnf.num_vars
        self.sel = [self.base + 1 + i for i in range(cnf.num_clauses)]
        for c, s in zip(cnf.clauses, self.sel, strict=True):
            self.s.add_clause([*c, -s])
        self.next = self.base + cnf.num_clauses + 1
        self.calls = 0

    def sat_with(self, i: int, replacement: Clause | None) -> bool:
        self.calls += 1
        assume = [s for j, s in enumerate(self.sel) if j != i]
        if replacement is None:
            return bool(self.s.solve(assumptions=assume))
        t = self.next
        self.next += 1
        self.s.add_clause([*replacement, -t])
        ok = bool(self.s.solve(assumptions=[*assume, t]))
        self.s.add_clause([-t])  # retire the candidate
        return ok

    def close(self) -> None:
        self.s.delete()


def _min_deletion(cnf: CNF) -> list[int]:
    """A minimum set of clauses whose deletion makes ``cnf`` satisfiable (exact partial MaxSAT)."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    w = WCNF()
    base = cnf.num_vars
    for i, c in enumerate(cnf.clauses):
        w.append([*c, base + 1 + i])
        w.append([-(base + 1 + i)], weight=1)
    with RC2(w) as rc2:
        model = rc2.compute()
        if model is None:
            raise CertificationError(
                "certification failed: deleting every clause is always possible"
            )
        chosen = {x for x in model if x > 0}
        out = [i for i in range(cnf.num_clauses) if base + 1 + i in chosen]
        certify(len(out) == rc2.cost, "len(out) == rc2.cost")
    return out


def find_twin(
    cnf: CNF,
    label: str,
    rng: np.random.Generator,
    *,
    max_candidates: int = 4000,
    max_deletions: int = 15,
) -> tuple[CNF, Edit] | None:
    """The first satisfiability-flipping edit in the order flip → replace → delete → delete-min."""
    if label not in ("SAT", "UNSAT"):
        raise ConfigError("label", label, "pairing needs a decided source (SAT or UNSAT)")
    to_sat = label == "UNSAT"
    if to_sat:
        core = unsat_core(cnf)
        if core is None:
            raise CertificationError("certification failed: an UNSAT source must have a core")
        candidates = [int(i) for i in rng.permutation(core)]
    else:
        candidates = [int(i) for i in rng.permutation(cnf.num_clauses)]
    tester = _Tester(cnf)
    want = to_sat  # the twin is SAT iff the source is UNSAT

    def done(i: int, c: Clause | None) -> bool:
        return tester.sat_with(i, c) == want

    try:
        for i in candidates:  # (a) flip one literal
            c = cnf.clauses[i]
            for j in shuffled(rng, len(c)):
                new = c[:j] + (-c[j],) + c[j + 1 :]
                if done(i, new):
                    return _apply(cnf, i, new), Edit("flip", [i], j, c[j], -c[j])
        for i in candidates:  # (b) replace one literal by another variable
            c = cnf.clauses[i]
            present = {abs(x) for x in c}
            others = [v for v in (rng.permutation(cnf.num_vars) + 1).tolist() if v not in present]
            for j in shuffled(rng, len(c)):
                for v in others:
                    if tester.calls >= max_candidates:
                        break
                    for lit in (v, -v) if rng.random() < 0.5 else (-v, v):
                        new = c[:j] + (lit,) + c[j + 1 :]
                        if done(i, new):
                            return _apply(cnf, i, new), Edit("replace", [i], j, c[j], lit)
        if to_sat:
            for i in candidates:  # (c) delete one clause
                if done(i, None):
                    return CNF(cnf.clauses[:i] + cnf.clauses[i + 1 :], cnf.num_vars), Edit(
                        "delete", [i]
                    )
            dele = _min_deletion(cnf)  # (d) provably minimal deletion set
            if 1 <= len(dele) <= max_deletions:
                gone = set(dele)
                out = CNF([c for k, c in enumerate(cnf.clauses) if k not in gone], cnf.num_vars)
                return out, Edit("delete-min", dele)
        return None
    finally:
        tester.close()


def _apply(cnf: CNF, i: int, new: Clause) -> CNF:
    return CNF(cnf.clauses[:i] + (new,) + cnf.clauses[i + 1 :], cnf.num_vars)


def pair_problem(
    p: LabelledProblem, *, max_candidates: int = 4000, max_deletions: int = 1
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """(source, twin) sharing a ``pair_id``, or None when no edit within the budget flips the label.

    By default a twin is one satisfiability-changing edit (flip, replace, delete one clause), as
    the ADR paper promises; ``max_deletions`` > 1 opts in to minimum multi-clause deletions, each
    tagged with its edit and size (``metadata["edit"]``) and counted in the report's edit table."""
    twin = TWINS.find(p.kind)
    if twin is None or not callable(twin):
        raise ConfigError("pair", p.kind, f"pairing applies to {', '.join(TWINS.names())} problems")
    rng = np.random.Generator(
        np.random.PCG64(np.random.SeedSequence(p.seed, spawn_key=(*p.spawn_key, 0x9A1F)))
    )
    return twin(p, rng, max_candidates=max_candidates, max_deletions=max_deletions)


def _cnf_twin(
    p: LabelledProblem, rng: np.random.Generator, *, max_candidates: int, max_deletions: int
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """The CNF twin: flip → replace → delete → an exact minimum deletion set, two solvers."""
    cnf = CNF.from_json(p.problem)
    found = find_twin(
        cnf,
        p.label,
        rng,
        max_candidates=max_candidates,
        max_deletions=max_deletions,
    )
    if found is None:
        return None
    twin, edit = found
    a = solve(twin)
    b = solve(twin, stats=True)  # MiniSat: the second oracle, and the twin's recorded statistics
    want = "SAT" if p.label == "UNSAT" else "UNSAT"
    certify(a.label == b.label == want, f"twin label {a.label}/{b.label}, expected {want}")
    if a.model is not None:
        certify(twin.evaluate(a.assignment or {}), "twin.evaluate(a.assignment or {})")
    n = cnf.num_vars
    info: dict[str, Any] = {
        "pair_id": p.problem_id,
        "edit": asdict(edit) | {"distance": edit.distance},
        "alpha_source": round(cnf.alpha, 6),
        "alpha_twin": round(twin.alpha, 6),
        "alpha_gap": round(abs(cnf.alpha - twin.alpha), 6),
    }
    certify(twin.num_vars == n, "twin.num_vars == n")
    src = p.model_copy(update={"metadata": p.metadata | info | {"pair_role": p.label}})
    tw = p.model_copy(
        update={
            "problem_id": f"{p.problem_id}~twin",
            "problem": twin.to_json(),
            "label": want,
            "oracle": b.to_json() | {"confirmed_by": ["cadical195", "minisat22"]},
            "metadata": p.metadata
            | info
            | {
                "pair_role": want,
                "n_clauses": twin.num_clauses,
                "alpha": round(twin.alpha, 6),
                "decisions": b.stats.get("decisions"),
                "conflicts": b.stats.get("conflicts"),
            },
        }
    )
    return src, tw


TWINS.register("cnf", _cnf_twin)


def iter_pairs(
    problems: Iterable[LabelledProblem], **kw: Any
) -> Iterator[tuple[LabelledProblem, LabelledProblem] | None]:
    for p in problems:
        yield pair_problem(p, **kw)


def make_pairs(problems: Iterable[LabelledProblem], **kw: Any) -> tuple[list[LabelledProblem], int]:
    """Both members of every pair that exists, in source order, and the number of skipped sources."""
    out: list[LabelledProblem] = []
    skipped = 0
    for r in iter_pairs(problems, **kw):
        if r is None:
            skipped += 1
        else:
            out += list(r)
    return out, skipped
