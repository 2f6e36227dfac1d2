"""ZebraLogic's Table 2 in the paper's layout (§5): for each base model, its own accuracy, then
the test-time-compute methods — BoN-Oracle (pass@k) and majority voting over the first N of its
samples, and the strategy models built on it (best-of-n with a reward-model or judge scorer,
self-verification with and without the oracle hint, one or two rounds) — as rows; columns
Overall, Small, Medium, Large, X-Large grid accuracy in %.

The base row is pass@1 over the model's samples (the paper's row is greedy decoding: run the
suite at temperature 0 with one sample for that). N is every one of the paper's 128 and 32 that
the samples reach, else the largest power of two they do.

Example:
    >>> zebralogic_table2([])
    []
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..kinds import format_of
from ..kinds.vote import winner
from ..metrics.ttc import pass_at_k
from ..numfmt import pct
from ..schema import Answer

GROUPS = ("Small", "Medium", "Large", "X-Large")
PAPER_N = (128, 32)


def _pct(xs: list[float]) -> float | None:
    return pct(sum(xs) / len(xs)) if xs else None


def _ok(r: Mapping[str, Any]) -> bool:
    return bool((r.get("verdict") or {}).get("correct"))


def _majority_ok(rs: Sequence[Mapping[str, Any]]) -> bool:
    meta = rs[0].get("meta") or {}
    fmt = format_of(str(meta.get("kind", "")), str(meta.get("answer_format") or ""))
    if fmt is None:
        return False
    answers = [Answer.model_validate(r["answer"]) if r.get("answer") else None for r in rs]
    w = winner(fmt, answers)
    return w is not None and _ok(rs[w])


def method_name(model: str, base: str, extra: Mapping[str, Any] | None = None) -> str:
    """The paper's row name of a strategy model built on ``base``, read from what its records
    say they ran (``extra``: best-of-n's N and scorer kind, self-verification's rounds and
    feedback), else the model's name after ``base+``.

    Example:
        >>> method_name("m+best-of-8-reward(rm)", "m", {"bon_n": 8, "bon_method": "rm"})
        'BoN-RM N=8'
        >>> method_name("m+selfverify2-oracle", "m", {"sv_rounds": 2, "sv_feedback": "oracle"})
        'Self-Verify (Oracle, x2)'
    """
    ex = extra or {}
    if ex.get("bon_n"):
        kind = ex.get("bon_method") or ex.get("bon_scorer")  # records before bon_method
        label = {"oracle": "BoN-Oracle", "majority": "Majority-Voting"}.get(str(kind), "BoN-RM")
        return f"{label} N={ex['bon_n']}"
    if ex.get("sv_rounds"):
        rounds, oracle = int(ex["sv_rounds"]), ex.get("sv_feedback") == "oracle"
        extra_txt = ", ".join(
            x for x in ("Oracle" if oracle else "", f"x{rounds}" if rounds > 1 else "") if x
        )
        return "Self-Verify" + (f" ({extra_txt})" if extra_txt else "")
    return model[len(base) + 1 :]


def _extra(by_item: Mapping[str, Sequence[Mapping[str, Any]]]) -> Mapping[str, Any]:
    """The first record's ``extra`` that names its strategy (a model runs one strategy)."""
    for rs in by_item.values():
        for r in rs:
            ex = r.get("extra") or {}
            if ex.get("bon_n") or ex.get("sv_rounds"):
                return ex
    return {}


ORDER = ("BoN-Oracle", "Majority-Voting", "BoN-RM", "Self-Verify (Oracle", "Self-Verify")


def _rank(name: str) -> tuple[int, int, str]:
    """The paper's row order: BoN-Oracle, Majority-Voting, BoN-RM (larger N first), then
    Self-Verify with the oracle, without, and with more rounds."""
    kind = next((i for i, k in enumerate(ORDER) if name.startswith(k)), len(ORDER))
    n = re.search(r"N=(\d+)", name)
    return kind, -int(n.group(1)) if n else 0, name


def _row(name: str, per_item: Mapping[str, tuple[str, float]]) -> dict[str, Any]:
    """per_item: item → (size group, score in [0, 1])."""
    by: dict[str, list[float]] = defaultdict(list)
    for g, v in per_item.values():
        by[g].append(v)
    return {
        "Model & Methods": name,
        "Overall": _pct([v for _, v in per_item.values()]),
        **{g: _pct(by[g]) for g in GROUPS},
        "n": len(per_item),
    }


def zebralogic_table2(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 2 rows (see the module docstring), base models in name order, each followed by its
    methods."""
    items: dict[str, dict[str, list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        m = r.get("meta") or {}
        if r.get("error") is None and m.get("size_group") in GROUPS:
            items[str(r.get("model"))][str(r.get("item_id"))].append(r)
    bases = sorted(m for m in items if "+" not in m)
    out: list[dict[str, Any]] = []
    for base in bases:
        its = {i: sorted(rs, key=lambda r: r.get("sample") or 0) for i, rs in items[base].items()}
        group = {i: str(rs[0]["meta"]["size_group"]) for i, rs in its.items()}
        out.append(
            _row(base, {i: (group[i], sum(map(_ok, rs)) / len(rs)) for i, rs in its.items()})
        )
        n_min = min(len(rs) for rs in its.values())
        ns = [n for n in PAPER_N if n <= n_min] or [2 ** (n_min.bit_length() - 1)] * (n_min >= 2)
        for n in ns:
            out.append(
                _row(
                    f"BoN-Oracle N={n}",
                    {
                        i: (group[i], pass_at_k(len(rs), sum(map(_ok, rs)), n))
                        for i, rs in its.items()
                    },
                )
            )
        for n in ns:
            out.append(
                _row(
                    f"Majority-Voting N={n}",
                    {i: (group[i], float(_majority_ok(rs[:n]))) for i, rs in its.items()},
                )
            )
        names = {
            m: method_name(m, base, _extra(items[m])) for m in items if m.startswith(base + "+")
        }
        for strat in sorted(names, key=lambda m: _rank(names[m])):
            rs_by = items[strat]
            out.append(
                _row(
                    names[strat],
                    {
                        i: (str(rs[0]["meta"]["size_group"]), sum(map(_ok, rs)) / len(rs))
                        for i, rs in rs_by.items()
                    },
                )
            )
    return out
