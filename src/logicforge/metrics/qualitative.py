"""Qualitative coding of reasoning by an LLM judge (the symbolic-edits paper, §5 "Qualitative
study" and Appendix H): four binary codes with a justification for every 0.

* **PF** Premise Fidelity — the reasoning uses only the information in the question;
* **IV** Inference Validity — each step follows from the premises and earlier steps;
* **AC** Answer Completion — the reasoning includes the intermediate steps the conclusion needs;
* **AL** Answer Alignment — the final answer is supported by the reasoning.

The judge that codes the records calls a model and lives in :mod:`logicforge.llm.qualitative`
(:func:`~logicforge.llm.qualitative.code_records`); this module is pure: :func:`qualitative_table` gives the paper's Table 3 layout (percent
of 1s per code by edit level and model), :func:`score_accuracy_correlation` the correlation of
the overall score (mean of the four codes) with correctness, and :func:`negative_tokens` the
token frequencies of the justifications with the negatively connoted ones marked (Table 14).

Example:
    >>> rows = [{"model": "m", "meta": {"edit_level": 0}, "verdict": {"correct": True},
    ...          "extra": {"qualitative": {"scores": {"PF": 1, "IV": 1, "AC": 0, "AL": 1},
    ...                    "justifications": {"AC": "It skips steps."}}}}]
    >>> qualitative_table(rows)[0]["AC"]
    0.0
    >>> negative_tokens(rows)[0]["token"], negative_tokens(rows)[0]["negative"]
    ('skips', True)
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

CODES = ("PF", "IV", "AC", "AL")  # the four codes (their questions: logicforge.llm.qualitative)


NEGATIVE = frozenset(
    [
        "distorts",
        "distort",
        "misinterprets",
        "misinterpret",
        "misreads",
        "invents",
        "invented",
        "assumes",
        "assumption",
        "invalid",
        "unsupported",
        "leap",
        "fails",
        "fail",
        "skips",
        "skipped",
        "omits",
        "missing",
        "incomplete",
        "flawed",
        "contradicts",
        "contradiction",
        "contradictory",
        "incorrect",
        "wrong",
        "error",
        "erroneous",
        "ignores",
        "ignored",
        "unjustified",
        "hallucinates",
        "fabricates",
        "inconsistent",
        "lacks",
    ]
)
STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "and",
        "or",
        "in",
        "is",
        "it",
        "that",
        "this",
        "for",
        "on",
        "with",
        "as",
        "by",
        "be",
        "are",
        "was",
        "not",
        "no",
        "its",
        "from",
        "at",
        "which",
        "but",
        "does",
        "do",
        "has",
        "have",
        "any",
        "all",
        "into",
        "than",
        "then",
        "so",
        "if",
        "only",
        "their",
        "there",
        "these",
        "those",
    ]
)


def paper_levels(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records the paper codes (Appendix H, Table 12): each dataset's level-0 records and
    those at its maximum available edit level; records outside edit chains are all kept.

    Example:
        >>> rs = [{"meta": {"family": "f", "edit_level": k}} for k in (0, 1, 2, 2)]
        >>> [r["meta"]["edit_level"] for r in paper_levels(rs)]
        [0, 2, 2]
    """
    top: dict[str, int] = defaultdict(int)
    for r in records:
        m = r.get("meta") or {}
        top[str(m.get("family"))] = max(top[str(m.get("family"))], int(m.get("edit_level") or 0))
    out = []
    for r in records:
        m = r.get("meta") or {}
        level = int(m.get("edit_level") or 0)
        if "edit_level" not in m or level in (0, top[str(m.get("family"))]):
            out.append(r)
    return out


def _coded(records: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], dict[str, int]]]:
    out = []
    for r in records:
        q = (r.get("extra") or {}).get("qualitative") or {}
        if q.get("scores"):
            out.append((r, q["scores"]))
    return out


def qualitative_table(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Percent of records scored 1 per code (as fractions), by model and edit level, with the
    overall score (mean of the four) and the judge errors. A group whose every judgement failed
    keeps its row: ``coded`` 0, its judge errors, and no scores (None, never 0).

    Example:
        >>> rs = [{"model": "m", "extra": {"qualitative": {"error": "no codes"}}}]
        >>> qualitative_table(rs)[0]["judge_errors"], qualitative_table(rs)[0]["overall"]
        (1, None)
    """
    groups: dict[tuple[str, int], list[dict[str, int]]] = defaultdict(list)
    errors: Counter[tuple[str, int]] = Counter()
    for r in records:
        q = (r.get("extra") or {}).get("qualitative") or {}
        key = (str(r.get("model")), int((r.get("meta") or {}).get("edit_level", 0)))
        if q.get("scores"):
            groups[key].append(q["scores"])
        elif q.get("error"):
            errors[key] += 1
    out = []
    for model, level in sorted(set(groups) | set(errors)):
        ss = groups.get((model, level), [])
        row: dict[str, Any] = {"model": model, "edit_level": level, "coded": len(ss)}
        for k in CODES:
            row[k] = sum(s[k] for s in ss) / len(ss) if ss else None
        row["overall"] = sum(row[k] for k in CODES) / len(CODES) if ss else None
        row["judge_errors"] = errors[(model, level)]
        out.append(row)
    return out


def score_accuracy_correlation(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: Pearson correlation (point-biserial) between the overall score and
    correctness over coded records; None when either side is constant."""
    per: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r, s in _coded(records):
        overall = sum(s[k] for k in CODES) / len(CODES)
        per[str(r.get("model"))].append(
            (overall, float(bool((r.get("verdict") or {}).get("correct"))))
        )
    out = []
    for model, xy in sorted(per.items()):
        n = len(xy)
        mx = sum(x for x, _ in xy) / n
        my = sum(y for _, y in xy) / n
        sxy = sum((x - mx) * (y - my) for x, y in xy)
        sx = sum((x - mx) ** 2 for x, _ in xy) ** 0.5
        sy = sum((y - my) ** 2 for _, y in xy) ** 0.5
        out.append({"model": model, "coded": n, "r": sxy / (sx * sy) if sx and sy else None})
    return out


def negative_tokens(records: Sequence[Mapping[str, Any]], top: int = 20) -> list[dict[str, Any]]:
    """The ``top`` tokens per code in the justifications of 0 scores, negative ones marked."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        q = (r.get("extra") or {}).get("qualitative") or {}
        for code, text in (q.get("justifications") or {}).items():
            for tok in re.findall(r"[a-z]+", str(text).lower()):
                if tok not in STOP and len(tok) > 2:
                    counts[code][tok] += 1
    out = []
    for code in CODES:
        for tok, c in sorted(counts[code].items(), key=lambda t: (-t[1], t[0]))[:top]:
            out.append({"code": code, "token": tok, "count": c, "negative": tok in NEGATIVE})
    return out
