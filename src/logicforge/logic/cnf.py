"""Immutable CNF formulas over DIMACS integer literals, with optional variable names.

Example:
    >>> f = CNF([[1, -2], [2, 3]])
    >>> f.num_vars, f.num_clauses
    (3, 2)
    >>> f.evaluate({1: True, 2: True, 3: False})
    True
    >>> print(to_dimacs(f), end="")
    p cnf 3 2
    1 -2 0
    2 3 0
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DimacsError, LogicforgeError

Clause = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CNF:
    """A formula in conjunctive normal form.

    ``clauses`` holds non-zero DIMACS literals (``3`` is x3, ``-3`` is ¬x3); ``num_vars`` may
    exceed the largest variable used. ``names`` optionally gives a display name for each variable
    1..num_vars (``names[i-1]`` names variable ``i``).
    """

    clauses: tuple[Clause, ...]
    num_vars: int = 0
    names: tuple[str, ...] | None = None

    def __init__(
        self,
        clauses: Iterable[Iterable[int]],
        num_vars: int | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        cl = tuple(tuple(int(x) for x in c) for c in clauses)
        top = max((abs(x) for c in cl for x in c), default=0)
        for i, c in enumerate(cl):
            if 0 in c:
                raise LogicforgeError(
                    f"clause {i} contains the literal 0, which DIMACS reserves as terminator"
                )
        n = top if num_vars is None else int(num_vars)
        if n < top:
            raise LogicforgeError(
                f"num_vars={n} but clause literals reach variable {top}; raise num_vars"
            )
        nm = None
        if names is not None:
            nm = tuple(str(s) for s in names)
            if len(nm) != n:
                raise LogicforgeError(
                    f"names has {len(nm)} entries for {n} variables; give one name per variable"
                )
            if len(set(nm)) != len(nm):
                raise LogicforgeError("variable names must be unique")
        object.__setattr__(self, "clauses", cl)
        object.__setattr__(self, "num_vars", n)
        object.__setattr__(self, "names", nm)

    @classmethod
    def trusted(cls, clauses: tuple[Clause, ...], num_vars: int) -> CNF:
        """Build without validation, for generators that have already checked their output
        (non-zero integer literals within ``num_vars``). Not for user input."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "clauses", clauses)
        object.__setattr__(obj, "num_vars", num_vars)
        object.__setattr__(obj, "names", None)
        return obj

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    @property
    def alpha(self) -> float:
        """Clause-to-variable ratio L/N."""
        return self.num_clauses / self.num_vars if self.num_vars else 0.0

    def name(self, var: int) -> str:
        """Display name of variable ``var`` (``x{var}`` when unnamed)."""
        if self.names is not None:
            return self.names[var - 1]
        return f"x{var}"

    def var_names(self) -> list[str]:
        return [self.name(v) for v in range(1, self.num_vars + 1)]

    def evaluate(self, assignment: Mapping[int, bool]) -> bool:
        """True iff ``assignment`` (variable → value) satisfies every clause.

        A variable missing from ``assignment`` makes the clauses that need it unsatisfied:
        a witness must assign every variable it relies on.
        """
        return not self.falsified(assignment)

    def falsified(self, assignment: Mapping[int, bool]) -> list[int]:
        """Indices of clauses not satisfied by ``assignment`` (missing variables count as unknown)."""
        bad = []
        for i, c in enumerate(self.clauses):
            for lit in c:
                val = assignment.get(abs(lit))
                if val is not None and bool(val) == (lit > 0):
                    break
            else:
                bad.append(i)
        return bad

    def with_names(self, names: Sequence[str] | None) -> CNF:
        return CNF(self.clauses, self.num_vars, names)

    def to_json(self) -> dict[str, Any]:
        # tuples serialise as JSON arrays and, unlike lists, drop out of the cyclic GC's scans
        d: dict[str, Any] = {"num_vars": self.num_vars, "clauses": self.clauses}
        if self.names is not None:
            d["names"] = list(self.names)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CNF:
        return cls(d["clauses"], d.get("num_vars"), d.get("names"))


