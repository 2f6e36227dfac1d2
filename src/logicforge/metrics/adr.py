"""Accurate Differentiation Rate (ADR) over SAT/UNSAT pairs (ADR paper §5).

For pairs i = 1..M with A_i = "SAT member correct" and B_i = "UNSAT member correct":

* ADR = (1/M) Σ A_i B_i, with max(0, r_S + r_U − 1) ≤ ADR ≤ min(r_S, r_U) ≤ Acc = (r_S + r_U)/2;
* r_S, r_U — accuracy on the SAT and on the UNSAT members; independence baseline r_S·r_U and the
  covariance ADR − r_S·r_U; counts n11 (both), n10 (SAT only), n01 (UNSAT only), n00 (neither);
* strict ADR — both correct and the SAT member's witness valid;
* a 95 % interval for ADR: the Wilson score interval over pairs (``ci_method`` "wilson", the
  default; honest at small M — 14 of 14 pairs give 0.785–1.0, where a percentile bootstrap
  collapses to 1.0–1.0), or a percentile bootstrap with a fixed seed (``interval="bootstrap"``).

Pairs are matched by ``pair_id`` within model, sample, rendering, representation (``vc``,
``packing`` … or the kind) and transform variant, so the CNF and the VC form of one pair are two
pairs, never one; a pair missing a member is left out and counted (``incomplete``). An errored or
unparsable record is simply wrong.

Example:
    >>> adr_from_pairs([(True, True), (True, False), (False, True), (True, True)])["adr"]
    0.5
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .aggregate import wilson


def adr_from_pairs(
    pairs: Sequence[tuple[bool, bool]],
    strict: Sequence[bool] | None = None,
    bootstrap: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    interval: str = "wilson",
) -> dict[str, Any]:
    """ADR and friends from (SAT member correct, UNSAT member correct) per pair; ``adr_lo`` /
    ``adr_hi`` are the Wilson interval (``interval="bootstrap"``: ``bootstrap`` resamples of
    the pairs; ``bootstrap=0`` or ``interval="none"``: no interval).

    Example:
        >>> r = adr_from_pairs([(True, True)] * 14)
        >>> r["adr"], round(r["adr_lo"], 3), r["adr_hi"], r["ci_method"]
        (1.0, 0.785, 1.0, 'wilson')
    """
    if interval not in ("wilson", "bootstrap", "none"):
        raise ValueError(f"interval={interval!r}: use 'wilson', 'bootstrap' or 'none'")
    m = len(pairs)
    if m == 0:
        return {"pairs": 0, "adr": None}
    a = np.array([p[0] for p in pairs], dtype=bool)
    b = np.array([p[1] for p in pairs], dtype=bool)
    both = a & b
    r_s, r_u, adr = float(a.mean()), float(b.mean()), float(both.mean())
    out: dict[str, Any] = {
        "pairs": m,
        "adr": adr,
        "r_sat": r_s,
        "r_unsat": r_u,
        "accuracy": (r_s + r_u) / 2,
        "lower_bound": max(0.0, r_s + r_u - 1),
        "upper_bound": min(r_s, r_u),
        "independence": r_s * r_u,
        "covariance": adr - r_s * r_u,
        "n11": int(both.sum()),
        "n10": int((a & ~b).sum()),
        "n01": int((~a & b).sum()),
        "n00": int((~a & ~b).sum()),
    }
    if strict is not None:
        out["strict_adr"] = float((both & np.asarray(strict, dtype=bool)).mean())
    if interval == "wilson" and bootstrap:
        from scipy.stats import norm

        lo_w, hi_w = wilson(int(both.sum()), m, float(norm.ppf((1 + confidence) / 2)))
        out["adr_lo"], out["adr_hi"], out["ci_method"] = lo_w, hi_w, "wilson"
    elif interval == "bootstrap" and bootstrap:
        rng = np.random.default_rng(seed)
        idx = rng.integers(0, m, size=(bootstrap, m))
        boots = both[idx].mean(axis=1)
        lo, hi = np.quantile(boots, [(1 - confidence) / 2, (1 + confidence) / 2])
        out["adr_lo"], out["adr_hi"], out["ci_method"] = float(lo), float(hi), "bootstrap"
    return out


def adr_table(
    records: Iterable[Mapping[str, Any]], by: Sequence[str] = ("model",)
) -> list[dict[str, Any]]:
    """ADR per group of ``by`` columns (model, variant, n_vars …); members are matched by
    ``pair_id`` within a group, model and sample."""
    members: dict[tuple[Any, ...], dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in records:
        meta = r.get("meta") or {}
        pid = meta.get("pair_id")
        if pid is None:
            continue
        g = tuple(r.get(c, meta.get(c)) for c in by)
        chain = meta.get("transforms")
        where = (  # one prompt: the same rendering of the same representation and variant
            meta.get("rendering"),
            meta.get("representation") or meta.get("kind"),
            meta.get("variant"),
            json.dumps(chain, sort_keys=True, default=str) if chain else None,
        )
        members[(g, r.get("model"), r.get("sample"), pid, where)][str(meta.get("label"))] = r
    groups: dict[tuple[Any, ...], list[tuple[bool, bool, bool]]] = defaultdict(list)
    incomplete: dict[tuple[Any, ...], int] = defaultdict(int)
    for (g, *_), mem in members.items():
        s, u = mem.get("SAT"), mem.get("UNSAT")
        if s is None or u is None or s.get("error") or u.get("error"):
            incomplete[g] += 1  # a member missing, or unanswered (an outage is no answer)
            continue
        vs, vu = s.get("verdict") or {}, u.get("verdict") or {}
        groups[g].append(
            (bool(vs.get("correct")), bool(vu.get("correct")), bool(vs.get("witness_valid")))
        )
    out = []
    for g in sorted(
        set(groups) | set(incomplete),
        key=lambda k: tuple((0, x) if isinstance(x, int | float) else (1, str(x)) for x in k),
    ):
        rows = groups.get(g, [])
        res = adr_from_pairs([(x, y) for x, y, _ in rows], strict=[z for _, _, z in rows])
        out.append(dict(zip(by, g, strict=True)) | res | {"incomplete": incomplete.get(g, 0)})
    return out
