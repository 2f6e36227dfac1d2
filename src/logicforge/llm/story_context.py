"""What a story style is given and asks with: the writing settings (:class:`StoryConfig`), one
problem's context while its story is written (:class:`StoryContext`), a written condition, the
one request any backend answers (:func:`ask`), the reply check (:func:`usable_reply`) and the
:class:`Style` protocol that :mod:`logicforge.llm.satbench_story` and
:mod:`logicforge.llm.verbaliser` implement and :mod:`logicforge.llm.story` drives.

Example:
    >>> from logicforge.models.base import Response
    >>> usable_reply(Response(text="Clue 1: Alice sings."))
    ('Alice sings.', '')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..models.base import Model, Prompt, Response, Sampling
from ..schema import LabelledProblem, Message

MAX_CONDITION_CHARS = 800


@dataclass(frozen=True)
class StoryConfig:
    """How stories are written: attempts per condition (then the template), the writer's token
    budget and temperature, and whether the evaluation prompt is the error-aware one."""

    attempts: int = 3
    max_tokens: int = 200
    temperature: float = 0.7
    aware: bool = False
    llm_check: bool = False  # SATBench's whole-puzzle LLM consistency check, as a second opinion
    # a story whose scene or some condition failed every attempt: "template" keeps it with exact
    # template sentences there (counted as fallbacks); "discard" drops it, as SATBench does
    on_failure: str = "template"

    def __post_init__(self) -> None:
        if self.on_failure not in ("template", "discard"):
            raise ConfigError("on_failure", self.on_failure, "choose template or discard")
        if not isinstance(self.attempts, int) or not 1 <= self.attempts <= 10:
            raise ConfigError("attempts", self.attempts, "must be an integer in 1..10")
        if not isinstance(self.max_tokens, int) or not 16 <= self.max_tokens <= 8192:
            raise ConfigError("max_tokens", self.max_tokens, "must be an integer in 16..8192")
        if not 0.0 <= float(self.temperature) <= 2.0:
            raise ConfigError("temperature", self.temperature, "must be in 0..2")


@dataclass
class Condition:
    clause: list[int]
    text: str
    source: str  # "llm" or "template"
    attempts: int
    failures: list[str]
    recon: list[list[int]]

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "attempts": self.attempts,
            "failures": self.failures,
        }


@dataclass
class StoryContext:
    """What a style knows while writing one problem's story."""

    problem: LabelledProblem
    cnf: CNF
    writer: Model
    checker: Model
    cfg: StoryConfig
    key: str
    names: list[str] = field(default_factory=list)  # display name per variable (1-based → [0])
    scene: str = ""
    scene_source: str = "template"
    scene_failures: list[str] = field(default_factory=list)
    history: list[Message] = field(default_factory=list)  # accepted turns (multi-turn styles)
    legend: str = ""
    value_words: dict[str, bool] = field(default_factory=dict)  # theme words read as values


async def ask(
    model: Model,
    messages: list[Message],
    key: str,
    *,
    max_tokens: int,
    temperature: float,
    sample: int = 0,
) -> Response:
    """One free-text request to any backend."""
    s = Sampling(temperature=temperature, max_tokens=max_tokens, seed=0)
    try:
        return await model.generate(Prompt(tuple(messages), key=key), s, sample)
    except Exception as e:  # a backend failure is a failed attempt, never a crash
        return Response(text=None, error=f"{type(e).__name__}: {e}")


def usable_reply(r: Response, max_chars: int = MAX_CONDITION_CHARS) -> tuple[str, str]:
    """(text, '') or ('', why the reply is unusable): one paragraph, thinking, quotes and
    labels stripped."""
    from ..parse.decision import strip_thinking

    if r.error is not None:
        return "", f"writer: {r.error}"
    if r.text is None:
        return "", "no text"
    t = strip_thinking(r.text).strip()
    t = re.sub(r"^(clue|condition|sentence|paragraph)\s*\d*\s*[:.-]\s*", "", t, flags=re.I)
    t = " ".join(t.split()).strip().strip('"“”').strip()
    if not t:
        return "", "empty reply"
    if len(t) > max_chars:
        return "", f"too long ({len(t)} characters)"
    return t, ""


class Style(Protocol):
    name: str
    # what the evaluation prompt asks for: "trace" — [SAT]/[UNSAT] with an assignment or the
    # conflicting conditions (SATBench); "assignment" — the decision and, when SAT, an
    # assignment, exactly as the template verbalisers ask (the 2-SAT paper's G.2)
    evaluation: str

    async def setup(self, ctx: StoryContext) -> None: ...

    def request(self, ctx: StoryContext, clause: list[int]) -> list[Message]: ...

    async def check(
        self, ctx: StoryContext, clause: list[int], text: str, key: str
    ) -> tuple[str, list[list[int]]]: ...

    def fallback(self, ctx: StoryContext, clause: list[int]) -> str: ...

    def accept(self, ctx: StoryContext, clause: list[int], text: str) -> None: ...

    def prompt(self, ctx: StoryContext, conditions: list[str]) -> str: ...
