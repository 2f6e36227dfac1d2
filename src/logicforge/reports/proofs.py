"""Proof statistics of the ``decision+proof`` answers, against the solvers' own proofs.

For every model × family × size on gold-UNSAT items answered in the proof format: how often the
model said UNSAT, gave a proof, and gave a valid one; the mean steps, the share of steps valid
before the first error and the widest clause of the proofs given; beside them, for the same
formulas, three reference sizes — the RUP refutation logicforge's own prover reads off DPLL
(:func:`~logicforge.logic.provers.refute_rup`), on 2-CNFs the SCC certificate's two-path proof
(:func:`~logicforge.logic.twosat.two_path_proof`), the lemmas of Glucose 4's DRAT proof (PySAT's
``with_proof``), and a minimal unsatisfiable core's clause count — and the mean ratio of a
valid proof's steps to the DRAT lemmas.

Example:
    >>> proof_table([], []) == []
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

SIZE_COLUMNS = ("level", "target_clauses", "n_vars", "n_clauses")


@lru_cache(maxsize=4096)
def _reference(clauses: tuple[tuple[int, ...], ...], n: int) -> dict[str, int | None]:
    from pysat.solvers import Solver

    from ..logic.optimum import mus
    from ..logic.proofs import ProofError
    from ..logic.provers import refute_rup

    try:
        rup: int | None = len(refute_rup(list(clauses), n, max_steps=20_000) or [])
    except ProofError:
        rup = None
    with Solver(name="glucose4", bootstrap_with=[list(c) for c in clauses], with_proof=True) as s:
        unsat = not s.solve()
        drat = (
            sum(1 for line in (s.get_proof() or []) if not line.startswith("d ")) if unsat else None
        )
    scc = None
    if unsat and all(len(c) <= 2 for c in clauses):
        from ..logic.cnf import CNF
        from ..logic.twosat import solve_2sat, two_path_proof

        f = CNF(list(clauses), n)
        r = solve_2sat(f)
        if r.certificate is not None and r.witness_var is not None:
            scc = len(two_path_proof(f, r.witness_var, *r.certificate))
    core = len(mus(clauses, n)) if unsat else None
    return {"rup": rup, "scc": scc, "drat": drat, "core": core}


def _mean(xs: Sequence[float | int | None]) -> float | None:
    got = [float(x) for x in xs if x is not None]
    return sum(got) / len(got) if got else None


def proof_table(
    records: Sequence[Mapping[str, Any]], items: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One row per model × family × size (the first of level / target_clauses / n_vars / n_clauses
    the records carry) over gold-UNSAT items of the proof format."""
    by_id = {str(it.get("item_id")): it for it in items}
    groups: dict[tuple[Any, ...], list[tuple[Mapping[str, Any], dict[str, int | None]]]] = {}
    for r in records:
        meta = r.get("meta") or {}
        if meta.get("answer_format") != "decision+proof" or meta.get("label") != "UNSAT":
            continue
        if r.get("error"):
            continue
        it = by_id.get(str(r.get("item_id")))
        if it is None:
            continue
        prob = it.get("problem") or {}
        ref = _reference(
            tuple(tuple(c) for c in prob.get("clauses", [])), int(prob.get("num_vars") or 0)
        )
        size = next((c for c in SIZE_COLUMNS if meta.get(c) is not None), None)
        key = (r.get("model"), meta.get("family"), size, meta.get(size) if size else None)
        groups.setdefault(key, []).append((r, ref))
    rows = []
    for (model, family, size, value), got in sorted(groups.items(), key=lambda kv: str(kv[0])):
        n = len(got)
        ds = [(r.get("verdict") or {}).get("details") or {} for r, _ in got]
        vs = [r.get("verdict") or {} for r, _ in got]
        given = [d for d in ds if (d.get("proof_steps") or 0) > 0]
        valid = [(d, ref) for (r, ref), d in zip(got, ds, strict=True)
                 if (r.get("verdict") or {}).get("witness_valid")]  # fmt: skip
        rows.append(
            {
                "model": model,
                "family": family,
                "size": size,
                "value": value,
                "n_unsat": n,
                "said_unsat": sum((r.get("answer") or {}).get("label") == "UNSAT" for r, _ in got)
                / n,
                "proof_given": len(given) / n,
                "proof_valid": sum(bool(v.get("witness_valid")) for v in vs) / n,
                "mean_steps": _mean([d.get("proof_steps") for d in given]),
                "mean_valid_step_share": _mean(
                    [(d.get("proof_valid_steps") or 0) / d["proof_steps"] for d in given]
                ),
                "mean_width": _mean([d.get("proof_width") for d in given]),
                "ref_rup_steps": _mean([ref["rup"] for _, ref in got]),
                "ref_scc_steps": _mean([ref["scc"] for _, ref in got]),
                "ref_drat_lemmas": _mean([ref["drat"] for _, ref in got]),
                "ref_core_clauses": _mean([ref["core"] for _, ref in got]),
                "valid_steps_over_drat": _mean(
                    [d["proof_steps"] / ref["drat"] for d, ref in valid if ref.get("drat")]
                ),
            }
        )
    return rows
