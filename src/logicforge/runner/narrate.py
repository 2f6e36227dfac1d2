"""Writing stories for many problems: resumable, in problem order, any writer / checker backend.

Example:
    >>> import logicforge as lf
    >>> from logicforge.runner.narrate import narrate
    >>> ps = lf.generate("satbench", {"n_clauses": 4, "dims": [2, 2]}, count=1, seed=0)
    >>> it = narrate(ps, "story", writer="oracle")[0]   # a baseline writes no usable text
    >>> it.metadata["story"]["fallbacks"] == it.metadata["story"]["n_conditions"]
    True
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from ..aio import run_async
from ..errors import ConfigError
from ..llm.story import StoryConfig, StoryRenderer, write_story
from ..models.base import Model, load_model
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .jobs import Resumable
from .progress import Progress


def story_renderer(name: str) -> StoryRenderer:
    r = RENDERERS.get(name)
    if not isinstance(r, StoryRenderer):
        raise ConfigError(
            "renderer",
            name,
            "is not a story renderer (story, story-spy, story-heist, story-detective)",
        )
    return r


def narrate(
    problems: Iterable[LabelledProblem],
    renderer: str = "story",
    *,
    writer: str | Model,
    checker: str | Model | None = None,
    cfg: StoryConfig | None = None,
    out: str | Path | None = None,
    concurrency: int = 4,
    progress: bool = False,
) -> list[Item]:
    """Write a validated story Item for every CNF problem (see :mod:`logicforge.llm.story`).

    With ``out`` the Items are appended there as they finish (in problem order) and a rerun
    continues where a killed one stopped. With ``cfg.on_failure == "discard"`` a story that
    failed validation anywhere is left out of the result (the caller counts the difference)."""
    style = story_renderer(renderer).style()
    cfg = cfg or StoryConfig()
    probs = [p for p in problems if p.kind == story_renderer(renderer).kind]
    w = load_model(writer) if isinstance(writer, str) else writer
    c = (load_model(checker) if isinstance(checker, str) else checker) if checker else w
    rendering = style.name + ("-aware" if cfg.aware else "")
    if concurrency < 1:
        raise ConfigError("concurrency", concurrency, "must be ≥ 1")
    job = Resumable(out, "item_id") if out is not None else None  # locked, fsynced, resumable
    done = {k: Item.model_validate(v) for k, v in job.done.items()} if job is not None else {}
    todo = [p for p in probs if f"{p.problem_id}:{rendering}" not in done]

    bar = Progress(len(probs), f"narrate {rendering}", enabled=progress)
    bar.skip(len(probs) - len(todo))

    async def go() -> dict[str, Item]:
        got: dict[str, Item] = {}
        try:
            for i in range(0, len(todo), concurrency):
                chunk = todo[i : i + concurrency]
                items = await asyncio.gather(*(write_story(p, style, w, c, cfg) for p in chunk))
                for it in items:  # in problem order
                    if job is not None:
                        job.put(it)
                got |= {it.item_id: it for it in items}
                bar.update(len(items))
        finally:
            owned = [m for m, spec in ((w, writer), (c, checker)) if isinstance(spec, str)]
            for m in {id(m): m for m in owned}.values():  # only what narrate loaded itself
                await m.aclose()
            bar.close()
        return got

    try:
        got = run_async(go())
    finally:
        if job is not None:
            job.store.release()
    allitems = done | got
    result = [allitems[f"{p.problem_id}:{rendering}"] for p in probs]
    if cfg.on_failure == "discard":  # written and kept in ``out`` for a rerun; not returned
        from ..llm.story import failed_validation

        result = [it for it in result if not failed_validation(it)]
    return result
