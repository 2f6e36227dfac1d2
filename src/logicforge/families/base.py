"""The family interface and the generation loop shared by every family."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from ..errors import ConfigError
from ..executor import ordered_map, ray_cpus, ray_init
from ..registry import FAMILIES
from ..rng import item_streams
from ..schema import LabelledProblem
from .knobs import Knob, realise

# what ``generate`` returns: (problem, label, oracle, metadata)
Built = tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]


@runtime_checkable
class Family(Protocol):
    """A registered generator: ``generate(params, rng) -> LabelledProblem`` fields."""

    name: str
    kind: str
    Params: type
    knobs: Sequence[Knob]  # every exposed parameter and how to measure it (families/knobs.py)
    levels: Any  # difficulty level 0..10 → parameters, and the measure (families/levels.py)
    # optional ``measures``: parameters that only add measurements to the metadata and never
    # change the problem, its label or its text (zebra's ``z3_runs``); dry runs skip them

    def generate(self, params: Any, rng: np.random.Generator) -> Built:
        """Return ``(problem_json, label, oracle_json, metadata)``."""
        ...


class DeclaredFamily:
    """Base of a family class that declares what it is in its head — its registered name, its
    parameter class, small ``example`` parameters every contract test can use, and its kind (the
    name unless given) — so the body holds only its knobs, levels and ``generate``.

    Example:
        >>> from logicforge.families.ksat import KSATParams
        >>> class Toy(DeclaredFamily, name="toy", kind="cnf", params=KSATParams, example={}):
        ...     pass
        >>> Toy.name, Toy.kind, Toy.Params.__name__
        ('toy', 'cnf', 'KSATParams')
    """

    name: ClassVar[str]
    kind: ClassVar[str]
    Params: ClassVar[type]
    example: ClassVar[dict[str, Any]]

    def __init_subclass__(
        cls, *, name: str, params: type, example: dict[str, Any], kind: str = "", **kw: Any
    ) -> None:
        super().__init_subclass__(**kw)
        cls.name, cls.kind, cls.Params, cls.example = name, kind or name, params, example


def get_family(name: str) -> Family:
    """The registered family ``name``, typed (an unknown name: the registry's error).

    Example:
        >>> get_family("ksat/random").kind
        'cnf'
    """
    fam = FAMILIES.get(name)
    if not isinstance(fam, Family):  # registration checked it; a plug-in that changed since
        raise ConfigError(
            "family", name, "is registered but is not a family (see families/contract.py)"
        )
    return fam


@dataclasses.dataclass(frozen=True)
class Dataset:
    """A reader of published data for a suite's ``data:`` block: ``load(path)`` gives labelled
    problems (a file, or a folder of files, in a stable order), and where the family supports
    operator edits, ``cumulative(p)`` and ``individual(p, mode)`` make them."""

    load: Any  # Callable[[Path], list[LabelledProblem]]
    cumulative: Any = None
    individual: Any = None
    what: str = ""  # the accepted data, for messages
    # lenient reader for ``logicforge import``: (paths, ImportLog, options) → the problems it
    # could prove, every refusal, time-out and disagreement noted in the log
    read: Any = None
    # questions without a valid formal program can be translated by a writer model
    # (:mod:`logicforge.llm.formalise_lsat`, a suite block's ``formalise: true``)
    formalisable: bool = False


def make_params(family: Family, values: Mapping[str, Any]) -> Any:
    """Build the family's frozen parameter object, naming any unknown field."""
    fields = {f.name for f in dataclasses.fields(family.Params)}
    for k in values:
        if k not in fields:
            raise ConfigError(
                k,
                values[k],
                f"not a parameter of {family.name}; known: {', '.join(sorted(fields))}",
            )
    return family.Params(**values)


def stored_params(p: Any) -> dict[str, Any]:
    """A parameter object as problems store it (and their ids hash it): every field, except a
    field marked ``metadata={"stored": "unless-default"}`` while it holds its default — how a
    parameter added later leaves earlier problems' bytes and ids as they were.

    Example:
        >>> from logicforge.families.zebra.generate import ZebraParams
        >>> "z3_encoding" in stored_params(ZebraParams())
        False
        >>> stored_params(ZebraParams(z3_encoding="clue-expansion"))["z3_encoding"]
        'clue-expansion'
    """
    out = dataclasses.asdict(p)
    for f in dataclasses.fields(p):
        if f.metadata.get("stored") == "unless-default" and out[f.name] == f.default:
            del out[f.name]
    return out


def expand_grid(
    fixed: Mapping[str, Any], grid: Mapping[str, Sequence[Any]]
) -> list[dict[str, Any]]:
    """All combinations of ``grid`` values layered over ``fixed`` (grid keys in sorted order)."""
    keys = sorted(grid)
    combos = itertools.product(*(list(grid[k]) for k in keys))
    return [{**fixed, **dict(zip(keys, c, strict=True))} for c in combos] if keys else [dict(fixed)]


# Items per shard (one pause of the cyclic GC; one task for a worker). Measured on 2 cores
# (benchmarks/bench_scaling.py): 16-item shards left the pool at 1.6× and Ray at 1.25× for
# labelled 3-SAT — a task's cost in the parent and on Ray (scheduling, pickling, the driver's
# get) is milliseconds — while 64 reach 1.8–1.9×; the last shard still keeps a worker busy for
# only a few per cent of a run. The output is the same whatever the shard size: item i draws
# from its own stream.
_CHUNK = 64
MAX_COUNT = 100_000_000  # problems per parameter point


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a chunk of items and restore its previous state.

    A labelled instance is thousands of small lists and ints, none of them cyclic; letting the
    collector rescan every earlier instance on each allocation burst costs ~20 % of generation time.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _params_tag(params: Mapping[str, Any]) -> str:
    return hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]


