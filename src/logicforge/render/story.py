"""Stories written by an LLM and proven faithful by round trip (SATBench §3.2–3.3; the LLM
verbaliser of the 2-SAT robustness paper, §4 and Appendix G.3).

One machinery, several *styles*. A style sets the scene (a scenario with a variable → statement
mapping, or a themed introduction over fixed entities), asks the writer model for one condition
per clause, and checks each condition by translating it back into clauses with a checker model
(any backend; by default the writer itself). A condition is accepted only when the solver proves
its reconstruction equivalent to the clause (A ⊨ B and B ⊨ A). A rejected condition is
regenerated up to ``attempts`` times and then replaced by a deterministic template sentence,
which is exact by construction — so no unfaithful condition ever reaches an Item. At the end the
whole reconstructed formula is checked equivalent to the original.

Every Item records its validation in ``metadata["story"]``: the writer and checker, whether the
mapping came from the LLM or the template, and per condition the source (``llm`` / ``template``),
the attempts used and why each rejected attempt failed (the rejected texts themselves are not
kept). :func:`story_stats` sums these up (first-try pass rate, retries, fallbacks) for the report.

Styles: ``story`` (SATBench: the LLM invents a scenario and a statement for every variable,
validated as JSON — every variable mapped exactly once, statements distinct) and
``story-spy`` / ``story-heist`` / ``story-detective`` (the verbaliser: fixed themed entities, a
multi-turn conversation, a two-step validator; see :mod:`logicforge.render.verbaliser`).

Example:
    >>> from logicforge.render.story import sat_fallback
    >>> sat_fallback([1, -2], ["Alice sings", "Bob dances"])
    'Either Alice sings, or it is not the case that Bob dances (or both).'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..logic.sat import equivalent
from ..models.base import Model, Response, Sampling
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem, Message
from .base import build_item
from .templates import PEOPLE
from .trace import trace_instructions

MAX_CONDITION_CHARS = 800


@dataclass(frozen=True)
class StoryConfig:
    """How stories are written: attempts per condition (then the template), the writer's token
    budget and temperature, and whether the evaluation prompt is the error-aware one."""

    attempts: int = 3
    max_tokens: int = 200
    temperature: float = 0.7
    aware: bool = False

    def __post_init__(self) -> None:
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
    """One free-text request to any backend (the prompt is an ad-hoc Item)."""
    item = Item.model_construct(item_id=key, messages=messages, answer_schema=None, kind="story")
    s = Sampling(temperature=temperature, max_tokens=max_tokens, seed=0)
    try:
        return await model.generate(item, s, sample)
    except Exception as e:  # a backend failure is a failed attempt, never a crash
        return Response(text=None, error=f"{type(e).__name__}: {e}")


def clean_text(text: str | None, max_chars: int = MAX_CONDITION_CHARS) -> tuple[str, str]:
    """(condition, '') or ('', why it is unusable): one paragraph, quotes and labels stripped."""
    if text is None:
        return "", "no text"
    t = re.sub(r"<think>.*?</think>", "", text, flags=re.S).strip()
    t = re.sub(r"^(clue|condition|sentence|paragraph)\s*\d*\s*[:.-]\s*", "", t, flags=re.I)
    t = " ".join(t.split()).strip().strip('"“”').strip()
    if not t:
        return "", "empty reply"
    if len(t) > max_chars:
        return "", f"too long ({len(t)} characters)"
    return t, ""


class Style(Protocol):
    name: str

    async def setup(self, ctx: StoryContext) -> None: ...

    def request(self, ctx: StoryContext, clause: list[int]) -> list[Message]: ...

    async def check(
        self, ctx: StoryContext, clause: list[int], text: str, key: str
    ) -> tuple[str, list[list[int]]]: ...

    def fallback(self, ctx: StoryContext, clause: list[int]) -> str: ...

    def accept(self, ctx: StoryContext, clause: list[int], text: str) -> None: ...

    def prompt(self, ctx: StoryContext, conditions: list[str]) -> str: ...


def describe(clauses: list[list[int]], names: list[str]) -> str:
    """A short logical form for failure reasons: ``(A ∨ ¬B) ∧ (C)``."""
    if not clauses:
        return "nothing"
    return " ∧ ".join(
        "(" + " ∨ ".join(("" if x > 0 else "¬") + names[abs(x) - 1] for x in c) + ")"
        for c in clauses
    )


def compare(clause: list[int], recon: list[list[int]], names: list[str], n_vars: int) -> str:
    """'' when the reconstruction is equivalent to the clause (checked by the solver), else why."""
    if any(not c for c in recon):
        return "round trip gives an empty clause"
    if equivalent(CNF([clause], n_vars), CNF(recon, n_vars)):
        return ""
    return f"round trip gives {describe(recon, names)}, not {describe([clause], names)}"


async def write_conditions(ctx: StoryContext, style: Style) -> list[Condition]:
    """Every clause through write → check → (retry) → template fallback."""
    out = []
    n = ctx.cnf.num_vars
    for i, cl in enumerate(ctx.cnf.clauses):
        clause = list(cl)
        failures: list[str] = []
        accepted: tuple[str, list[list[int]]] | None = None
        for a in range(ctx.cfg.attempts):
            r = await ask(
                ctx.writer,
                style.request(ctx, clause),
                f"{ctx.key}:c{i}",
                max_tokens=ctx.cfg.max_tokens,
                temperature=ctx.cfg.temperature,
                sample=a,
            )
            text, why = clean_text(r.text) if r.error is None else ("", f"writer: {r.error}")
            if not why:
                why, recon = await style.check(ctx, clause, text, f"{ctx.key}:c{i}:a{a}")
                if not why:
                    why = compare(clause, recon, ctx.names, n)
                if not why:
                    accepted = (text, recon)
                    break
            failures.append(why[:300])
        if accepted is not None:
            cond = Condition(clause, accepted[0], "llm", len(failures) + 1, failures, accepted[1])
        else:
            text = style.fallback(ctx, clause)
            cond = Condition(clause, text, "template", len(failures), failures, [clause])
        style.accept(ctx, clause, cond.text)
        out.append(cond)
    return out


async def write_story(
    problem: LabelledProblem,
    style: Style,
    writer: Model,
    checker: Model | None = None,
    cfg: StoryConfig | None = None,
) -> Item:
    """Write, validate and render one problem's story as a trace-style Item."""
    cfg = cfg or StoryConfig()
    cnf = CNF.from_json(problem.problem)
    ctx = StoryContext(
        problem, cnf, writer, checker or writer, cfg, key=f"{problem.problem_id}:{style.name}"
    )
    await style.setup(ctx)
    conds = await write_conditions(ctx, style)
    recon = [c for cond in conds for c in cond.recon]
    # each condition is equivalent to its clause, so the whole must be; prove it anyway
    whole = equivalent(cnf, CNF(recon, cnf.num_vars))
    assert whole, "accepted conditions must reconstruct the formula"
    prompt = style.prompt(ctx, [c.text for c in conds])
    prompt += "\n\n" + trace_instructions(ctx.names, ctx.legend, cfg.aware)
    item = build_item(problem, style.name + ("-aware" if cfg.aware else ""), cnf, prompt, ctx.names)
    first = sum(1 for c in conds if c.source == "llm" and c.attempts == 1)
    story = {
        "style": style.name,
        "writer": writer.name,
        "checker": (checker or writer).name,
        "attempts": cfg.attempts,
        "scene_source": ctx.scene_source,
        "scene_failures": ctx.scene_failures,
        "conditions": [c.to_json() for c in conds],
        "n_conditions": len(conds),
        "first_try": first,
        "retried": sum(1 for c in conds if c.source == "llm" and c.attempts > 1),
        "fallbacks": sum(1 for c in conds if c.source == "template"),
        "formula_equivalent": whole,
    }
    return item.model_copy(
        update={"metadata": item.metadata | {"story": story}, "value_words": ctx.value_words}
    )


