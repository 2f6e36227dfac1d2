"""Property-based fuzzing: no exception escapes any parser or verifier (``tests/fuzzing.py``).

CI runs ``LOGICFORGE_FUZZ_EXAMPLES`` (default 800) examples per target, about 17,000 in all;
``benchmarks/fuzz_parsers.py`` runs the long budget (≥ 100,000).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

import logicforge as lf
from logicforge.kinds import parse_answer

from .fuzzing import _items, targets, texts

EXAMPLES = int(os.environ.get("LOGICFORGE_FUZZ_EXAMPLES", "800"))
TARGETS = targets()


@pytest.mark.parametrize("name, fn", TARGETS, ids=[n for n, _ in TARGETS])
def test_no_exception_escapes(name: str, fn) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(texts)
    def run(text: str) -> None:
        fn(text)

    run()


MEGABYTE = {
    "braces": "{" * 1_000_000,
    "nested": '{"a":' * 200_000,
    "open strings then an answer": '{"a": "' * 140_000 + '\n{"answer": "UNSAT"}',
}


@pytest.mark.parametrize("renderer", ["formula", "zebra", "vc"])
def test_a_megabyte_of_hostile_text_is_parsed_in_bounded_work(renderer: str) -> None:
    item = _items()[renderer]
    for name, text in MEGABYTE.items():
        a = parse_answer(text, item)
        assert isinstance(a, lf.Answer), name
    a = parse_answer(MEGABYTE["open strings then an answer"], _items()["formula"])
    assert a.label == "UNSAT"
