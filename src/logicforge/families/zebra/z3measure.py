"""ZebraLogic's difficulty measure (§2.3): mean Z3 conflicts, decisions and propagations over
shuffled runs, each on the clues in a random order with its own random seed (32 runs in the
paper).

Two encodings, chosen by name (``ZebraParams.z3_encoding``):

- ``positions`` (the default, measure version 2): one integer position 1..N per attribute value,
  ``Distinct`` per attribute, each clue as the relation it states (``x == 3``, ``x != 1``,
  ``x == y``, ``x + 1 == y``, ``x < y``, ``x - y == k or y - x == k``), asserted in a pushed
  scope so Z3's incremental core solves it (no whole-formula preprocessing that answers small
  grids before any search). The authors' encoding is not published; of the natural ones tried
  (this one, the same without the scope, Boolean grids with exactly-one as pseudo-Boolean,
  at-most or sum constraints, positions as disjunctions of equalities, Z3 4.12.2, 4.13.0 and
  5.4.1), this is the one whose conflicts come closest to their published statistics on the 16
  real puzzles in ``shared/data/zeroeval`` (``benchmarks/bench_zebra_z3_calibration.py`` prints
  the per-puzzle table; ``docs/reproduce.md`` has it).
- ``clue-expansion`` (measure version 1, kept by name): integer positions 0..N-1, each clue
  expanded to a disjunction of position equalities over the houses where it holds. Its terms are
  built through Z3's C API (``z3core``) in exactly the order the Python layer creates them, at
  about a third of its cost (``tests/test_zebra_z3.py`` compares the two run by run).

Each run gets a fresh Z3 context, because Z3's statistics depend on what the context has seen
before.

Results are cached by content (:func:`z3_cache_dir`), so a dry run, a rerun or another suite
never recomputes one.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ConfigError, certify
from ...rng import shuffled
from .clues import TYPES, Clue

Z3_TIMEOUT_MS = 10_000  # per Z3 run of the complexity measure
STATS = ("conflicts", "decisions", "propagations")
Z3_ENCODINGS = ("positions", "clue-expansion")  # the first is the default
# the measure's version per encoding (part of the cache key): bump an encoding's when its
# statistic, terms or timeout handling change
Z3_MEASURE = {"positions": 2, "clue-expansion": 1}


def _z3() -> Any:
    try:
        import z3
    except ImportError:
        raise ConfigError("z3_runs", "z3", "needs z3: pip install 'logicforge[zebra]'") from None
    return z3


def z3_run(
    n: int,
    m: int,
    clues: Sequence[Clue],
    seed: int,
    order: Sequence[int],
    timings: dict[str, float] | None = None,
) -> tuple[str, dict[str, float] | None]:
    """One run of the measure: Z3's answer (``sat`` / ``unknown``) and its conflicts, decisions
    and propagations (None when Z3 reports no statistics at all; a counter a run never touched
    is 0). Each clue is stated from its type's relation over house positions. ``timings``, when
    given, accumulates the seconds spent making the context, building the terms, solving and
    reading the statistics.

    Example:
        >>> from logicforge.families.zebra.clues import Clue
        >>> z3_run(2, 1, [Clue("FoundAt", (0, 0), 1)], seed=1, order=[0])[0]
        'sat'
    """
    z3 = _z3()
    from z3 import z3core as C

    t0 = time.perf_counter()
    ctx = z3.Context()  # a fresh context per run: Z3's statistics depend on its history
    c = ctx.ref()
    t1 = time.perf_counter()
    held: list[Any] = []

    def hold(a: Any) -> Any:  # what the Python layer's wrappers would keep referenced
        C.Z3_inc_ref(c, a)
        held.append(a)
        return a

    def array(xs: Sequence[Any]) -> Any:
        arr = (z3.Ast * len(xs))()
        for i, x in enumerate(xs):
            arr[i] = x
        return arr

    # Z3 shares equal terms (hash-consing): making one again returns the same term and creates
    # nothing, so each numeral and each equation is made once, when the Python layer first does
    nums: dict[int, Any] = {}
    eqs: dict[tuple[int, int, int], Any] = {}

    def num(h: int) -> Any:
        if h not in nums:
            nums[h] = hold(C.Z3_mk_numeral(c, str(h), C.Z3_mk_int_sort(c)))
        return nums[h]

    def eq(item: tuple[int, int], h: int) -> Any:
        key = (*item, h)
        if key not in eqs:
            x = pos[item[0]][item[1]]
            value = num(h)
            eqs[key] = hold(C.Z3_mk_eq(c, x, value))
        return eqs[key]

    pos = [
        [
            hold(C.Z3_mk_const(c, C.Z3_mk_string_symbol(c, f"p{a}_{v}"), C.Z3_mk_int_sort(c)))
            for v in range(n)
        ]
        for a in range(m)
    ]
    solver = C.Z3_mk_solver(c)
    C.Z3_solver_inc_ref(c, solver)
    try:
        for key, value in (("random_seed", seed), ("timeout", Z3_TIMEOUT_MS)):
            prm = C.Z3_mk_params(c)
            C.Z3_params_inc_ref(c, prm)
            C.Z3_params_set_uint(c, prm, C.Z3_mk_string_symbol(c, key), value)
            C.Z3_solver_set_params(c, solver, prm)
            C.Z3_params_dec_ref(c, prm)
        for a in range(m):  # Distinct(pos[a]), then And(x >= 0, x < n) per x, then assert all
            facts = [hold(C.Z3_mk_distinct(c, n, array(pos[a])))]
            for x in pos[a]:
                ge = hold(C.Z3_mk_ge(c, x, num(0)))
                lt = hold(C.Z3_mk_lt(c, x, num(n)))
                facts.append(hold(C.Z3_mk_and(c, 2, array([ge, lt]))))
            for f in facts:
                C.Z3_solver_assert(c, solver, f)
        for i in order:
            cl = clues[i]
            t = TYPES[cl.type]
            if isinstance(cl.second, int):
                xs = [eq(cl.a, h) for h in range(n) if t.holds(h, cl.second)]
            else:
                q = cl.second
                xs = []
                for h1 in range(n):
                    for h2 in range(n):
                        if t.holds(h1, h2):
                            e1, e2 = eq(cl.a, h1), eq(q, h2)
                            xs.append(hold(C.Z3_mk_and(c, 2, array([e1, e2]))))
            C.Z3_solver_assert(c, solver, hold(C.Z3_mk_or(c, len(xs), array(xs))))
        t2 = time.perf_counter()
        res = C.Z3_solver_check(c, solver)
        t3 = time.perf_counter()
        stats = _statistics(C, c, solver)
        if timings is not None:
            for k, dt in (("context", t1 - t0), ("build", t2 - t1), ("solve", t3 - t2),
                          ("statistics", time.perf_counter() - t3)):  # fmt: skip
                timings[k] = timings.get(k, 0.0) + dt
        return {1: "sat", -1: "unsat"}.get(res, "unknown"), stats
    finally:
        for a in held:
            C.Z3_dec_ref(c, a)
        C.Z3_solver_dec_ref(c, solver)


def z3_run_positions(
    n: int, m: int, clues: Sequence[Clue], seed: int, order: Sequence[int]
) -> tuple[str, dict[str, float] | None]:
    """One run of the ``positions`` encoding (module docstring): Z3's answer and its conflicts,
    decisions and propagations (None when Z3 reports no statistics at all).

    Example:
        >>> from logicforge.families.zebra.clues import Clue
        >>> z3_run_positions(3, 1, [Clue("LeftOf", (0, 0), (0, 1))], seed=1, order=[0])[0]
        'sat'
    """
    z3 = _z3()
    ctx = z3.Context()
    s = z3.Solver(ctx=ctx)
    s.set("random_seed", seed)
    s.set("timeout", Z3_TIMEOUT_MS)
    s.push()  # the incremental core: no whole-formula preprocessing before the search
    pos = [[z3.Int(f"p{a}_{v}", ctx) for v in range(n)] for a in range(m)]
    for a in range(m):
        s.add(z3.Distinct(pos[a]))
        for x in pos[a]:
            s.add(z3.And(x >= 1, x <= n))
    for i in order:
        cl = clues[i]
        x = pos[cl.a[0]][cl.a[1]]
        y = cl.second + 1 if isinstance(cl.second, int) else pos[cl.second[0]][cl.second[1]]
        s.add(_stated(z3, cl.type, x, y))
    res = s.check()
    st = s.statistics()
    keys = list(st.keys())
    stats = {k: float(st.get_key_value(k)) if k in keys else 0.0 for k in STATS}
    answer = "sat" if res == z3.sat else "unsat" if res == z3.unsat else "unknown"
    return answer, stats if keys else None


def _stated(z3: Any, kind: str, x: Any, y: Any) -> Any:
    """A clue as the relation its sentence states, over 1-based positions."""
    if kind in ("FoundAt", "SameHouse"):
        return x == y
    if kind == "NotAt":
        return x != y
    if kind == "DirectLeft":
        return x + 1 == y
    if kind == "DirectRight":
        return x == y + 1
    if kind == "LeftOf":
        return x < y
    if kind == "RightOf":
        return x > y
    gap = {"SideBySide": 1, "OneBetween": 2, "TwoBetween": 3}.get(kind)
    certify(gap is not None, f"every clue type has a stated relation ({kind})")
    return z3.Or(x - y == gap, y - x == gap)


def _statistics(C: Any, c: Any, solver: Any) -> dict[str, float] | None:
    """The run's conflicts, decisions and propagations, read through the C API (the first entry
    of each name, as ``Statistics.get_key_value`` reads it); an absent counter stayed 0; None
    when Z3 reports no statistics at all."""
    st = C.Z3_solver_get_statistics(c, solver)
    C.Z3_stats_inc_ref(c, st)
    try:
        size = C.Z3_stats_size(c, st)
        out: dict[str, float] = {}
        for i in range(size):
            k = C.Z3_stats_get_key(c, st, i)
            if k in STATS and k not in out:
                uint = C.Z3_stats_is_uint(c, st, i)
                get = C.Z3_stats_get_uint_value if uint else C.Z3_stats_get_double_value
                out[k] = float(get(c, st, i))
        return {k: out.get(k, 0.0) for k in STATS} if size else None
    finally:
        C.Z3_stats_dec_ref(c, st)


def z3_complexity(
    n: int,
    m: int,
    clues: list[Clue],
    runs: int,
    rng: np.random.Generator,
    encoding: str = "positions",
) -> dict[str, float | None]:
    """Mean Z3 conflicts, decisions and propagations over ``runs`` solves with the clues shuffled
    and a fresh random seed each time (the paper's complexity measure, 32 runs there), in the
    named encoding (module docstring).

    Example:
        >>> import numpy as np
        >>> from logicforge.families.zebra.clues import Clue
        >>> c = [Clue("FoundAt", (0, 0), 0)]
        >>> sorted(z3_complexity(2, 1, c, 2, np.random.default_rng(0)))
        ['z3_conflicts', 'z3_decisions', 'z3_propagations']
    """
    z3 = _z3()
    if encoding not in Z3_ENCODINGS:
        raise ConfigError("z3_encoding", encoding, f"choose from {', '.join(Z3_ENCODINGS)}")
    # the stream's draws first (a seed and a clue order per run, in the order the runs used to
    # draw them), so a cached result leaves the stream exactly where a computed one does
    draws = [(int(rng.integers(2**31)), shuffled(rng, len(clues))) for _ in range(runs)]
    key = _z3_key(z3.get_version_string(), n, m, clues, draws, encoding)
    hit = _z3_cache_get(key)
    if hit is not None:
        return hit
    totals = dict.fromkeys(STATS, 0.0)
    timeouts = 0
    reported = True
    for seed, order in draws:
        if encoding == "positions":
            res, stats = z3_run_positions(n, m, clues, seed, order)
        else:
            res, stats = z3_run(n, m, clues, seed, order)
        if res == "unknown":
            timeouts += 1  # a run past the timeout counts its work so far and is reported
        else:
            certify(res == "sat", "a certified puzzle has a solution")
        if stats is None:
            reported = False  # no statistics at all: unknown, never 0
            continue
        for k in totals:
            totals[k] += stats[k]
    out: dict[str, float | None] = {
        f"z3_{k}": round(v / runs, 3) if reported else None for k, v in totals.items()
    }
    if timeouts:
        out["z3_timeouts"] = timeouts
    else:  # a run cut by the timeout depends on the machine: never cached
        _z3_cache_put(key, out)
    return out


def _z3_key(
    version: str, n: int, m: int, clues: list[Clue], draws: list[Any], encoding: str
) -> str:
    """The cache key of one measurement: everything its result depends on — the measure's
    version and encoding, Z3's version, the timeout, the grid, the clues and every run's seed and
    clue order (version-1 keys are unchanged, so their cached results stay valid)."""
    head: list[Any] = [Z3_MEASURE[encoding]] + ([encoding] if encoding != "clue-expansion" else [])
    body = [*head, version, Z3_TIMEOUT_MS, n, m, [repr(c) for c in clues], draws]
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()


def z3_cache_dir() -> Path | None:
    """Where Z3 conflict measurements are kept by content (``$LOGICFORGE_CACHE_DIR/z3``, else
    ``$XDG_CACHE_HOME/logicforge/z3``, else ``~/.cache/logicforge/z3``), so a dry run, a rerun
    or another suite never recomputes one; ``LOGICFORGE_CACHE_DIR=off`` turns it off."""
    root = os.environ.get("LOGICFORGE_CACHE_DIR")
    if root == "off":
        return None
    if not root:
        root = str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "logicforge")
    return Path(root) / "z3"


def _z3_cache_get(key: str) -> dict[str, float | None] | None:
    d = z3_cache_dir()
    if d is None:
        return None
    try:
        got = json.loads((d / key[:2] / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # absent or unreadable: measured again (and rewritten)
    return got if isinstance(got, dict) else None


def _z3_cache_put(key: str, out: dict[str, float | None]) -> None:
    d = z3_cache_dir()
    if d is None:
        return
    try:
        (d / key[:2]).mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d / key[:2], suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(out, f)
        os.replace(tmp, d / key[:2] / f"{key}.json")  # atomic: parallel workers never tear it
    except OSError:
        pass  # a read-only or full disk costs the cache, never the measurement
