"""The multi-turn repair tables: solver feedback against plain retries and self-review.

Records of the ``repair`` strategy (:mod:`logicforge.strategies.repair`) keep, per turn, whether
the answer in hand was wholly right and the completion tokens spent so far. For each inner
model, arm (``solver`` / ``retry`` / ``review``) and turn budget:

* ``repair_turns`` — the share right after 0, 1, … extra turns (the answer in hand: an arm that
  stopped keeps its right answer), the mean turns used and the mean completion tokens spent by
  then, so arms are compared at equal turns and, through the tokens, at equal cost;
* ``repair_vs_retry`` — per inner model and budget, the final accuracy of each arm, each arm's
  accuracy at equal token cost (the cheapest arm's mean completion tokens as the budget; a
  record keeps the answer of its last turn within it), solver − retry, and the items one arm
  repairs and the other does not (discordant pairs, with an exact two-sided sign test).

Example:
    >>> r = {"model": "m+repair1-solver", "item_id": "a", "sample": 0,
    ...      "extra": {"repair_mode": "solver", "repair_turns": 1, "repair_solved": [False, True],
    ...                "repair_tokens": [10, 25]}}
    >>> t = repair_turn_table([r])
    >>> (t[0]["model"], t[0]["turn"], t[0]["accuracy"]), (t[1]["turn"], t[1]["accuracy"])
    (('m', 0, 0.0), (1, 1.0))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _runs(
    records: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, int], list[Mapping[str, Any]]]:
    out: dict[tuple[str, str, int], list[Mapping[str, Any]]] = {}
    for r in records:
        ex = r.get("extra") or {}
        mode, turns = ex.get("repair_mode"), ex.get("repair_turns")
        if not mode or not isinstance(turns, int) or r.get("error") or not ex.get("repair_solved"):
            continue
        model = str(r.get("model") or "")
        inner = model.rsplit("+repair", 1)[0]
        out.setdefault((inner, str(mode), turns), []).append(r)
    return out


def _at(seq: Sequence[Any], k: int) -> Any:
    return seq[min(k, len(seq) - 1)]


def repair_turn_table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per (inner model, arm, budget, turn): accuracy of the answer in hand after
    ``turn`` extra turns, the mean turns used and completion tokens spent by then."""
    rows = []
    for (inner, mode, turns), recs in sorted(_runs(records).items()):
        n = len(recs)
        for k in range(turns + 1):
            solved = [bool(_at(r["extra"]["repair_solved"], k)) for r in recs]
            spent = [_at(r["extra"].get("repair_tokens") or [0], k) or 0 for r in recs]
            used = [min(k, len(r["extra"]["repair_solved"]) - 1) for r in recs]
            rows.append(
                {
                    "model": inner,
                    "arm": mode,
                    "budget": turns,
                    "turn": k,
                    "n": n,
                    "accuracy": sum(solved) / n,
                    "mean_turns_used": sum(used) / n,
                    "mean_completion_tokens": sum(spent) / n,
                }
            )
    return rows


def _sign_test(b: int, c: int) -> float | None:
    """Exact two-sided sign test on b vs c discordant pairs (None without any)."""
    n = b + c
    if n == 0:
        return None
    k = min(b, c)
    p = 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, p)


def repair_vs_retry(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per inner model and budget: each arm's final accuracy, solver − retry and the
    discordant items (solved by one arm only), matched by item and sample."""
    runs = _runs(records)
    out = []
    for inner, turns in sorted({(k[0], k[2]) for k in runs}):
        final: dict[str, dict[tuple[str, int], bool]] = {}
        for mode in ("solver", "retry", "review"):
            recs = runs.get((inner, mode, turns), [])
            final[mode] = {
                (str(r.get("item_id")), int(r.get("sample") or 0)): bool(
                    r["extra"]["repair_solved"][-1]
                )
                for r in recs
            }
        row: dict[str, Any] = {"model": inner, "budget": turns}
        for mode, got in final.items():
            row[f"{mode}_n"] = len(got)
            row[f"{mode}_accuracy"] = sum(got.values()) / len(got) if got else None
        row |= _at_equal_tokens(runs, inner, turns)
        s, t = final["solver"], final["retry"]
        both = sorted(s.keys() & t.keys())
        if both:
            b = sum(s[k] and not t[k] for k in both)
            c = sum(t[k] and not s[k] for k in both)
            row |= {
                "paired_n": len(both),
                "solver_minus_retry": (sum(s[k] for k in both) - sum(t[k] for k in both))
                / len(both),
                "solver_only": b,
                "retry_only": c,
                "sign_test_p": _sign_test(b, c),
            }
        else:
            row |= {
                "paired_n": 0,
                "solver_minus_retry": None,
                "solver_only": None,
                "retry_only": None,
                "sign_test_p": None,
            }
        out.append(row)
    return out


def _at_equal_tokens(
    runs: Mapping[tuple[str, str, int], list[Mapping[str, Any]]], inner: str, turns: int
) -> dict[str, Any]:
    """Each arm's accuracy at the same completion-token cost: the cheapest arm's mean final
    tokens is the budget; a record counts the answer it had after the last turn that ended
    within it (its first answer when even that went over)."""
    arms = {m: runs.get((inner, m, turns), []) for m in ("solver", "retry", "review")}
    means = [
        sum((r["extra"].get("repair_tokens") or [0])[-1] or 0 for r in recs) / len(recs)
        for recs in arms.values()
        if recs
    ]
    if not means:
        return {}
    budget = min(means)
    out: dict[str, Any] = {"token_budget": budget}
    for mode, recs in arms.items():
        hits = []
        for r in recs:
            spent = r["extra"].get("repair_tokens") or [0]
            k = max([i for i, t in enumerate(spent) if (t or 0) <= budget], default=0)
            hits.append(bool(_at(r["extra"]["repair_solved"], k)))
        out[f"{mode}_at_budget"] = sum(hits) / len(hits) if hits else None
    return out


def repair_figure(rows: Sequence[Mapping[str, Any]], out: Path) -> tuple[str, str] | None:
    """Accuracy against the turn, one line per model and arm."""
    from . import plots

    series = [dict(r) | {"model": f"{r['model']} · {r['arm']} ({r['budget']})"} for r in rows]
    colours = plots.model_colours(sorted({str(s["model"]) for s in series}))
    path = out / "repair_turns.png"
    cap = plots.metric_vs(
        series, "turn", "accuracy", colours, path, "repair: accuracy after each extra turn"
    )
    return (path.name, cap) if cap else None
