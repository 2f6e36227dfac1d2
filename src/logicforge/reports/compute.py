"""Complexity and test-time compute: accuracy and reasoning tokens against Z3 conflicts
(ZebraLogic §4–5), and what best-of-n selection did."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.stats import mean


def _bin(c: float) -> int:
    return 0 if c < 1 else int(math.log2(c)) + 1


def conflicts_figure(
    records: Sequence[Mapping[str, Any]], colours: Mapping[str, str], out: Path
) -> tuple[list[dict[str, Any]], tuple[str, str] | None]:
    """Grid and cell accuracy per model against Z3 conflicts, in log₂ bins (0, 1, 2–3, 4–7, …)."""
    from .plots import _plt, model_lines, save_figure

    cells: dict[tuple[str, int], list[tuple[bool, float, int | None]]] = defaultdict(list)
    for r in records:
        c = (r.get("meta") or {}).get("z3_conflicts")
        if c is None:
            continue
        v = r.get("verdict") or {}
        cells[(str(r.get("model")), _bin(c))].append(
            (
                bool(v.get("correct")),
                float(v.get("score") or 0.0),
                (r.get("usage") or {}).get("reasoning_tokens"),
            )
        )
    rows: list[dict[str, Any]] = [
        {
            "model": m,
            "z3_conflicts_bin": f"[{0 if b == 0 else 2 ** (b - 1)}, {2**b})",
            "bin": b,
            "n": len(x),
            "accuracy": sum(a for a, _, _ in x) / len(x),
            "cell_accuracy": sum(c for _, c, _ in x) / len(x),
            "mean_reasoning_tokens": _mean([t for _, _, t in x]),
        }
        for (m, b), x in sorted(cells.items())
    ]
    if len({r["bin"] for r in rows}) < 2:
        return rows, None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    model_lines(ax, rows, "bin", "accuracy", colours)
    ax.set_xlabel("log2(Z3 conflicts) bin (mean over shuffled runs)")
    ax.set_ylabel("grid accuracy")
    ax.set_ylim(-0.03, 1.03)
    save_figure(fig, out / "accuracy_vs_z3_conflicts.png", ax, legend=True)
    return rows, (
        "accuracy_vs_z3_conflicts.png",
        "Grid accuracy per model against the puzzle's mean Z3 conflicts (log2 bins).",
    )


def _mean(xs: Sequence[float | None]) -> float | None:
    m = mean(xs)
    return None if m is None else round(m, 2)


def tokens_vs_conflicts(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: Spearman ρ between a response's reasoning tokens and its puzzle's mean Z3
    conflicts (does the model think longer on puzzles that are harder for a solver?), with the
    token source (API usage or the tokenizer that counted them)."""
    from ..metrics.stats import spearman

    pts: dict[str, list[tuple[float, float]]] = defaultdict(list)
    sources: dict[str, set[str]] = defaultdict(set)
    for r in records:
        c = (r.get("meta") or {}).get("z3_conflicts")
        u = r.get("usage") or {}
        t = u.get("reasoning_tokens")
        if c is None or t is None:
            continue
        pts[str(r.get("model"))].append((float(t), float(c)))
        sources[str(r.get("model"))].add(str(u.get("reasoning_source") or "usage"))
    rows = []
    for m, xy in sorted(pts.items()):
        xs, ys = [x for x, _ in xy], [y for _, y in xy]
        rho, p = spearman(xs, ys)
        rho = None if rho is None else round(rho, 3)
        rows.append(
            {
                "model": m,
                "n": len(xy),
                "mean_reasoning_tokens": round(sum(xs) / len(xs), 2),
                "spearman_tokens_vs_conflicts": rho,
                "p_value": p,
                "token_source": ", ".join(sorted(sources[m])),
            }
        )
    return rows