def generate_problems(
    family: str,
    params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    count: int,
    seed: int,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    level: int | None = None,
) -> Iterator[LabelledProblem]:
    """Generate ``count`` labelled problems per parameter point; with ``level`` (0..10) each
    point's parameters are layered over the family's parameters at that level
    (:mod:`logicforge.families.levels`) and every problem records ``metadata["level"]``.

    Point ``j``'s item ``i`` draws from ``SeedSequence(seed, spawn_key=(j, i))`` — the same stream
    ``SeedSequence(seed).spawn(...)[j].spawn(...)[i]`` gives — so any item can be regenerated alone,
    and ``workers > 1`` (a local process pool, shards of 64 items, results in order) or
    ``executor="ray"`` (shards of up to 256 items on a Ray cluster) yields exactly the same
    problems as one process.

    Example:
        >>> ps = list(generate_problems("ksat/random", {"n_vars": 5, "alpha": 2.0}, 2, seed=1))
        >>> [p.label for p in ps] == [q.label for q in generate_problems("ksat/random", {"n_vars": 5, "alpha": 2.0}, 2, seed=1)]
        True
    """
    fam = get_family(family)
    points = [params] if isinstance(params, Mapping) else list(params)
    if level is not None:
        from .levels import level_params

        points = [level_params(fam, level, pt) for pt in points]
        tagged = generate_problems(family, points, count, seed, workers, executor, ray_address)
        yield from (
            p.model_copy(update={"metadata": {**p.metadata, "level": level}}) for p in tagged
        )
        return
    shards, n_shards = _plan(family, fam, points, count, seed, workers, executor, ray_address)
    if executor == "local" and (workers == 1 or n_shards < 2):
        for sh in shards:  # in this process: problems as built, no round trip through dicts
            yield from _shard(*sh)
        return
    for fields in ordered_map(_shard_fields, shards, executor, workers, ray_address):
        # validated in the worker; rebuilding from plain fields is ~50× cheaper than unpickling
        yield from (LabelledProblem.model_construct(**f) for f in fields)


def generate_range(
    family: str, params: Mapping[str, Any], point: int, start: int, stop: int, seed: int
) -> list[LabelledProblem]:
    """Items ``start … stop − 1`` of parameter point ``point`` — exactly the problems
    :func:`generate_problems` makes at those places when asked for at least ``stop`` per point
    (each from ``SeedSequence(seed, spawn_key=(point, i))``), so a caller can draw further
    sources from a point without regenerating the first ones.

    Example:
        >>> pt = {"n_vars": 5, "alpha": 2.0}
        >>> more = generate_range("ksat/random", pt, 0, 2, 3, seed=1)
        >>> more[0] == list(generate_problems("ksat/random", pt, 3, seed=1))[2]
        True
    """
    fam = get_family(family)
    if not 0 <= start <= stop:
        raise ConfigError("start", start, f"must be in 0..stop ({stop})")
    return _shard(family, stored_params(make_params(fam, params)), point, start, stop, seed)


