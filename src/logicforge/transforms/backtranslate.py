"""Back-translation of edited FOL premises into natural language (the symbolic-edits paper's
sentence-level correction for external data).

An operator edit changes a premise's formula; its sentence must change with it. For every edited
premise a writer model gets the original sentence, the original formula and the edited formula
and rewrites the sentence, changing as little as possible. A checker model (default: the writer)
translates the new sentence back into a formula over the same predicates and constants; z3 must
prove it equivalent to the edited formula. A failure is retried up to ``attempts`` times; a
sentence that still cannot be matched drops the edited problem, and the drops are counted — as in
the paper. Each distinct (chain, premise, edited formula) is corrected once, so a cumulative
chain reuses its earlier levels' sentences.

Kept problems carry ``metadata["nl_verified"] = True`` and ``metadata["backtranslation"]``
(positions, writer, checker, attempts); the ``fol-nl`` renderer refuses edited problems without it,
so a stale sentence never reaches a prompt.

Example:
    >>> from logicforge.transforms.backtranslate import BackTranslateConfig
    >>> BackTranslateConfig().attempts
    3
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from ..logic.fol import FOLParseError, equivalent, parse_fol, symbols
from ..models.base import Model, load_model
from ..schema import LabelledProblem, Message


@dataclass(frozen=True)
class BackTranslateConfig:
    attempts: int = 3
    max_tokens: int = 160
    temperature: float = 0.7
    concurrency: int = 4

    def __post_init__(self) -> None:
        if not isinstance(self.attempts, int) or not 1 <= self.attempts <= 10:
            raise ConfigError("attempts", self.attempts, "must be an integer in 1..10")


@dataclass
class BackTranslateStats:
    sentences: int = 0
    first_try: int = 0
    retried: int = 0
    unmatched: int = 0
    kept: int = 0
    dropped: int = 0
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "sentences": self.sentences,
            "first_try": self.first_try,
            "retried": self.retried,
            "unmatched": self.unmatched,
            "problems_kept": self.kept,
            "problems_dropped": self.dropped,
            "failures": self.failures[:50],
        }


def _vocabulary(f: Any) -> str:
    preds, consts = symbols(f)
    p = ", ".join(f"{n}/{a}" for n, a in sorted(preds.items()))
    c = ", ".join(sorted(consts)) or "none"
    return f"predicates (name/arity): {p}; constants: {c}"


async def correct_sentence(
    sentence: str,
    old: str,
    new: str,
    writer: Model,
    checker: Model,
    cfg: BackTranslateConfig,
    key: str,
) -> tuple[str | None, int, list[str]]:
    """(the corrected sentence or None, attempts used, why each failed attempt failed)."""
    from ..models.judge import Judge
    from ..render.story import ask, clean_text

    target = parse_fol(new)
    vocab = _vocabulary(target)
    failures: list[str] = []
    for a in range(cfg.attempts):
        r = await ask(
            writer,
            [
                Message(
                    role="user",
                    content=(
                        "A premise of a logic problem was edited. Rewrite its sentence so that "
                        "it says exactly what the new formula says, changing as little as "
                        f"possible.\nOriginal sentence: {sentence}\nOriginal formula: {old}\n"
                        f"New formula: {new}\nWrite only the new sentence."
                    ),
                )
            ],
            f"{key}:write",
            max_tokens=cfg.max_tokens,
            temperature=cfg.temperature,
            sample=a,
        )
        text, why = clean_text(r.text) if r.error is None else ("", f"writer: {r.error}")
        if not why:
            judge = Judge(
                checker,
                {
                    "type": "object",
                    "properties": {"formula": {"type": "string"}},
                    "required": ["formula"],
                },
                "Translate the sentence into one first-order logic formula. Use only these "
                f"{vocab}. Notation: ∀x, ∃x, ¬, ∧, ∨, ⊕ (either-or), →, ↔, parentheses.",
                retries=1,
                max_tokens=200,
            )
            res = await judge.ask(f"Sentence: {text}", key=f"{key}:check:{a}")
            if res.verdict is None:
                why = f"back-translation unusable: {res.error}"
            else:
                try:
                    got = parse_fol(str(res.verdict["formula"]))
                    eq = equivalent(got, target)
                    why = (
                        ""
                        if eq
                        else "equivalence undecided (z3 time-out)"
                        if eq is None
                        else f"back-translation {res.verdict['formula']!r} is not equivalent to {new!r}"
                    )
                except FOLParseError as e:
                    why = f"back-translation does not parse: {str(e).splitlines()[0]}"
        if not why:
            return text, a + 1, failures
        failures.append(why[:300])
    return None, cfg.attempts, failures


def backtranslate(
    problems: Sequence[LabelledProblem],
    writer: str | Model,
    checker: str | Model | None = None,
    cfg: BackTranslateConfig | None = None,
) -> tuple[list[LabelledProblem], BackTranslateStats]:
    """Correct the sentences of every edited ``fol`` problem; unedited ones pass through.

    Edited problems need their chain's unedited problem among ``problems`` (it holds the
    original sentences and formulas). Returns the kept problems (in order) and the statistics."""
    cfg = cfg or BackTranslateConfig()
    w = load_model(writer) if isinstance(writer, str) else writer
    c = (load_model(checker) if isinstance(checker, str) else checker) if checker else w
    roots = {p.problem_id: p for p in problems if not p.metadata.get("edit_level")}
    jobs: dict[tuple[str, int, str], tuple[str, str]] = {}
    for p in problems:
        if p.kind != "fol" or not p.metadata.get("edit_level"):
            continue
        root = roots.get(p.metadata["chain_id"])
        if root is None:
            raise ConfigError(
                "problems", p.problem_id, "back-translation needs its unedited problem as well"
            )
        for i in p.metadata["edit_positions"]:
            nl = root.problem.get("premises_nl") or []
            if len(nl) == len(root.problem["premises"]):
                jobs[(root.problem_id, i, p.problem["premises"][i])] = (
                    nl[i],
                    root.problem["premises"][i],
                )
    stats = BackTranslateStats()

    async def go() -> dict[tuple[str, int, str], str | None]:
        sem = asyncio.Semaphore(cfg.concurrency)

        async def one(k: tuple[str, int, str]) -> str | None:
            sentence, old = jobs[k]
            async with sem:
                text, used, fails = await correct_sentence(
                    sentence,
                    old,
                    k[2],
                    w,
                    c,
                    cfg,
                    f"{k[0]}:p{k[1]}:{zlib.crc32(k[2].encode()):08x}",
                )
            stats.sentences += 1
            stats.first_try += text is not None and used == 1
            stats.retried += text is not None and used > 1
            stats.unmatched += text is None
            stats.failures += [f"{k[0]} premise {k[1] + 1}: {f}" for f in fails]
            return text

        try:
            keys = sorted(jobs)
            got = await asyncio.gather(*(one(k) for k in keys))
            return dict(zip(keys, got, strict=True))
        finally:
            owned = [m for m, spec in ((w, writer), (c, checker)) if isinstance(spec, str)]
            for m in {id(m): m for m in owned}.values():  # only what it loaded itself
                await m.aclose()

    done = asyncio.run(go()) if jobs else {}
    out = []
    for p in problems:
        if p.kind != "fol" or not p.metadata.get("edit_level"):
            out.append(p)
            continue
        root = roots[p.metadata["chain_id"]]
        nl = list(root.problem.get("premises_nl") or [])
        pos = p.metadata["edit_positions"]
        texts = [done.get((root.problem_id, i, p.problem["premises"][i])) for i in pos]
        if len(nl) != len(root.problem["premises"]) or any(t is None for t in texts):
            stats.dropped += 1
            continue
        for i, t in zip(pos, texts, strict=True):
            nl[i] = t
        stats.kept += 1
        meta = p.metadata | {
            "nl_verified": True,
            "backtranslation": {"positions": pos, "writer": w.name, "checker": c.name},
        }
        out.append(
            p.model_copy(update={"problem": p.problem | {"premises_nl": nl}, "metadata": meta})
        )
    return out, stats
