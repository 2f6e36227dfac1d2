"""Logic-LM's Z3 dialect for AR-LSAT, read and solved without running any of it as code.

A program has three sections: ``# Declarations`` (``s = EnumSort([a, b, …])``, a digits-only
``EnumSort`` being a range of integers; ``f = Function([s, t] -> [u])`` with ``int`` / ``bool``
allowed), ``# Constraints`` (one formula per line, ``formula ::: gloss``) and ``# Options``
(``Question ::: …`` then one ``pred(formula) ::: (A)`` line per option). Formulas use ``And``,
``Or``, ``Not``, ``Implies``, ``Xor``, ``If``, ``Distinct``, ``Sum``, ``Abs``, comparisons,
``+ - *`` and the scoped forms ``ForAll([x:s], …)``, ``Exists([x:s, y:t], …)``,
``Count([x:s], …)`` and ``Distinct([x:s], …)``.

Semantics follow Logic-LM's translator (``models/symbolic_solvers/z3_solver``): an enum sort
whose members were all declared before is only a list of them; a function into a digits-only
sort ranges over it; an option holds under

- ``is_valid(f)``: the constraints entail ``f``;
- ``is_sat(f)`` / ``is_unsat(f)``: ``f`` is consistent / inconsistent with them;
- ``is_accurate_list([f1, …])``: ``is_valid(Or(f1, …))`` and every ``fi`` is consistent;
- ``is_exception(p)``: ``p`` does not hold.

Logic-LM answers the first option that holds. Where this reader differs it says so: a scope over
a finite sort is expanded over its members (Logic-LM quantifies over an enum datatype — the
same formula); a declaration line that is neither a sort nor a function (a range constraint
GPT-4 wrote there) is kept as a constraint, where Logic-LM's translator silently drops it. A
program that uses anything else (an undeclared name, ``is_equivalent``, …) is refused with the
line and the reason — the programs Logic-LM reports as not executing.

Each formula is parsed by Python's ``ast`` into a whitelisted tree and built as z3 terms;
nothing in a program is evaluated as code. Sizes are bounded before anything is built.

Example:
    >>> prog = parse_lsat('''# Declarations
    ... people = EnumSort([Ann, Bo])
    ... slots = EnumSort([1, 2])
    ... at = Function([people] -> [slots])
    ... # Constraints
    ... Distinct([p:people], at(p)) ::: Each has a slot of their own
    ... at(Ann) == 1 ::: Ann is first
    ... # Options
    ... Question ::: Which must be true?
    ... is_valid(at(Bo) == 1) ::: (A)
    ... is_valid(at(Bo) == 2) ::: (B)''')
    >>> solve_lsat(prog).answer
    'B'
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import LogicforgeError

MAX_PROGRAM_CHARS = 64_000  # a program longer than this is refused before it is read
MAX_TERMS = 200_000  # expanded scopes may build at most this many terms per program
MAX_DEPTH = 60  # formula nesting
SOLVE_TIMEOUT_MS = 10_000  # per z3 check
PREDICATES = ("is_valid", "is_sat", "is_unsat", "is_accurate_list", "is_exception")


class LsatProgramError(LogicforgeError):
    """A program that does not parse or does not solve; the message names the line."""


@dataclass
class LsatProgram:
    """A parsed program: sorts (name → members; ``int_sorts`` are the digits-only ones), lists
    (every enum declaration, sort or not), functions (name → argument sorts, result sort),
    constraints and options as ``(formula text, gloss)`` and ``(formula text, letter)``."""

    sorts: dict[str, list[str]] = field(default_factory=dict)
    int_sorts: dict[str, list[int]] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)
    functions: dict[str, tuple[list[str], str]] = field(default_factory=dict)
    constraints: list[tuple[str, str]] = field(default_factory=list)
    options: list[tuple[str, str]] = field(default_factory=list)
    question: str = ""


@dataclass(frozen=True)
class LsatResult:
    """Which options hold (letter → bool), Logic-LM's answer (the first that holds, or None)."""

    holds: dict[str, bool]

    @property
    def answers(self) -> list[str]:
        return [k for k, v in self.holds.items() if v]

    @property
    def answer(self) -> str | None:
        return self.answers[0] if self.answers else None