def _plan(
    family: str,
    fam: Family,
    points: Sequence[Mapping[str, Any]],
    count: int,
    seed: int,
    workers: int,
    executor: str = "local",
    ray_address: str | None = None,
) -> tuple[Iterator[tuple[Any, ...]], int]:
    """Every argument and point validated before any work, and the shards (lazy: a large count
    streams instead of listing its shards first) with their number.

    Shards hold 64 items; on Ray, whose per-task cost is higher, up to 256 while that still
    leaves eight shards per CPU of the cluster (the output is the same whatever the size)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ConfigError("count", count, f"must be an integer in 0..{MAX_COUNT:,} per point")
    if not isinstance(workers, int) or not 1 <= workers <= 1024:
        raise ConfigError("workers", workers, "must be an integer in 1..1024")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError("seed", seed, "must be an integer ≥ 0")
    built = [make_params(fam, p) for p in points]
    size = _CHUNK
    if executor == "ray":
        cpus = ray_cpus(ray_init(ray_address))
        size = max(_CHUNK, min(4 * _CHUNK, len(built) * count // (8 * cpus)))
    shards = (
        (family, stored_params(p), j, start, min(count, start + size), seed)
        for j, p in enumerate(built)
        for start in range(0, count, size)
    )
    return shards, len(built) * -(-count // size)


def generate_lines(
    family: str,
    params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    count: int,
    seed: int,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
) -> Iterator[str]:
    """The problems of :func:`generate_problems` (without ``level``: pass the level's
    parameters) as their JSON lines (``model_dump_json()``,
    byte for byte), serialised where they are built: with ``workers > 1`` the workers write the
    lines and this process only passes them on — what ``problems.jsonl`` needs, at the pool's
    full speed.

    Example:
        >>> a = list(generate_lines("ksat/random", {"n_vars": 5, "alpha": 2.0}, 2, seed=1))
        >>> a == [p.model_dump_json() for p in generate_problems("ksat/random", {"n_vars": 5, "alpha": 2.0}, 2, seed=1)]
        True
    """
    fam = get_family(family)
    points = [params] if isinstance(params, Mapping) else list(params)
    shards, n_shards = _plan(family, fam, points, count, seed, workers, executor, ray_address)
    if executor == "local" and (workers == 1 or n_shards < 2):
        for sh in shards:
            yield from _shard_lines(*sh)
        return
    for lines in ordered_map(_shard_lines, shards, executor, workers, ray_address):
        yield from lines


def _shard_fields(*shard: Any) -> list[dict[str, Any]]:
    return [dict(p) for p in _shard(*shard)]


def _shard_lines(*shard: Any) -> list[str]:
    return [p.model_dump_json() for p in _shard(*shard)]


def _shard(
    family: str, norm: dict[str, Any], j: int, start: int, stop: int, seed: int
) -> list[LabelledProblem]:
    """Items ``start … stop − 1`` of parameter point ``j`` (one chunk, GC paused)."""
    fam = get_family(family)
    p = make_params(fam, norm)
    tag = _params_tag(norm)
    knobs: Sequence[Knob] = getattr(fam, "knobs", ())  # a plug-in may not declare any yet
    chunk = []
    with _gc_paused():  # generators allocate many small acyclic objects
        for i, rng in zip(range(start, stop), item_streams(seed, (j,), start, stop), strict=True):
            problem, label, oracle, meta = fam.generate(p, rng)  # SeedSequence(seed, (j, i))
            realise(knobs, problem, meta)  # <param>_actual, measured on what was emitted
            if norm.get("n_clauses") is not None:  # the asked-for size beside the actual one
                meta = {"target_clauses": norm["n_clauses"], **meta}
            chunk.append(
                LabelledProblem(
                    problem_id=f"{family.replace('/', '-')}-{tag}-{seed}-{j}-{i}",
                    family=family,
                    kind=fam.kind,
                    params=norm,
                    seed=seed,
                    spawn_key=[j, i],
                    problem=problem,
                    label=label,
                    oracle=oracle,
                    metadata=meta,
                )
            )
    return chunk
