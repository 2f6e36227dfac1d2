from __future__ import annotations

import pytest

from logicforge import (
    CNF,
    DimacsError,
    LogicforgeError,
    VarPool,
    parse_dimacs,
    read_dimacs,
    to_dimacs,
)


def test_roundtrip_with_names() -> None:
    f = CNF([[1, -2], [2, 3], [-3]], names=["a", "b", "c"])
    g = parse_dimacs(to_dimacs(f))
    assert g.clauses == f.clauses and g.num_vars == 3


def test_clauses_span_lines_comments_and_percent() -> None:
    text = "c hello\np cnf 4 2\n1 -2\n 3 0 -4\n0\n%\n0\n"
    f = parse_dimacs(text)
    assert f.clauses == ((1, -2, 3), (-4,))


def test_declared_vars_may_exceed_used() -> None:
    assert parse_dimacs("p cnf 9 1\n1 2 0\n").num_vars == 9


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("p cnf 3 2\n1 2 0\n", 1, "declares 2 clauses but 1"),
        ("p cnf 3 1\n1 4 0\n", 2, "out of range"),
        ("p cnf 3 1\n1 x 0\n", 2, "non-integer token 'x'"),
        ("p cnf 3 1\n\n1 2\n", 3, "not terminated"),
        ("1 2 0\n", 1, "before the 'p cnf' header"),
        ("p cnf three 1\n", 1, "non-integer count"),
        ("p dnf 3 1\n", 1, "malformed header"),
        ("p cnf 3 1\np cnf 3 1\n", 2, "second 'p' header"),
    ],
)
def test_bad_dimacs_names_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(DimacsError) as e:
        parse_dimacs(text, source="f.cnf")
    assert e.value.line == line
    assert f"line {line}" in str(e.value) and fragment in str(e.value)
    assert isinstance(e.value, LogicforgeError)


def test_empty_and_headerless() -> None:
    with pytest.raises(DimacsError, match="empty"):
        parse_dimacs("   \n\n")
    with pytest.raises(DimacsError, match="missing"):
        parse_dimacs("c only a comment\n")


def test_read_dimacs_non_utf8(tmp_path) -> None:
    p = tmp_path / "bad.cnf"
    p.write_bytes(b"p cnf 1 1\n\xff 0\n")
    with pytest.raises(DimacsError, match="UTF-8"):
        read_dimacs(p)


def test_evaluate_and_missing_vars() -> None:
    f = CNF([[1, 2], [-1, 3]])
    assert f.evaluate({1: True, 2: False, 3: True})
    assert not f.evaluate({1: True, 2: False, 3: False})
    assert f.falsified({1: True}) == [1]  # x3 missing: clause 1 unsatisfied


def test_cnf_validation() -> None:
    with pytest.raises(LogicforgeError, match="literal 0"):
        CNF([[1, 0]])
    with pytest.raises(LogicforgeError, match="num_vars"):
        CNF([[5]], num_vars=3)
    with pytest.raises(LogicforgeError, match="unique"):
        CNF([[1, 2]], names=["a", "a"])


def test_immutable() -> None:
    f = CNF([[1]])
    with pytest.raises(AttributeError):
        f.num_vars = 3  # type: ignore[misc]


def test_varpool_decode() -> None:
    pool = VarPool()
    a, b = pool.id(("x", 1)), pool.id(("x", 2))
    assert (a, b, pool.top) == (1, 2, 2)
    assert pool.decode([-1, 2]) == {("x", 1): False, ("x", 2): True}
