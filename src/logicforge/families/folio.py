"""First-order entailment problems (kind ``fol``) from FOLIO-format files, and their operator edits.

``load_folio(path)`` reads a JSONL file of ``premises-FOL`` / ``conclusion-FOL`` / ``label`` rows
(FOLIO's gold annotations; the data is CC BY-SA 4.0, so anything derived from it stays
share-alike — every problem says so in its metadata). Rows whose formulas do not parse are
skipped and counted. A problem's gold is the dataset's label (True / False / Unknown, FOLIO's
"Uncertain" read as Unknown), as the LogicEdit paper scores it; the z3 oracle of
:mod:`logicforge.logic.fol` labels every row again (``z3_label``), and a row where the two
disagree is listed (``logicforge import folio`` notes it; a suite writes
``label-disagreements.json``) and gets no edits — edits are defined by z3's judgment of the
edited premises, which would not be the gold of the row they start from.

Edits (the symbolic-edits paper on FOLIO): ``or→and``, ``xor→or``, ``or→xor``, ``and→or``
(``allow_and_to_or``; the paper avoids it), ``not→removed`` — one connective occurrence per
premise, re-solved by z3; cumulative label-preserving chains and individual preserving / altering
edits, recorded like the deduction edits. The renderer ``fol`` shows the premises and the
conclusion as formulas, so an edit needs no back-translation.

Example:
    >>> from logicforge.logic.fol import parse_fol
    >>> to_text(edit_once(parse_fol("A ∨ (B ⊕ C)"), "or→and"))
    '(A ∧ (B ⊕ C))'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from ..kinds.base import FINAL, Kind, choice_format, register_kind
from ..logic.fol import BinOp, FOLParseError, Formula, Not, Quant, entails, parse_fol, to_text
from ..parse.decision import hedged
from ..registry import DATASETS, RENDERERS
from ..schema import Answer, Item, LabelledProblem
from ._edits import edit_variant, require_verified_words
from .base import Dataset

KIND = "fol"
LABELS = ("True", "False", "Unknown")
EDITS = {
    "or→and": ("or", "and"),
    "xor→or": ("xor", "or"),
    "or→xor": ("or", "xor"),
    "and→or": ("and", "or"),
}


def edit_once(f: Formula, edit: str) -> Formula | None:
    """``f`` with its first (pre-order) occurrence of the edited connective changed, or None."""
    if edit == "not→removed":
        if isinstance(f, Not):
            return f.arg
    elif isinstance(f, BinOp) and f.op == EDITS[edit][0]:
        return BinOp(EDITS[edit][1], f.left, f.right)  # type: ignore[arg-type]
    if isinstance(f, Not):
        a = edit_once(f.arg, edit)
        return None if a is None else Not(a)
    if isinstance(f, BinOp):
        a = edit_once(f.left, edit)
        if a is not None:
            return BinOp(f.op, a, f.right)
        b = edit_once(f.right, edit)
        return None if b is None else BinOp(f.op, f.left, b)
    if isinstance(f, Quant):
        a = edit_once(f.body, edit)
        return None if a is None else Quant(f.kind, f.var, a)
    return None


def load_folio(
    path: str | Path, timeout_s: float = 10.0, notes: list[tuple[int, str]] | None = None
) -> tuple[list[LabelledProblem], int]:
    """FOLIO-format rows as labelled ``fol`` problems, and how many rows did not parse (each
    one's line number and reason appended to ``notes`` when given)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise DataFileError(f"{p}: cannot read it ({e.strerror})") from None
    out, skipped = [], 0
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            prem = [parse_fol(x) for x in row["premises-FOL"]]
            conc = parse_fol(row["conclusion-FOL"])
        except (FOLParseError, KeyError, ValueError) as e:
            skipped += 1
            if notes is not None:
                why = (
                    f"no {e} field"
                    if isinstance(e, KeyError)
                    else str(e).splitlines()[0].rstrip(":")
                )
                notes.append((i + 1, f"its FOL annotation does not parse ({why[:160]})"))
            continue
        found = entails(prem, conc, timeout_s)
        declared = {"Uncertain": "Unknown"}.get(row.get("label"), row.get("label"))
        label = declared if declared in LABELS else found
        out.append(
            LabelledProblem(
                problem_id=f"folio-{i}",
                family="folio",
                kind=KIND,
                params={"source": p.name},
                seed=0,
                spawn_key=[0, i],
                problem={
                    "premises": [to_text(f) for f in prem],
                    "conclusion": to_text(conc),
                    "premises_nl": row.get("premises", []),
                    "conclusion_nl": row.get("conclusion", ""),
                },
                label=label,
                oracle={"solver": "z3", "timeout_s": timeout_s, "gold": "dataset label"},
                metadata={
                    "dataset_label": declared,
                    "z3_label": found,
                    "licence": "CC BY-SA 4.0 (derived from FOLIO)",
                    "n_premises": len(prem),
                },
            )
        )
    return out, skipped


def _z3_agrees(p: LabelledProblem) -> bool:
    return p.metadata.get("z3_label", p.label) == p.label


def _solve(premises: list[str], conclusion: str) -> str:
    return entails([parse_fol(x) for x in premises], parse_fol(conclusion), timeout_s=10.0)


def _edits(allow_and_to_or: bool) -> list[str]:
    return [e for e in [*EDITS, "not→removed"] if allow_and_to_or or e != "and→or"]


def _trials(prem: list[str], i: int, allow_and_to_or: bool) -> Iterator[tuple[str, list[str]]]:
    """Each edit that applies to premise ``i``, with the premises it makes."""
    for e in _edits(allow_and_to_or):
        g = edit_once(parse_fol(prem[i]), e)
        if g is not None:
            yield e, [*prem[:i], to_text(g), *prem[i + 1 :]]


def cumulative_fol(p: LabelledProblem, allow_and_to_or: bool = False) -> list[LabelledProblem]:
    """Levels 0 … K: scan premises in order, one edit each (the first applicable edit type that
    keeps the label), never revisited."""
    prem = list(p.problem["premises"])
    out = [edit_variant(p, p.problem, p.label, 0, "cumulative", [], [])]
    if not _z3_agrees(p):
        return out  # edits are z3's judgment: not from a row whose gold z3 does not give
    pos: list[int] = []
    ops: list[str] = []
    for i in range(len(prem)):
        for e, trial in _trials(prem, i, allow_and_to_or):
            if _solve(trial, p.problem["conclusion"]) == p.label:
                prem, pos, ops = trial, [*pos, i], [*ops, e]
                out.append(
                    edit_variant(
                        p,
                        {**p.problem, "premises": prem},
                        p.label,
                        len(pos),
                        "cumulative",
                        pos,
                        ops,
                    )
                )
                break
    return out


def individual_fol(
    p: LabelledProblem, mode: str = "preserve", allow_and_to_or: bool = False
) -> list[LabelledProblem]:
    """Every single edit of the original, kept when it preserves (or, ``alter``, changes) the label."""
    out: list[LabelledProblem] = []
    if not _z3_agrees(p):
        return out
    prem = list(p.problem["premises"])
    for i in range(len(prem)):
        for e, trial in _trials(prem, i, allow_and_to_or):
            label = _solve(trial, p.problem["conclusion"])
            if label not in LABELS:
                continue
            if (label == p.label) == (mode == "preserve"):
                out.append(
                    edit_variant(
                        p, {**p.problem, "premises": trial}, label, 1, mode, [i], [e], tag=e
                    )
                )
    return out


ANSWER_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["True", "False", "Uncertain"]}},
                 "required": ["answer"]}  # fmt: skip