_SORT = re.compile(r"^(\w+)\s*=\s*EnumSort\(\s*\[(.*)\]\s*\)$")
_FUNC = re.compile(r"^(\w+)\s*=\s*Function\(\s*\[?([\w\s,]*?)\]?\s*->\s*\[?\s*(\w+)\s*\]?\s*\)$")
_SCOPE = re.compile(r"\[\s*(\w+\s*:\s*\w+(?:\s*,\s*\w+\s*:\s*\w+)*)\s*\]")
_LETTER = re.compile(r"^\(?([A-E])\)?$")


def parse_lsat(text: str) -> LsatProgram:
    """The program's declarations, constraints and options (formulas are checked when solved).

    Raises :class:`LsatProgramError` naming the line for a missing section or a declaration it
    cannot read."""
    if len(text) > MAX_PROGRAM_CHARS:
        raise LsatProgramError(f"program of {len(text)} characters (limit {MAX_PROGRAM_CHARS})")
    lines = [x.strip() for x in text.splitlines()]
    heads = {"# Declarations": "decl", "# Constraints": "cons", "# Options": "opts"}
    seen = {heads[x] for x in lines if x in heads}
    if seen != set(heads.values()):
        missing = [k for k, v in heads.items() if v not in seen]
        raise LsatProgramError(f"no {' / '.join(missing)} section")
    prog, section, declared = LsatProgram(), "", set[str]()
    for n, s in enumerate(lines, start=1):
        if s in heads:
            section = heads[s]
            continue
        if not s or not section:
            continue
        formula, _, gloss = s.partition(":::")
        formula, gloss = formula.strip(), gloss.strip()
        if section == "decl":
            if m := _SORT.match(s):
                members = [x.strip() for x in m.group(2).split(",") if x.strip()]
                prog.lists[m.group(1)] = members
                if all(x.lstrip("-").isdigit() for x in members):
                    prog.int_sorts[m.group(1)] = [int(x) for x in members]
                elif not declared & set(members):
                    prog.sorts[m.group(1)] = members
                    declared |= set(members)
            elif m := _FUNC.match(s):
                args = [x.strip() for x in m.group(2).split(",") if x.strip()]
                prog.functions[m.group(1)] = (args, m.group(3))
            elif "Sort" in s or "Function" in s:
                raise LsatProgramError(f"line {n}: cannot read the declaration {s[:120]!r}")
            else:
                prog.constraints.append((formula, gloss))  # a constraint written among them
        elif section == "cons":
            prog.constraints.append((formula, gloss))
        elif formula == "Question":
            prog.question = gloss
        else:
            letter = _LETTER.match(gloss)
            if not letter:
                raise LsatProgramError(f"line {n}: an option without a letter: {s[:120]!r}")
            prog.options.append((formula, letter.group(1)))
    if not prog.options:
        raise LsatProgramError("no options")
    return prog


