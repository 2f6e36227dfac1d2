"""Stability under operator edits (the symbolic-edits paper, §4): normalised accuracy across edit
levels, flip rates with their transition table and a significance test, accuracy per condition,
and retention of the original answer after an answer-altering edit.

Records are grouped by ``meta.chain_id`` (the source problem) and ``meta.edit_level``.

* Acc_norm(k) — per chain, correctness at level k, or at level 0 when the chain has no k-th edit;
  averaged over chains (so every chain counts at every k).
* flip table between level 0 and level k over chains that have both: I→C, C→I, C→C, I→I; flip rate
  (I→C + C→I)/n; an exact McNemar test (two-sided binomial on the discordant pairs), with
  Bonferroni across models; "practical" marks a flip rate of at least 5 %.
* Acc_c — accuracy per condition (``preserved`` / ``altered``).
* retention — after an altering edit, the share of answers that still give the *original* option;
  one-sided binomial test against 10 %.

Example:
    >>> rows = [{"model": "m", "meta": {"chain_id": "a", "edit_level": 0}, "verdict": {"correct": True}},
    ...         {"model": "m", "meta": {"chain_id": "a", "edit_level": 1}, "verdict": {"correct": False}},
    ...         {"model": "m", "meta": {"chain_id": "b", "edit_level": 0}, "verdict": {"correct": True}}]
    >>> acc_norm(rows, 1)["m"]   # chain b has no level 1: its level 0 counts
    0.5
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from ..numfmt import Percent
from ..schema import answer_label
from .stats import mean


def _ok(r: Mapping[str, Any]) -> bool:
    return bool((r.get("verdict") or {}).get("correct"))


def _chains(
    records: Iterable[Mapping[str, Any]],
) -> dict[str, dict[str, dict[int, list[bool]]]]:
    """model → chain → level → correctness of each sample."""
    out: dict[str, dict[str, dict[int, list[bool]]]] = defaultdict(lambda: defaultdict(dict))
    for r in records:
        m = r.get("meta") or {}
        if m.get("chain_id") is None or m.get("edit_mode") not in (None, "cumulative"):
            continue
        out[str(r.get("model"))][m["chain_id"]].setdefault(int(m.get("edit_level", 0)), []).append(
            _ok(r)
        )
    return out


def _mean(xs: list[bool]) -> float:
    m = mean(xs)
    if m is None:  # callers only average non-empty groups
        raise ValueError("mean of no values")
    return m


def acc_norm(records: Iterable[Mapping[str, Any]], k: int) -> dict[str, float]:
    """Acc_norm(k) per model (cumulative chains)."""
    res = {}
    for model, chains in _chains(records).items():
        vals = [_mean(levels.get(k) or levels.get(0) or [False]) for levels in chains.values()]
        res[model] = sum(vals) / len(vals)
    return res


def table11(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The paper's Table 11 layout: one row per edit level k, Acc_norm(k) in % per model (one
    column each, in name order), ``Count`` — the chains with a k-th edit (level 0: every chain) —
    ``significant``: the models whose accuracy changes from level 0 to level k (the paper's
    bold: an exact McNemar test of the paired change, two-sided, Bonferroni over the models
    under evaluation) and ``flip test``: the models whose flip rate is above 10 % (the paper's
    Table 10 test, Bonferroni) — a model can flip often while its accuracy stays flat.

    Example:
        >>> rows = [{"model": "m", "meta": {"chain_id": c, "edit_level": k}, "verdict": {"correct": k == 0}}
        ...         for c, ks in (("a", (0, 1, 2)), ("b", (0, 1)), ("c", (0,))) for k in ks]
        >>> [(r["Edits"], r["m"], r["Count"]) for r in table11(rows)]
        [(0, 100.0, 3), (1, 33.33, 2), (2, 66.67, 1)]
    """
    recs = list(records)
    chains = _chains(recs)
    if not chains:
        return []
    models = sorted(chains)
    levels = sorted({k for per in chains.values() for lv in per.values() for k in lv})
    count = {
        k: len({c for per in chains.values() for c, lv in per.items() if k in lv}) for k in levels
    }
    rows = []
    for k in levels:
        norm = acc_norm(recs, k)
        flips = flip_table(recs, k) if k else []
        changed = [r["model"] for r in flips if r["accuracy_change_significant"]]
        flipped = [r["model"] for r in flips if r["significant"]]
        rows.append(
            {
                "Edits": k,
                **{m: Percent(100 * norm[m], 2) for m in models},  # the paper's two decimals
                "Count": count[k],
                "significant": ", ".join(changed),
                "flip test": ", ".join(flipped),
            }
        )
    return rows