@dataclass
class VarPool:
    """Maps hashable names to consecutive DIMACS variables and decodes models back.

    Example:
        >>> pool = VarPool()
        >>> pool.id("a"), pool.id("b"), pool.id("a")
        (1, 2, 1)
        >>> pool.decode([1, -2])
        {'a': True, 'b': False}
    """

    _ids: dict[Any, int] = field(default_factory=dict)
    _objs: list[Any] = field(default_factory=list)

    def id(self, obj: Any) -> int:
        v = self._ids.get(obj)
        if v is None:
            self._objs.append(obj)
            v = self._ids[obj] = len(self._objs)
        return v

    def obj(self, var: int) -> Any:
        return self._objs[var - 1]

    @property
    def top(self) -> int:
        return len(self._objs)

    def decode(self, model: Iterable[int]) -> dict[Any, bool]:
        return {
            self._objs[abs(lit) - 1]: lit > 0 for lit in model if 0 < abs(lit) <= len(self._objs)
        }


MAX_DIMACS_VARS = 100_000_000
MAX_DIMACS_CLAUSES = 100_000_000
MAX_TOKEN_CHARS = 24  # a literal of more digits is refused (and quoted only in part)


def iter_lines(text: str) -> Iterator[str]:
    r"""The lines of ``text``, one at a time (a list of millions of short lines is large).

    Example:
        >>> list(iter_lines("a\nb\n"))
        ['a', 'b', '']
    """
    start = 0
    while True:
        j = text.find("\n", start)
        if j < 0:
            yield text[start:]
            return
        yield text[start:j]
        start = j + 1


def _quote(tok: str, n: int = 30) -> str:
    return repr(tok) if len(tok) <= n else f"{tok[:n]!r}… ({len(tok):,} characters)"


