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

from ..errors import ConfigError
from ..llm.story import StoryConfig, StoryRenderer, write_story
from ..models.base import Model, load_model
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .progress import Progress
from .store import read_jsonl


def story_renderer(name: str) -> StoryRenderer:
    r = RENDERERS.get(name)
    if not isinstance(r, StoryRenderer):
        raise ConfigError(
            "renderer",
            name,
            "is not a story renderer (story, story-spy, story-heist, story-detective)",
        )
    return r


def _done(out: Path) -> dict[str, Item]:
    """Items already written to ``out``. A torn last line (a killed run: no final newline) is cut
    off; a malformed line in the middle is refused by :func:`read_jsonl`, naming it."""
    if not out.exists():
        return {}
    raw = out.read_bytes()
    if raw and not raw.endswith(b"\n"):
        with out.open("r+b") as f:
            f.truncate(raw.rfind(b"\n") + 1)
    return {it.item_id: it for it in map(Item.model_validate, read_jsonl(out))}


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
    continues where a killed one stopped."""
    style = story_renderer(renderer).style()
    cfg = cfg or StoryConfig()
    probs = [p for p in problems if p.kind == story_renderer(renderer).kind]
    w = load_model(writer) if isinstance(writer, str) else writer
    c = (load_model(checker) if isinstance(checker, str) else checker) if checker else w
    rendering = style.name + ("-aware" if cfg.aware else "")
    path = Path(out) if out is not None else None
    done = _done(path) if path is not None else {}
    todo = [p for p in probs if f"{p.problem_id}:{rendering}" not in done]
    if concurrency < 1:
        raise ConfigError("concurrency", concurrency, "must be ≥ 1")

    bar = Progress(len(probs), f"narrate {rendering}", enabled=progress)
    bar.skip(len(probs) - len(todo))

    async def go() -> dict[str, Item]:
        got: dict[str, Item] = {}
        try:
            for i in range(0, len(todo), concurrency):
                chunk = todo[i : i + concurrency]
                items = await asyncio.gather(*(write_story(p, style, w, c, cfg) for p in chunk))
                if path is not None:
                    with path.open("a", encoding="utf-8") as f:
                        for it in items:
                            f.write(it.model_dump_json() + "\n")
                got |= {it.item_id: it for it in items}
                bar.update(len(items))
        finally:
            owned = [m for m, spec in ((w, writer), (c, checker)) if isinstance(spec, str)]
            for m in {id(m): m for m in owned}.values():  # only what narrate loaded itself
                await m.aclose()
            bar.close()
        return got

    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    got = asyncio.run(go())
    allitems = done | got
    return [allitems[f"{p.problem_id}:{rendering}"] for p in probs]
