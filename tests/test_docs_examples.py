"""The ``>>>`` examples in the README and the docs run as written (the frontier callback's shape was nowhere
in the docs, and the shape they implied failed with a ``TypeError``; the README's decision-mode
example printed 0.0, its item being UNSAT)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
README = DOCS.parent / "README.md"
WITH_EXAMPLES = [README] + sorted(
    p for p in DOCS.rglob("*.md") if ">>> " in p.read_text(encoding="utf-8")
)


def test_some_docs_hold_examples() -> None:
    assert any(p.name == "levels.md" for p in WITH_EXAMPLES)
    assert ">>> lf.reward(" in README.read_text(encoding="utf-8")  # the reward modes, shown


@pytest.mark.parametrize(
    "path", WITH_EXAMPLES, ids=lambda p: p.name if p == README else str(p.relative_to(DOCS))
)
def test_the_examples_of_a_doc_page_run(path: Path) -> None:
    res = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert res.attempted > 0 and res.failed == 0, f"{path.name}: {res.failed} examples failed"
