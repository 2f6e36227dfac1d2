"""Refutation proofs over numbered clauses: a text format and a small trusted checker (the
reference provers are :mod:`.provers`).

A proof is numbered steps over the formula's clauses ``C1 … Cm``, each deriving one clause, the
last one empty::

    C7 = resolve(C2, C5) on x3: (x1 ∨ ¬x4)
    L1 = rup: (¬x1)
    C9 = resolve(C7, L1) on x1: ()

* ``resolve(A, B) on v`` — ``A`` and ``B`` are formula clauses or earlier steps; ``v`` occurs
  positively in one and negatively in the other; the stated clause must be *exactly* the
  resolvent (A ∖ {v, ¬v}) ∪ (B ∖ {v, ¬v}), as a set of literals (order and repeats free).
* ``rup`` — the stated clause is implied by reverse unit propagation: assuming every one of its
  literals false, unit propagation over the formula and all earlier steps reaches a conflict.
* The empty clause is written ``()``, ``⊥``, ``□`` or ``empty``; it must be the last step and
  nowhere before it.

Literals: a variable name of the formula (``x3``, or the renderer's names), negated by ``¬``,
``~``, ``-``, ``!`` or ``not``; separators ``∨``, ``v``, ``|``, ``,`` or ``or``. Step names are
any ``[A-Za-z]\\w*`` not already used (a step may not redefine a formula clause).

:func:`check_proof` verifies every step and stops at the first invalid one; the
:class:`ProofCheck` says how many steps were valid before it, which step failed and why.
The checker is the ~120 lines from ``_resolvent`` to ``check_proof``: set operations and one
unit propagation, nothing else. :func:`~logicforge.logic.provers.refute` is a reference prover (DPLL without propagation,
whose search tree is a tree-like resolution refutation) for small formulas: the oracle's proof.

Example:
    >>> clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    >>> text = '''C5 = resolve(C1, C2) on x1: (x2)
    ... C6 = resolve(C3, C4) on x1: (¬x2)
    ... C7 = resolve(C5, C6) on x2: ()'''
    >>> check_proof(clauses, parse_proof(text, {"x1": 1, "x2": 2})).valid
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import LogicforgeError


class ProofError(LogicforgeError):
    """A proof that cannot be read (the message names the line and what is wrong)."""


@dataclass(frozen=True)
class Step:
    """One derived clause: ``name = rule(premises) on pivot: clause``."""

    name: str
    rule: str  # "resolve" or "rup"
    clause: frozenset[int]
    premises: tuple[str, ...] = ()
    pivot: int | None = None  # a variable (positive)


@dataclass(frozen=True)
class ProofCheck:
    valid: bool
    steps: int
    valid_steps: int  # valid steps before the first invalid one
    first_error: int | None = None  # 1-based index of the first invalid step
    reason: str | None = None
    width: int = 0  # the widest derived clause

    @property
    def step_fraction(self) -> float:
        """The per-step reward component: valid steps before the first error / all steps."""
        return self.valid_steps / self.steps if self.steps else 0.0


_EMPTY = {"", "⊥", "□", "empty", "false"}
_STEP = re.compile(
    r"^\s*(?:step\s*\d+\s*[:.)]\s*)?(?P<name>[A-Za-z]\w*)\s*(?:=|:=|←)\s*"
    r"(?P<rule>resolve|resolution|res|rup)\s*(?:\((?P<prem>[^)]*)\))?"
    r"\s*(?:on\s+(?P<pivot>[^:]+?))?\s*:\s*(?P<clause>.*?)\s*$",
    re.I,
)
_NEG = r"(?i:¬|~|-|!|not\s+)"
_SEPS = r"(?i:∨|\||,|\bv\b|\bor\b)"


def _literals(names: Mapping[str, int]) -> re.Pattern[str]:
    """One literal: an optional negation, then a name of the formula — the longest first, so
    names holding commas or brackets (SATBench's ``x(0, 1)``) are read whole."""
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"\s*(?:{_SEPS}\s*)?(?P<neg>{_NEG})?\s*(?P<name>{alts})\s*")


def _literal(tok: str, names: Mapping[str, int], pat: re.Pattern[str], line: int) -> int:
    m = pat.fullmatch(tok)
    if m is None:
        raise ProofError(f"line {line}: {tok.strip()!r} is not a variable of the formula")
    return -names[m["name"]] if m["neg"] else names[m["name"]]


