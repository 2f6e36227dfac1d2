"""The ``>>>`` examples in the docs run as written (the frontier callback's shape was nowhere
in the docs, and the shape they implied failed with a ``TypeError``)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
WITH_EXAMPLES = sorted(p for p in DOCS.rglob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


def test_some_docs_hold_examples() -> None:
    assert any(p.name == "levels.md" for p in WITH_EXAMPLES)


@pytest.mark.parametrize("path", WITH_EXAMPLES, ids=lambda p: str(p.relative_to(DOCS)))
def test_the_examples_of_a_doc_page_run(path: Path) -> None:
    res = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert res.attempted > 0 and res.failed == 0, f"{path.name}: {res.failed} examples failed"
