"""The public verbs, mirroring the CLI: generate → render → run → score → report."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Unpack

from .errors import ConfigError, DataFileError
from .files import (
    _SHAPES,
    check_file_kind,
    checked_rows,
    count_lines,
    dumps_params,
    file_kind,
    import_problems,
    iter_items,
    load_items,
    load_problems,
    rescore,
)
from .models.base import Model, load_model
from .renderers.base import render_problem
from .runner import manifest as _manifest
from .runner.cache import ResponseCache
from .runner.records import TRUNCATION, error_summary, item_meta, score_response
from .runner.runner import run_model
from .runner.settings import RunOptions, RunSettings
from .runner.store import read_jsonl
from .schema import Item, LabelledProblem, Record

__all__ = [  # the verbs, and the file readers they share with the command line
    "check_file_kind", "checked_rows", "count_lines", "dumps_params", "file_kind", "generate",
    "generate_mixture", "import_problems", "iter_items", "load_items", "load_problems", "read_jsonl",
    "reduce", "render", "report", "rescore", "run", "score", "transform",
]  # fmt: skip


def generate(
    family: str,
    params: Mapping[str, Any] | None = None,
    count: int = 10,
    seed: int = 0,
    grid: Mapping[str, Sequence[Any]] | None = None,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    level: int | None = None,
) -> list[LabelledProblem]:
    """Generate ``count`` labelled problems for each point of ``params`` × ``grid``; ``workers``
    processes give the same problems as one, faster; so does ``executor="ray"`` on a Ray cluster.
    ``level`` (0..10) starts from the family's parameters at that difficulty level
    (``logicforge list families`` shows each family's map); ``params`` override them.

    Example:
        >>> ps = generate("ksat/random", {"n_vars": 10}, count=2, seed=1, grid={"alpha": [3.0, 5.0]})
        >>> len(ps), sorted({p.metadata["alpha"] for p in ps})
        (4, [3.0, 5.0])
        >>> [p.params["n_houses"] for p in generate("zebra", level=10, count=1)]
        [6]
    """
    from .families.base import expand_grid, generate_problems

    points = expand_grid(params or {}, grid or {})
    return list(
        generate_problems(
            family,
            points,
            count,
            seed,
            workers=workers,
            executor=executor,
            ray_address=ray_address,
            level=level,
        )
    )


def generate_mixture(
    weights: Mapping[str, float],
    count: int,
    seed: int = 0,
    level: int | None = None,
    calibrated: bool = False,
) -> list[LabelledProblem]:
    """``count`` problems drawn across families in proportion to ``weights`` (largest-remainder
    counts, so they sum to ``count``), each family from its own seed stream, interleaved in a
    seeded order: the same call gives the same list.

    With ``calibrated=True`` (and a ``level``), each family is drawn at the native level that
    the shipped calibration (:mod:`logicforge.calibration`) puts at ``level``, so the mixture's
    tasks are of like difficulty to the reference solver; each problem records
    ``metadata["level"]`` (its family's own level) and ``metadata["calibrated_level"]``.

    Example:
        >>> ps = generate_mixture({"ksat/random": 2, "zebra": 1}, count=6, seed=0, level=1)
        >>> sorted(p.family for p in ps), {p.metadata["level"] for p in ps}
        (['ksat/random', 'ksat/random', 'ksat/random', 'ksat/random', 'zebra', 'zebra'], {1})
        >>> ps = generate_mixture({"ksat/random": 1, "sudoku": 1}, 4, level=6, calibrated=True)
        >>> {p.metadata["calibrated_level"] for p in ps}
        {6}
    """
    import numpy as np

    from .families.base import generate_problems
    from .rng import child_seed

    if not weights or any(not isinstance(w, int | float) or w < 0 for w in weights.values()):
        raise ConfigError("weights", dict(weights), "must map families to weights ≥ 0")
    from .calibration import check_calibrated, native_level

    if check_calibrated(calibrated) and level is None:
        raise ConfigError("calibrated", calibrated, "needs a level (0..10) to calibrate")
    total = float(sum(weights.values()))
    if total <= 0:
        raise ConfigError("weights", dict(weights), "at least one weight must be > 0")
    names = sorted(weights)
    exact = [count * weights[n] / total for n in names]
    counts = [int(x) for x in exact]
    for i in sorted(range(len(names)), key=lambda i: (counts[i] - exact[i], i))[
        : count - sum(counts)
    ]:
        counts[i] += 1
    out: list[LabelledProblem] = []
    for j, (name, c) in enumerate(zip(names, counts, strict=True)):
        if not c:
            continue
        # each family's root seed from its own spawn key, never `seed + j` (which gave family j
        # at seed s the stream of family j − 1 at seed s + 1)
        root = child_seed(seed, 0x6D1, j)
        if calibrated and level is not None:
            tag = {"calibrated_level": level}
            out += (
                p.model_copy(update={"metadata": {**p.metadata, **tag}})
                for p in generate_problems(name, {}, c, root, level=native_level(name, level))
            )
        else:
            out += generate_problems(name, {}, c, root, level=level)
    order = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0x313,))))
    return [out[i] for i in order.permutation(len(out))]


def transform(
    problems: Iterable[LabelledProblem], name: str, params: Mapping[str, Any] | None = None
) -> list[LabelledProblem]:
    """Apply a registered transform (``shuffle``, ``rename``, ``filler``, ``duplicate``) to each
    problem; ``name`` may carry options, e.g. ``"filler:ratio=0.5"``.

    Example:
        >>> ps = generate("2sat/backbone", {"n_clauses": 10}, count=2, seed=0)
        >>> [q.label for q in transform(ps, "filler:ratio=1.0")] == [p.label for p in ps]
        True
    """
    from .transforms.base import apply_transform, make_transform, parse_transform_spec

    tname, opts = parse_transform_spec(name)
    opts |= dict(params or {})
    make_transform(tname, opts)  # validate the name and options before any work
    return [apply_transform(p, tname, opts) for p in problems]


def reduce(problems: Iterable[LabelledProblem], kind: str) -> list[LabelledProblem]:
    """Reduce CNF problems to another representation: ``vc`` (Vertex Cover) or ``packing``.

    Example:
        >>> ps = generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1, seed=0)
        >>> reduce(ps, "packing")[0].kind
        'packing'
    """
    from .reductions import reduce_problem

    return [reduce_problem(p, kind) for p in problems]


def render(
    problems: Iterable[LabelledProblem], renderer: str | None = None, *, training: bool = False
) -> list[Item]:
    """Render each problem into an Item with the named renderer (None: each problem's kind's
    default renderer — ``formula`` for CNF, ``zebra`` for zebra puzzles …; with
    ``training=True`` its training renderer, which asks for a certificate of every answer so
    the certified reward can pay it — ``formula-proof`` for CNF, ``deduction-order`` for
    ordering puzzles).

    Example:
        >>> ps = generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1, seed=0)
        >>> render(ps)[0].rendering
        'zebra'
        >>> render(generate("ksat/random", {"n_vars": 3}, count=1, seed=0), training=True)[0].rendering
        'formula-proof'
    """
    from .kinds import get_kind

    if training and renderer is None:
        return [render_problem(p, get_kind(p.kind).trainer) for p in problems]
    return [render_problem(p, renderer or get_kind(p.kind).renderer) for p in problems]


def run(
    items: Iterable[Item],
    model: str | Model,
    records_path: str | Path,
    settings: RunSettings | None = None,
    *,
    total_items: int | None = None,
    manifest: bool = True,
    **options: Unpack[RunOptions],
) -> dict[str, Any]:
    """Run a model over items, appending scored records to ``records_path`` (resumable), and
    write the manifest beside them (``manifest=False``: not; see
    :mod:`logicforge.runner.manifest`) — also when the run fails or is interrupted.

    How it runs is one :class:`~logicforge.runner.settings.RunSettings` value — ``settings``,
    with any of its fields given as keywords over it (``samples=4``, ``sampling=Sampling(...)``,
    ``concurrency``, ``cache_path``, ``retry_errors``, ``progress``, ``tokenizer``,
    ``max_errors``, ``truncation``, ``executor``, ``ray_address``, ``budget``); an unknown
    keyword fails naming it. ``items`` may be a list or a stream (see :func:`iter_items`);
    ``total_items`` sizes the progress line for streams.

    Records that ended in an error (a dead endpoint, a time-out, a malformed reply) are retried
    by the next run unless ``retry_errors=False``; when this run has any, it says so on stderr
    (how many, the first distinct messages), and the returned counts hold ``errors`` and
    ``error_messages``. They are never scored: reports count them as ``errors``, outside n.
    ``progress`` (default: on in a terminal or a notebook) draws a progress line on stderr from
    the first second, with the requests in flight. A ``budget`` (:class:`Budget`: ``max_cost``
    in US dollars with a price table, ``max_tokens_total``; one budget may span several runs)
    stops the run cleanly before any request that could pass a cap; ``counts["budget"]`` says
    what was spent and ``stopped`` which cap was reached; rerun to resume.

    Example:
        >>> import tempfile, logicforge as lf
        >>> items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=2, seed=1), "formula")
        >>> out = tempfile.mkdtemp() + "/r.jsonl"
        >>> lf.run(items, "oracle", out, samples=2, progress=False)["done"]
        4
    """
    cfg = RunSettings.of(settings, **options)
    if cfg.executor == "ray" and not isinstance(model, str):
        raise ConfigError("model", model, "the Ray executor needs a model spec string")
    m = load_model(model) if isinstance(model, str) else model
    if cfg.progress is None:  # a person is watching: a terminal, or a Jupyter kernel
        cfg = cfg.but(progress=sys.stderr.isatty() or "ipykernel" in sys.modules)
    own = getattr(m, "concurrency", None)
    if own:  # a model's own setting wins
        cfg = cfg.but(concurrency=own)
    cache = ResponseCache(cfg.cache_path) if cfg.cache_path else None
    started, rc = _manifest.now(), 2
    counts: dict[str, Any] = {}
    failed = False
    try:
        spec = model if isinstance(model, str) else None
        counts = run_model(items, m, records_path, cfg, cache=cache, total_items=total_items,
                           spec=spec)  # fmt: skip
        rc = 3 if counts.get("errors") else 0
    except KeyboardInterrupt:
        rc = 130
        failed = True
        raise
    except BaseException:
        failed = True
        raise
    finally:
        if cache:
            cache.close(quiet=failed)  # an error on its way out is the one said
        if manifest:
            _run_manifest(records_path, items, m, model, started, rc, counts, cfg)
    summary = error_summary(m.name, counts)
    if summary:  # never silent: an outage must not pass as a finished run
        print(f"logicforge: {summary}", file=sys.stderr)
    return counts


def _run_manifest(
    records_path: str | Path,
    items: Iterable[Item],
    m: Model,
    spec: str | Model,
    started: str,
    rc: int,
    counts: Mapping[str, Any],
    cfg: RunSettings,
) -> None:
    """The manifest of one :func:`run` call, beside its records (see ``runner.manifest``)."""
    import dataclasses

    rec = Path(records_path)
    where = _manifest.beside(rec)
    name = spec if isinstance(spec, str) else m.name
    run = {k: v for k, v in counts.items() if k != "file"}
    _manifest.write_manifest(
        where.parent,
        where.name,
        _manifest.manifest(
            None,
            started=started,
            exit_code=rc,
            call=_manifest.call_of("run", items, name, rec, samples=cfg.samples),
            models=[_manifest.model_entry(name, m)],
            sampling=dataclasses.asdict(cfg.sampling),
            samples=cfg.samples,
            runs={m.name: run} if run else {},
            records=counts.get("file") or _manifest.record_counts(rec),
        ),
    )


def score(
    records: Iterable[Mapping[str, Any]], items: Iterable[Item], truncation: str = "incorrect"
) -> list[Record]:
    """Re-parse and re-verify stored records against their items (e.g. after a parser update);
    ``truncation`` as in :func:`run`."""
    if truncation not in TRUNCATION:
        raise ConfigError("truncation", truncation, f"choose one of {', '.join(TRUNCATION)}")
    from .models.base import Response

    by_id = {it.item_id: it for it in items}
    out = []
    for i, r in enumerate(records, start=1):
        got = file_kind(r)
        if got != "record":
            raise DataFileError(
                f"row {i} of the records is not a record"
                + (
                    f" but a {got} ({', '.join(_SHAPES[got])}): give that file as --{got}s"
                    if got
                    else f" (it lacks {', '.join(f for f in _SHAPES['record'] if f not in r)})"
                )
            )
        it = by_id.get(r["item_id"])
        if it is None:
            raise DataFileError(
                f"record {r.get('record_id')} refers to unknown item {r['item_id']!r}; pass its items file"
            )
        u = r.get("usage") or {}
        resp = Response(
            text=r.get("text"),
            finish_reason=r.get("finish_reason"),
            prompt_tokens=u.get("prompt_tokens"),
            completion_tokens=u.get("completion_tokens"),
            reasoning_tokens=u.get("reasoning_tokens"),
            reasoning_source=u.get("reasoning_source"),
            latency_s=r.get("latency_s") or 0.0,
            attempts=r.get("attempts", 1),
            error=r.get("error"),
            extra=r.get("extra") or {},
        )
        rec = score_response(
            it, r["model"], r["sample"], resp, cached=bool(r.get("cached")), truncation=truncation
        )
        out.append(rec.model_copy(update={"meta": item_meta(it)}))
    return out


def report(
    records: Sequence[Mapping[str, Any]] | str | Path,
    out_dir: str | Path,
    problems: Sequence[Mapping[str, Any]] | str | Path = (),
    title: str = "logicforge report",
    command: str | None = None,
    table: Sequence[str] = (),
    items: Sequence[Item] | str | Path = (),
    prices: Mapping[str, Mapping[str, float]] | str | Path | None = None,
    analyses: Sequence[str] | None = None,
    headline: Mapping[str, Any] | None = None,
    scale: str | None = None,
) -> Path:
    """Write the report (tables, figures, HTML) for records; returns the HTML path.

    ``table`` names the row columns of a Table-1-style Sat./Wit. grid (e.g. family, n_clauses);
    ``items`` (a list or an items.jsonl path) adds each prompt to the record drill-down;
    ``prices`` (a mapping or a YAML file, see :mod:`logicforge.metrics.usage`) adds costs;
    ``analyses`` names the analyses to run (default: every one that applies, see
    :mod:`logicforge.reports.analysis`); ``headline`` (``table``, ``figure``, ``metric``)
    chooses the first screen's table and figure; ``scale`` (a suite's ``paper_scale``) states
    the paper's own scale in the overview, beside this run's counts. Without ``problems``, a
    ``problems.jsonl`` beside a records file (``generate``, ``import`` and ``rescore`` write
    one there) gives the problems the records answer."""
    from .metrics.usage import PriceTable
    from .reports.build import build_report

    table_of_prices = (
        None
        if prices is None
        else PriceTable.load(prices)
        if isinstance(prices, str | Path)
        else PriceTable(prices)
    )
    if command is None and isinstance(records, str | Path):  # the run's own command
        from .runner.manifest import command_of

        command = command_of(Path(records))
    recs = (
        checked_rows(records, Record, "record")
        if isinstance(records, str | Path)
        else [dict(r) for r in records]
    )
    probs = (
        checked_rows(problems, LabelledProblem, "problem")
        if isinstance(problems, str | Path)
        else [p.model_dump(mode="json") if hasattr(p, "model_dump") else dict(p) for p in problems]
    )
    if not probs and isinstance(records, str | Path):
        probs = _problems_beside(Path(records), recs)
    its = (
        checked_rows(items, Item, "item")
        if isinstance(items, str | Path)
        else [it.model_dump(mode="json") for it in items]
    )
    return build_report(
        recs, out_dir, probs, title=title, command=command, table=table, items=its,
        prices=table_of_prices, analyses=analyses, headline=headline, scale=scale,
    )  # fmt: skip


def _problems_beside(records: Path, recs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The problems of ``problems.jsonl`` beside a records file that the records answer (none
    when there is no such file, it is not a problems file, or no record answers one of them)."""
    path = records.parent / "problems.jsonl"
    if not path.is_file() or path == records:
        return []
    try:
        rows = checked_rows(path, LabelledProblem, "problem")
    except DataFileError:
        return []  # not a problems file: the report goes on without
    asked = {str((r.get("meta") or {}).get("problem_id")) for r in recs}
    return [p for p in rows if p.get("problem_id") in asked]
