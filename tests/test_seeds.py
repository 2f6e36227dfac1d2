"""One seed derivation: every part of a design (a suite's block, a calibration level, a
curriculum's draw, a mixture's family, a sampled request) gets its seed from a spawn key
(:func:`logicforge.rng.child_seed`), never from arithmetic on another seed."""

from __future__ import annotations

import ast
from pathlib import Path

import logicforge
from logicforge.rng import child_seed

SRC = Path(logicforge.__file__).parent


def _seedish(node: ast.AST) -> bool:
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
    return "seed" in name.lower()


def arithmetic_seeds(source: str) -> list[int]:
    """Lines where a seed-named value is an operand of +, -, *, ^ or %."""
    ops = (ast.Add, ast.Sub, ast.Mult, ast.BitXor, ast.Mod)
    return [
        n.lineno
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.BinOp) and isinstance(n.op, ops)
        and (_seedish(n.left) or _seedish(n.right))
    ]  # fmt: skip


def test_no_seed_is_derived_by_arithmetic() -> None:
    hits = [
        f"{p.relative_to(SRC)}:{i}"
        for p in sorted(SRC.rglob("*.py"))
        for i in arithmetic_seeds(p.read_text(encoding="utf-8"))
    ]
    assert not hits, "seeds derived by arithmetic (use logicforge.rng.child_seed): " + ", ".join(
        hits
    )


def test_the_check_catches_arithmetic() -> None:
    for bad in ("seed = suite.seed * 1000 + bi", "s = 1000 * seed + level", "f(seed + j)",
                "body['seed'] = s.seed + sample", "x = base_seed ^ k"):  # fmt: skip
        assert arithmetic_seeds(bad), bad
    for ok in ("seed = child_seed(suite.seed, 0x5B1, bi)", "'never seed + j'", "n = count + 1"):
        assert not arithmetic_seeds(ok), ok


def test_children_are_stable_and_distinct() -> None:
    assert child_seed(3, 1, 2) == child_seed(3, 1, 2)
    kids = {child_seed(s, k) for s in range(20) for k in range(20)}
    assert len(kids) == 400  # seed s's child k never repeats seed s + 1's child k − 1
    assert all(0 <= x < 2**32 for x in kids)