class _Builder:
    """Builds z3 terms for one program in one context (the whitelisted tree walk)."""

    def __init__(self, prog: LsatProgram) -> None:
        try:
            import z3
        except ImportError:
            from ..errors import ConfigError

            raise ConfigError("solver", "z3", "needs z3: pip install 'logicforge[fol]'") from None

        self.z3, self.prog, self.ctx = z3, prog, z3.Context()
        self.terms = 0
        self.names: dict[str, Any] = {}
        self.sort_of: dict[str, Any] = {}
        for name, members in prog.sorts.items():
            sort, consts = z3.EnumSort(name, members, ctx=self.ctx)
            self.sort_of[name] = sort
            self.names.update(zip(members, consts, strict=True))
        for name in prog.int_sorts:
            self.sort_of[name] = z3.IntSort(self.ctx)
        self.sort_of["int"], self.sort_of["bool"] = z3.IntSort(self.ctx), z3.BoolSort(self.ctx)
        self.funcs: dict[str, Any] = {}
        self.ranges: list[Any] = []
        for name, (args, res) in prog.functions.items():
            for s in [*args, res]:
                if s not in self.sort_of:
                    raise LsatProgramError(f"function {name}: unknown sort {s!r}")
            self.funcs[name] = z3.Function(
                name, *[self.sort_of[s] for s in args], self.sort_of[res]
            )
            if res in prog.int_sorts:  # Logic-LM bounds a function into a digits-only sort
                lo, hi = min(prog.int_sorts[res]), max(prog.int_sorts[res])
                if any(s in ("int", "bool") for s in args):
                    xs = [z3.Const(f"_{i}", self.sort_of[s]) for i, s in enumerate(args)]
                    app = self.funcs[name](*xs)
                    self.ranges.append(z3.ForAll(xs, z3.And(lo <= app, app <= hi)))
                    continue
                for tup in self.domain([(f"_{i}", s) for i, s in enumerate(args)]):
                    app = self.funcs[name](*tup.values())
                    self.ranges.append(z3.And(lo <= app, app <= hi))

    def members(self, sort: str) -> list[Any]:
        if sort in self.prog.int_sorts:
            return [self.z3.IntVal(v, self.ctx) for v in self.prog.int_sorts[sort]]
        if sort in self.prog.lists:
            try:
                return [self.names[x] for x in self.prog.lists[sort]]
            except KeyError as e:
                raise LsatProgramError(f"list {sort}: {e.args[0]} is declared by no sort") from None
        raise LsatProgramError(f"unknown sort {sort!r} in a scope")

    def domain(self, scope: list[tuple[str, str]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{}]
        for var, sort in scope:
            out = [{**env, var: v} for env in out for v in self.members(sort)]
            self.count(len(out))
        return out

    def count(self, n: int) -> None:
        self.terms += n
        if self.terms > MAX_TERMS:
            raise LsatProgramError(f"its scopes expand to over {MAX_TERMS} terms")

    def formula(self, text: str) -> Any:
        return self.safe(_tree(text, f"not a formula: {text[:120]!r}"))

    def safe(self, node: ast.AST) -> Any:
        """The tree's term; z3's own complaints (a sort mismatch) become program errors."""
        try:
            return self.build(node, {}, 0)
        except (self.z3.Z3Exception, TypeError, AttributeError) as e:
            raise LsatProgramError(f"z3 refuses it: {str(e)[:80] or type(e).__name__}") from None

    def build(self, node: ast.AST, env: dict[str, Any], depth: int) -> Any:  # noqa: C901
        z3 = self.z3
        if depth > MAX_DEPTH:
            raise LsatProgramError(f"formula nested deeper than {MAX_DEPTH}")
        self.count(1)
        b = lambda n: self.build(n, env, depth + 1)  # noqa: E731
        if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
            v = node.value
            return z3.BoolVal(v, self.ctx) if isinstance(v, bool) else z3.IntVal(v, self.ctx)
        if isinstance(node, ast.Name):
            for table in (env, self.names):
                if node.id in table:
                    return table[node.id]
            raise LsatProgramError(f"undeclared name {node.id!r}")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -b(node.operand)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return z3.Not(_bool(z3, b(node.operand)))
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            return _ARITH[type(node.op)](b(node.left), b(node.right))
        if isinstance(node, ast.BoolOp):
            f = z3.And if isinstance(node.op, ast.And) else z3.Or
            return f(*[_bool(z3, b(v)) for v in node.values])
        if isinstance(node, ast.Compare):
            parts, left = [], b(node.left)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                if type(op) not in _CMP:
                    raise LsatProgramError(f"unsupported comparison {type(op).__name__}")
                right = b(right_node)
                parts.append(_CMP[type(op)](left, right))
                left = right
            return parts[0] if len(parts) == 1 else z3.And(*parts)
        if isinstance(node, ast.List):
            return [b(x) for x in node.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            return self.call(node.func.id, node.args, env, depth)
        raise LsatProgramError(f"unsupported syntax {type(node).__name__}")

    def call(self, name: str, args: list[ast.expr], env: dict[str, Any], depth: int) -> Any:
        z3 = self.z3
        if args and _is_scope(args[0]) and name in ("ForAll", "Exists", "Count", "Distinct"):
            scope = _scope(args[0])
            if len(args) != 2:
                raise LsatProgramError(f"{name} takes a scope and one formula")
            finite = [(v, s) for v, s in scope if s not in ("int", "bool")]
            open_ = [(v, s) for v, s in scope if s in ("int", "bool")]
            if open_ and name != "ForAll" and name != "Exists":
                raise LsatProgramError(f"{name} over an infinite sort")
            bound = {v: z3.Const(v, self.sort_of[s]) for v, s in open_}
            bodies = [
                self.build(args[1], {**env, **bound, **e}, depth + 1) for e in self.domain(finite)
            ]
            if name == "Count":
                return z3.Sum(
                    [z3.If(_bool(z3, x), 1, 0) for x in bodies] or [z3.IntVal(0, self.ctx)]
                )
            if name == "Distinct":
                return z3.Distinct(*bodies) if len(bodies) > 1 else z3.BoolVal(True, self.ctx)
            inner = (z3.And if name == "ForAll" else z3.Or)(*[_bool(z3, x) for x in bodies])
            if open_:
                q = z3.ForAll if name == "ForAll" else z3.Exists
                return q(list(bound.values()), inner)
            return inner
        vals = [self.build(a, env, depth + 1) for a in args]
        if len(vals) == 1 and isinstance(vals[0], list) and name in _VARIADIC:
            vals = vals[0]
        if any(isinstance(v, list) for v in vals):
            raise LsatProgramError(f"{name} given a list")
        if name in self.funcs:
            f = self.funcs[name]
            if len(vals) != f.arity():
                raise LsatProgramError(f"{name} takes {f.arity()} arguments, given {len(vals)}")
            try:
                return f(*vals)
            except z3.Z3Exception:
                raise LsatProgramError(f"{name} applied to arguments of the wrong sort") from None
        if name in _VARIADIC:
            if not vals:
                return z3.BoolVal(name == "And", self.ctx) if name in ("And", "Or") else None
            if name == "Sum":
                return z3.Sum([z3.If(v, 1, 0) if z3.is_bool(v) else v for v in vals])
            if name == "Distinct":
                return z3.Distinct(*vals) if len(vals) > 1 else z3.BoolVal(True, self.ctx)
            return getattr(z3, name)(*[_bool(z3, v) for v in vals])
        if name in _FIXED and len(vals) == _FIXED[name]:
            if name == "If":
                return z3.If(_bool(z3, vals[0]), vals[1], vals[2])
            if name == "Abs":
                return z3.If(vals[0] >= 0, vals[0], -vals[0])
            return getattr(z3, name)(*[_bool(z3, v) for v in vals])
        raise LsatProgramError(f"unknown function {name!r} with {len(vals)} argument(s)")


_ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.Mod: lambda a, b: a % b}  # fmt: skip
_CMP = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
        ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}  # fmt: skip