def _fol_item(
    problem: LabelledProblem, rendering: str, head: str, premises: list[str], conclusion: str
) -> Item:
    """The shared FOL prompt (the paper's CoT prompts around it), over formulas or sentences."""
    from ..kinds.items import build_kind_item
    from .ordering_text import cot_item

    prompt = (
        f"{head}, is the conclusion True, False, or Uncertain (neither provable nor refutable)?"
        "\n\nPremises:\n"
        + "\n".join(f"{i}. {x}" for i, x in enumerate(premises, start=1))
        + f"\n\nConclusion: {conclusion}\n\nThink step by step, then give your final "
        "answer as \\boxed{True}, \\boxed{False} or \\boxed{Uncertain}."
    )
    return cot_item(build_kind_item(problem, rendering, prompt, ANSWER_SCHEMA))


class FOLRenderer:
    """``fol``: the premises and the conclusion as formulas; True / False / Uncertain in ``\\boxed{}``."""

    name = "fol"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        head = "Given the premises (first-order logic)"
        return _fol_item(problem, self.name, head, d["premises"], d["conclusion"])


class FOLNLRenderer:
    """``fol-nl``: the premises and the conclusion as FOLIO's sentences (the paper's CoT prompts).
    An edited problem renders only once its sentences were back-translated and verified
    (:mod:`logicforge.llm.backtranslate`) — a stale sentence never reaches a prompt."""

    name = "fol-nl"
    kind = KIND
    needs_backtranslation = True

    def render(self, problem: LabelledProblem) -> Item:
        from ..errors import ConfigError

        d = problem.problem
        require_verified_words(problem, "fol-nl", "sentences were")
        if not d.get("premises_nl") or not d.get("conclusion_nl"):
            raise ConfigError("renderer", "fol-nl", f"{problem.problem_id} has no sentences")
        return _fol_item(
            problem, self.name, "Given the premises", d["premises_nl"], d["conclusion_nl"]
        )


