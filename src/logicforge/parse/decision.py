"""Decision extraction (SAT / UNSAT) from free model text.

Rules, applied to the text after removing ``<think>…</think>`` reasoning (an unclosed ``<think>``
hides everything after it; a lone ``</think>`` hides everything before it):

1. **JSON** — the last JSON object with an ``answer`` (or ``decision`` / ``result``) field whose
   value reads as a decision.
2. **Boxed** — the last ``\\boxed{…}`` whose content reads as a decision.
3. **Final-answer phrase** — the last "final answer: …", "answer: …", "result: …" or
   "the formula is (not) (un)satisfiable" phrase.
4. **Bare mentions** — whole-word SAT / UNSAT / SATISFIABLE / UNSATISFIABLE (the short forms in
   capitals only); used only when every mention agrees. Mentions of both — e.g. an echoed "answer
   SAT or UNSAT" — are no verdict and the response is a parse failure.

Within a rule the last occurrence wins (a model may revise itself); an earlier rule beats a later
one regardless of position. "UNSAT" is never read as "SAT": matching is whole-word.

Example:
    >>> parse_decision('I think SAT... no wait.\\nFinal answer: UNSATISFIABLE')
    ('UNSAT', 'phrase')
"""

from __future__ import annotations

import re
from typing import Any

from .jsonish import json_objects

_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.I)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.I)

_WORD = {
    "sat": "SAT",
    "satisfiable": "SAT",
    "satisfied": "SAT",
    "yes": "SAT",
    "true": "SAT",
    "unsat": "UNSAT",
    "unsatisfiable": "UNSAT",
    "not satisfiable": "UNSAT",
    "no": "UNSAT",
    "false": "UNSAT",
    "unsatisfied": "UNSAT",
    "feasible": "SAT",
    "infeasible": "UNSAT",
    "not feasible": "UNSAT",
}
_TOKEN_RE = re.compile(r"[A-Za-z]+(?:\s+satisfiable)?")
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_PHRASE = re.compile(
    r"(?:final\s+answer|answer|result|decision|verdict|conclusion)\s*(?:is)?\s*[:=\-]?\s*[*_`\"'(\[]*\s*"
    r"(not\s+satisfiable|unsatisfiable|satisfiable|unsat|sat)\b"
    r"|\b(?:formula|instance|problem|cnf|it)\s+is\s+(not\s+satisfiable|unsatisfiable|satisfiable|unsat|sat)\b",
    re.I,
)
_BARE = re.compile(r"\b(UNSATISFIABLE|SATISFIABLE|UNSAT|SAT)\b", re.I)
# YES / NO questions (reductions: "is there a cover of size ≤ k?"); YES is read as SAT, NO as UNSAT
_PHRASE_YN = re.compile(
    r"(?:final\s+answer|answer|result|decision|verdict|conclusion)\s*(?:is)?\s*[:=\-]?\s*[*_`\"'(\[]*\s*"
    r"(yes|no|not\s+feasible|infeasible|feasible)\b",
    re.I,
)
_BARE_YN = re.compile(r"\b(YES|NO)\b")


def strip_thinking(text: str) -> str:
    """Remove reasoning blocks delimited by ``<think>`` tags."""
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        # everything up to the last close tag is thinking (covers a missing open tag too)
        last = closes[-1]
        before = text[: last.start()]
        opens = list(_THINK_OPEN.finditer(before))
        head = before[: opens[0].start()] if opens else ""
        text = head + text[last.end() :]
    m = _THINK_OPEN.search(text)
    if m:
        text = text[: m.start()]
    return text


def read_decision_value(value: Any) -> str | None:
    """Map a JSON value or short string to SAT / UNSAT, or None."""
    if isinstance(value, bool):
        return "SAT" if value else "UNSAT"
    if not isinstance(value, str):
        return None
    v = re.sub(r"[^a-z ]", " ", value.lower())
    v = re.sub(r"\s+", " ", v).strip()
    if v.startswith("the formula is "):
        v = v[len("the formula is ") :]
    return _WORD.get(v)


def decision_from_json(objs: list[dict[str, Any]]) -> str | None:
    for obj in reversed(objs):
        for key in ("answer", "decision", "result", "satisfiable", "verdict"):
            if key in obj:
                d = read_decision_value(obj[key])
                if d is not None:
                    return d
    return None


def parse_decision(
    text: str, objs: list[dict[str, Any]] | None = None, vocab: str = "sat"
) -> tuple[str | None, str]:
    """Return ``(decision, rule)``; decision is None when the text holds no unambiguous verdict.

    ``rule`` names the rule that decided (json / boxed / phrase / bare), or why nothing did.
    ``vocab="yes-no"`` reads YES / NO questions (YES → "SAT", NO → "UNSAT"): the same rules,
    with "answer: YES" phrases and bare upper-case YES / NO.
    """
    body = strip_thinking(text)
    if objs is None:
        objs = json_objects(body)
    d = decision_from_json(objs)
    if d:
        return d, "json"
    boxed = [
        read_decision_value(re.sub(r"\\text\{([^}]*)\}", r"\1", b)) for b in _BOXED.findall(body)
    ]
    boxed = [b for b in boxed if b]
    if boxed:
        return boxed[-1], "boxed"
    phrases = list((_PHRASE_YN if vocab == "yes-no" else _PHRASE).finditer(body))
    if phrases:
        last = phrases[-1]
        word = next(g for g in last.groups() if g).lower()
        return _WORD[re.sub(r"\s+", " ", word)], "phrase"
    kinds = set()
    for m in (_BARE_YN if vocab == "yes-no" else _BARE).finditer(body):
        tok = m.group(1)
        if len(tok) <= 5 and not tok.isupper():
            continue  # lower-case "sat"/"unsat" in prose is not a verdict
        kinds.add(_WORD[tok.lower()])
    if len(kinds) == 1:
        return kinds.pop(), "bare"
    if len(kinds) > 1:
        return None, "ambiguous: both answers mentioned without a final answer"
    if not body.strip():
        return None, "empty response" if not text.strip() else "only reasoning inside <think> tags"
    return None, "no decision found"
