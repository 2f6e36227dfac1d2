"""Back-translation of edited premises into natural language (the symbolic-edits paper's
sentence-level correction for external data): FOLIO's sentences for edited FOL premises, and the
context sentences of Logic-LM LogicalDeduction questions whose program lines were edited (each
line's ``:::`` gloss locates its sentence in the context; the translated-back constraint must hold
on exactly the same assignments as the edited one).

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
    >>> from logicforge.llm.backtranslate import BackTranslateConfig
    >>> BackTranslateConfig().attempts
    3
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..aio import run_async
from ..errors import ConfigError
from ..fields import integer, number, params
from ..logic.fol import FOLParseError, equivalent, parse_fol, symbols
from ..models.base import Model, load_model
from ..schema import LabelledProblem, Message
from .backtranslate_lsat import GlossedProgram, LsatBackTranslation


@params
class BackTranslateConfig:
    attempts: int = integer(1, 10, default=3)
    max_tokens: int = integer(1, default=160)
    temperature: float = number(0, 2, default=0.7)
    concurrency: int = integer(1, 256, default=4)


@dataclass
class BackTranslateStats:
    sentences: int = 0
    first_try: int = 0
    retried: int = 0
    unmatched: int = 0
    unlocated: int = 0  # problems whose edited sentence could not be found in the text
    kept: int = 0
    dropped: int = 0
    by_level: dict[int, dict[str, int]] = field(default_factory=dict)  # level → kept / dropped
    failures: list[str] = field(default_factory=list)

    def count(self, level: int, kept: bool) -> None:
        cell = self.by_level.setdefault(level, {"kept": 0, "dropped": 0})
        cell["kept" if kept else "dropped"] += 1
        if kept:
            self.kept += 1
        else:
            self.dropped += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "sentences": self.sentences,
            "first_try": self.first_try,
            "retried": self.retried,
            "unmatched": self.unmatched,
            "problems_unlocated": self.unlocated,
            "problems_kept": self.kept,
            "problems_dropped": self.dropped,
            "by_level": {
                str(k): v | {"drop_rate": round(v["dropped"] / (v["kept"] + v["dropped"]), 4)}
                for k, v in sorted(self.by_level.items())
            },
            "failures": self.failures[:50],
        }


def _vocabulary(f: Any) -> str:
    preds, consts = symbols(f)
    p = ", ".join(f"{n}/{a}" for n, a in sorted(preds.items()))
    c = ", ".join(sorted(consts)) or "none"
    return f"predicates (name/arity): {p}; constants: {c}"


class _Kind:
    """What back-translation needs to know about one problem kind."""

    # five worked corrections (original sentence, original form, edited form, new sentence),
    # shown before the task as the paper's in-context examples
    examples: tuple[tuple[str, str, str, str], ...] = ()

    def from_data(self, p: LabelledProblem) -> bool:
        """True when the problem's sentences come from data (not from templates)."""
        return True

    def jobs(self, p: LabelledProblem, root: LabelledProblem) -> list[tuple[int, str, str, str]]:
        """(position, original sentence, original formula, edited formula) per edited premise;
        a sentence that cannot be located is given as ''."""
        raise NotImplementedError

    def instructions(self, root: LabelledProblem, new: str) -> str:
        raise NotImplementedError

    def check(self, root: LabelledProblem, got: str, new: str) -> str:
        raise NotImplementedError

    def apply(
        self, p: LabelledProblem, root: LabelledProblem, texts: dict[int, str]
    ) -> dict[str, Any]:
        raise NotImplementedError