def story_stats(items: Sequence[Item | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Validation statistics per story rendering: items, conditions, first-try pass rate,
    conditions passed after a retry, template fallbacks, LLM-written scenes.

    Example:
        >>> story_stats([])
        []
    """
    rows: dict[str, dict[str, Any]] = {}
    for it in items:
        d = it.model_dump() if isinstance(it, Item) else it
        st = (d.get("metadata") or {}).get("story")
        if not st:
            continue
        r = rows.setdefault(
            d["rendering"],
            {
                "rendering": d["rendering"],
                "writer": st["writer"],
                "items": 0,
                "conditions": 0,
                "first_try": 0,
                "retried": 0,
                "fallbacks": 0,
                "llm_scenes": 0,
            },
        )
        r["items"] += 1
        r["conditions"] += st["n_conditions"]
        r["first_try"] += st["first_try"]
        r["retried"] += st["retried"]
        r["fallbacks"] += st["fallbacks"]
        r["llm_scenes"] += st["scene_source"] == "llm"
    out = []
    for r in rows.values():
        n = max(r["conditions"], 1)
        out.append(
            r
            | {
                "first_try_pct": round(100 * r["first_try"] / n, 1),
                "retried_pct": round(100 * r["retried"] / n, 1),
                "fallback_pct": round(100 * r["fallbacks"] / n, 1),
            }
        )
    return sorted(out, key=lambda r: r["rendering"])


# ---------------------------------------------------------------- SATBench style


def negated(statement: str) -> str:
    return f"it is not the case that {statement}"


def sat_fallback(clause: list[int], statements: list[str]) -> str:
    """The exact template sentence for a clause over variable statements."""
    lits = [statements[abs(x) - 1] if x > 0 else negated(statements[abs(x) - 1]) for x in clause]
    if len(lits) == 1:
        return lits[0][0].upper() + lits[0][1:] + "."
    if len(lits) == 2:
        return f"Either {lits[0]}, or {lits[1]} (or both)."
    return "At least one of these holds: " + ", ".join(lits[:-1]) + f", or {lits[-1]}."


def template_statements(problem: LabelledProblem, n: int) -> list[str]:
    """Deterministic statements for the array variables x(i[, j[, k]]): people × tasks × days."""
    dims = list(problem.metadata.get("dims") or [n])
    people = [
        PEOPLE[i % len(PEOPLE)] + ("" if i < len(PEOPLE) else f" {i // len(PEOPLE) + 1}")
        for i in range(dims[0])
    ]
    out = []
    for idx in itertools.product(*(range(d) for d in dims)):
        s = people[idx[0]]
        if len(idx) == 1:
            s += " is selected"
        else:
            s += f" takes on task {idx[1] + 1}"
            if len(idx) == 3:
                s += f" on day {idx[2] + 1}"
        out.append(s)
    return out[:n] + [f"switch {i + 1} is on" for i in range(len(out), n)]


TEMPLATE_SCENE = (
    "A small team is planning its week. Each person may take on any number of tasks, "
    "independently of the others, and every choice below is a simple yes or no."
)


class SATBenchStyle:
    """SATBench's two phases: scenario + variable mapping (validated JSON), then one condition
    per clause, each back-translated into clauses over the mapping."""

    name = "story"

    async def setup(self, ctx: StoryContext) -> None:
        from ..models.judge import Judge

        n = ctx.cnf.num_vars
        var_names = ctx.problem.problem.get("var_names") or [f"x{v}" for v in range(1, n + 1)]
        schema = {
            "type": "object",
            "properties": {
                "scenario": {"type": "string"},
                "statements": {
                    "type": "object",
                    "properties": {v: {"type": "string"} for v in var_names},
                    "required": list(var_names),
                },
            },
            "required": ["scenario", "statements"],
        }
        dims = ctx.problem.metadata.get("dims")
        shape = f"indexed as an array with dimensions {dims}" if dims else "independent"

        def usable(v: dict[str, Any]) -> str:
            st = v["statements"]
            stmts = [" ".join(str(st[x]).split()).rstrip(".") for x in var_names]
            return mapping_problem(var_names, st, stmts, " ".join(str(v["scenario"]).split()))

        judge = Judge(
            ctx.writer,
            schema,
            "Invent a short story background for a logic puzzle with these yes/no variables "
            f"({shape}): {', '.join(var_names)}. Each variable becomes one statement about the "
            "story that can independently be true or false (e.g. 'Alice performs jazz'). "
            "Every variable gets exactly one statement and no two statements are the same. "
            "The background sets the scene and must not say which statements are true.",
            retries=ctx.cfg.attempts - 1,
            max_tokens=max(512, 40 * n + 200),
            check=usable,
        )
        res = await judge.ask("Write the background and the statements.", key=f"{ctx.key}:map")
        if res.verdict is not None:
            st = res.verdict["statements"]
            ctx.names = [" ".join(str(st[v]).split()).rstrip(".") for v in var_names]
            ctx.scene, ctx.scene_source = " ".join(str(res.verdict["scenario"]).split()), "llm"
            return
        ctx.scene_failures.append((res.error or "")[:300])
        ctx.names, ctx.scene = template_statements(ctx.problem, n), TEMPLATE_SCENE

    def request(self, ctx: StoryContext, clause: list[int]) -> list[Message]:
        listing = "\n".join(f"- {s}" for s in ctx.names)
        return [
            Message(
                role="user",
                content=(
                    f"Story: {ctx.scene}\n\nEach of these statements is either true or false:\n"
                    f"{listing}\n\nRewrite the following condition as one natural sentence for "
                    "the story. Keep its exact logical meaning: no added or missing parts, same "
                    f"negations.\nCondition: {sat_fallback(clause, ctx.names)}\n\n"
                    "Write only the sentence."
                ),
            )
        ]

    async def check(
        self, ctx: StoryContext, clause: list[int], text: str, key: str
    ) -> tuple[str, list[list[int]]]:
        return await back_translate(ctx, text, key)

    def fallback(self, ctx: StoryContext, clause: list[int]) -> str:
        return sat_fallback(clause, ctx.names)

    def accept(self, ctx: StoryContext, clause: list[int], text: str) -> None:
        pass

    def prompt(self, ctx: StoryContext, conditions: list[str]) -> str:
        listing = "\n".join(f"- {s}" for s in ctx.names)
        body = "\n".join(f"{i}. {c}" for i, c in enumerate(conditions, start=1))
        return (
            f"{ctx.scene}\n\nEach of these statements is either true or false, independently:\n"
            f"{listing}\n\nConditions:\n{body}\n\n"
            "Can all of these conditions hold at the same time?"
        )


def mapping_problem(var_names: list[str], raw: dict[str, Any], stmts: list[str], scene: str) -> str:
    """'' when the LLM's mapping is usable: every variable exactly once, distinct statements."""
    extra = sorted(set(raw) - set(var_names))
    if extra:
        return f"statements for unknown variables {extra[:3]}"
    if any(len(s) < 3 or len(s) > 120 for s in stmts):
        return "a statement is empty or longer than 120 characters"
    low = [s.lower() for s in stmts]
    if len(set(low)) != len(low):
        return "two variables share one statement"
    if any(a in b for a, b in itertools.permutations(low, 2)):
        return "one statement contains another"
    if any(s in scene.lower() for s in low):
        return "the background already states a statement"
    if not scene:
        return "empty background"
    if re.search(r"\bUNSAT\b|\bSAT\b|[{}]", scene):
        return "the background contains answer text"
    return ""


async def back_translate(ctx: StoryContext, text: str, key: str) -> tuple[str, list[list[int]]]:
    """The checker turns a condition back into clauses over the statements (JSON, validated)."""
    from ..models.judge import Judge

    lit = {
        "type": "object",
        "properties": {
            "statement": {"type": "string", "enum": ctx.names},
            "holds": {"type": "boolean"},
        },
        "required": ["statement", "holds"],
    }
    schema = {
        "type": "object",
        "properties": {"clauses": {"type": "array", "items": {"type": "array", "items": lit}}},
        "required": ["clauses"],
    }
    listing = "\n".join(f"- {s}" for s in ctx.names)
    judge = Judge(
        ctx.checker,
        schema,
        "Translate a condition from a logic puzzle into clauses. Statements:\n"
        f"{listing}\n\nA clause is a list of statements with holds=true (the statement is "
        "true) or holds=false (it is false), at least one of which must be so; the condition "
        "is the list of clauses that must all hold.",
        retries=1,
        max_tokens=300,
    )
    res = await judge.ask(f"Condition: {text}", key=key)
    if res.verdict is None:
        return f"back-translation unusable: {res.error}", []
    index = {s: i + 1 for i, s in enumerate(ctx.names)}
    clauses = [
        sorted({index[x["statement"]] * (1 if x["holds"] else -1) for x in c}, key=abs)
        for c in res.verdict["clauses"]
    ]
    return "", clauses


class StoryRenderer:
    """A story renderer in the registry: it needs a writer model, so plain ``render`` refuses
    with the way to run it (``logicforge narrate`` or a suite's ``story:`` block)."""

    kind = "cnf"
    needs_writer = True

    def __init__(self, name: str) -> None:
        self.name = name
        theme = name.removeprefix("story-")
        self.__doc__ = (
            "SATBench story: an LLM-written scenario, statements and one condition per clause, "
            "each proven by round trip (needs a writer: `logicforge narrate` or a suite `story:`)."
            if name == "story"
            else f"The 2-SAT paper's LLM verbaliser, {theme} theme: one clue per clause, two-step "
            "validator, template fallback (needs a writer: `logicforge narrate` or a suite `story:`)."
        )

    def style(self) -> Style:
        if self.name == "story":
            return SATBenchStyle()
        from .verbaliser import VerbaliserStyle

        return VerbaliserStyle(self.name.removeprefix("story-"))

    def render(self, problem: LabelledProblem) -> Item:
        raise ConfigError(
            "renderer",
            self.name,
            "is written by an LLM: run `logicforge narrate PROBLEMS --renderer "
            f"{self.name} --writer MODEL` or give the suite a `story:` block",
        )


for _name in ("story", "story-spy", "story-heist", "story-detective"):
    RENDERERS.register(_name, StoryRenderer(_name))
