"""Ordering / assignment CSPs: the Logic-LM LogicalDeduction program format and an exact oracle.

A program has ``Domain:`` (value glosses), ``Variables:`` (``name [IN] [1, 2, 3]``),
``Constraints:`` and ``Query:`` (``A) expr ::: gloss``) sections; a constraint is a comparison
(``== != < > <= >=``) between integer expressions over variables (``+``, ``-``, ``abs``) or
``AllDifferentConstraint([a, b, …])``. Expressions are read with Python's ``ast`` into a small
whitelisted tree — nothing in a program is ever evaluated as code.

The oracle enumerates every solution by backtracking (each constraint checked as soon as its
variables are set) and answers the option true in *every* solution, ``inconsistent`` when there
is no solution, or ``ambiguous`` when no single option (or several) holds in all of them.

Example:
    >>> p = parse_program('''Variables:
    ... a [IN] [1, 2, 3]
    ... b [IN] [1, 2, 3]
    ... Constraints:
    ... a > b
    ... b == 2
    ... Query:
    ... A) a == 3
    ... B) a == 1''')
    >>> solve_csp(p)
    'A'
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..errors import LogicforgeError


class CSPParseError(LogicforgeError):
    """A program that does not parse; the message names the line."""


_CMP: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.Gt: operator.gt,
    ast.LtE: operator.le,
    ast.GtE: operator.ge,
}
_CMP_TEXT: dict[type, str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.Gt: ">",
    ast.LtE: "<=",
    ast.GtE: ">=",
}
_BY_TEXT = {_CMP_TEXT[k]: f for k, f in _CMP.items()}


@dataclass(frozen=True)
class Expr:
    """An integer expression: ``("var", name)``, ``("int", n)``, ``("+"|"-", a, b)``,
    ``("neg", a)`` or ``("abs", a)``."""

    node: tuple

    def value(self, env: dict[str, int]) -> int:
        n = self.node
        if n[0] == "var":
            return env[n[1]]
        if n[0] == "int":
            return int(n[1])
        if n[0] == "neg":
            return -n[1].value(env)
        if n[0] == "abs":
            return abs(n[1].value(env))
        a, b = n[1].value(env), n[2].value(env)
        return a + b if n[0] == "+" else a - b

    def vars(self) -> set[str]:
        n = self.node
        if n[0] == "var":
            return {n[1]}
        return set().union(*(x.vars() for x in n[1:] if isinstance(x, Expr)))

    def text(self) -> str:
        n = self.node
        if n[0] in ("var", "int"):
            return str(n[1])
        if n[0] == "neg":
            return f"-{n[1].text()}"
        if n[0] == "abs":
            return f"abs({n[1].text()})"
        return f"{n[1].text()} {n[0]} {n[2].text()}"


@dataclass(frozen=True)
class Constraint:
    """``op`` is a comparison (``==`` …) between ``args[0]`` and ``args[1]``, or ``alldiff``."""

    op: str
    args: tuple[Expr, ...]
    gloss: str = ""

    def holds(self, env: dict[str, int]) -> bool:
        if self.op == "alldiff":
            vals = [a.value(env) for a in self.args]
            return len(set(vals)) == len(vals)
        return _BY_TEXT[self.op](self.args[0].value(env), self.args[1].value(env))

    def vars(self) -> set[str]:
        return set().union(*(a.vars() for a in self.args))

    def text(self) -> str:
        if self.op == "alldiff":
            return "AllDifferentConstraint([" + ", ".join(a.text() for a in self.args) + "])"
        return f"{self.args[0].text()} {self.op} {self.args[1].text()}"


@dataclass(frozen=True)
class CSP:
    domains: dict[str, tuple[int, ...]]
    constraints: tuple[Constraint, ...]
    options: dict[str, Constraint] = field(default_factory=dict)
    value_glosses: dict[int, str] = field(default_factory=dict)


def _expr(node: ast.AST, known: set[str], line: str) -> Expr:
    if isinstance(node, ast.Name):
        if node.id not in known:
            raise CSPParseError(f"unknown variable {node.id!r} in {line!r}")
        return Expr(("var", node.id))
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return Expr(("int", node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return Expr(("neg", _expr(node.operand, known, line)))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        op = "+" if isinstance(node.op, ast.Add) else "-"
        return Expr((op, _expr(node.left, known, line), _expr(node.right, known, line)))
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "abs"
        and len(node.args) == 1
    ):
        return Expr(("abs", _expr(node.args[0], known, line)))
    raise CSPParseError(f"unsupported expression {ast.dump(node)[:60]} in {line!r}")


def parse_constraint(text: str, known: set[str], gloss: str = "") -> Constraint:
    """One constraint or query line's expression (without ``:::`` and the option letter)."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise CSPParseError(f"cannot read {text.strip()!r}: {e.msg}") from None
    if (
        isinstance(tree, ast.Call)
        and isinstance(tree.func, ast.Name)
        and tree.func.id
        in (
            "AllDifferentConstraint",
            "AllDifferent",
        )
    ):
        if len(tree.args) != 1 or not isinstance(tree.args[0], ast.List | ast.Tuple):
            raise CSPParseError(f"AllDifferentConstraint takes one list: {text!r}")
        return Constraint("alldiff", tuple(_expr(e, known, text) for e in tree.args[0].elts), gloss)
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _CMP:
        args = (_expr(tree.left, known, text), _expr(tree.comparators[0], known, text))
        return Constraint(_CMP_TEXT[type(tree.ops[0])], args, gloss)
    raise CSPParseError(f"not a comparison or AllDifferentConstraint: {text.strip()!r}")