class _FOL(_Kind):
    examples = (
        (
            "Every violinist in the orchestra practises daily or teaches.",
            "∀x (Violinist(x) → (PractisesDaily(x) ∨ Teaches(x)))",
            "∀x (Violinist(x) → (PractisesDaily(x) ∧ Teaches(x)))",
            "Every violinist in the orchestra practises daily and teaches.",
        ),
        (
            "A ferry either leaves at dawn or waits for the mail.",
            "∀x (Ferry(x) → (LeavesAtDawn(x) ⊕ WaitsForMail(x)))",
            "∀x (Ferry(x) → (LeavesAtDawn(x) ∨ WaitsForMail(x)))",
            "A ferry leaves at dawn or waits for the mail, or both.",
        ),
        (
            "Marta does not own a bicycle.",
            "¬OwnsBicycle(marta)",
            "OwnsBicycle(marta)",
            "Marta owns a bicycle.",
        ),
        (
            "Some gardeners grow tomatoes or keep bees.",
            "∃x (Gardener(x) ∧ (GrowsTomatoes(x) ∨ KeepsBees(x)))",
            "∃x (Gardener(x) ∧ (GrowsTomatoes(x) ⊕ KeepsBees(x)))",
            "Some gardeners either grow tomatoes or keep bees, but not both.",
        ),
        (
            "If a museum is free, it is not crowded on Sundays.",
            "∀x ((Museum(x) ∧ Free(x)) → ¬CrowdedOnSundays(x))",
            "∀x ((Museum(x) ∧ Free(x)) → CrowdedOnSundays(x))",
            "If a museum is free, it is crowded on Sundays.",
        ),
    )

    def jobs(self, p: LabelledProblem, root: LabelledProblem) -> list[tuple[int, str, str, str]]:
        nl = root.problem.get("premises_nl") or []
        aligned = len(nl) == len(root.problem["premises"])
        return [
            (i, nl[i] if aligned else "", root.problem["premises"][i], p.problem["premises"][i])
            for i in p.metadata["edit_positions"]
        ]

    def instructions(self, root: LabelledProblem, new: str) -> str:
        return (
            "Translate the sentence into one first-order logic formula. Use only these "
            f"{_vocabulary(parse_fol(new))}. Notation: ∀x, ∃x, ¬, ∧, ∨, ⊕ (either-or), →, ↔, "
            "parentheses."
        )

    def check(self, root: LabelledProblem, got: str, new: str) -> str:
        try:
            eq = equivalent(parse_fol(got), parse_fol(new))
        except FOLParseError as e:
            return f"back-translation does not parse: {str(e).splitlines()[0]}"
        if eq is None:
            return "equivalence undecided (z3 time-out)"
        return "" if eq else f"back-translation {got!r} is not equivalent to {new!r}"

    def apply(
        self, p: LabelledProblem, root: LabelledProblem, texts: dict[int, str]
    ) -> dict[str, Any]:
        nl = list(root.problem["premises_nl"])
        for i, t in texts.items():
            nl[i] = t
        return p.problem | {"premises_nl": nl}


class _Deduction(GlossedProgram, _Kind):
    """Loaded LogicalDeduction questions: program lines glossed by sentences of the context."""

    examples = (
        (
            "The blue book is to the right of the yellow book.",
            "blue_book > yellow_book",
            "blue_book < yellow_book",
            "The blue book is to the left of the yellow book.",
        ),
        (
            "The hawk is the second from the left.",
            "hawk == 2",
            "hawk != 2",
            "The hawk is not the second from the left.",
        ),
        (
            "The minivan is newer than the sedan.",
            "minivan > sedan",
            "minivan < sedan",
            "The minivan is older than the sedan.",
        ),
        (
            "Eve did not finish third.",
            "Eve != 3",
            "Eve == 3",
            "Eve finished third.",
        ),
        (
            "The plums are cheaper than the kiwis.",
            "plums < kiwis",
            "plums > kiwis",
            "The plums are more expensive than the kiwis.",
        ),
    )

    def instructions(self, root: LabelledProblem, new: str) -> str:
        from ..logic.csp import parse_program

        csp = parse_program(root.problem["program"])
        vals = sorted({v for d in csp.domains.values() for v in d})
        glosses = "; ".join(f"{k} = {g}" for k, g in sorted(csp.value_glosses.items()))
        return (
            "Translate the sentence into one constraint over these variables: "
            f"{', '.join(csp.domains)} (each a position {vals[0]}–{vals[-1]}; {glosses}). "
            "Write it like `a < b`, `a > b`, `a == 3` or `a != b`."
        )

    def check(self, root: LabelledProblem, got: str, new: str) -> str:
        from ..families.logicaldeduction import same_constraint

        same = same_constraint(got, new, root.problem["program"])
        if same is None:
            return f"back-translation {got!r} is not a constraint over the variables"
        return "" if same else f"back-translation {got!r} is not equivalent to {new!r}"


# the kinds whose edited problems can be back-translated (a capability, keyed by kind)
BACKTRANSLATORS: dict[str, _Kind | LsatBackTranslation] = {
    "fol": _FOL(),
    "deduction": _Deduction(),
    "lsat": LsatBackTranslation(),
}


def needs_backtranslation(p: LabelledProblem) -> bool:
    """An edited problem whose text comes from data (FOLIO sentences, a LogicalDeduction
    context) rather than from templates."""
    bt = BACKTRANSLATORS.get(p.kind)
    return bool(p.metadata.get("edit_level")) and bt is not None and bt.from_data(p)


