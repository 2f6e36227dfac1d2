"""A suite's problems: every block generated (grids, sweeps, pairs with their replacements)
or read from a data file (formalised by a writer where asked, expanded by its edits), each
problem tagged with its block's sweep, variant and pairing metadata.

Example:
    >>> from logicforge.suites.spec import load_suite
    >>> s = load_suite("twosat-order").with_blocks(count=1)
    >>> len(expand_problems(s)) > 0
    True
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..registry import FAMILIES
from .spec import ProblemBlock, Suite


def _tagged(b: ProblemBlock, probs: list[Any]) -> list[Any]:
    if not b.tags:
        return probs
    return [p.model_copy(update={"metadata": p.metadata | b.tags}) for p in probs]


def _paired(b: ProblemBlock, bi: int, probs: list[Any], notes: list[dict[str, Any]]) -> list[Any]:
    """With ``pair: true``, each source and its minimally different twin (sources without one
    are skipped and counted in ``notes``)."""
    if not b.pair:
        return probs
    from ..transforms.pair import make_pairs

    out, skipped = make_pairs(probs, max_candidates=b.max_candidates, max_deletions=b.max_deletions)
    notes.append({"block": bi, "family": b.family, "pairs": len(out) // 2, "skipped": skipped})
    return out


def _annotated(tags: list[dict[str, Any]], p: Any, extra: dict[str, Any] | None = None) -> Any:
    """A generated problem with its point's sweep tags and its place in the point's stream (the
    block's first sources and their replacements alike)."""
    meta = p.metadata | tags[p.spawn_key[0]] | {"formula_index": p.spawn_key[1]}
    return p.model_copy(update={"metadata": meta | (extra or {})})


def _paired_replaced(
    b: ProblemBlock,
    bi: int,
    probs: list[Any],
    points: list[dict[str, Any]],
    count: int,
    seed: int,
    notes: list[dict[str, Any]],
    annotate: Any,
) -> list[Any]:
    """With ``pair: true`` on a generated block, each point's sources and their twins; a source
    without a twin is replaced by the point's next source (items ``count``, ``count + 1``, … of
    its stream) until the point has ``count`` pairs or ``replace_limit`` × ``count`` sources
    were drawn — so every point has the pairs asked for and the kept pairs are not a selection
    of the sources that happened to have a twin. ``notes`` gets one entry per point: pairs,
    skipped sources and replacements drawn. ``annotate(problem, extra)`` gives a replacement
    the metadata the block's first sources have."""
    from ..families.base import generate_range
    from ..transforms.pair import make_pairs

    kw = {"max_candidates": b.max_candidates, "max_deletions": b.max_deletions}
    by_point: dict[int, list[Any]] = {}
    for p in probs:
        by_point.setdefault(p.spawn_key[0], []).append(p)
    out: list[Any] = []
    for j, pt in enumerate(points):
        pairs, skipped = make_pairs(by_point.get(j, []), **kw)
        drawn = count
        while b.replace_skipped and len(pairs) < 2 * count and drawn < b.replace_limit * count:
            more = generate_range(b.family, pt, j, drawn, drawn + 1, seed)
            drawn += 1
            got, miss = make_pairs([annotate(q, {"replacement": True}) for q in more], **kw)
            pairs += got
            skipped += miss
        where = {k: pt[k] for k in b.grid} if b.grid else {}
        notes.append(
            {"block": bi, "family": b.family, "point": where, "pairs": len(pairs) // 2,
             "skipped": skipped, "replacements": drawn - count}
        )  # fmt: skip
        out += pairs
    return out


def expand_problems(
    suite: Suite,
    notes: list[dict[str, Any]] | None = None,
    *,
    sample: int | None = None,
    weights: list[float] | None = None,
    workers: int = 1,
) -> list[Any]:
    """Generate every problem of the suite (sweeps annotated, pairs made) and apply each variant;
    pairing counts (pairs, skipped sources) are appended to ``notes``.

    With ``sample`` (a dry run), each block makes at most ``sample`` problems per parameter
    point (a data block its first ``sample`` rows) and skips the family's measurement-only
    parameters (:attr:`Family.measures`); ``weights`` then receives, per returned problem, how
    many problems of the full suite it stands for. The sampled problems are those the full
    suite makes first, so their text is the text a run sends. ``workers`` processes generate
    the problems (the same ones as a single process makes)."""
    from ..families.base import expand_grid, generate_problems
    from ..rng import child_seed

    base: list[Any] = []
    only: list[list[str] | None] = []  # per problem: the variants its block allows
    stands: list[float] = []  # per problem: the problems of the full suite it stands for
    notes = [] if notes is None else notes
    for bi, b in enumerate(suite.problems):
        before = len(base)
        seed = child_seed(
            suite.seed, 0x5B1, bi
        )  # each block its own root, stable under edits elsewhere
        if b.data is not None:
            probs, w = _data_block(b, sample, suite)
            base += _tagged(b, _paired(b, bi, probs, notes))
            only += [b.variants] * (len(base) - before)
            stands += [w] * (len(base) - before)
            continue
        count, params = b.count, dict(b.params)
        if sample is not None:
            count = min(b.count, sample)
            fam = FAMILIES.get(b.family)
            for m in getattr(fam, "measures", ()):
                params.pop(m, None)
        if b.sweep:
            points, tags = [], []
            for knob in b.sweep:
                for lv in b.knob_levels.get(knob, b.levels):
                    for pt in expand_grid({**params, knob: lv}, b.grid):
                        points.append(pt)
                        where = ", ".join(f"{k}={pt[k]}" for k in b.grid)  # the grid point
                        level = lv if isinstance(lv, str) else round(float(lv), 6)
                        tags.append(
                            {"sweep_knob": knob, "sweep_level": level}
                            | ({"sweep_point": where} if where else {})
                        )
        else:
            points = expand_grid(params, b.grid)
            tags = [{} for _ in points]

        annotate = functools.partial(_annotated, tags)
        probs = [
            annotate(p) for p in generate_problems(b.family, points, count, seed, workers=workers)
        ]
        if b.pair:
            probs = _paired_replaced(b, bi, probs, points, count, seed, notes, annotate)
        if b.edits:
            from ..transforms.edits import cumulative, expand, individual

            probs = [q for p in probs for q in expand(p, b.edits, cumulative, individual)]
        base += _tagged(b, probs)
        only += [b.variants] * (len(base) - before)
        stands += [b.count / count if count else 0.0] * (len(base) - before)
    from ..transforms.base import apply_spec, parse_transform_spec

    out = []
    for v in suite.variants:
        for p, allowed, w in zip(base, only, stands, strict=True):
            if allowed is not None and v.name not in allowed:
                continue
            if weights is not None:
                weights.append(w)
            q = p
            for spec in v.transforms:
                # reduce changes representation: cnf → vc / packing, coloring → cnf
                q = apply_spec(q, *parse_transform_spec(spec))
            meta = q.metadata | {"variant": v.name, "source_problem_id": p.problem_id}
            if v.compare is not None:
                meta["variant_test"] = v.compare
            pid = (
                q.problem_id
                if v.transforms
                else f"{p.problem_id}@{v.name}"
                if len(suite.variants) > 1
                else p.problem_id
            )
            out.append(q.model_copy(update={"metadata": meta, "problem_id": pid}))
    return out


def data_path(p: str) -> Path:
    """A data file or folder named in a suite: absolute, or relative to the data folder
    (:mod:`logicforge.datadir`: ``$LOGICFORGE_DATA``, else ``~/.local/share/logicforge``)."""
    from ..datadir import LAYOUT, data_root, resolve

    if p.startswith("data:"):
        return resolve(p)
    path = Path(p) if Path(p).is_absolute() else data_root() / p
    if not path.exists():
        raise ConfigError(
            "problems.data",
            p,
            f"no such file ({path}); put the public benchmark files in the data folder "
            f"({LAYOUT}) or set LOGICFORGE_DATA to the folder that holds them",
        )
    return path


def translation_requests(suite: Suite) -> list[str]:
    """The writer's translation prompts for the suite's ``formalise`` blocks, each sent at most
    :class:`~logicforge.llm.formalise_lsat.FormaliseConfig` ``attempts`` times: one per
    question without a valid program among each block's first ``count`` (a dry run's count is
    exact: reading the questions sends nothing)."""
    from ..families.base import Dataset
    from ..llm.formalise_lsat import requests_planned
    from ..registry import DATASETS

    out: list[str] = []
    for b in suite.problems:
        ds = DATASETS.get(b.family)
        if b.formalise and b.data is not None and isinstance(ds, Dataset):
            out += requests_planned(ds.load(data_path(str(b.data)))[: b.count])
    return out


def _data_block(
    b: ProblemBlock, sample: int | None = None, suite: Suite | None = None
) -> tuple[list[Any], float]:
    """The problems of a data block (first ``count``; with ``sample``, only the first
    ``sample`` of those), formalised by the suite's writer where the block asks (not in a dry
    run), expanded by its edits, and how many rows each row read stands for."""
    from ..families.base import Dataset
    from ..registry import DATASETS

    ds = DATASETS.get(b.family)
    if not isinstance(ds, Dataset):
        raise ConfigError("problems.family", b.family, "is not a dataset reader")
    probs = ds.load(data_path(str(b.data)))[: b.count]
    w = 1.0
    if sample is not None and len(probs) > sample:
        w, probs = len(probs) / sample, probs[:sample]
    if b.formalise and sample is None and suite is not None and suite.story is not None:
        import sys

        from ..llm.formalise_lsat import formalise

        probs, st = formalise(probs, suite.story.writer)
        print(
            f"logicforge: {st.valid} of {st.asked} questions without a valid program got one "
            f"from {suite.story.writer} ({st.samples} samples)",
            file=sys.stderr,
        )
    if not b.edits:
        return list(probs), w
    if ds.cumulative is None:
        raise ConfigError("problems.edits", b.edits, f"{b.family} data has no operator edits")
    from ..transforms.edits import expand

    return [q for p in probs for q in expand(p, b.edits, ds.cumulative, ds.individual)], w