def clue_mix(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per puzzle size and over all puzzles: how many puzzles, clues per puzzle (mean, median),
    each clue type's share of the clues (``metadata.clue_types``) and the mean Z3 conflicts where
    they were measured (empty, never 0, where not) — the statistics a grid puzzle set is compared
    to ZebraLogic's by.

    Example:
        >>> ps = [{"metadata": {"size": "2*2", "n_clues": 2, "clue_types": {"FoundAt": 2}}}]
        >>> clue_mix(ps)[0]["FoundAt"], clue_mix(ps)[0]["z3_conflicts"]
        (1.0, None)
    """
    import statistics

    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for p in problems:
        md = p.get("metadata") or {}
        if isinstance(md.get("clue_types"), Mapping) and md.get("size"):
            groups[str(md["size"])].append(md)
            groups["all"].append(md)
    types = sorted({t for mds in groups.values() for md in mds for t in md["clue_types"]})

    def size_key(s: str) -> tuple[int, ...]:
        return (10**6,) if s == "all" else tuple(int(x) for x in s.split("*"))

    rows = []
    for size in sorted(groups, key=size_key):
        mds = groups[size]
        counts = {t: sum(int(md["clue_types"].get(t, 0)) for md in mds) for t in types}
        total = sum(counts.values())
        conflicts = [md["z3_conflicts"] for md in mds if md.get("z3_conflicts") is not None]
        rows.append(
            {
                "size": size,
                "puzzles": len(mds),
                "clues_mean": round(statistics.mean(md["n_clues"] for md in mds), 2),
                "clues_median": statistics.median(md["n_clues"] for md in mds),
                **{t: round(counts[t] / total, 3) if total else None for t in types},
                "z3_conflicts": _mean(conflicts) if conflicts else None,
            }
        )
    return rows


def best_of_n_table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per best-of-n model: accuracy of the selected answers, candidates per item, how often the
    scorer failed to give a score, and how often the selection differs from the first candidate."""
    acc: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        if (r.get("extra") or {}).get("bon_n"):
            acc[str(r.get("model"))].append(r)
    rows = []
    for m, rs in sorted(acc.items()):
        ex = [r["extra"] for r in rs]
        rows.append(
            {
                "model": m,
                "records": len(rs),
                "n": max(e["bon_n"] for e in ex),
                "scorer": ex[0].get("bon_scorer"),
                "accuracy": sum(bool((r.get("verdict") or {}).get("correct")) for r in rs)
                / len(rs),
                "changed_from_first": sum(e.get("bon_chosen", 0) != 0 for e in ex) / len(rs),
                "scorer_failures": sum(e.get("bon_scorer_failures", 0) for e in ex),
            }
        )
    return rows


def edit_tables(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The symbolic-edits paper's tables: Acc_norm(k) per model across edit levels (Table 1's
    layout), flip tables level 0 → k (Table 2), accuracy per condition (Table 4) and retention of
    the original answer after altering edits (Table 5)."""
    from ..metrics.edits import acc_norm, accuracy_by_condition, flip_table, retention, table11

    levels = sorted(
        {
            int((r.get("meta") or {}).get("edit_level", 0))
            for r in records
            if (r.get("meta") or {}).get("chain_id")
        }
    )
    if not levels:
        return []
    models = sorted({str(r.get("model")) for r in records})
    norm = {k: acc_norm(records, k) for k in levels}
    t1 = [{"model": m, **{f"Acc_norm({k})": norm[k].get(m) for k in levels}} for m in models]
    out: list[tuple[str, list[dict[str, Any]]]] = [
        ("edits_acc_norm (Acc_norm per edit level)", t1),
        (
            "edits_table11 (Acc_norm % per edit level and model; Count: chains with a k-th edit;"
            " significant: accuracy change level 0 → k, exact McNemar after Bonferroni;"
            " flip test: flip rate above 10 %, after Bonferroni)",
            table11(records),
        ),
    ]
    flips = [row for k in levels if k > 0 for row in flip_table(records, k)]
    if flips:
        out.append(("edits_flips (level 0 → k; exact McNemar, Bonferroni)", flips))
    cond = accuracy_by_condition(records)
    if cond:
        out.append(("edits_accuracy_by_condition", cond))
    ret = retention(records)
    if ret:
        out.append(("edits_retention (original answer kept after an altering edit; vs 10 %)", ret))
    return out


def is_trace(meta: Mapping[str, Any]) -> bool:
    """A record whose item asked for a checkable justification of either answer (an assignment
    for SAT, cited conditions or a refutation for UNSAT): its answer format says so. Records
    written before the format was recorded fall back to the rendering's name."""
    if "answer_format" not in meta:
        rendering = meta.get("rendering")
        return isinstance(rendering, str) and rendering.startswith(("formula-trace", "story"))
    from ..kinds.base import format_of

    f = format_of(str(meta.get("kind") or "cnf"), str(meta.get("answer_format") or ""))
    return f is not None and f.justified


def trace_table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """SATBench Tables 3–4: per model × rendering × bucket × label, prediction accuracy and trace
    accuracy (right answer *and* a justification the solver accepts), over trace renderings."""
    groups: dict[tuple[str, ...], list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        m = r.get("meta") or {}
        if not is_trace(m) or m.get("label") not in ("SAT", "UNSAT"):
            continue
        key = (str(r.get("model")), m["rendering"], str(m.get("bucket", "all")), m["label"])
        groups[key].append(r)
    out = []
    for (model, rend, b, label), rs in sorted(groups.items()):
        vs = [r.get("verdict") or {} for r in rs]
        out.append(
            {
                "model": model,
                "rendering": rend,
                "bucket": b,
                "label": label,
                "n": len(rs),
                "accuracy": sum(bool(v.get("correct")) for v in vs) / len(rs),
                "trace_accuracy": sum(
                    bool(v.get("correct")) and v.get("witness_valid") is True for v in vs
                )
                / len(rs),
            }
        )
    return out


def formula_vs_story(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """SATBench Table 6: the same problems as raw formulas and as stories — per model, accuracy
    on each over the problems that have both, and the difference (story − formula)."""
    by: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    for r in records:
        m = r.get("meta") or {}
        rend = m.get("rendering")
        if not isinstance(rend, str) or r.get("sample", 0) != 0:
            continue
        side = (
            "story"
            if rend.startswith("story")
            else "formula"
            if rend.startswith("formula")
            else None
        )
        if side:
            by[(str(r.get("model")), str(m.get("problem_id")))][side] = bool(
                (r.get("verdict") or {}).get("correct")
            )
    per: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for (model, _), d in by.items():
        if len(d) == 2:
            per[model].append((d["formula"], d["story"]))
    out = []
    for model, pairs in sorted(per.items()):
        f = sum(a for a, _ in pairs) / len(pairs)
        st = sum(b for _, b in pairs) / len(pairs)
        out.append(
            {
                "model": model,
                "problems": len(pairs),
                "formula_accuracy": f,
                "story_accuracy": st,
                "difference": st - f,
                "only_formula_right": sum(a and not b for a, b in pairs),
                "only_story_right": sum(b and not a for a, b in pairs),
            }
        )
    return out


def error_taxonomy(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Wrong or unjustified answers per model by SATBench's classes (§5.3, columns
    ``SATBench: …``: satisfiability bias = SAT with an invalid assignment, context inconsistency
    = conflicting values, condition omission = a satisfiable formula called UNSAT or a cited
    conflict that does not hold; spurious priors needs the judge), beside the finer rule classes
    (``error_type``: incomplete witness, condition hallucination, invalid core, spurious
    contradiction …), and trace accuracy over ``formula-trace`` records: right answers whose
    justification (assignment or cited unsatisfiable core) checks out, with how many cited cores
    were minimal."""
    per: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    for r in records:
        v = r.get("verdict") or {}
        row = per[str(r.get("model"))]
        row["records"] += 1
        if v.get("error_type"):
            row[v["error_type"]] += 1
        paper = (v.get("details") or {}).get("satbench_error")
        if paper:
            row[f"SATBench: {paper}"] += 1
        if v.get("correct"):
            row["correct"] += 1
        if is_trace(r.get("meta") or {}):  # a justification was asked
            row["trace_records"] += 1
            if v.get("correct"):
                row["trace_valid"] += v.get("witness_valid") is True
                row["cores_cited"] += "cited_unsat" in (v.get("details") or {})
                row["cores_minimal"] += bool((v.get("details") or {}).get("cited_minimal"))
    if not any(k not in ("records", "correct") for row in per.values() for k in row):
        return []
    out = []
    for m, row in sorted(per.items()):
        d = dict(row)
        n = d.get("trace_records", 0)
        d["trace_accuracy"] = d.get("trace_valid", 0) / n if n else None
        out.append({"model": m, **d})
    return out


TRANSITIONS = ("C→C", "I→C", "C→I", "I→I", "no further edit")


def transition_counts(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The paper's Fig. 3 as numbers: per model and step k → k+1, the chains going correct (C) or
    incorrect (I) to C or I, and those with level k but no (k+1)-th edit ("no further edit").

    Example:
        >>> rs = [{"model": "m", "meta": {"chain_id": c, "edit_level": k}, "verdict": {"correct": ok}}
        ...       for c, k, ok in (("a", 0, True), ("a", 1, False), ("b", 0, True))]
        >>> r = transition_counts(rs)[0]
        >>> r["step"], r["C→I"], r["no further edit"]
        ('0→1', 1, 1)
    """
    from ..metrics.edits import _chains

    chains = _chains(records)
    levels = sorted({k for ch in chains.values() for lv in ch.values() for k in lv})
    rows = []
    for m in sorted(chains):
        for a, b in zip(levels, levels[1:], strict=False):
            row: dict[str, Any] = {"model": m, "step": f"{a}→{b}", **dict.fromkeys(TRANSITIONS, 0)}
            for lv in chains[m].values():
                if a not in lv:
                    continue
                if b not in lv:
                    row["no further edit"] += 1
                    continue
                x = sum(lv[a]) / len(lv[a]) >= 0.5
                y = sum(lv[b]) / len(lv[b]) >= 0.5
                row[f"{'C' if x else 'I'}→{'C' if y else 'I'}"] += 1
            rows.append(row)
    return rows


def transitions_figure(rows: Sequence[Mapping[str, Any]], out: Path) -> tuple[str, str] | None:
    """Stacked bars of :func:`transition_counts`, one panel per model (every model, four panels
    to a row), correct green, incorrect red, no further edit grey — the paper's Fig. 3."""
    from .plots import _plt, save_figure

    models = sorted({str(r["model"]) for r in rows})
    if not rows:
        return None
    colours = ["#2e7d32", "#81c784", "#e57373", "#b71c1c", "#9e9e9e"]
    plt = _plt()
    cols = min(4, len(models))
    nrows = -(-len(models) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.6 * cols, 3.4 * nrows), dpi=110, squeeze=False)
    for i, m in enumerate(models):
        ax = axes[i // cols][i % cols]
        mine = [r for r in rows if r["model"] == m]
        bottoms = [0.0] * len(mine)
        for name, colour in zip(TRANSITIONS, colours, strict=True):
            vals = [r[name] for r in mine]
            ax.bar([r["step"] for r in mine], vals, bottom=bottoms, color=colour, label=name)
            bottoms = [u + v for u, v in zip(bottoms, vals, strict=True)]
        ax.set_title(m, fontsize=9)
        ax.set_xlabel("edit level")
        ax.set_ylabel("chains")
    for j in range(len(models), nrows * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][min(cols, len(models)) - 1].legend(fontsize=7)
    save_figure(fig, out / "edit_transitions.png")
    return (
        "edit_transitions.png",
        "Correct (C) and incorrect (I) answers from one edit level to the next, per model, and "
        "chains with no further edit (grey): where edits flip answers (numbers: "
        "edit_transitions.md).",
    )


def rescore_disagreements(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model, for re-scored records that carry the source harness's own verdict
    (``extra.source_verdict``): how often it agrees with logicforge's, how often the source
    counted a reply right that logicforge finds wrong (and the reverse), with up to three record
    ids of each kind to look at."""
    per: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        src = (r.get("extra") or {}).get("source_verdict")
        if not isinstance(src, bool):
            continue
        mine = bool((r.get("verdict") or {}).get("correct"))
        key = "agree" if src == mine else ("source_only" if src else "logicforge_only")
        per[str(r.get("model"))][key].append(str(r.get("record_id")))
    return [
        {
            "model": m,
            "records": sum(len(v) for v in d.values()),
            "agree": len(d["agree"]),
            "right_by_source_only": len(d["source_only"]),
            "right_by_logicforge_only": len(d["logicforge_only"]),
            "examples_source_only": " ".join(d["source_only"][:3]),
            "examples_logicforge_only": " ".join(d["logicforge_only"][:3]),
        }
        for m, d in sorted(per.items())
    ]
