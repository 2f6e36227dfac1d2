"""MiniSat 2.2 and Glucose 4 straight through PySAT's extension module, for hot loops.

A generator that asks one solver dozens of small questions per item (the zebra clue reduction: a
solve and a core per clue tried) spends a good part of its Python time in PySAT's wrapper
layers — ``Solver.solve`` → ``Minisat22.solve`` → the C call, a thread check and a timer test on
every call. :class:`DirectSolver` makes the same C calls in the same order with nothing around
them, so a solver built and used through it ends in exactly the state PySAT's would.

Example:
    >>> with DirectSolver("minisat22", [[1, 2], [-1, 3]]) as s:
    ...     s.solve([-2]), s.model()
    (True, [1, -2, 3])
    >>> with DirectSolver("glucose4", [[1, 2]]) as s:
    ...     s.add([[-1], [-2]])
    ...     s.solve([]), s.ok
    (False, False)
"""

from __future__ import annotations

import bisect
import functools
import itertools
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ConfigError

# PySAT's C prefix per solver name this module drives
_PREFIX = {"minisat22": "minisat22", "glucose4": "glucose41"}


def add_all(add: Any, handle: Any, clauses: Iterable[Sequence[int]]) -> bool:
    """Add ``clauses`` in order through PySAT's C entry point ``add`` on solver ``handle``, the
    loop itself in C (no bytecode per clause); False when one made the formula trivially
    unsatisfiable (the rest are added all the same, as PySAT adds them one by one)."""
    it = iter(clauses)
    if all(map(add, itertools.repeat(handle), it)):
        return True
    for c in it:
        add(handle, c)
    return False


@functools.cache
def entry_points(prefix: str) -> tuple[Any, ...]:
    """PySAT's C entry points ``new, add_cl, solve, core, model, del`` for one solver prefix,
    looked up once per process; code that wraps ``pysolvers``' functions (a profiler) calls
    ``entry_points.cache_clear()`` after wrapping and after unwrapping."""
    import pysolvers  # PySAT's extension module

    mod: Any = pysolvers
    return tuple(
        getattr(mod, f"{prefix}_{f}") for f in ("new", "add_cl", "solve", "core", "model", "del")
    )


class DirectSolver:
    """One MiniSat 2.2 or Glucose 4 instance driven through ``pysolvers`` (see module doc).

    ``ok`` turns False once an added clause makes the formula trivially unsatisfiable (PySAT's
    ``status = False``); later clauses are still added, as PySAT adds them.
    """

    __slots__ = ("_h", "_add", "_solve", "_core", "_model", "_del", "_main", "ok")

    def __init__(self, name: str, clauses: Iterable[Sequence[int]] = ()) -> None:
        prefix = _PREFIX.get(name)
        if prefix is None:
            raise ConfigError("solver", name, f"a direct solver is one of {', '.join(_PREFIX)}")
        new, self._add, self._solve, self._core, self._model, self._del = entry_points(prefix)
        # PySAT passes whether the caller is the main thread (it then handles SIGINT)
        self._main = int(threading.current_thread() is threading.main_thread())
        self._h = new()
        self.ok = True
        self.add(clauses)

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        """Add ``clauses`` in order (lists or tuples of non-zero ints)."""
        if not add_all(self._add, self._h, clauses):
            self.ok = False

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        """Satisfiable under ``assumptions`` (a list or tuple without duplicates)?"""
        return bool(self._solve(self._h, assumptions, self._main))

    def core(self) -> list[int]:
        """The failed assumptions of the last call, which must have answered False."""
        return list(self._core(self._h) or ())

    def shrink_core(self) -> list[int]:
        """The last call's failed assumptions, which must have answered False, shrunk by
        deletion to an irreducible set, sorted: each assumption in turn, the largest first, is
        dropped when the formula is still unsatisfiable under the rest, and the set shrinks to
        that answer's core. Every one left is needed (without it the rest are satisfiable); it
        need not be the smallest such set (below, ``[2, 4]`` is smaller, but the core MiniSat
        answered with did not hold 4).

        Example:
            >>> with DirectSolver("minisat22", [[-1, -2, -3], [-2, -4]]) as s:
            ...     s.solve([1, 2, 3, 4]), s.shrink_core()
            (False, [1, 2, 3])
        """
        solve, core, h, main = self._solve, self._core, self._h, self._main
        current = sorted(core(h) or ())
        for lit in current[::-1]:
            i = bisect.bisect_left(current, lit)
            if i == len(current) or current[i] != lit:
                continue  # already dropped with an earlier core
            if not solve(h, current[:i] + current[i + 1 :], main):
                current = sorted(core(h) or ())  # still unsatisfiable without it
        return current

    def model(self) -> list[int]:
        """The model of the last call, which must have answered True."""
        return list(self._model(self._h) or ())

    def close(self) -> None:
        h = getattr(self, "_h", None)  # None as well when __init__ stopped early
        if h is not None:
            self._h = None
            self._del(h)

    def __enter__(self) -> DirectSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
