"""SATBench's result tables in the paper's layout (§5): Table 3 (prediction accuracy per label ×
difficulty bucket, Overall per bucket, Avg.), Table 4 (prediction and trace accuracy per label),
Table 5 (error classes as percentages) and the numbers behind Fig. 4 (accuracy against clause
count). One row per model — and rendering, where the records hold several — in %.

Definitions, as the paper's numbers imply: Overall per bucket is the mean of the SAT and UNSAT
accuracies (the buckets are balanced), Avg. the mean of the three Overall values; a trace is
right when the answer is right *and* its justification checks out (an assignment the solver
accepts, or cited conditions that cannot hold together), over every item of the label; Overall
trace is the mean of the two labels. Error classes come from the deterministic rules
(``details.satbench_error``), else from the judge (``details.judge_error_type``); spurious priors
exists only where a judge ran, and is empty (—) otherwise.

Example:
    >>> table3([])
    []
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..numfmt import Fixed, ratio_pct
from .studies import _pct

BUCKETS = ("easy", "medium", "hard")
CLASSES = (
    ("satisfiability bias", "Satisfiability Bias"),
    ("context inconsistency", "Context Inconsistency"),
    ("condition omission", "Condition Omission"),
    ("spurious priors", "Spurious Priors"),
)


def _mean(xs: Sequence[float | None]) -> float | None:
    v = [x for x in xs if x is not None]
    return sum(v) / len(v) if len(v) == len(xs) and v else None


def _scored(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [
        r
        for r in records
        if r.get("error") is None
        and (r.get("meta") or {}).get("bucket") in BUCKETS
        and (r.get("meta") or {}).get("label") in ("SAT", "UNSAT")
    ]


def _keys(recs: Sequence[Mapping[str, Any]]) -> tuple[list[tuple[str, ...]], bool]:
    rends = {str((r.get("meta") or {}).get("rendering")) for r in recs}
    several = len(rends) > 1
    keys: list[tuple[str, ...]] = sorted({_key(r, several) for r in recs})
    return keys, several


def _key(r: Mapping[str, Any], several: bool) -> tuple[str, ...]:
    m = r.get("meta") or {}
    return (str(r.get("model")), str(m.get("rendering"))) if several else (str(r.get("model")),)


def _head(key: tuple[str, ...], several: bool) -> dict[str, Any]:
    return {"model": key[0], **({"rendering": key[1]} if several else {})}


def table3(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 3: accuracy per label × bucket, Overall per bucket, Avg. (%)."""
    recs = _scored(records)
    keys, several = _keys(recs)
    cells: dict[tuple[str, ...], dict[tuple[str, str], list[bool]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for r in recs:
        m = r["meta"]
        cells[_key(r, several)][(m["label"], m["bucket"])].append(
            bool((r.get("verdict") or {}).get("correct"))
        )
    out = []
    for key in keys:
        c = cells[key]
        acc = {
            lb: {b: (sum(c[(lb, b)]) / len(c[(lb, b)]) if c[(lb, b)] else None) for b in BUCKETS}
            for lb in ("SAT", "UNSAT")
        }
        overall = {b: _mean([acc["SAT"][b], acc["UNSAT"][b]]) for b in BUCKETS}
        row = _head(key, several)
        for lb in ("SAT", "UNSAT"):
            row |= {f"{lb} {b.capitalize()}": _pct(acc[lb][b]) for b in BUCKETS}
        row |= {f"Overall {b.capitalize()}": _pct(overall[b]) for b in BUCKETS}
        row["Avg."] = _pct(_mean([overall[b] for b in BUCKETS]))
        row["n"] = sum(len(v) for v in c.values())
        out.append(row)
    return out


def _trace_ok(r: Mapping[str, Any]) -> bool:
    v = r.get("verdict") or {}
    return bool(v.get("correct")) and v.get("witness_valid") is True


def _judge_trace_ok(r: Mapping[str, Any]) -> bool:
    """SATBench's judge-based trace: a right SAT answer whose assignment, unmentioned variables
    read as false, satisfies every clause; a right UNSAT answer the judge finds a real conflict."""
    v = r.get("verdict") or {}
    d = v.get("details") or {}
    if not v.get("correct"):
        return False
    if (r.get("meta") or {}).get("label") == "SAT":
        return (
            bool(d["satbench_trace_valid"])
            if "satbench_trace_valid" in d
            else (v.get("witness_valid") is True)
        )
    return d.get("judge_core_valid") is True


def table4(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 4: prediction and trace accuracy per label, Overall trace (%), over renderings
    that ask for a justification (``formula-trace``, stories). ``Trace`` is solver-checked
    (a complete satisfying assignment; an UNSAT conflict the solver confirms); where a judge read
    the traces (``logicforge judge``), ``Trace (judge)`` beside it is SATBench's judge-based
    reading (unmentioned variables false; the judge's opinion of the UNSAT reason)."""
    from .compute import is_trace

    recs = [r for r in _scored(records) if is_trace(r.get("meta") or {})]
    judged = any((r.get("extra") or {}).get("trace_judge") for r in recs)
    keys, several = _keys(recs)
    by: dict[tuple[str, ...], dict[str, list[Mapping[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for r in recs:
        by[_key(r, several)][r["meta"]["label"]].append(r)
    out = []
    for key in keys:
        row = _head(key, several)
        traces: list[float | None] = []
        judge_traces: list[float | None] = []
        for lb in ("SAT", "UNSAT"):
            rs = by[key][lb]
            pred = (
                sum(bool((r.get("verdict") or {}).get("correct")) for r in rs) / len(rs)
                if rs
                else None
            )
            tr = sum(_trace_ok(r) for r in rs) / len(rs) if rs else None
            row |= {f"{lb} Pred.": _pct(pred), f"{lb} Trace": _pct(tr)}
            if judged:
                jt = sum(_judge_trace_ok(r) for r in rs) / len(rs) if rs else None
                row[f"{lb} Trace (judge)"] = _pct(jt)
                judge_traces.append(jt)
            traces.append(tr)
        row["Overall Trace"] = _pct(_mean(traces))
        if judged:
            row["Overall Trace (judge)"] = _pct(_mean(judge_traces))
        row["n"] = sum(len(v) for v in by[key].values())
        out.append(row)
    return out


def _error_class(r: Mapping[str, Any]) -> str | None:
    d = (r.get("verdict") or {}).get("details") or {}
    return d.get("satbench_error") or d.get("judge_error_type")


def table5(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 5: the error classes' shares (%) among a model's classified errors — a row per
    class, a column per model, as the paper; ``classified`` counts them."""
    recs = [r for r in records if r.get("error") is None]
    models = sorted({str(r.get("model")) for r in recs if _error_class(r)})
    if not models:
        return []
    judged = {str(r.get("model")) for r in recs if (r.get("extra") or {}).get("trace_judge")}
    counts: dict[str, dict[str, int]] = {m: defaultdict(int) for m in models}
    for r in recs:
        c = _error_class(r)
        if c and str(r.get("model")) in counts:
            counts[str(r.get("model"))][c] += 1
    total = {m: sum(v for k, v in counts[m].items() if k in dict(CLASSES)) for m in models}
    rows = []
    for cls, label in CLASSES:
        row: dict[str, Any] = {"Error Type": label}
        for m in models:
            known = cls != "spurious priors" or m in judged  # no judge, no spurious priors
            row[f"{m} (%)"] = ratio_pct(counts[m][cls], total[m]) if known else None
        rows.append(row)
    rows.append({"Error Type": "classified errors", **{f"{m} (%)": total[m] for m in models}})
    return rows


def accuracy_by_clauses(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Fig. 4's numbers: accuracy (%) per model (and rendering) at each clause count."""
    recs = _scored(records)
    _, several = _keys(recs)
    cells: dict[tuple[tuple[str, ...], int], list[bool]] = defaultdict(list)
    for r in recs:
        n = (r.get("meta") or {}).get("n_clauses")
        if isinstance(n, int):
            cells[(_key(r, several), n)].append(bool((r.get("verdict") or {}).get("correct")))
    return [
        {**_head(k, several), "n_clauses": n, "n": len(v), "accuracy": _pct(sum(v) / len(v))}
        for (k, n), v in sorted(cells.items())
    ]


def clauses_figure(
    rows: Sequence[Mapping[str, Any]], colours: Mapping[str, str], path: Any
) -> str | None:
    """Fig. 4: accuracy against clause count, one line per model (and rendering)."""
    from .plots import SERIES_STYLES, _plt, save_figure

    if len({r["n_clauses"] for r in rows}) < 2:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    series: dict[tuple[str, str], list[tuple[int, float]]] = defaultdict(list)
    for r in rows:
        series[(r["model"], r.get("rendering", ""))].append((r["n_clauses"], r["accuracy"]))
    # colour by model, line style and marker by rendering: two renderings of one model differ
    rends = sorted({rend for _, rend in series})
    style = {rend: SERIES_STYLES[i % len(SERIES_STYLES)] for i, rend in enumerate(rends)}
    for (model, rend), pts in sorted(series.items()):
        ls, marker = style[rend]
        ax.plot(
            [x for x, _ in pts],
            [y for _, y in pts],
            ls=ls,
            marker=marker,
            ms=4,
            label=model + (f" · {rend}" if rend else ""),
            color=colours.get(model),
        )
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("clauses")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(-3, 103)
    save_figure(fig, path, ax, legend=True)
    return "Accuracy against the number of clauses, per model (SATBench Fig. 4); dotted: chance."


def formula_stats(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 2's statistics of the formulas (per construction method, and over all): how many,
    mean variables (the array's size), mean clauses, and the share of unit clauses — beside the
    paper's 2,100 puzzles with 36.0 variables and 20.6 clauses on average."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for p in problems:
        md = p.get("metadata") or {}
        if md.get("bucket") in BUCKETS and "clauses" in (p.get("problem") or {}):
            groups[str(md.get("method", "planted"))].append(p)
            groups["all"].append(p)
    rows = []
    for method in sorted(groups, key=lambda m: (m == "all", m)):
        ps = groups[method]
        clauses = [c for p in ps for c in p["problem"]["clauses"]]
        rows.append(
            {
                "method": method,
                "formulas": len(ps),
                "mean_variables": Fixed(sum(p["metadata"]["n_vars"] for p in ps) / len(ps), 1),
                "mean_clauses": Fixed(sum(len(p["problem"]["clauses"]) for p in ps) / len(ps), 1),
                "unit_clause_share": round(sum(len(c) == 1 for c in clauses) / len(clauses), 3)
                if clauses
                else None,
            }
        )
    if rows:
        rows.append(
            {
                "method": "SATBench (paper, Table 2)",
                "formulas": 2100,
                "mean_variables": Fixed(36.0, 1),
                "mean_clauses": Fixed(20.6, 1),
                "unit_clause_share": None,
            }
        )
    return rows


_SENTENCE = re.compile(r"[^.!?\n]*[A-Za-z][^.!?\n]*(?:[.!?]+|\n|$)")


def text_stats(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 2's size of the puzzles as asked, per rendering: mean words and sentences of the
    prompt's last user message (the story or formula, its conditions and the question; a
    numbered condition or a line without a full stop counts as one sentence).

    Example:
        >>> it = {"rendering": "story", "metadata": {"bucket": "easy"},
        ...       "messages": [{"role": "user", "content": "A cat sat. It ran!\\n1. x is red"}]}
        >>> [(r["rendering"], float(r["mean_words"]), float(r["mean_sentences"])) for r in text_stats([it])]
        [('story', 9.0, 3.0)]
    """
    groups: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for it in items:
        if (it.get("metadata") or {}).get("bucket") not in BUCKETS:
            continue
        users = [m for m in it.get("messages") or [] if m.get("role") == "user"]
        if not users:
            continue
        text = str(users[-1].get("content") or "")
        sentences = [x for x in _SENTENCE.findall(text) if x.strip()]
        groups[str(it.get("rendering"))].append((len(text.split()), len(sentences)))
    return [
        {
            "rendering": r,
            "puzzles": len(v),
            "mean_words": Fixed(sum(w for w, _ in v) / len(v), 1),
            "mean_sentences": Fixed(sum(n for _, n in v) / len(v), 1),
        }
        for r, v in sorted(groups.items())
    ]


def error_aware_fixes(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """§6.2: of the items a model got wrong under a rendering, how many it gets right under the
    same rendering's error-aware version (``<rendering>-aware``, the same problem) — the paper's
    "fraction of failing cases corrected" — and, for balance, how many right answers the
    error-aware prompt turns wrong.

    Example:
        >>> error_aware_fixes([])
        []
    """
    seen: dict[tuple[str, str, str], bool] = {}
    for r in records:
        m = r.get("meta") or {}
        rend = m.get("rendering")
        if r.get("error") is None and isinstance(rend, str) and r.get("sample", 0) == 0:
            key = (str(r.get("model")), rend, str(m.get("problem_id")))
            seen[key] = bool((r.get("verdict") or {}).get("correct"))
    rows = []
    pairs = sorted({(m, rend) for m, rend, _ in seen if not rend.endswith("-aware")})
    for model, rend in pairs:
        base = {p: ok for (m, r_, p), ok in seen.items() if m == model and r_ == rend}
        aware = {p: ok for (m, r_, p), ok in seen.items() if m == model and r_ == rend + "-aware"}
        both = sorted(set(base) & set(aware))
        if not both:
            continue
        failed = [p for p in both if not base[p]]
        right = [p for p in both if base[p]]
        fixed = sum(aware[p] for p in failed)
        broken = sum(not aware[p] for p in right)
        rows.append(
            {
                "model": model,
                "rendering": rend,
                "problems": len(both),
                "failed": len(failed),
                "fixed": fixed,
                "fixed_pct": ratio_pct(fixed, len(failed)),
                "right": len(right),
                "broken": broken,
                "broken_pct": ratio_pct(broken, len(right)),
            }
        )
    return rows


def discard_note(folder: Path) -> str:
    """For a table's caption: how many story puzzles failed validation and were discarded (as
    SATBench discards them), from a suite's ``story-discards-*.json``; '' when none were.

    Example:
        >>> import tempfile, json
        >>> d = Path(tempfile.mkdtemp())
        >>> _ = (d / "story-discards-story.json").write_text(json.dumps(
        ...     {"renderer": "story", "problems": 10, "kept": 7, "discarded": 3}))
        >>> discard_note(d)
        '; story puzzles: 3 of 10 failed validation and were discarded (story-discards-story.json), as SATBench does'
    """
    import json

    parts = []
    for f in sorted(Path(folder).glob("story-discards-*.json")):
        try:
            d = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if d.get("discarded"):
            parts.append(f"{d['discarded']} of {d['problems']} failed validation and were "
                         f"discarded ({f.name})")  # fmt: skip
    return f"; story puzzles: {'; '.join(parts)}, as SATBench does" if parts else ""
