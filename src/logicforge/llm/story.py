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
multi-turn conversation, a two-step validator; see :mod:`logicforge.llm.verbaliser`).

The SATBench style lives in :mod:`logicforge.llm.satbench_story`, the verbaliser in
:mod:`logicforge.llm.verbaliser`.

Example:
    >>> describe([[1, -2]], ["Alice sings", "Bob dances"])
    '(Alice sings ∨ ¬Bob dances)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError, certify
from ..kinds.items import build_item
from ..logic.cnf import CNF
from ..logic.sat import equivalent
from ..models.base import Model
from ..numfmt import ratio_pct
from ..registry import RENDERERS
from ..renderers.trace import trace_instructions
from ..schema import Item, LabelledProblem
from .satbench_story import SATBenchStyle
from .story_context import (
    Condition,
    StoryConfig,
    StoryContext,
    Style,
    ask,
    usable_reply,
)
from .verbaliser import VerbaliserStyle


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
            text, why = usable_reply(r)
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
    certify(whole, "accepted conditions must reconstruct the formula")
    prompt = style.prompt(ctx, [c.text for c in conds])
    if style.evaluation == "assignment":  # the template renderers' own closing instruction
        from ..renderers.base import answer_instructions

        prompt += "\n\n" + answer_instructions(ctx.names, legend=ctx.legend)
        fmt = ""
    else:
        last = bool(getattr(style, "label_last", False))
        prompt += "\n\n" + trace_instructions(ctx.names, ctx.legend, cfg.aware, last)
        fmt = "decision+conflict"
    item = build_item(
        problem, style.name + ("-aware" if cfg.aware else ""), cnf, prompt, ctx.names, fmt
    )
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
    if cfg.llm_check:
        story["llm_check"] = await consistency_check(ctx, [c.text for c in conds])
    return item.model_copy(
        update={"metadata": item.metadata | {"story": story}, "value_words": ctx.value_words}
    )


CONSISTENCY = (
    "You check a logic puzzle written from a formula. Given the variable mapping, the clauses "
    "and the puzzle's numbered conditions, say whether each condition states exactly its clause "
    "(same variables, same negations), with no condition extra and none missing."
)


async def consistency_check(ctx: StoryContext, conditions: list[str]) -> dict[str, Any]:
    """SATBench's LLM validation (its Figure A2) over the whole puzzle, recorded beside the
    solver's per-condition proofs — a second opinion that never overrides them."""
    from .judge import Judge

    schema = {
        "type": "object",
        "properties": {
            "consistent": {"type": "boolean"},
            "mismatched": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["consistent"],
    }
    mapping = "\n".join(f"x{i} = {n}" for i, n in enumerate(ctx.names, start=1))
    clauses = "\n".join(
        f"{i}. " + describe([list(c)], [f"x{v}" for v in range(1, len(ctx.names) + 1)])
        for i, c in enumerate(ctx.cnf.clauses, start=1)
    )
    body = "\n".join(f"{i}. {t}" for i, t in enumerate(conditions, start=1))
    res = await Judge(ctx.checker, schema, CONSISTENCY, retries=1, max_tokens=200).ask(
        f"Mapping:\n{mapping}\n\nClauses:\n{clauses}\n\nConditions:\n{body}",
        key=f"{ctx.key}:consistency",
    )
    return {"verdict": res.verdict, "error": res.error, "judge": res.judge}


def failed_validation(item: Item) -> bool:
    """True when some part of the story fell back to a template (its scene or a condition)."""
    st = item.metadata.get("story") or {}
    return bool(st.get("fallbacks")) or st.get("scene_source") == "template"


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
        chk = (st.get("llm_check") or {}).get("verdict")
        if chk is not None:
            r["llm_checked"] = r.get("llm_checked", 0) + 1
            r["llm_consistent"] = r.get("llm_consistent", 0) + bool(chk.get("consistent"))
    out = []
    for r in rows.values():
        n = max(r["conditions"], 1)
        out.append(
            r
            | {
                "first_try_pct": ratio_pct(r["first_try"], n),
                "retried_pct": ratio_pct(r["retried"], n),
                "fallback_pct": ratio_pct(r["fallbacks"], n),
            }
        )
    return sorted(out, key=lambda r: r["rendering"])


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
            else "SATBench story with its evaluation order: reasoning and justification first, "
            "the label on the last line (needs a writer: `logicforge narrate` or a suite `story:`)."
            if name == "story-last"
            else f"The 2-SAT paper's LLM verbaliser, {theme} theme: one clue per clause, two-step "
            "validator, template fallback (needs a writer: `logicforge narrate` or a suite `story:`)."
        )

    def style(self) -> Style:
        if self.name in ("story", "story-last"):
            return SATBenchStyle(label_last=self.name == "story-last")
        return VerbaliserStyle(self.name.removeprefix("story-"))

    def render(self, problem: LabelledProblem) -> Item:
        raise ConfigError(
            "renderer",
            self.name,
            "is written by an LLM: run `logicforge narrate PROBLEMS --renderer "
            f"{self.name} --writer MODEL` or give the suite a `story:` block",
        )


for _name in ("story", "story-last", "story-spy", "story-heist", "story-detective"):
    RENDERERS.register(_name, StoryRenderer(_name))