def binom_sf(k: int, n: int, p: float) -> float:
    """P[X ≥ k] for X ~ Binomial(n, p)."""
    from scipy.stats import binom

    return float(binom.sf(k - 1, n, p))


BASELINES = ("oracle", "random", "noisy", "always-sat", "always-unsat")


def flip_test(flips: int, n: int, p0: float = 0.10) -> float:
    """The paper's flip test: one-sided binomial, P[X ≥ flips] for X ~ Binomial(n, p0) — is the
    flip rate above 10 %? It reproduces LogicEdit Table 10's p-values from its counts.

    Example:
        >>> round(flip_test(8, 68), 4), round(flip_test(6, 26), 4)
        (0.3698, 0.0399)
    """
    return binom_sf(flips, n, p0) if n else 1.0


def flip_table(records: Iterable[Mapping[str, Any]], k: int) -> list[dict[str, Any]]:
    """Transitions from level 0 to level k per model, flip rate, the paper's one-sided binomial
    test against a 10 % flip rate (``p``; Bonferroni over the models under evaluation, baselines
    not counted) and the exact McNemar test of the accuracy change (``p_mcnemar``, two-sided, its
    Bonferroni value ``p_mcnemar_bonferroni`` and ``accuracy_change_significant``)."""
    from scipy.stats import binomtest

    rows: list[dict[str, Any]] = []
    for model, chains in sorted(_chains(records).items()):
        t = {"I→C": 0, "C→I": 0, "C→C": 0, "I→I": 0}
        for levels in chains.values():
            if 0 in levels and k in levels:
                a, b = _mean(levels[0]) >= 0.5, _mean(levels[k]) >= 0.5
                t[f"{'C' if a else 'I'}→{'C' if b else 'I'}"] += 1
        n = sum(t.values())
        disc = t["I→C"] + t["C→I"]
        mcnemar = binomtest(t["I→C"], disc, 0.5).pvalue if disc else 1.0
        rows.append(
            {
                "model": model,
                "k": k,
                "n": n,
                **t,
                "flip_rate": disc / n if n else None,
                "p": flip_test(disc, n),
                "p_mcnemar": mcnemar,
            }
        )
    evaluated = [r for r in rows if str(r["model"]).split(":")[0] not in BASELINES]
    for r in rows:
        r["p_bonferroni"] = min(1.0, r["p"] * max(1, len(evaluated)))
        r["significant"] = r["p_bonferroni"] < 0.05
        r["p_mcnemar_bonferroni"] = min(1.0, r["p_mcnemar"] * max(1, len(evaluated)))
        r["accuracy_change_significant"] = r["p_mcnemar_bonferroni"] < 0.05
        r["practical"] = r["flip_rate"] is not None and r["flip_rate"] >= 0.05
    return rows


