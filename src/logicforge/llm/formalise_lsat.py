"""The symbolic-edits paper's own translation step for AR-LSAT (App. A): a writer model turns a
question into a program in Logic-LM's Z3 dialect, sampled until one is valid — it reads, z3
solves it (:mod:`logicforge.logic.lsat`, nothing run as code) and it makes exactly the gold
option hold. The paper samples up to 8 translations at temperature 0.7; so does the default.

Only questions without a valid program are sent; a question that gets none keeps its state
(``formal_valid: False``) and is counted, never silently dropped.

Example:
    >>> FormaliseConfig().attempts
    8
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..aio import run_async
from ..fields import integer, number, params
from ..models.base import Model, load_model
from ..schema import LabelledProblem, Message

_EXAMPLE_Q = (
    "Three people — Ann, Bo and Cy — each take one of slots 1, 2 and 3, no two the same slot. "
    "Ann comes before Bo. Bo is in slot 2.\nQuestion: Which slot is Cy in?\n"
    "Options:\nA) 1\nB) 2\nC) 3"
)
_EXAMPLE_P = """# Declarations
people = EnumSort([Ann, Bo, Cy])
slots = EnumSort([1, 2, 3])
at = Function([people] -> [slots])

# Constraints
Distinct([p:people], at(p)) ::: no two the same slot
at(Ann) < at(Bo) ::: Ann comes before Bo
at(Bo) == 2 ::: Bo is in slot 2

# Options
Question ::: Which slot is Cy in?
is_valid(at(Cy) == 1) ::: (A)
is_valid(at(Cy) == 2) ::: (B)
is_valid(at(Cy) == 3) ::: (C)"""


@params
class FormaliseConfig:
    attempts: int = integer(1, 32, default=8)
    temperature: float = number(0, 2, default=0.7)
    max_tokens: int = integer(1, default=2048)
    concurrency: int = integer(1, 256, default=4)


@dataclass
class FormaliseStats:
    asked: int = 0  # questions without a valid program, sent to the writer
    valid: int = 0  # those that got a valid one
    samples: int = 0
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"asked": self.asked, "valid": self.valid, "samples": self.samples,
                "failures": self.failures[:50]}  # fmt: skip


def prompt(p: LabelledProblem) -> str:
    """The translation request: the dialect, one worked example, the question."""
    d = p.problem
    q = f"{d['context']}\nQuestion: {d['question']}\nOptions:\n" + "\n".join(d["options"])
    return (
        "Translate the problem into a program in this notation: sections `# Declarations` "
        "(`name = EnumSort([...])`, `f = Function([sort, ...] -> [sort])`, sorts may be int or "
        "bool), `# Constraints` (one formula per line, `formula ::: the sentence it states`; "
        "And, Or, Xor, Not, Implies, If, Distinct, Count([x:sort], ...), ForAll([x:sort], ...), "
        "Exists([x:sort], ...), == != < <= > >= + - *) and `# Options` (`Question ::: ...`, "
        "then one line per option: is_valid(f), is_sat(f), is_unsat(f), is_accurate_list([...]) "
        "or is_exception(...), followed by `::: (A)` and so on).\n\n"
        f"Example problem:\n{_EXAMPLE_Q}\n\nExample program:\n{_EXAMPLE_P}\n\n"
        f"Problem:\n{q}\n\nWrite only the program."
    )


def program_of(text: str) -> str | None:
    """The program in a reply: from ``# Declarations`` on, code fences removed."""
    t = re.sub(r"```[a-zA-Z]*", "", text)
    i = t.find("# Declarations")
    return t[i:].strip() if i >= 0 else None


def check(p: LabelledProblem, program: str) -> str:
    """'' when ``program`` is valid for ``p`` (exactly the gold option holds), else why not."""
    from ..families.arlsat import program_answers

    got = program_answers(program)
    if isinstance(got, str):
        return got
    return "" if got == [p.label] else f"its options holding are {got or 'none'}, gold {p.label}"


async def _one(p: LabelledProblem, w: Model, cfg: FormaliseConfig) -> tuple[str | None, int, str]:
    from .story_context import ask

    why = ""
    for a in range(cfg.attempts):
        r = await ask(w, [Message(role="user", content=prompt(p))], f"{p.problem_id}:formalise",
                      max_tokens=cfg.max_tokens, temperature=cfg.temperature, sample=a)  # fmt: skip
        if r.error is not None or not r.text:
            why = f"writer: {r.error or 'no text'}"
            continue
        prog = program_of(r.text)
        why = "no `# Declarations` in the reply" if prog is None else check(p, prog)
        if not why and prog is not None:
            return prog, a + 1, ""
    return None, cfg.attempts, why


def requests_planned(
    problems: Sequence[LabelledProblem], cfg: FormaliseConfig | None = None
) -> list[str]:
    """The translation prompts :func:`formalise` would send for ``problems``, each at most
    ``cfg.attempts`` times (a dry run's ceiling): one per question without a valid program.

    Example:
        >>> requests_planned([])
        []
    """
    return [prompt(p) for p in problems if p.metadata.get("formal_valid") is False]


def formalise(
    problems: Sequence[LabelledProblem], writer: str | Model, cfg: FormaliseConfig | None = None
) -> tuple[list[LabelledProblem], FormaliseStats]:
    """Every problem marked ``formal_valid: False`` (an AR-LSAT question without a valid
    program), given the first valid one the writer writes (``metadata["program_source"]`` names the writer); the others pass through."""
    cfg = cfg or FormaliseConfig()
    w = load_model(writer) if isinstance(writer, str) else writer
    todo = [i for i, p in enumerate(problems) if p.metadata.get("formal_valid") is False]
    stats = FormaliseStats(asked=len(todo))

    async def main() -> list[tuple[str | None, int, str]]:
        sem = asyncio.Semaphore(cfg.concurrency)

        async def go(p: LabelledProblem) -> tuple[str | None, int, str]:
            async with sem:
                return await _one(p, w, cfg)

        return list(await asyncio.gather(*(go(problems[i]) for i in todo)))

    out = list(problems)
    for i, (prog, used, why) in zip(todo, run_async(main()) if todo else [], strict=True):
        stats.samples += used
        p = out[i]
        if prog is None:
            stats.failures.append(f"{p.problem_id}: {why[:200]}")
            continue
        stats.valid += 1
        meta = p.metadata | {"formal_valid": True, "program_source": w.name,
                             "program_samples": used, "program_answers": [p.label],
                             "program_answer": p.label}  # fmt: skip
        meta.pop("program_error", None)
        out[i] = p.model_copy(update={"problem": p.problem | {"program": prog}, "metadata": meta})
    return out, stats