_VARIADIC = ("And", "Or", "Sum", "Distinct")
_FIXED = {"Not": 1, "Implies": 2, "Xor": 2, "If": 3, "Abs": 1}


def _tree(text: str, refusal: str) -> ast.expr:
    """A formula's syntax tree, its ``[x:sort, …]`` scopes read as ``__scope__(x, sort, …)``."""
    src = _SCOPE.sub(lambda m: "__scope__(" + m.group(1).replace(":", ",") + ")", text)
    try:
        return ast.parse(src, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        raise LsatProgramError(refusal) from None


def _bool(z3: Any, v: Any) -> Any:
    if isinstance(v, list) or not z3.is_bool(v):
        raise LsatProgramError("a number where a formula is needed")
    return v


def _is_scope(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "__scope__"
    )


def _scope(node: ast.expr) -> list[tuple[str, str]]:
    args = node.args if isinstance(node, ast.Call) else []
    names = [a.id for a in args if isinstance(a, ast.Name)]
    if len(names) != len(args) or len(names) % 2:
        raise LsatProgramError("a scope is written [variable:sort, …]")
    return list(zip(names[::2], names[1::2], strict=True))


class _Solver:
    """The program's constraints in one z3 context; checks options against them."""

    def __init__(self, prog: LsatProgram, timeout_ms: int) -> None:
        self.b = _Builder(prog)
        self.timeout_ms = timeout_ms
        self.base = list(self.b.ranges)
        for text, _ in prog.constraints:
            try:
                self.base.append(_bool(self.b.z3, self.b.formula(text)))
            except LsatProgramError as e:
                raise LsatProgramError(f"constraint {text[:80]!r}: {e}") from None

    def check(self, extra: list[Any]) -> str:
        s = self.b.z3.Solver(ctx=self.b.ctx)
        s.set("timeout", self.timeout_ms)
        s.add(*self.base, *extra)
        r = str(s.check())
        if r == "unknown":
            raise LsatProgramError("z3 did not decide an option within the time limit")
        return r

    def option(self, node: ast.expr) -> bool:
        z3 = self.b.z3
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            raise LsatProgramError("an option that is not one of " + ", ".join(PREDICATES))
        name, args = node.func.id, node.args
        if name not in PREDICATES or len(args) != 1 or node.keywords:
            raise LsatProgramError(f"unknown option predicate {name!r}")
        if name == "is_exception":
            return not self.option(args[0])
        if name == "is_accurate_list":
            fs = self.b.safe(args[0])
            if not isinstance(fs, list) or not fs:
                raise LsatProgramError("is_accurate_list takes a list of formulas")
            fs = [_bool(z3, f) for f in fs]
            return self.check([z3.Not(z3.Or(*fs))]) == "unsat" and all(
                self.check([f]) == "sat" for f in fs
            )
        f = _bool(z3, self.b.safe(args[0]))
        if name == "is_valid":
            return self.check([z3.Not(f)]) == "unsat"
        return self.check([f]) == ("sat" if name == "is_sat" else "unsat")


def solve_lsat(prog: LsatProgram, timeout_ms: int = SOLVE_TIMEOUT_MS) -> LsatResult:
    """Which of the program's options hold, by Logic-LM's predicates (module docstring).

    Raises :class:`LsatProgramError` for a formula it cannot read or z3 cannot decide."""
    sol = _Solver(prog, timeout_ms)
    holds: dict[str, bool] = {}
    for text, letter in prog.options:
        node = _tree(text, f"option ({letter}) is not a formula")
        try:
            holds[letter] = sol.option(node)
        except LsatProgramError as e:
            raise LsatProgramError(f"option ({letter}): {e}") from None
    return LsatResult(holds)


def equivalent_lsat(
    prog: LsatProgram, a: str, b: str, timeout_ms: int = SOLVE_TIMEOUT_MS
) -> bool | None:
    """True when formulas ``a`` and ``b`` agree on every interpretation of the program's
    declarations (sorts and function ranges only, not its constraints); None when either does
    not read or z3 cannot decide.

    Example:
        >>> p = parse_lsat("# Declarations\\nx = EnumSort([1, 2])\\nf = Function([bool] -> [x])\\n"
        ...                "# Constraints\\n# Options\\nis_sat(f(True) == 1) ::: (A)")
        >>> equivalent_lsat(p, "f(True) != 1", "f(True) == 2")
        True
    """
    try:
        bld = _Builder(prog)
        fa, fb = _bool(bld.z3, bld.formula(a)), _bool(bld.z3, bld.formula(b))
    except LsatProgramError:
        return None
    s = bld.z3.Solver(ctx=bld.ctx)
    s.set("timeout", timeout_ms)
    s.add(*bld.ranges, fa != fb)
    r = str(s.check())
    return None if r == "unknown" else r == "unsat"
