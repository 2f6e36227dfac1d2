"""orjson at the hot spots gives the same values and bytes as the standard reader and
pydantic-core, on every JSON value, and leaves to them what it would get wrong."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import to_json

from logicforge import jsonfast

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda kids: (
        st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=8), kids, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_loads_and_dumps_agree_with_the_standard_reader_and_pydantic_core(v) -> None:
    raw = json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")
    try:
        expected = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        return  # a lone surrogate written raw is not UTF-8: no reader's business
    assert jsonfast.loads(raw) == expected
    assert json.dumps(jsonfast.loads(raw)) == json.dumps(expected)  # ints stay ints
    assert json.loads(jsonfast.dumps(v)) == json.loads(to_json(v)) == expected
    assert jsonfast.dumps(v) == to_json(v)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"seed": 123456789012345678901234567890}',  # past 64 bits: orjson would give a float
        b"[-9223372036854775809, 18446744073709551616]",
        b'["\\ud800"]',  # a lone surrogate: orjson refuses, the standard reader keeps it
        b"[NaN, Infinity]",  # not JSON; the standard reader accepts them
        b'{"a": 1, "a": 2}',  # duplicate keys: the last one wins in both
        b" \n[1e400, -0.0, 1.7976931348623157e308]\n",
    ],
)
def test_texts_orjson_would_misread_or_refuse_get_the_standard_readers_answer(raw) -> None:
    got, want = jsonfast.loads(raw), json.loads(raw)
    assert json.dumps(got) == json.dumps(want)  # NaN != NaN: compare the written forms
    assert [type(x) for x in (got if isinstance(got, list) else [got])] == [
        type(x) for x in (want if isinstance(want, list) else [want])
    ]


def test_a_text_no_reader_accepts_raises_as_json_loads_does() -> None:
    for raw in (b"{not json", b"", b"[1,]"):
        with pytest.raises(ValueError):
            jsonfast.loads(raw)
        with pytest.raises(jsonfast.Unread):
            jsonfast.fast_loads(raw)


def test_what_orjson_cannot_write_goes_to_pydantic_core() -> None:
    big = {"seed": 2**70, "x": [1, 2]}
    assert jsonfast.dumps(big) == to_json(big) == b'{"seed":1180591620717411303424,"x":[1,2]}'
    assert jsonfast.dumps({"t": (1, 2)}) == b'{"t":[1,2]}'
    assert json.loads(jsonfast.dumps({"inf": math.inf})) == {"inf": None}  # JSON has no Infinity


def test_without_orjson_the_same_values_come_back(monkeypatch) -> None:
    monkeypatch.setattr(jsonfast, "_orjson", None)
    with pytest.raises(jsonfast.Unread):
        jsonfast.fast_loads(b"{}")
    assert jsonfast.loads(b'{"a": [1, "\xc3\xa9"]}') == {"a": [1, "é"]}
    assert jsonfast.dumps({"a": "é"}) == to_json({"a": "é"})