async def correct_sentence(
    sentence: str,
    old: str,
    new: str,
    instructions: str,
    check: Any,
    writer: Model,
    checker: Model,
    cfg: BackTranslateConfig,
    key: str,
    examples: Sequence[tuple[str, str, str, str]] = (),
) -> tuple[str | None, int, list[str]]:
    """(the corrected sentence or None, attempts used, why each failed attempt failed);
    ``check(formula) -> ''`` or the reason the translated-back formula does not match."""
    from .judge import Judge
    from .story_context import ask, usable_reply

    failures: list[str] = []
    shots = "".join(
        f"Original sentence: {a}\nOriginal formula: {b}\nNew formula: {c}\nNew sentence: {d}\n\n"
        for a, b, c, d in examples
    )
    for a in range(cfg.attempts):
        r = await ask(
            writer,
            [
                Message(
                    role="user",
                    content=(
                        "A premise of a logic problem was edited. Rewrite its sentence so that "
                        "it says exactly what the new formula says, changing as little as "
                        "possible and keeping the sentence's structure and style.\n\n"
                        + (f"Examples:\n\n{shots}" if shots else "")
                        + f"Original sentence: {sentence}\nOriginal formula: {old}\n"
                        f"New formula: {new}\nWrite only the new sentence."
                    ),
                )
            ],
            f"{key}:write",
            max_tokens=cfg.max_tokens,
            temperature=cfg.temperature,
            sample=a,
        )
        text, why = usable_reply(r)
        if not why:
            judge = Judge(
                checker,
                {
                    "type": "object",
                    "properties": {"formula": {"type": "string"}},
                    "required": ["formula"],
                },
                instructions,
                retries=1,
                max_tokens=200,
            )
            res = await judge.ask(f"Sentence: {text}", key=f"{key}:check:{a}")
            if res.verdict is None:
                why = f"back-translation unusable: {res.error}"
            else:
                why = check(str(res.verdict["formula"]))
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
    """Correct the sentences of every edited data-backed problem (``fol``, loaded
    LogicalDeduction, ``lsat``); unedited and template-rendered ones pass through.

    Edited problems need their chain's unedited problem among ``problems`` (it holds the
    original sentences and formulas). Returns the kept problems (in order) and the statistics."""
    cfg = cfg or BackTranslateConfig()
    w = load_model(writer) if isinstance(writer, str) else writer
    c = (load_model(checker) if isinstance(checker, str) else checker) if checker else w
    roots = {p.problem_id: p for p in problems if not p.metadata.get("edit_level")}
    jobs: dict[tuple[str, int, str], tuple[str, str, LabelledProblem]] = {}
    edited: dict[str, list[tuple[int, str, str, str]]] = {}  # problem id → its sentences to fix
    for p in problems:
        if not needs_backtranslation(p):
            continue
        root = roots.get(p.metadata["chain_id"])
        if root is None:
            raise ConfigError(
                "problems", p.problem_id, "back-translation needs its unedited problem as well"
            )
        edited[p.problem_id] = BACKTRANSLATORS[p.kind].jobs(p, root)
        for i, sentence, old, new in edited[p.problem_id]:
            if sentence:
                jobs[(root.problem_id, i, new)] = (sentence, old, root)
    stats = BackTranslateStats()

    async def go() -> dict[tuple[str, int, str], str | None]:
        sem = asyncio.Semaphore(cfg.concurrency)

        async def one(k: tuple[str, int, str]) -> str | None:
            sentence, old, root = jobs[k]
            kind = BACKTRANSLATORS[root.kind]
            async with sem:
                text, used, fails = await correct_sentence(
                    sentence,
                    old,
                    k[2],
                    kind.instructions(root, k[2]),
                    lambda got: kind.check(root, got, k[2]),
                    w,
                    c,
                    cfg,
                    f"{k[0]}:p{k[1]}:{zlib.crc32(k[2].encode()):08x}",
                    kind.examples,
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

    done = run_async(go()) if jobs else {}
    out = []
    for p in problems:
        if not needs_backtranslation(p):
            out.append(p)
            continue
        root = roots[p.metadata["chain_id"]]
        kind = BACKTRANSLATORS[p.kind]
        found = edited[p.problem_id]
        texts = {i: done.get((root.problem_id, i, new)) for i, _, _, new in found}
        stats.unlocated += any(not sentence for _, sentence, _, _ in found)
        level = int(p.metadata.get("edit_level") or 0)
        if any(t is None for t in texts.values()):
            stats.count(level, kept=False)  # a sentence could not be located or matched
            continue
        stats.count(level, kept=True)
        meta = p.metadata | {
            "nl_verified": True,
            "backtranslation": {
                "positions": p.metadata["edit_positions"],
                "writer": w.name,
                "checker": c.name,
            },
        }
        problem = kind.apply(p, root, {i: t for i, t in texts.items() if t is not None})
        out.append(p.model_copy(update={"problem": problem, "metadata": meta}))
    return out, stats
