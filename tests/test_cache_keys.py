"""The response cache cannot serve the wrong answer: every thing that can change a reply is in
its key, and a server that reports other weights invalidates what it said before."""

from __future__ import annotations

from pathlib import Path

import logicforge as lf
from logicforge.models.base import Sampling
from logicforge.models.openai_compat import OpenAICompatModel

from .fakeserver import FakeServer


def _items(n: int = 3) -> list:
    return lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=n, seed=0))


def _run(model, cache: Path, rec: Path, sampling: Sampling | None = None, items=None) -> dict:
    return lf.run(items or _items(), model, rec, sampling=sampling, cache_path=cache)


def test_two_servers_with_the_same_model_name_never_share_answers(tmp_path: Path) -> None:
    with FakeServer() as a, FakeServer() as b:
        first = _run(
            OpenAICompatModel(a.base_url, "m"), tmp_path / "c.sqlite", tmp_path / "1.jsonl"
        )
        assert first["cached"] == 0 and a.requests == 3
        other = _run(
            OpenAICompatModel(b.base_url, "m"), tmp_path / "c.sqlite", tmp_path / "2.jsonl"
        )
        assert other["cached"] == 0 and b.requests == 3
        again = _run(
            OpenAICompatModel(a.base_url, "m"), tmp_path / "c.sqlite", tmp_path / "3.jsonl"
        )
        assert again["cached"] == 3 and a.requests == 3  # the same server: reused


def test_a_dead_endpoint_gets_nothing_from_the_cache(tmp_path: Path) -> None:
    with FakeServer() as a:
        _run(OpenAICompatModel(a.base_url, "m"), tmp_path / "c.sqlite", tmp_path / "1.jsonl")
    dead = OpenAICompatModel(
        "http://127.0.0.1:9/v1", "m", timeout=0.5, max_retries=0, dead_after=0
    )  # dead_after=0: every item is tried and recorded as an error
    out = _run(dead, tmp_path / "c.sqlite", tmp_path / "2.jsonl")
    assert out["cached"] == 0 and out["errors"] == 3


def test_a_changed_max_tokens_or_schema_is_a_miss(tmp_path: Path) -> None:
    items = _items()
    with FakeServer() as a:
        m = OpenAICompatModel(a.base_url, "m")
        _run(m, tmp_path / "c.sqlite", tmp_path / "1.jsonl", Sampling(structured=True), items)
        assert a.requests == 3
        _run(
            m,
            tmp_path / "c.sqlite",
            tmp_path / "2.jsonl",
            Sampling(structured=True, max_tokens=7),
            items,
        )
        assert a.requests == 6  # max_tokens changed: all misses
        other = [
            it.model_copy(update={"answer_schema": {"type": "object", "title": "other"}})
            for it in items
        ]
        _run(m, tmp_path / "c.sqlite", tmp_path / "3.jsonl", Sampling(structured=True), other)
        assert a.requests == 9  # another answer schema, sent as response_format: misses
        _run(m, tmp_path / "c.sqlite", tmp_path / "4.jsonl", Sampling(structured=True), items)
        assert a.requests == 9  # the first configuration again: hits


def test_other_request_options_are_misses(tmp_path: Path) -> None:
    with FakeServer() as a:
        _run(OpenAICompatModel(a.base_url, "m"), tmp_path / "c.sqlite", tmp_path / "1.jsonl")
        for i, opts in enumerate(
            [{"endpoint": "completions"}, {"max_tokens_param": "max_completion_tokens"},
             {"reasoning_effort": "high"}, {"n": 2}]
        ):  # fmt: skip
            before = a.requests
            out = _run(
                OpenAICompatModel(a.base_url, "m", **opts),
                tmp_path / "c.sqlite",
                tmp_path / f"o{i}.jsonl",
            )
            assert out["cached"] == 0 and a.requests > before, opts


def test_a_new_server_fingerprint_invalidates_the_old_answers(tmp_path: Path) -> None:
    """Weights swapped behind a server that keeps its served name: the fingerprint it reports
    changes, and from the first reply that shows it the old answers are not served again."""
    items = _items()
    with FakeServer() as a:
        a.fingerprint = "weights-v1"
        m = OpenAICompatModel(a.base_url, "m")
        _run(m, tmp_path / "c.sqlite", tmp_path / "1.jsonl", items=items)
        assert _run(m, tmp_path / "c.sqlite", tmp_path / "2.jsonl", items=items)["cached"] == 3
        a.fingerprint = "weights-v2"
        fresh = [it.model_copy(update={"item_id": it.item_id + "-probe"}) for it in items[:1]]
        probe = [
            it.model_copy(update={"messages": [*it.messages[:-1], it.messages[-1].model_copy(
                update={"content": it.messages[-1].content + " "})]})
            for it in fresh
        ]  # fmt: skip
        _run(m, tmp_path / "c.sqlite", tmp_path / "3.jsonl", items=probe)  # reports v2
        before = a.requests
        out = _run(m, tmp_path / "c.sqlite", tmp_path / "4.jsonl", items=items)
        assert out["cached"] == 0 and a.requests == before + 3
    recs = (tmp_path / "4.jsonl").read_text()
    assert '"fingerprint":"weights-v2"' in recs.replace(" ", "")
