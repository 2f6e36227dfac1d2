"""Shared pieces of the 2-SAT families: knob checks, labelling through the exact 2-SAT oracle,
random renaming, and the family record they all return."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import CertificationError, ConfigError, certify
from ..fields import number
from ..logic.cnf import CNF
from ..logic.twosat import TwoSatResult, check_certificate, forced_literals, solve_2sat

Clause = tuple[int, ...]
MODEL_COUNT_MAX_VARS = 16  # count models exactly (all 2^n assignments) up to this many variables


def brute_force_count(clauses: Sequence[Clause], n: int) -> int:
    """Models of a CNF over n ≤ 20 variables, by evaluating every assignment at once."""
    certify(n <= 20, "n <= 20")
    bits = (np.arange(1 << n)[:, None] >> np.arange(n)[None, :]) & 1
    ok = np.ones(1 << n, dtype=bool)
    for c in clauses:
        sat = np.zeros(1 << n, dtype=bool)
        for x in c:
            col = bits[:, abs(x) - 1].astype(bool)
            sat |= col if x > 0 else ~col
        ok &= sat
    return int(ok.sum())


def knob_field(default: float = 0.5) -> Any:
    """A difficulty knob's parameter field (:func:`~logicforge.families.params.number` in [0, 1])."""
    return number(0, 1, default=default, note="difficulty knobs are normalised to [0, 1]")


MAX_SIZE = 10_000_000  # clauses / variables: the exact oracle labels 10⁶ clauses in < 1 s


def rename(
    clauses: Sequence[Clause], n: int, rng: np.random.Generator
) -> tuple[list[Clause], list[int]]:
    """Apply a uniformly random permutation of the variable indices 1..n (polarities kept)."""
    perm = (rng.permutation(n) + 1).tolist()  # old v -> perm[v-1]
    out = [tuple(perm[abs(x) - 1] * (1 if x > 0 else -1) for x in c) for c in clauses]
    return out, perm


def label(
    clauses: Sequence[Clause], n: int, *, expect: str | None = None, count: bool = True
) -> tuple[CNF, TwoSatResult, dict[str, Any]]:
    """Label with the exact 2-SAT oracle, assert the expected label, return oracle record and
    the metadata every 2-SAT family shares (sizes, backbone, model count where cheap)."""
    cnf = CNF(clauses, n)
    r = solve_2sat(cnf)
    if expect is not None:
        certify(
            r.label == expect,
            f"construction should be {expect} but the 2-SAT oracle says {r.label}",
        )
    meta: dict[str, Any] = {"n_vars": n, "n_clauses": cnf.num_clauses}
    oracle: dict[str, Any] = {"solver": "2sat-scc", "label": r.label, "components": r.components}
    if r.label == "SAT":
        certify(
            cnf.evaluate({abs(x): x > 0 for x in r.model or ()}),
            "cnf.evaluate({abs(x): x > 0 for x in r.model or ()})",
        )
        oracle["model"] = list(r.model or ())
        bb = forced_literals(cnf)
        meta["backbone_size"] = len(bb)
        if count and n <= MODEL_COUNT_MAX_VARS:
            meta["model_count"] = brute_force_count(cnf.clauses, n)
    else:
        if r.witness_var is None:
            raise CertificationError(
                "certification failed: an UNSAT 2-SAT certificate names its witness variable"
            )
        certify(
            check_certificate(cnf, r.witness_var, r.path_pos_to_neg, r.path_neg_to_pos),
            "check_certificate(cnf, r.witness_var, r.path_pos_to_neg, r.path_neg_to_pos)",
        )
        oracle["witness_var"] = r.witness_var
        oracle["certificate"] = [r.path_pos_to_neg, r.path_neg_to_pos]
        meta["certificate_length"] = len(r.path_pos_to_neg) + len(r.path_neg_to_pos)
    return cnf, r, meta | {"oracle": oracle}


def planted_fillers(
    m: int, variables: Sequence[int], rng: np.random.Generator
) -> tuple[list[Clause], dict[int, bool]]:
    """``m`` random 2-clauses over ``variables`` (≥ 2), each satisfied by one planted assignment,
    so the fillers are satisfiable on their own and share no variable with anything else. The
    first clauses pair the variables up in a random order, so every one occurs when m allows."""
    vs = np.asarray(variables)
    if m and len(vs) < 2:
        raise ConfigError("n_vars", len(vs), "fillers need at least 2 variables of their own")
    planted = {int(v): bool(b) for v, b in zip(vs, rng.random(len(vs)) < 0.5, strict=True)}
    out: list[Clause] = []
    cover: list[int] = rng.permutation(vs).tolist()
    if len(cover) % 2:
        cover.append(int(rng.choice(cover[:-1])))
    for i in range(m):
        if 2 * i + 1 < len(cover):
            a, b = cover[2 * i], cover[2 * i + 1]
        else:
            a, b = rng.choice(vs, 2, replace=False)
        la = int(a) if rng.random() < 0.5 else -int(a)
        lb = int(b) if rng.random() < 0.5 else -int(b)
        if (la > 0) != planted[abs(la)] and (lb > 0) != planted[abs(lb)]:
            if rng.random() < 0.5:
                la = -la
            else:
                lb = -lb
        out.append((la, lb))
    return out, planted