def _clause(text: str, names: Mapping[str, int], pat: re.Pattern[str], line: int) -> frozenset[int]:
    body = text.strip().rstrip(".")
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1].strip()
    if body.lower() in _EMPTY:
        return frozenset()
    out, pos = [], 0
    while pos < len(body):
        m = pat.match(body, pos)
        if m is None or m.end() == pos:
            rest = re.split(rf"\s*{_SEPS}\s*", body[pos:].strip(), maxsplit=1)[0]
            raise ProofError(f"line {line}: {rest!r} is not a variable of the formula")
        out.append(-names[m["name"]] if m["neg"] else names[m["name"]])
        pos = m.end()
    return frozenset(out)


def parse_proof(text: str, names: Mapping[str, int]) -> list[Step]:
    """The steps of a proof written as above; lines that are not steps (prose, blank, code
    fences) are skipped. Raises :class:`ProofError` on a step line that cannot be read, or when
    there is no step at all."""
    steps = []
    pat = _literals(names) if names else re.compile(r"(?!x)x")  # no names: nothing matches
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().strip("`*").replace("**", "")
        m = _STEP.match(line)
        if not m:
            continue
        rule = "rup" if m["rule"].lower() == "rup" else "resolve"
        prem = tuple(p.strip() for p in (m["prem"] or "").split(",") if p.strip())
        pivot = None
        if rule == "resolve":
            if len(prem) != 2 or m["pivot"] is None:
                raise ProofError(f"line {i}: resolve needs two premises and 'on <variable>'")
            pivot = abs(_literal(m["pivot"], names, pat, i))
        steps.append(Step(m["name"], rule, _clause(m["clause"], names, pat, i), prem, pivot))
    if not steps:
        raise ProofError(
            "no proof step found (expected lines like 'C7 = resolve(C2, C5) on x3: (x1)')"
        )
    return steps


# ---------------------------------------------------------------- the trusted checker


def _resolvent(a: frozenset[int], b: frozenset[int], v: int) -> frozenset[int] | None:
    """The resolvent of ``a`` and ``b`` on variable ``v``, or None when ``v`` does not clash."""
    if v in a and -v in b:
        return (a - {v}) | (b - {-v})
    if -v in a and v in b:
        return (a - {-v}) | (b - {v})
    return None


def _rup(clauses: Iterable[frozenset[int]], target: frozenset[int]) -> bool:
    """Whether unit propagation from ¬target over ``clauses`` reaches a conflict."""
    value = {-lit for lit in target}  # the literals made true
    if any(-lit in value for lit in value):
        return True  # a tautology is implied by anything
    pending = list(clauses)
    changed = True
    while changed:
        changed = False
        rest = []
        for c in pending:
            if any(lit in value for lit in c):
                continue  # satisfied
            open_ = [lit for lit in c if -lit not in value]
            if not open_:
                return True  # falsified: conflict
            if len(open_) == 1:
                value.add(open_[0])
                changed = True
            else:
                rest.append(c)
        pending = rest
    return False


def check_proof(clauses: Sequence[Iterable[int]], steps: Sequence[Step]) -> ProofCheck:
    """Verify every step of a refutation of ``clauses`` (numbered C1 … Cm) in order."""
    known: dict[str, frozenset[int]] = {f"C{i}": frozenset(c) for i, c in enumerate(clauses, 1)}
    width = 0

    def fail(k: int, why: str) -> ProofCheck:
        return ProofCheck(
            False, len(steps), k, k + 1, f"step {k + 1} ({steps[k].name}): {why}", width
        )

    if not steps:
        return ProofCheck(False, 0, 0, None, "the proof has no step")
    for k, s in enumerate(steps):
        if s.name in known:
            return fail(k, f"{s.name} is already defined; name each derived clause anew")
        if not s.clause and k != len(steps) - 1:
            return fail(k, "the empty clause must be the last step")
        if s.rule == "resolve":
            if len(s.premises) != 2 or s.pivot is None:
                return fail(k, "resolve needs two premises and a pivot")
            missing = [p for p in s.premises if p not in known]
            if missing:
                return fail(k, f"premise {missing[0]} is neither a clause nor an earlier step")
            a, b = (known[p] for p in s.premises)
            r = _resolvent(a, b, s.pivot)
            if r is None:
                return fail(
                    k,
                    f"x{s.pivot} does not occur with opposite signs in {s.premises[0]} and {s.premises[1]}",
                )
            if r != s.clause:
                return fail(k, "the stated clause is not the resolvent")
        elif s.rule == "rup":
            if not _rup(known.values(), s.clause):
                return fail(k, "the clause is not implied by unit propagation (RUP)")
        else:
            return fail(k, f"unknown rule {s.rule!r}")
        known[s.name] = s.clause
        width = max(width, len(s.clause))
    if steps[-1].clause:
        return ProofCheck(
            False,
            len(steps),
            len(steps),
            len(steps),
            "the last step is not the empty clause",
            width,
        )
    return ProofCheck(True, len(steps), len(steps), None, None, width)


