"""The SAT oracle: one wrapper over PySAT for labels, models, statistics, cores and counting.

MiniSat 2.2 is used whenever statistics are requested (decisions, conflicts, propagations are
then comparable with the literature); CaDiCaL 1.9.5 is the fast default otherwise. Time-outs
interrupt the solver from a timer thread, so a call returns within about its time-out; PySAT's
CaDiCaL ignores interrupts, so a call with a time-out uses Glucose 4 unless told otherwise.

Example:
    >>> from logicforge.logic.cnf import CNF
    >>> solve(CNF([[1], [-1]])).label
    'UNSAT'
    >>> s = solve(CNF([[1, 2], [-1]]), stats=True)
    >>> s.label, s.model, s.solver
    ('SAT', (-1, 2), 'minisat22')
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigError, certify
from .cnf import CNF
from .sat_direct import add_all

if TYPE_CHECKING:
    from pysat.solvers import Solver

Label = Literal["SAT", "UNSAT", "UNKNOWN"]
STATS_SOLVER = "minisat22"
FAST_SOLVER = "cadical195"
INTERRUPTIBLE_SOLVER = "glucose4"


@dataclass(frozen=True)
class Solution:
    """What the oracle knows about one formula."""

    label: Label
    model: tuple[int, ...] | None = None
    stats: dict[str, int] = field(default_factory=dict)
    solver: str = ""
    time_s: float = 0.0

    @property
    def assignment(self) -> dict[int, bool] | None:
        if self.model is None:
            return None
        return {abs(lit): lit > 0 for lit in self.model}

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "model": list(self.model) if self.model is not None else None,
            "stats": dict(self.stats),
            "solver": self.solver,
        }


# PySAT's extension-module entry point that adds one clause, per solver class (and the
# attribute that holds the C handle): the Python wrapper's two calls per clause cost about a
# quarter of labelling a random 3-SAT formula at N = 75 (``benchmarks/bench_pipeline.py``) and a
# tenth of making a zebra puzzle.
_C_ADD = {"Minisat22": ("minisat", "minisat22_add_cl"), "Glucose4": ("glucose", "glucose41_add_cl")}


def add_clauses(s: Solver, clauses: Iterable[Sequence[int]]) -> None:
    """Add ``clauses`` to ``s`` in order, straight through PySAT's C entry point for MiniSat 2.2
    and Glucose 4 (the solver ends in the same state as with ``add_clause`` one by one), through
    ``append_formula`` for any other solver.

    Example:
        >>> from pysat.solvers import Solver
        >>> with Solver(name="glucose4") as s:
        ...     add_clauses(s, [[1, 2], [-1], [-2, 3]])
        ...     s.solve(), s.get_model()
        (True, [-1, 2, 3])
    """
    inner: Any = getattr(s, "solver", None)
    attr, fn = _C_ADD.get(type(inner).__name__, ("", ""))
    handle = getattr(inner, attr, None) if attr else None
    add = None
    if handle is not None:
        try:
            import pysolvers  # PySAT's extension module

            add = getattr(pysolvers, fn)
        except (ImportError, AttributeError):  # pragma: no cover - another PySAT layout
            add = None
    if add is None:
        s.append_formula(list(clauses))
        return
    if not add_all(add, handle, clauses):
        inner.status = False  # trivially unsatisfiable, as PySAT's add_clause records it


def new_solver(name: str, clauses: Any = ()) -> Solver:
    """A PySAT solver ``name`` holding ``clauses``, added in order through :func:`add_clauses`
    (a context manager, as PySAT's ``Solver`` is).

    Example:
        >>> with new_solver("minisat22", [[1], [-1, 2]]) as s:
        ...     s.solve(), s.get_model()
        (True, [1, 2])
    """
    from pysat.solvers import Solver  # imported on first use: most commands never solve

    s = Solver(name=name)
    if clauses:
        add_clauses(s, clauses)
    return s


def _fast(timeout: float | None) -> str:
    return FAST_SOLVER if timeout is None else INTERRUPTIBLE_SOLVER


def _run(s: Solver, timeout: float | None, assumptions: Sequence[int] = ()) -> bool | None:
    if timeout is None:
        return bool(s.solve(assumptions=list(assumptions)))
    if timeout <= 0:
        raise ConfigError("timeout", timeout, "must be a positive number of seconds or None")
    timer = threading.Timer(timeout, s.interrupt)
    timer.daemon = True
    timer.start()
    try:
        res = s.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    finally:
        timer.cancel()
    return None if res is None else bool(res)


def solve(
    cnf: CNF,
    *,
    stats: bool = False,
    solver: str | None = None,
    timeout: float | None = None,
    assumptions: Sequence[int] = (),
) -> Solution:
    """Decide ``cnf``: label SAT / UNSAT (UNKNOWN on time-out), a full model when SAT, and
    solver statistics when ``stats`` is true (MiniSat 2.2 unless ``solver`` is given)."""
    name = solver or (STATS_SOLVER if stats else _fast(timeout))
    if timeout is not None and name.startswith("cadical"):
        raise ConfigError(
            "solver",
            name,
            "PySAT's CaDiCaL cannot be interrupted; use glucose4 or minisat22 with a timeout",
        )
    t0 = time.perf_counter()
    try:
        s = new_solver(name, cnf.clauses)
    except Exception as e:  # pysat raises its own NotImplementedError / ValueError
        raise ConfigError("solver", name, f"PySAT could not create it ({e})") from None
    with s:
        res = _run(s, timeout, assumptions)
        elapsed = time.perf_counter() - t0
        st: dict[str, int] = {}
        if stats:
            st = {k: int(v) for k, v in s.accum_stats().items()}
        if res is None:
            return Solution("UNKNOWN", None, st, name, elapsed)
        if not res:
            return Solution("UNSAT", None, st, name, elapsed)
        raw = s.get_model() or []
        n = cnf.num_vars
        if len(raw) >= n and (n == 0 or raw[n - 1] in (n, -n)):  # PySAT lists 1, 2, … in order
            model = tuple(raw[:n])
        else:  # complete the model over every declared variable (unused ones default to False)
            val = {abs(x): x > 0 for x in raw}
            model = tuple(v if val.get(v, False) else -v for v in range(1, n + 1))
        return Solution("SAT", model, st, name, elapsed)


def unsat_core(cnf: CNF, *, timeout: float | None = None) -> list[int] | None:
    """Indices of an UNSAT core (not necessarily minimal) found through assumptions, or
    ``None`` if ``cnf`` is satisfiable or the time-out hits."""
    sel0 = cnf.num_vars
    with new_solver(_fast(timeout)) as s:
        for i, c in enumerate(cnf.clauses):
            s.add_clause([*c, -(sel0 + i + 1)])
        res = _run(s, timeout, [sel0 + i + 1 for i in range(cnf.num_clauses)])
        if res is None or res:
            return None
        core = s.get_core() or []
        return sorted(abs(x) - sel0 - 1 for x in core)


def minimal_unsat_core(clauses: list[list[int]], n_vars: int) -> list[int]:
    """A minimal unsatisfiable subset (clause indices, ascending): the solver's core, then
    deletion — each remaining clause is needed. Unlike :func:`unsat_core`, minimal.

    Example:
        >>> minimal_unsat_core([[1], [-1], [2], [1, 2]], 2)
        [0, 1]
    """
    sel0 = n_vars
    with new_solver("minisat22") as s:
        for i, c in enumerate(clauses):
            s.add_clause([*c, -(sel0 + 1 + i)])
        keep = list(range(len(clauses)))
        certify(not s.solve(assumptions=[sel0 + 1 + i for i in keep]), "formula must be UNSAT")
        core = sorted(x - sel0 - 1 for x in (s.get_core() or []) if x > sel0)
        keep = core or keep
        for i in list(keep):  # deletion: drop every clause the rest does not need
            rest = [j for j in keep if j != i]
            if not s.solve(assumptions=[sel0 + 1 + j for j in rest]):
                core = sorted(x - sel0 - 1 for x in (s.get_core() or []) if x > sel0)
                keep = [j for j in rest if j in set(core)] if core else rest
    return sorted(keep)


def count_models(
    cnf: CNF, *, limit: int = 1 << 16, timeout: float | None = None
) -> tuple[int, bool]:
    """Count models over variables 1..num_vars by enumeration with blocking clauses.

    Returns ``(count, exact)``; ``exact`` is false when ``limit`` or ``timeout`` stopped it.
    Meant for small instances.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    n = 0
    with new_solver(_fast(timeout), cnf.clauses) as s:
        while n < limit:
            left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
            res = _run(s, left)
            if res is None:
                return n, False
            if not res:
                return n, True
            val = {abs(x): x > 0 for x in s.get_model() or []}
            n += 1
            s.add_clause([-v if val.get(v, False) else v for v in range(1, cnf.num_vars + 1)])
    return n, False


def entails(a: CNF, b: CNF, *, timeout: float | None = None) -> bool:
    """True iff every model of ``a`` satisfies ``b`` (A ⊨ B), checked clause by clause."""
    with new_solver(_fast(timeout), a.clauses) as s:
        for c in b.clauses:
            res = _run(s, timeout, [-lit for lit in c])
            if res is None:
                raise TimeoutError("entailment check timed out; raise the timeout")
            if res:
                return False
    return True


def equivalent(a: CNF, b: CNF, *, timeout: float | None = None) -> bool:
    """True iff ``a`` and ``b`` have the same models (A ⊨ B and B ⊨ A)."""
    return entails(a, b, timeout=timeout) and entails(b, a, timeout=timeout)


def solve_within(cnf: CNF, conflicts: int, assumptions: Sequence[int] = ()) -> Solution:
    """Decide ``cnf`` with MiniSat 2.2 allowed at most ``conflicts`` conflicts: UNKNOWN when the
    budget runs out — a reference solver whose accuracy falls as problems get harder.

    Example:
        >>> solve_within(CNF([(1,), (-1,)], 1), 1).label
        'UNSAT'
    """
    if isinstance(conflicts, bool) or not isinstance(conflicts, int) or conflicts < 1:
        # (MiniSat reads a budget of 0 as no budget at all)
        raise ConfigError("conflicts", conflicts, "must be an integer ≥ 1")
    t0 = time.perf_counter()
    with new_solver("minisat22", cnf.clauses) as s:
        s.conf_budget(conflicts)
        res = s.solve_limited(assumptions=list(assumptions))
        elapsed = time.perf_counter() - t0
        st = {k: int(v) for k, v in s.accum_stats().items()}
        if res is None:
            return Solution("UNKNOWN", None, st, "minisat22", elapsed)
        if not res:
            return Solution("UNSAT", None, st, "minisat22", elapsed)
        val = {abs(x): x > 0 for x in s.get_model() or []}
        model = tuple(v if val.get(v, False) else -v for v in range(1, cnf.num_vars + 1))
        return Solution("SAT", model, st, "minisat22", elapsed)


# -- warm solvers: a constant rule set loaded once per thread ------------------------------------

WARM_USES = 256  # a warm solver is rebuilt after this many uses (retired clauses pile up)
_WARM_SLOTS = 8  # rule sets kept warm per thread (least recently used dropped first)
_warm = threading.local()
_every_warm: weakref.WeakSet[WarmSolver] = weakref.WeakSet()


@atexit.register
def _close_warm() -> None:
    """Delete the warm solvers before the interpreter tears PySAT down (deleting them later
    prints ignored exceptions at exit)."""
    for w in list(_every_warm):
        w.solver.delete()


class WarmSolver:
    """A solver holding a constant rule set ``base`` over variables 1 … ``n_vars``, reused from
    call to call: per-use clauses go behind fresh selector variables (above every variable used
    so far) and are retired when the use ends, so no use sees another's clauses. Only clauses
    over the rules' own variables may be added — an auxiliary variable of one use could
    otherwise be a retired selector of another. Answers are the same as a fresh solver's (the
    clauses it keeps learning are consequences of the rules); models may differ, so a warm
    solver is for yes/no questions.

    Example:
        >>> rules = ((1, 2), (-1, -2))           # exactly one of x1, x2
        >>> with warm_solver("minisat22", rules, 2) as w:
        ...     w.solve([w.guard([[1]])]), w.solve([w.guard([[1], [2]])])
        (True, False)
    """

    __slots__ = ("base", "n_vars", "solver", "top", "live", "uses", "fixed", "__weakref__")

    def __init__(self, name: str, base: Sequence[Sequence[int]], n_vars: int) -> None:
        self.base, self.n_vars = base, n_vars
        self.solver = new_solver(name, base)
        self.top = max(n_vars, self.solver.nof_vars())
        self.live: list[int] = []
        self.uses = 0
        self.fixed: dict[tuple[tuple[int, ...], ...], int] = {}
        _every_warm.add(self)

    def guard(self, clauses: Iterable[Sequence[int]]) -> int:
        """Add ``clauses`` behind a fresh selector; return it (assume it to switch them on)."""
        self.top += 1
        sel = self.top
        n, guarded = self.n_vars, []
        for c in clauses:
            if not c or max(c) > n or min(c) < -n or 0 in c:
                raise ConfigError(
                    "clause", list(c), f"a warm solver takes clauses over variables 1..{n}"
                )
            guarded.append([-sel, *c])
        add_clauses(self.solver, guarded)
        self.live.append(sel)
        return sel

    def switch(self, clauses: tuple[tuple[int, ...], ...]) -> int:
        """The selector of a clause set that recurs from use to use (a clue of a fixed shape):
        added behind its own selector the first time and kept, so later uses only assume it.
        Unassumed, it constrains nothing."""
        sel = self.fixed.get(clauses)
        if sel is None:
            sel = self.guard(clauses)
            self.live.pop()  # kept across uses, not retired
            self.fixed[clauses] = sel
        return sel

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        return bool(self.solver.solve(assumptions=list(assumptions)))

    def release(self) -> None:
        """Retire this use's selectors for good."""
        add_clauses(self.solver, [[-s] for s in self.live])
        self.live.clear()
        self.uses += 1


class warm_solver:  # noqa: N801 - a context manager used like a function
    """The calling thread's :class:`WarmSolver` for ``(name, base, n_vars)`` (``base`` a
    process-lifetime constant, e.g. an ``lru_cache``'d rule tuple: it is keyed by identity and
    held, so the key stays unique), released on exit; dropped if the use raised."""

    def __init__(self, name: str, base: Sequence[Sequence[int]], n_vars: int) -> None:
        self.key = (name, id(base), n_vars)
        self.args = (name, base, n_vars)
        self.w: WarmSolver | None = None

    def __enter__(self) -> WarmSolver:
        cache: dict[tuple[str, int, int], WarmSolver] = _warm.__dict__.setdefault("cache", {})
        w = cache.pop(self.key, None)
        if w is not None and w.uses >= WARM_USES:
            w.solver.delete()
            w = None
        if w is None:
            w = WarmSolver(*self.args)
        cache[self.key] = w  # most recently used last
        while len(cache) > _WARM_SLOTS:
            cache.pop(next(iter(cache))).solver.delete()
        self.w = w
        return w

    def __exit__(self, exc_type: object, *_: object) -> None:
        w, cache = self.w, _warm.__dict__.get("cache", {})
        if w is None:
            return
        if exc_type is None:
            w.release()
        elif cache.get(self.key) is w:  # a use that raised may have left clauses switched on
            del cache[self.key]
            w.solver.delete()
