"""The LLM judge: schema-validated JSON, retries on malformed replies, recorded judge errors —
with a scripted test double, and over HTTP against a real server that never answers in JSON."""

from __future__ import annotations

import asyncio
import json

import pytest

import logicforge as lf
from logicforge.llm.judge import Judge, validate
from logicforge.models.base import Response

from .fakeserver import FakeServer

SCHEMA = {
    "type": "object",
    "properties": {
        "faithful": {"type": "boolean"},
        "score": {"type": "integer", "minimum": 0, "maximum": 10},
        "missing": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["faithful", "score"],
}


class Scripted:
    """Test double: replies from a script, one per call."""

    name = "scripted-judge"
    cache_id = None

    def __init__(self, replies: list[str | None]) -> None:
        self.replies, self.seen = list(replies), []

    async def generate(self, q, sampling, sample) -> Response:
        self.seen.append([m.content for m in q.messages])
        r = self.replies.pop(0)
        return Response(text=r, error=None if r is not None else "HTTP 500")

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize(
    "value, why",
    [
        ({"faithful": True, "score": 7}, ""),
        ({"faithful": True}, "score: required"),
        ({"faithful": "yes", "score": 1}, "faithful: expected boolean"),
        ({"faithful": True, "score": 11}, "maximum"),
        ({"faithful": True, "score": True}, "expected integer"),
        ({"faithful": True, "score": 1, "missing": [1, "x"]}, "missing[1]"),
        ([1], "expected object"),
    ],
)
def test_validate(value, why: str) -> None:
    got = validate(value, SCHEMA)
    assert (got == "") if not why else (why in got)


def test_malformed_replies_are_retried_then_accepted() -> None:
    model = Scripted(
        [
            "I think it is fine.",
            '{"faithful": true, "score": 12}',
            'ok: {"faithful": false, "score": 3}',
        ]
    )
    res = asyncio.run(Judge(model, SCHEMA, "Judge the paragraph.").ask("P: the spy is in Rome."))
    assert (
        res.verdict == {"faithful": False, "score": 3} and res.error is None and res.attempts == 3
    )
    assert "maximum" in model.seen[2][-1]  # the retry quotes why the last reply was refused
    assert res.judge == "scripted-judge" and "the spy is in Rome" in res.prompt
    assert len(res.replies) == 3


def test_exhausted_retries_become_a_judge_error_not_a_pass() -> None:
    model = Scripted(["nope", None, "[]"])
    res = asyncio.run(Judge(model, SCHEMA, "Judge.", retries=2).ask("x"))
    assert res.verdict is None and res.error is not None and "3 attempts" in res.error
    assert json.loads(json.dumps(res.to_json()))["error"] == res.error


def test_a_real_server_that_never_answers_in_schema(tmp_path) -> None:
    with FakeServer() as srv:  # replies {"answer": "SAT"}: JSON, but not this schema
        m = lf.load_model(f"openai-compatible:{srv.base_url}:judge")
        res = asyncio.run(Judge(m, SCHEMA, "Judge.", retries=1).ask("x"))
        asyncio.run(m.aclose())
        assert srv.requests == 2
    assert res.verdict is None and "faithful: required" in res.error


def test_a_qualitative_judge_whose_every_judgement_failed_exits_non_zero(tmp_path, capsys) -> None:
    """A dead endpoint: every coding is a judge error — the table keeps the rows (coded 0, the
    errors, no scores) and the command exits 3, with or without --allow-errors."""
    import json

    import logicforge as lf
    from logicforge.cli import main
    from logicforge.runner.store import write_jsonl

    items = lf.render(lf.generate("ordering", {"n_objects": 4}, count=3, seed=0), "deduction")
    write_jsonl(tmp_path / "items.jsonl", items)
    lf.run(items, "noisy:p=0.5", tmp_path / "r.jsonl")
    dead = "openai-compatible:http://127.0.0.1:9/v1:m;max_retries=0;timeout=2"
    args = ["judge", str(tmp_path / "r.jsonl"), "--items", str(tmp_path / "items.jsonl"),
            "--judge", dead, "--task", "qualitative"]  # fmt: skip
    for extra in ([], ["--allow-errors"]):
        out = tmp_path / f"q{len(extra)}.jsonl"
        assert main([*args, "--out", str(out), *extra]) == 3
        cap = capsys.readouterr()
        printed = json.loads(cap.out.strip().splitlines()[-1])
        (row,) = printed["qualitative"]
        assert row["coded"] == 0 and row["judge_errors"] == 3 and row["overall"] is None
        assert "why: " in cap.err and "connection" in cap.err, cap.err  # it says why