_WORD = {"true": "True", "false": "False", "uncertain": "Unknown", "unknown": "Unknown"}
_BOX = re.compile(r"\\boxed\{\s*(?:\\text\{)?\s*(True|False|Uncertain|Unknown)\s*\}?\s*\}", re.I)
_PHR = re.compile(r"(?i:answer)\s*(?i:is)?\s*[:=]?\s*\**\s*(True|False|Uncertain|Unknown)\b", re.I)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    boxed = [m.group(1) for m in _BOX.finditer(body) if not hedged(body, m.start(), m.end())]
    if boxed:
        return Answer(label=_WORD[boxed[-1].lower()], rule="boxed")
    for obj in reversed(objs):
        v = obj.get("answer")
        if isinstance(v, str) and v.strip().lower() in _WORD:
            return Answer(label=_WORD[v.strip().lower()], rule="json")
    ph = [m.group(1) for m in _PHR.finditer(body) if not hedged(body, m.start(1), m.end(1))]
    if ph:
        return Answer(label=_WORD[ph[-1].lower()], rule="phrase")
    return Answer(parse_error="no answer: no True / False / Uncertain found")


def _text(a: Answer, item: Item) -> str:
    """FOLIO's word for Unknown is "Uncertain"."""
    return FINAL + json.dumps({"answer": {"Unknown": "Uncertain"}.get(str(a.label), a.label)})


LABELS = ("True", "False", "Unknown")
register_kind(Kind(KIND, LABELS, (choice_format(parse, lambda it: list(LABELS), _text),)))
RENDERERS.register("fol", FOLRenderer())
RENDERERS.register("fol-nl", FOLNLRenderer())


def _read_folio(paths: Any, log: Any, timeout: float = 10.0) -> list[LabelledProblem]:
    """``logicforge import folio``: every file's problems; the rows it skips are noted."""
    from ..datadir import resolve

    out: list[LabelledProblem] = []
    for p in paths:
        log.sources.append(str(p))
        notes: list[tuple[int, str]] = []
        problems, skipped = load_folio(resolve(p), timeout_s=timeout, notes=notes)
        log.read += len(problems) + skipped
        for line, why in notes:  # one note per row, so the summary counts rows
            log.reject(f"{p}#{line}", why)
        for q in problems:
            if not _z3_agrees(q):
                log.disagreements.append(
                    {"source": f"{p}#{q.spawn_key[1] + 1}", "declared": q.label,
                     "found": q.metadata["z3_label"], "found_by": "z3"}
                )  # fmt: skip
        out += problems
    log.imported += len(out)
    return out


DATASETS.register(
    "folio",
    Dataset(
        lambda path: load_folio(path)[0],
        cumulative_fol,
        individual_fol,
        "FOLIO-format JSONL (gold FOL annotations)",
        read=_read_folio,
    ),
)
