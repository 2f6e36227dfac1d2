"""An independent SAT check for cross-checking labels: z3's own SAT core, which shares no code
with PySAT's MiniSat / CaDiCaL (the solvers logicforge labels with). z3 ships wheels for every
supported Python, so the test extra installs without a compiler.

``solve(clauses)`` answers like ``pycosat.solve``: a model as a list of signed literals, or the
string ``"UNSAT"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import z3


def solve(clauses: Iterable[Sequence[int]]) -> list[int] | str:
    """A model (signed literals over every variable used) or ``"UNSAT"``.

    Example:
        >>> solve([[1, 2], [-1]])
        [-1, 2]
        >>> solve([[1], [-1]])
        'UNSAT'
    """
    cls = [list(c) for c in clauses]
    names = sorted({abs(x) for c in cls for x in c})
    v = {n: z3.Bool(f"x{n}") for n in names}
    s = z3.SolverFor("QF_FD")
    for c in cls:
        s.add(z3.Or([v[x] if x > 0 else z3.Not(v[-x]) for x in c]) if c else z3.BoolVal(False))
    if s.check() != z3.sat:
        return "UNSAT"
    m = s.model()
    return [n if z3.is_true(m.eval(v[n], model_completion=True)) else -n for n in names]