def accuracy_by_condition(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Acc_c (the paper's Tables 4 and 13): accuracy per model and condition (``preserved`` /
    ``altered``) over **edited** problems only — unedited originals (level 0) and cumulative
    chains are not single edits and are left out — grouped by question: each edited question
    counts once (the mean of its records), beside the accuracy of the same questions' base
    version, their difference (edited − base) and an exact paired sign test (McNemar) of the
    per-question change."""
    from scipy.stats import binomtest

    recs = list(records)
    base: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in recs:
        m = r.get("meta") or {}
        if m.get("chain_id") is not None and m.get("edit_level") == 0:
            base[(str(r.get("model")), str(m["chain_id"]))].append(_ok(r))
    edited: dict[tuple[str, str], dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    n_recs: dict[tuple[str, str], int] = defaultdict(int)
    for r in recs:
        m = r.get("meta") or {}
        cond = m.get("condition")
        if cond is None or m.get("edit_level") == 0 or m.get("edit_mode") == "cumulative":
            continue
        key = (str(r.get("model")), str(cond))
        q = str(m.get("chain_id") if m.get("chain_id") is not None else r.get("item_id"))
        edited[key][q].append(_ok(r))
        n_recs[key] += 1
    rows = []
    for (model, cond), per_q in sorted(edited.items()):
        acc = [_mean(v) for v in per_q.values()]
        paired = [(_mean(base[(model, q)]), _mean(v)) for q, v in per_q.items() if base[(model, q)]]
        b = mean(x for x, _ in paired)
        e = mean(y for _, y in paired)
        up = sum(y >= 0.5 > x for x, y in paired)
        down = sum(x >= 0.5 > y for x, y in paired)
        rows.append(
            {
                "model": model,
                "condition": cond,
                "questions": len(per_q),
                "n": n_recs[(model, cond)],
                "accuracy": sum(acc) / len(acc),
                "base_accuracy": b,
                "difference": None if b is None or e is None else e - b,
                "p": binomtest(up, up + down, 0.5).pvalue if up + down else None,
            }
        )
    return rows


def retention(
    records: Iterable[Mapping[str, Any]], threshold: float = 0.10
) -> list[dict[str, Any]]:
    """Share of answers to altered problems that keep the original option, tested against
    ``threshold`` (one-sided: is the model anchored to the original more often than that?)."""
    keep: dict[str, list[bool]] = defaultdict(list)
    for r in records:
        m = r.get("meta") or {}
        if m.get("condition") != "altered":
            continue
        choice = answer_label(r.get("answer"))
        keep[str(r.get("model"))].append(choice == m.get("original_label"))
    rows = []
    for model, v in sorted(keep.items()):
        k, n = sum(v), len(v)
        rows.append(
            {
                "model": model,
                "n": n,
                "retention": k / n,
                "p_above_threshold": binom_sf(k, n, threshold),
            }
        )
    return rows


def edit_stats(problems: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """LogicEdit's Tables 6 and 8 in one: per dataset (family), the records with a valid formal
    representation that the edits start from (``records``, Table 6's Valid, with the tool that
    solves them; a row marked ``formal_valid: False`` — its program does not execute or does
    not reach the gold answer — is not counted), and the edited records available under each setting (Table 8): ``Cuml`` —
    cumulative edits at level ≥ 1, ``Ind-original`` — individual label-preserving edits,
    ``Ind-altered`` — individual label-altering edits.

    Example:
        >>> ps = [{"family": "folio", "oracle": {"solver": "z3"}, "metadata": m} for m in (
        ...     {"edit_level": 0, "edit_mode": "cumulative"}, {"edit_level": 1, "edit_mode": "cumulative"},
        ...     {"edit_level": 1, "edit_mode": "preserve"}, {"edit_level": 1, "edit_mode": "alter"})]
        >>> edit_stats(ps)[0]
        {'dataset': 'folio', 'tool': 'z3', 'records': 1, 'Cuml': 1, 'Ind-original': 1, 'Ind-altered': 1}
    """
    rows: dict[str, dict[str, Any]] = {}
    for p in problems:
        m = p.get("metadata") or {}
        if m.get("edit_level") is None:
            continue
        fam = str(p.get("family"))
        row = rows.setdefault(
            fam,
            {"dataset": fam, "tool": str((p.get("oracle") or {}).get("solver", "")),
             "records": 0, "Cuml": 0, "Ind-original": 0, "Ind-altered": 0},
        )  # fmt: skip
        level, mode = int(m["edit_level"]), m.get("edit_mode")
        if level == 0:
            row["records"] += m.get("formal_valid") is not False  # False: no usable program
        elif mode == "cumulative":
            row["Cuml"] += 1
        elif mode in ("preserve", "alter"):
            row["Ind-original" if mode == "preserve" else "Ind-altered"] += 1
    return [rows[k] for k in sorted(rows)]
