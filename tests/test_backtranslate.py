"""Back-translation of edited FOLIO premises: a scripted writer (test double) rewrites sentences
faithfully or not; a faithful reader translates them back; z3 decides equivalence. Unmatched
sentences drop their problem and are counted; a stale sentence never reaches a prompt."""

from __future__ import annotations

import itertools
import json
import re

import pytest

import logicforge as lf
from logicforge.families.folio import cumulative_fol, individual_fol, load_folio
from logicforge.llm.backtranslate import BackTranslateConfig, backtranslate
from logicforge.logic.fol import equivalent, parse_fol
from logicforge.models.base import Response

pytest.importorskip("z3")


class Rewriter:
    """Writer + checker double. As writer it writes ``In other words, ⟨F⟩.`` where F is the new
    formula (faithful), the old one (the edit ignored) or garbage, by ``plan``; as checker it
    reads ⟨F⟩ back out of the sentence."""

    name, cache_id = "rewriter", None

    def __init__(self, plan: list[str]) -> None:
        self.plan = itertools.cycle(plan)
        self.writes = 0

    async def generate(self, q, sampling, sample) -> Response:
        p = q.messages[0].content
        if p.startswith("A premise of a logic problem was edited"):
            self.writes += 1
            how = next(self.plan)
            assert p.count("New sentence: ") == 5  # the five in-context examples come first
            old = re.findall(r"Original formula: (.*)\n", p)[-1]
            new = re.findall(r"New formula: (.*)\n", p)[-1]
            f = {"faithful": new, "stale": old, "garbage": "((("}[how]
            return Response(text=f"In other words, ⟨{f}⟩.")
        sentence = p.split("Sentence: ", 1)[1].split("\n\nReply with", 1)[0]
        m = re.search(r"⟨(.*)⟩", sentence)
        return Response(text=json.dumps({"formula": m.group(1) if m else "Nothing"}))

    async def aclose(self) -> None:
        pass


@pytest.fixture(scope="module")
def chains(shared_data):
    ps, _ = load_folio(shared_data / "logiclm" / "folio_v0.0_validation_gold_fol.jsonl")
    roots = [p for p in ps if p.label in ("True", "False", "Unknown")][:8]
    out = []
    for p in roots:
        out += cumulative_fol(p)
        out += individual_fol(p, "alter")
    return [q for q in out if q.kind == "fol"]


def test_faithful_rewrites_are_kept_with_their_sentences(chains) -> None:
    edited = [q for q in chains if q.metadata.get("edit_level")]
    assert len(edited) >= 10
    w = Rewriter(["faithful"])
    kept, st = backtranslate(chains, w)
    assert st.dropped == 0 and st.kept == len(edited) and st.unmatched == 0
    levels = {q.metadata["edit_level"] for q in edited}
    assert set(st.by_level) == levels and all(v["dropped"] == 0 for v in st.by_level.values())
    assert sum(v["kept"] for v in st.by_level.values()) == len(edited)
    assert st.first_try == st.sentences == w.writes  # each (chain, premise, formula) once
    by_id = {q.problem_id: q for q in chains}
    for q in kept:
        if not q.metadata.get("edit_level"):
            continue
        root = by_id[q.metadata["chain_id"]]
        nl = q.problem["premises_nl"]
        for i, s in enumerate(nl):
            if i in q.metadata["edit_positions"]:
                assert s == f"In other words, ⟨{q.problem['premises'][i]}⟩."
            else:
                assert s == root.problem["premises_nl"][i]
        it = lf.render([q], "fol-nl")[0]
        assert "In other words" in it.messages[-1].content


def test_unmatched_sentences_drop_their_problem_and_are_counted(chains) -> None:
    kept, st = backtranslate(
        chains, Rewriter(["stale", "garbage"]), cfg=BackTranslateConfig(attempts=2)
    )
    edited = [q for q in chains if q.metadata.get("edit_level")]
    # a stale sentence passes only when the edit did not change the meaning of its premise
    same = [
        q
        for q in edited
        if all(
            equivalent(
                parse_fol(q.problem["premises"][i]),
                parse_fol(
                    next(p for p in chains if p.problem_id == q.metadata["chain_id"]).problem[
                        "premises"
                    ][i]
                ),
            )
            for i in q.metadata["edit_positions"]
        )
    ]
    assert st.kept == len(same) and st.dropped == len(edited) - len(same) > 0
    assert st.unmatched > 0 and any("does not parse" in f for f in st.failures)
    assert any("not equivalent" in f for f in st.failures)
    assert len(kept) == len(chains) - st.dropped
    # a retry that succeeds is counted as such
    _, st2 = backtranslate(chains, Rewriter(["garbage", "faithful"]))
    assert st2.retried == st2.sentences and st2.dropped == 0


def test_fol_nl_refuses_stale_sentences(chains) -> None:
    edited = next(q for q in chains if q.metadata.get("edit_level"))
    with pytest.raises(lf.ConfigError, match="back-translated"):
        lf.render([edited], "fol-nl")


def test_suite_backtranslates_before_rendering(shared_data, tmp_path, monkeypatch) -> None:
    from logicforge.suites import load_suite

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    y = tmp_path / "s.yaml"
    y.write_text(
        "name: bt\nproblems:\n  - family: folio\n    data: logiclm/folio_v0.0_validation_gold_fol.jsonl\n"
        "    count: 2\n    edits: cumulative\nrenderers: [fol-nl]\nmodels: [oracle]\n"
    )
    with pytest.raises(lf.ConfigError, match="story"):
        load_suite(y)
    y.write_text(y.read_text() + "story: {writer: oracle, attempts: 1}\n")
    from logicforge.suites import run_suite

    run_suite(load_suite(y), tmp_path / "run", progress=False)
    st = json.loads((tmp_path / "run" / "backtranslation-fol.json").read_text())
    assert (
        st["problems_kept"] == 0 and st["problems_dropped"] >= 1
    )  # a baseline writes nothing usable
    items = [json.loads(x) for x in (tmp_path / "run" / "items.jsonl").read_text().splitlines()]
    assert items and all("edit" not in it["problem_id"] for it in items)
