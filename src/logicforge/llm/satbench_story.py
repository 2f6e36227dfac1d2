"""The SATBench story style (SATBench §3.2–3.3) on the shared story machinery of
:mod:`logicforge.llm.story`: the writer invents a scenario and one statement per variable
(validated JSON: every variable exactly once, statements distinct, none stated by the background),
then one condition per clause; the checker translates each condition back into clauses over the
statements, and the solver decides.

The template sentences (a condition's fallback, the deterministic statements) are in
:mod:`logicforge.renderers.story_text`.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..renderers.story_text import TEMPLATE_SCENE, sat_fallback, template_statements
from ..schema import Message
from .story_context import StoryContext


class SATBenchStyle:
    """SATBench's two phases: scenario + variable mapping (validated JSON), then one condition
    per clause, each back-translated into clauses over the mapping."""

    evaluation = "trace"  # SATBench asks for the reasoning and its justification

    name = "story"
    label_last = False

    def __init__(self, label_last: bool = False) -> None:
        self.label_last = label_last  # SATBench's evaluation order: the label on the last line
        self.name = "story-last" if label_last else "story"

    async def setup(self, ctx: StoryContext) -> None:
        from .judge import Judge

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

        def tidy(v: dict[str, Any]) -> tuple[list[str], str]:  # statements, scene
            st = v["statements"]
            stmts = [" ".join(str(st[x]).split()).rstrip(".") for x in var_names]
            return stmts, " ".join(str(v["scenario"]).split())

        def usable(v: dict[str, Any]) -> str:
            return mapping_problem(var_names, v["statements"], *tidy(v))

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
            ctx.names, ctx.scene = tidy(res.verdict)
            ctx.scene_source = "llm"
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
    from .judge import Judge

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