def _rup_reasons(
    clauses: Sequence[tuple[str, frozenset[int]]], target: frozenset[int]
) -> set[str] | None:
    """The names of the clauses a conflict of unit propagation from ¬target rests on (the
    conflicting clause and, transitively, the reasons of its falsified literals), or None when
    propagation reaches no conflict. A tautology rests on nothing."""
    value: dict[int, str | None] = {-lit: None for lit in target}  # true literal -> reason
    if any(-lit in value for lit in value):
        return set()
    pending = list(clauses)
    conflict: tuple[str, frozenset[int]] | None = None
    changed = True
    while changed and conflict is None:
        changed = False
        rest = []
        for name, c in pending:
            if any(lit in value for lit in c):
                continue
            open_ = [lit for lit in c if -lit not in value]
            if not open_:
                conflict = (name, c)
                break
            if len(open_) == 1:
                value[open_[0]] = name
                changed = True
            else:
                rest.append((name, c))
        pending = rest
    if conflict is None:
        return None
    by_name = dict(clauses)
    used: set[str] = set()
    todo = [conflict[0]]
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        for lit in by_name[name]:
            reason = value.get(-lit)
            if reason is not None and reason not in used:
                todo.append(reason)
    return used


def refutation_progress(clauses: Sequence[Iterable[int]], steps: Sequence[Step]) -> int:
    """How many steps lie on a valid derivation of the empty clause: the progress a partly
    wrong refutation is paid for.

    Every step is checked on its own against the formula and the earlier *valid* steps (an
    invalid step is skipped, not fatal). If a valid step derives the empty clause, the count is
    that step and its ancestors — the premises of a resolution, the clauses a RUP conflict rests
    on — that are proof steps; otherwise 0. A tautology, a repeated clause or a lemma nothing
    uses is never counted, so padding earns nothing and a proof that never reaches the empty
    clause earns nothing.

    Example:
        >>> cls = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
        >>> junk = [Step("L1", "rup", frozenset({1, -1}))]
        >>> refutation_progress(cls, junk)
        0
        >>> good = [Step("C5", "resolve", frozenset({2}), ("C1", "C2"), 1),
        ...         Step("L1", "rup", frozenset({1, -1})),
        ...         Step("C6", "resolve", frozenset({-2}), ("C3", "C4"), 1),
        ...         Step("C7", "resolve", frozenset(), ("C5", "C6"), 2)]
        >>> refutation_progress(cls, good)
        3
    """
    known: dict[str, frozenset[int]] = {f"C{i}": frozenset(c) for i, c in enumerate(clauses, 1)}
    derived: dict[str, tuple[str, ...]] = {}  # valid step -> the names it rests on
    seen = set(known.values())
    for s in steps:
        if s.name in known:
            continue
        rests: tuple[str, ...] | None = None
        if s.rule == "resolve" and len(s.premises) == 2 and s.pivot is not None:
            if all(p in known for p in s.premises):
                a, b = (known[p] for p in s.premises)
                if _resolvent(a, b, s.pivot) == s.clause:
                    rests = s.premises
        elif s.rule == "rup":
            used = _rup_reasons(list(known.items()), s.clause)
            if used is not None:
                rests = tuple(sorted(used))
        if rests is None:
            continue
        if s.clause in seen and s.clause:  # a repeat (or a copy of a formula clause)
            continue
        if any(-x in s.clause for x in s.clause):  # a tautology: rests on nothing
            continue
        known[s.name] = s.clause
        seen.add(s.clause)
        derived[s.name] = rests
        if not s.clause:
            on_path: set[str] = set()
            todo = [s.name]
            while todo:
                n = todo.pop()
                if n in on_path or n not in derived:
                    continue
                on_path.add(n)
                todo.extend(derived[n])
            return len(on_path)
    return 0


def proof_text(steps: Sequence[Step], names: Sequence[str]) -> str:
    """The steps in the text format, variables by ``names`` (``names[i-1]`` names variable i)."""

    def lit(x: int) -> str:
        return ("¬" if x < 0 else "") + names[abs(x) - 1]

    lines = []
    for s in steps:
        body = " ∨ ".join(lit(x) for x in sorted(s.clause, key=lambda x: (abs(x), x)))
        head = (
            f"resolve({', '.join(s.premises)}) on {names[s.pivot - 1]}"
            if s.rule == "resolve" and s.pivot
            else "rup"
        )
        lines.append(f"{s.name} = {head}: ({body})")
    return "\n".join(lines)