def parse_dimacs(
    text: str,
    source: str | None = None,
    *,
    warnings: list[str] | None = None,
    max_vars: int = MAX_DIMACS_VARS,
    max_clauses: int = MAX_DIMACS_CLAUSES,
    max_literals: int | None = None,
    max_token_chars: int = MAX_TOKEN_CHARS,
) -> CNF:
    r"""Parse DIMACS CNF text: ``c`` comments, a ``p cnf V C`` header, clauses that may span lines,
    and SATLIB's ``%`` end marker. Raises :class:`DimacsError` naming the offending line.

    With a ``warnings`` list (lenient, for importing files written by other tools), a header whose
    counts are wrong is not an error: a clause count that differs from the clauses found, or
    literals beyond the declared variables (the variable count is raised to the largest), each
    append one message and the formula is read as written; solver output lines (``s …``,
    ``v …``) are skipped. A clause cut off without its ``0`` is an error either way.

    Bounds, checked as the text is read so nothing their size is built: ``max_vars`` (declared,
    and every literal — in lenient mode too), ``max_clauses`` (declared and found),
    ``max_literals`` (all clauses together) and ``max_token_chars`` (one number's length); a
    refusal names the line and the limit and quotes at most a short excerpt.

    Example:
        >>> w: list[str] = []
        >>> parse_dimacs("p cnf 2 3\n1 -2 0\n2 3 0\n", warnings=w).num_vars, w[0][:30]
        (3, 'line 3: literal 3 out of range')
        >>> parse_dimacs("p cnf 2 1\n1 99999 0\n", warnings=[], max_vars=1000)
        Traceback (most recent call last):
        ...
        logicforge.errors.DimacsError: line 2: literal 99999 is past the limit of 1,000 variables (raise max_vars to read it)
    """
    lenient = warnings is not None
    n_lits = 0
    lit_cap = max_literals if max_literals is not None else 1 << 62
    header: tuple[int, int] | None = None
    header_line = 0
    clauses: list[Clause] = []
    cur: list[int] = []
    cur_line = 0
    saw_content = False
    for lineno, raw in enumerate(iter_lines(text), start=1):
        line = raw.strip()
        if not line:
            continue
        saw_content = True
        if line[0] == "c":
            continue
        if line[0] == "%":
            break
        if lenient and line[0] in "sv" and (len(line) == 1 or line[1].isspace()):
            continue
        if line[0] == "p":
            if header is not None:
                raise DimacsError("second 'p' header line", lineno, source)
            parts = line.split()
            if len(parts) != 4 or parts[1] != "cnf":
                raise DimacsError(
                    f"malformed header {_quote(line, 60)}; expected 'p cnf <vars> <clauses>'",
                    lineno,
                    source,
                )
            try:
                nv, nc = int(parts[2]), int(parts[3])
            except ValueError:
                raise DimacsError(
                    f"non-integer count in header {_quote(line, 60)}", lineno, source
                ) from None
            if nv < 0 or nc < 0:
                raise DimacsError(f"negative count in header {_quote(line, 60)}", lineno, source)
            if nv > max_vars or nc > max_clauses:
                raise DimacsError(
                    f"header {_quote(line, 60)} declares more than {max_vars:,} variables or "
                    f"{max_clauses:,} clauses (raise max_vars / max_clauses to read it)",
                    lineno,
                    source,
                )
            header, header_line = (nv, nc), lineno
            continue
        if header is None:
            raise DimacsError("clause data before the 'p cnf' header", lineno, source)
        for tok in line.split():
            if len(tok) > max_token_chars:
                raise DimacsError(
                    f"token {_quote(tok)} is longer than {max_token_chars} characters",
                    lineno,
                    source,
                )
            try:
                lit = int(tok)
            except ValueError:
                raise DimacsError(f"non-integer token {_quote(tok)}", lineno, source) from None
            if lit == 0:
                if len(clauses) >= max_clauses:
                    raise DimacsError(
                        f"more than {max_clauses:,} clauses (raise max_clauses to read it)",
                        lineno,
                        source,
                    )
                if len(clauses) >= 2 * header[1] + 10_000:  # far past a miscount
                    raise DimacsError(
                        f"the header declares {header[1]:,} clauses but the file holds over "
                        f"{len(clauses):,}; fix the header's count",
                        lineno,
                        source,
                    )
                clauses.append(tuple(cur))
                cur = []
                continue
            n_lits += 1
            if n_lits > lit_cap:
                raise DimacsError(
                    f"more than {lit_cap:,} literals in all (raise max_literals to read it)",
                    lineno,
                    source,
                )
            if abs(lit) > max_vars:
                raise DimacsError(
                    f"literal {lit} is past the limit of {max_vars:,} variables "
                    "(raise max_vars to read it)",
                    lineno,
                    source,
                )
            if abs(lit) > header[0] and warnings is not None:
                warnings.append(
                    f"line {lineno}: literal {lit} out of range: the header declares "
                    f"{header[0]} variables (read as {abs(lit)})"
                )
                header = (abs(lit), header[1])
            if abs(lit) > header[0]:
                raise DimacsError(
                    f"literal {lit} out of range: header declares {header[0]} variables",
                    lineno,
                    source,
                )
            if not cur:
                cur_line = lineno
            cur.append(lit)
    if not saw_content:
        raise DimacsError("empty input: no header and no clauses", None, source)
    if header is None:
        raise DimacsError("missing 'p cnf <vars> <clauses>' header", None, source)
    if cur:
        raise DimacsError(
            "last clause is not terminated by 0 (is the file truncated?)", cur_line, source
        )
    if len(clauses) != header[1] and warnings is not None:
        warnings.append(
            f"line {header_line}: the header declares {header[1]} clauses but {len(clauses)} "
            "were found (read as found; a file cut at a clause boundary looks the same)"
        )
    elif len(clauses) != header[1]:
        raise DimacsError(
            f"header declares {header[1]} clauses but {len(clauses)} were found",
            header_line,
            source,
        )
    return CNF(clauses, header[0])


def read_dimacs(path: str | Path) -> CNF:
    """Read a DIMACS CNF file (see :func:`parse_dimacs`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise DimacsError(f"not UTF-8 text ({e.reason} at byte {e.start})", None, str(p)) from None
    return parse_dimacs(text, source=str(p))


def to_dimacs(cnf: CNF, comments: Sequence[str] = ()) -> str:
    """Serialise to DIMACS text (names, if any, become ``c var`` comment lines)."""
    out = [f"c {c}" for c in comments]
    if cnf.names is not None:
        out += [f"c var {i} {n}" for i, n in enumerate(cnf.names, start=1)]
    out.append(f"p cnf {cnf.num_vars} {cnf.num_clauses}")
    out += [" ".join(map(str, c)) + " 0" for c in cnf.clauses]
    return "\n".join(out) + "\n"
