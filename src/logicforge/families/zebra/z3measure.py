"""ZebraLogic's difficulty measure (§2.3): mean Z3 conflicts, decisions and propagations over
shuffled runs, each on the clues in a random order with its own random seed (32 runs in the
paper).

Each run gets a fresh Z3 context, because Z3's statistics depend on what the context has seen
before. The terms are built through Z3's C API (``z3core``), in exactly the order the Python
layer (``z3.Int``, ``==``, ``z3.And``, ``z3.Or``, ``z3.Distinct``, ``Solver.add``) creates
them. Term ids, and so the statistics, are the same as with the Python layer, at about a third
of its cost (``tests/test_zebra_z3.py`` compares the two run by run and holds the measure to
reference values recorded with the Python layer).

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
Z3_MEASURE = 1  # bump when the measure itself changes (encoding, statistic, timeout handling)
STATS = ("conflicts", "decisions", "propagations")


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
    n: int, m: int, clues: list[Clue], runs: int, rng: np.random.Generator
) -> dict[str, float | None]:
    """Mean Z3 conflicts, decisions and propagations over ``runs`` solves with the clues shuffled
    and a fresh random seed each time (the paper's complexity measure, 32 runs there)."""
    z3 = _z3()
    # the stream's draws first (a seed and a clue order per run, in the order the runs used to
    # draw them), so a cached result leaves the stream exactly where a computed one does
    draws = [(int(rng.integers(2**31)), shuffled(rng, len(clues))) for _ in range(runs)]
    key = _z3_key(z3.get_version_string(), n, m, clues, draws)
    hit = _z3_cache_get(key)
    if hit is not None:
        return hit
    totals = dict.fromkeys(STATS, 0.0)
    timeouts = 0
    reported = True
    for seed, order in draws:
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


def _z3_key(version: str, n: int, m: int, clues: list[Clue], draws: list[Any]) -> str:
    """The cache key of one measurement: everything its result depends on — the measure's
    version, Z3's, the timeout, the grid, the clues and every run's seed and clue order."""
    body = [Z3_MEASURE, version, Z3_TIMEOUT_MS, n, m, [repr(c) for c in clues], draws]
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