_VAR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[IN\]\s*\[([^\]]*)\]\s*$")
_OPTION = re.compile(r"^\s*\(?([A-Z])\)\s*(.*)$")


def parse_program(text: str) -> CSP:
    """Parse a Logic-LM LogicalDeduction program; :class:`CSPParseError` names the bad line."""
    section = None
    domains: dict[str, tuple[int, ...]] = {}
    constraints: list[Constraint] = []
    options: dict[str, Constraint] = {}
    glosses: dict[int, str] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line in ("Domain:", "Variables:", "Constraints:", "Query:"):
            section = line[:-1]
            continue
        expr, _, gloss = line.partition(":::")
        try:
            if section == "Domain":
                k, _, g = line.partition(":")
                glosses[int(k)] = g.strip()
            elif section == "Variables":
                m = _VAR.match(expr)
                if not m:
                    raise CSPParseError(f"expected 'name [IN] [values]', found {line!r}")
                domains[m.group(1)] = tuple(int(v) for v in m.group(2).split(",") if v.strip())
            elif section == "Constraints":
                constraints.append(parse_constraint(expr, set(domains), gloss.strip()))
            elif section == "Query":
                m = _OPTION.match(expr)
                if not m:
                    raise CSPParseError(f"expected 'A) expression', found {line!r}")
                options[m.group(1)] = parse_constraint(m.group(2), set(domains), gloss.strip())
            else:
                raise CSPParseError(f"text before any section: {line!r}")
        except CSPParseError as e:
            raise CSPParseError(f"line {n}: {e}") from None
        except ValueError:
            raise CSPParseError(f"line {n}: not an integer in {line!r}") from None
    if not domains:
        raise CSPParseError("no variables")
    return CSP(domains, tuple(constraints), options, glosses)


def solutions(csp: CSP, limit: int | None = None) -> Iterator[dict[str, int]]:
    """Every assignment that satisfies all constraints (backtracking, most-constrained first)."""
    order = sorted(csp.domains, key=lambda v: len(csp.domains[v]))
    pos = {v: i for i, v in enumerate(order)}
    due: list[list[Constraint]] = [[] for _ in order]  # checked once their last variable is set
    for c in csp.constraints:
        due[max((pos[v] for v in c.vars()), default=0)].append(c)
    env: dict[str, int] = {}
    found = 0

    def rec(i: int) -> Iterator[dict[str, int]]:
        nonlocal found
        if i == len(order):
            found += 1
            yield dict(env)
            return
        var = order[i]
        for val in csp.domains[var]:
            env[var] = val
            if all(c.holds(env) for c in due[i]):
                yield from rec(i + 1)
                if limit is not None and found >= limit:
                    return
        env.pop(var, None)

    yield from rec(0)


def solve_csp(csp: CSP) -> str:
    """The option letter true in every solution, ``inconsistent`` or ``ambiguous``."""
    always = set(csp.options)
    any_solution = False
    for sol in solutions(csp):
        any_solution = True
        always = {k for k in always if csp.options[k].holds(sol)}
        if not always:
            break
    if not any_solution:
        return "inconsistent"
    return next(iter(always)) if len(always) == 1 else "ambiguous"
