"""Decision extraction (SAT / UNSAT) from free model text.

Rules, applied to the text after removing ``<think>…</think>`` reasoning (an unclosed ``<think>``
hides everything after it; a lone ``</think>`` hides everything before it):

0. **Error text** — a reply that starts as a harness error (``[Error] …``, ``Error: …``,
   ``Traceback …``) is no decision, whatever words follow.
1. **JSON** — the last JSON object with an ``answer`` (or ``decision`` / ``result``) field whose
   value reads as a decision.
2. **Boxed** — the last ``\\boxed{…}`` whose content reads as a decision.
3. **Explicit verdict** — the last of: a *verdict line* (a line that holds only a verdict, bare,
   bold, bracketed or quoted — ``**SATISFIABLE**``, ``[UNSAT]``, ``Answer: UNSATISFIABLE`` — as
   the ADR paper's Listing 1 and the trace prompts ask), and a *final-answer phrase* ("final
   answer: …", "answer: …", "the formula is (not) (un)satisfiable"). Later lines of counts or
   assignments do not matter.
4. **Bare mentions** — whole-word SAT / UNSAT / SATISFIABLE / UNSATISFIABLE (the short forms in
   capitals only); the last one wins.

Words inside questions, conditionals, alternatives and hedges never count, in rules 3 and 4:
"whether the formula is satisfiable", "if it is SAT", "SAT or UNSAT", "is it satisfiable?",
"could be SAT", and anything in a sentence that opens as a condition ("If all variables become
assigned without conflict, the formula is satisfiable.", "Otherwise it is UNSAT."). A verdict
line may echo the question's header ("SATISFIABLE or UNSATISFIABLE: UNSATISFIABLE"). Nor do names: "SAT solver", "SAT problem", "3-SAT". "Satisfiability" is not a
verdict. A refusal ("unable to determine …, use a SAT solver") is therefore no decision.

A bare word said of one part of a search — "this branch is unsatisfiable", "Case 2: UNSAT",
"UNSAT under this assignment" — is not a verdict on the formula (said of all of them — "every
branch is unsatisfiable" — it is): a reply cut off mid-search has no decision.

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


def _verdict_line(words: str, flags: int) -> re.Pattern[str]:
    """A line that holds only a verdict (one of ``words``), bare, bold, bracketed, quoted or
    after "Answer:" / "Final answer:" / "Verdict:" …"""
    return re.compile(
        r"^[ \t>#*_`\-\[(\"']*"
        r"(?:(?:final\s+)?(?:answer|verdict|result|conclusion|decision)\s*(?:is)?\s*[:=\-]?"
        r"[ \t*_`\[(\"']*"
        # or the question's own header echoed ("SATISFIABLE or UNSATISFIABLE: UNSATISFIABLE")
        rf"|(?:{words})\s+or\s+(?:{words})[ \t*_`\])\"']*[:=\-][ \t*_`\[(\"']*)?"
        rf"({words})"
        r"[ \t*_`\])\"'.!]*$",
        flags | re.M,
    )


_LINE = _verdict_line(r"not\s+satisfiable|unsatisfiable|satisfiable|unsat|sat", re.I)
_LINE_YN = _verdict_line("YES|NO", 0)  # capitals only: a line "No." in prose is not a verdict
_ERROR = re.compile(r"^\s*\[?\s*(?:error|exception|traceback)\b", re.I)
_HEDGE = re.compile(
    r"\b(?:whether|if|either|suppose|assume|assuming|could|might|may|would|is\s+it|in\s+case)\b"
    r"|(?:\bor|\band|\band/or|\bnor|/)\s*[*_`\"'(\[{]*\s*(?:\\boxed\s*\{\s*)?$",
    re.I,
)
# a sentence that opens as a condition ("If all variables are assigned without conflict, the
# formula is satisfiable"): everything in it is conditional, also after its comma
_CONDITIONAL = re.compile(
    r"^[\s>#*_`\-\d)(\[]*(?:if|suppose|supposing|assume|assuming|in\s+case|provided|unless"
    r"|only\s+if|otherwise|else)\b",
    re.I,
)
_ALTERNATIVE = re.compile(
    r"^[*_`\"')\]}]*\s*(?:\?|or\b|nor\b|/|and\s+[*_`\"'(\[]*(?:un)?(?:sat|satisfiable|yes|no)\b)",
    re.I,
)
_NAME_AFTER = re.compile(
    r"^[-\s]*(?:solvers?|solving|problems?|instances?|competitions?|encodings?|benchmarks?)\b",
    re.I,
)
_REFUSAL = re.compile(
    r"\b(?:unable\s+to|cannot|can't|can\s+not|not\s+able\s+to)\s+(?:determine|decide|solve|say)"
    r"|\b(?:recommend|suggest)\s+using\b",
    re.I,
)


# a verdict about a part of the search, not the formula: "this branch is unsatisfiable",
# "Case 2: UNSAT", "UNSAT under this assignment" — what a reply cut off mid-search ends with
_PART = (
    r"branch(?:es)?|case|sub-?cases?|sub-?problems?|sub-?formulas?|sub-?trees?|path|"
    r"partial\s+assignment|option|choice|scenario|possibility|attempt|trial|assumption"
)
_PART_BEFORE = re.compile(rf"\b(?:{_PART})\b", re.I)
_ALL_PARTS = re.compile(
    rf"\b(?:all|every|both|each|any|no|none\s+of\s+the)\s+(?:the\s+)?(?:{_PART})", re.I
)
_PART_AFTER = re.compile(  # "UNSAT for this branch", "unsatisfiable branch" (same line)
    rf"^[ \t*_`)\]]*(?:(?:for|in|under|on|with)\s+(?:this|that|the|each)\s+"
    rf"(?:{_PART}|assignment)|(?:{_PART}))\b",
    re.I,
)


def _intermediate(body: str, start: int, end: int) -> bool:
    """True when the verdict word at ``body[start:end]`` is said of one branch, case or partial
    assignment of a search (its sentence names one, and not all of them), not of the formula."""
    sentence = re.split(r"[.!?…\n]", body[max(0, start - 160) : start])[-1]
    if _PART_AFTER.match(body[end : end + 60]):
        return True
    return bool(_PART_BEFORE.search(sentence)) and not _ALL_PARTS.search(sentence)


def hedged(body: str, start: int, end: int) -> bool:
    """True when the answer at ``body[start:end]`` sits in a question, a conditional or a hedge,
    or is one side of an alternative ("A or B", "SAT / UNSAT", "\\boxed{A} or \\boxed{B}"):
    the rule every parser applies before it reads a word as the reply's answer.

    Example:
        >>> t = "Final answer: B / C"
        >>> hedged(t, 14, 15), hedged(t, 18, 19), hedged("Final answer: B", 14, 15)
        (True, True, False)
    """
    clause = re.split(r"[.!?…\n;:,]", body[max(0, start - 80) : start])[-1]
    return bool(
        _HEDGE.search(clause)
        or _ALTERNATIVE.match(body[end : end + 16])
        or _conditional(body, start)
    )


def _conditional(body: str, start: int) -> bool:
    """True when ``body[start]`` sits in a sentence that opens as a condition ("If …, the
    formula is satisfiable.", "Otherwise it is UNSAT.")."""
    sentence = re.split(r"(?<!\d)[.!?…\n;]|[.!?…;](?=\s)", body[max(0, start - 240) : start])[-1]
    return bool(_CONDITIONAL.match(sentence))


def _hedged(body: str, start: int, end: int) -> bool:
    """True when the verdict word at ``body[start:end]`` sits in a question, a conditional, an
    alternative or a hedge, or is part of a name ("SAT solver", "3-SAT")."""
    clause = re.split(r"[.!?…\n;:,]", body[max(0, start - 80) : start])[-1]
    after = body[end : end + 16]
    if _HEDGE.search(clause) or _ALTERNATIVE.match(after) or _conditional(body, start):
        return True
    word = body[start:end]
    return word.upper() in ("SAT", "UNSAT") and bool(
        _NAME_AFTER.match(after) or re.search(r"[0-9kK]-$", body[max(0, start - 2) : start])
    )


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


def _unreadable_json_answer(objs: list[dict[str, Any]]) -> bool:
    """True when the last JSON object with an ``answer`` field holds something that is not one
    decision (a list of labels, "SAT or UNSAT"): the declared answer channel is unreadable, so
    words elsewhere must not stand in for it."""
    for obj in reversed(objs):
        if "answer" in obj:
            v = obj["answer"]
            return isinstance(v, list | dict) or (
                isinstance(v, str) and bool(re.search(r"\b(?:un)?sat", v, re.I))
            )
    return False


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
    if _ERROR.match(body):
        return None, "error text, not a reply"
    if objs is None:
        objs = json_objects(body)
    d = decision_from_json(objs)
    if d:
        return d, "json"
    if _unreadable_json_answer(objs):
        return None, "the JSON answer is not one decision"
    boxed = [
        read_decision_value(re.sub(r"\\text\{([^}]*)\}", r"\1", m.group(1)))
        for m in _BOXED.finditer(body)
        if not _hedged(body, m.start(), m.end())
    ]
    boxed = [b for b in boxed if b]
    if boxed:
        return boxed[-1], "boxed"
    explicit: list[tuple[int, str, str]] = []  # (position, decision, rule)
    for m in (_LINE_YN if vocab == "yes-no" else _LINE).finditer(body):
        explicit.append((m.start(1), _WORD[re.sub(r"\s+", " ", m.group(1).lower())], "line"))
    for m in (_PHRASE_YN if vocab == "yes-no" else _PHRASE).finditer(body):
        g = next(i for i in range(1, len(m.groups()) + 1) if m.group(i))
        if not _hedged(body, m.start(), m.end(g)):
            explicit.append((m.start(g), _WORD[re.sub(r"\s+", " ", m.group(g).lower())], "phrase"))
    if explicit:
        _, d, rule = max(explicit)
        return d, rule
    bare: list[tuple[int, str]] = []  # (position, decision)
    for m in (_BARE_YN if vocab == "yes-no" else _BARE).finditer(body):
        tok = m.group(1)
        if len(tok) <= 5 and not tok.isupper():
            continue  # lower-case "sat"/"unsat" in prose is not a verdict
        if _hedged(body, m.start(1), m.end(1)) or _intermediate(body, m.start(1), m.end(1)):
            continue
        bare.append((m.start(1), _WORD[tok.lower()]))
    if bare:
        pos, last = bare[-1]
        start = max((body.rfind(c, 0, pos) for c in ".!?…\n;:,"), default=-1)
        if any(d != last for p, d in bare if p > start):  # "UNSAT SAT": the last says both
            return None, "the last statement names both verdicts"
        return last, "bare"
    if not body.strip():
        return None, "empty response" if not text.strip() else "only reasoning inside <think> tags"
    if _REFUSAL.search(body):
        return None, "refusal: the reply declines to decide"
    return None, "no decision found"
