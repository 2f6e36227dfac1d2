"""Stories validated by round trip: a scripted writer returns faithful, unfaithful (flipped
polarity, dropped literal, swapped entity) and malformed conditions; a faithful reader checks
them. Every unfaithful condition must be caught and regenerated or replaced by the template —
none may reach an Item."""

from __future__ import annotations

import asyncio
import itertools
import json
import re

import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.llm.story import StoryConfig, story_stats
from logicforge.llm.verbaliser import THEMES, VerbaliserStyle
from logicforge.logic.cnf import CNF
from logicforge.logic.sat import solve
from logicforge.models.base import Response
from logicforge.renderers.story_text import sat_fallback
from logicforge.runner.narrate import narrate

BAD = ("flip", "drop", "swap")


class StoryBot:
    """Test double for both roles. As writer it renders the requested condition in a fixed
    paraphrase — faithfully or corrupted by the next behaviour in ``plan``; as checker it reads
    a condition back exactly (a faithful reader). It remembers every text it wrote and whether
    it was faithful."""

    name = "story-bot"
    cache_id = None

    def __init__(self, plan: list[str], mapping: str = "good") -> None:
        self.plan, self.mapping, self.calls = itertools.cycle(plan), mapping, 0
        self.written: list[tuple[str, str, bool]] = []

    async def generate(self, q, sampling, sample) -> Response:
        self.calls += 1
        p = q.messages[0].content  # a judge's retry appends turns; its task is the first
        if len(q.messages) > 1 and "Write the next clue" in q.messages[-1].content:
            return Response(text=self._write(q.messages[-1].content, p))
        if p.startswith("You check a logic puzzle"):  # the whole-puzzle consistency check
            return Response(text='{"consistent": true, "mismatched": []}')
        if "Invent a short story background" in p:
            return Response(text=self._mapping(p))
        if p.startswith("Translate a condition"):
            names = re.findall(r"^- (.+)$", p, re.M)
            cond = p.split("Condition: ", 1)[1].split("\n\nReply with one JSON", 1)[0]
            return Response(text=json.dumps({"clauses": [read(cond, names, "(yes)", "(no)")]}))
        if p.startswith("You are a") and len(q.messages) == 1:  # a verbaliser introduction
            return Response(text="Rain taps on the windows while everyone waits.")
        if "identify the" in p:
            clue = p.split('CLUE: "', 1)[1].split('"\nAVAILABLE', 1)[0]
            names = json.loads(
                p.split("AVAILABLE ENTITIES: ", 1)[1].split("\n", 1)[0].replace("'", '"')
            )
            lits = read(clue, names, *_states(p, names))
            return Response(text=json.dumps({"entities": [x["statement"] for x in lits]}))
        if "which possibility does the rule name for" in p:
            options = re.findall(r'Answer "(.+?)" or "(.+?)"', p)[0]
            clue = p.split('CLUE: "', 1)[1].split('"\nAnswer', 1)[0]
            hit = [o for o in options if o.lower() in clue.lower()]
            return Response(text=json.dumps({"state": hit[0] if hit else options[1]}))
        return Response(text=self._write(p, q.messages[0].content))

    def _mapping(self, p: str) -> str:
        vs = re.findall(r"x\(\d+(?:, \d+)*\)", p.split("Each variable")[0])
        vs = list(dict.fromkeys(vs))
        stmts = {v: f"crate {i} ships" for i, v in enumerate(vs)}
        if self.mapping == "malformed":
            return "{ not json"
        if self.mapping == "duplicate":
            stmts[vs[1]] = stmts[vs[0]]
        if self.mapping == "missing":
            del stmts[vs[0]]
        return json.dumps({"scenario": "A port ships crates.", "statements": stmts})

    def _write(self, p: str, first: str) -> str:
        how = next(self.plan)
        if how == "malformed":
            self.written.append(("", "", False))
            return ""
        verbaliser = "Write the next clue" in p
        if verbaliser:
            rule = p.split("nothing else:\n", 1)[1].split("\n", 1)[0]
            names = [n for n in _ALL_ENTITIES if n in rule]
            states = _rule_states(rule)
            lits = read(rule, names, *states)
        else:
            rule = p.split("Condition: ", 1)[1].split("\n", 1)[0]
            names = re.findall(r"^- (.+)$", p, re.M)
            lits = [
                {"statement": s, "holds": not rule_negates(rule, s)}
                for s in sorted(names, key=rule.lower().find)
                if s in rule.lower()
            ]
            states = ("(yes)", "(no)")
        true = [dict(x) for x in lits]
        if how == "flip":
            lits[0]["holds"] = not lits[0]["holds"]
        elif how == "drop" and len(lits) > 1:
            lits = lits[1:]
        elif how == "drop" or how == "swap":
            others = [
                n
                for n in re.findall(r"^- (.+)$", first, re.M)
                if n not in [x["statement"] for x in lits]
            ]
            lits[0]["statement"] = others[0]
        text = (
            "Remember: "
            + ", or else ".join(
                f"{x['statement']} {states[0] if x['holds'] else states[1]}" for x in lits
            )
            + "."
        )
        self.written.append((rule, text, lits == true))
        return text

    async def aclose(self) -> None:
        pass


_ALL_ENTITIES = sorted({e for t in THEMES.values() for e in t.entities}, key=len, reverse=True)


def _rule_states(rule: str) -> tuple[str, str]:
    for t in THEMES.values():
        if t.true_state in rule or t.false_state in rule:
            return t.true_state, t.false_state
    raise AssertionError(rule)


def _states(p: str, names: list[str]) -> tuple[str, str]:
    return _rule_states(p)


def rule_negates(rule: str, s: str) -> bool:
    return f"it is not the case that {s}" in rule.lower()


def read(text: str, names: list[str], yes: str, no: str) -> list[dict]:
    """The faithful reader: every name followed by its state word, in order of appearance."""
    out = []
    for n in sorted(names, key=len, reverse=True):
        for m in re.finditer(
            re.escape(n) + r" (" + re.escape(yes) + "|" + re.escape(no) + ")", text, re.I
        ):
            if not any(m.start() >= a and m.start() < b for a, b, _ in out):
                out.append((m.start(), m.end(), {"statement": n, "holds": m.group(1) == yes}))
    return [x for _, _, x in sorted(out, key=lambda t: t[0])]


def problems(n: int = 4, seed: int = 0):
    base = {"n_clauses": 9, "dims": [2, 3]}
    return lf.generate(
        "satbench", base | {"target_label": "SAT"}, count=n // 2, seed=seed
    ) + lf.generate("satbench", base | {"target_label": "UNSAT"}, count=n - n // 2, seed=seed)


def conditions_in(item) -> list[str]:
    body = item.messages[0].content.split(
        "Conditions:\n" if "Conditions:\n" in item.messages[0].content else "Clues:\n", 1
    )[1]
    body = body.split("\n\n", 1)[0]
    return [line.split(". ", 1)[1] for line in body.splitlines()]


@pytest.mark.parametrize("renderer", ["story", "story-spy", "story-heist", "story-detective"])
def test_unfaithful_conditions_never_reach_an_item(renderer: str) -> None:
    bot = StoryBot(
        ["flip", "faithful", "drop", "swap", "malformed", "faithful", "flip", "swap", "drop"]
    )
    ps = problems()
    items = narrate(ps, renderer, writer=bot)
    unfaithful: dict[str, set[str]] = {}
    for rule, t, ok in bot.written:
        if not ok and t:
            unfaithful.setdefault(rule, set()).add(t)
    assert unfaithful and any(ok for _, _, ok in bot.written)
    st = story_stats(items)[0]
    assert st["items"] == 4 and st["conditions"] == 36
    assert st["fallbacks"] > 0 and st["retried"] > 0 and st["first_try"] > 0
    for p, it in zip(ps, items, strict=True):
        story = it.metadata["story"]
        assert story["formula_equivalent"] is True
        texts = conditions_in(it)
        cnf = CNF.from_json(p.problem)
        assert len(texts) == cnf.num_clauses
        for t, c, meta in zip(texts, cnf.clauses, story["conditions"], strict=True):
            names = list(it.mapping)
            rule = (
                sat_fallback(list(c), names)
                if renderer == "story"
                else VerbaliserStyle(renderer[6:]).fallback_text(list(c), names)
            )
            assert t not in unfaithful.get(rule, ()), f"unfaithful condition reached the item: {t}"
            if meta["source"] == "llm":
                assert (rule, t, True) in bot.written
                # re-read independently of the pipeline: the same literals as the clause
                yes, no = ("(yes)", "(no)") if renderer == "story" else _rule_states(t)
                lits = read(t, list(it.mapping), yes, no)
                got = sorted(
                    (it.mapping[x["statement"]] * (1 if x["holds"] else -1) for x in lits), key=abs
                )
                assert got == sorted(c, key=abs)
            else:
                assert meta["attempts"] == 3 and len(meta["failures"]) == 3
        # the item still carries the exact formula and its label
        assert it.gold["label"] == p.label == solve(cnf).label


def test_mapping_validation_falls_back_to_template() -> None:
    for how, why in [("malformed", "no JSON"), ("duplicate", "share"), ("missing", "required")]:
        bot = StoryBot(["faithful"], mapping=how)
        it = narrate(problems(2)[:1], "story", writer=bot)[0]
        assert it.metadata["story"]["scene_source"] == "template"
        assert why in it.metadata["story"]["scene_failures"][0], it.metadata["story"][
            "scene_failures"
        ]
        assert "takes on task" in it.messages[0].content
    it = narrate(problems(2)[:1], "story", writer=StoryBot(["faithful"]))[0]
    assert it.metadata["story"]["scene_source"] == "llm"
    assert it.metadata["story"]["first_try"] == 9
    assert "crate 0 ships" in it.mapping


def score(it, text: str):
    """One response to ``it``, parsed and verified."""
    rec = {"record_id": "r", "item_id": it.item_id, "model": "m", "sample": 0, "text": text}
    return lf.score([rec], [it])[0]


def test_story_items_score_through_parse_and_verify() -> None:
    """The oracle's answer, phrased over the story's names, scores perfectly; perturbed fails."""
    ps = problems()
    items = narrate(ps, "story", writer=StoryBot(["faithful"]))
    for p, it in zip(ps, items, strict=True):
        if p.label == "SAT":
            model = {abs(x): x > 0 for x in p.oracle["model"]}
            good = {n: model[v] for n, v in it.mapping.items()}
            text = "[SAT]\n" + json.dumps({"answer": "SAT", "assignment": good})
            rec = score(it, text)
            assert rec.verdict.correct and rec.verdict.witness_valid
            bad = dict(good)
            cl = CNF.from_json(p.problem).clauses[0]
            for x in cl:  # falsify the first clause
                bad[next(n for n, v in it.mapping.items() if v == abs(x))] = x < 0
            text = "[SAT]\n" + json.dumps({"answer": "SAT", "assignment": bad})
            rec = score(it, text)
            assert not rec.verdict.witness_valid
        else:
            core = [i + 1 for i in p.oracle["mus"]]
            text = "[UNSAT]\n" + json.dumps({"answer": "UNSAT", "conflict": core})
            rec = score(it, text)
            assert (
                rec.verdict.correct
                and rec.verdict.witness_valid
                and rec.verdict.details["cited_minimal"]
            )


def test_resume_and_config_errors(tmp_path) -> None:
    out = tmp_path / "stories.jsonl"
    ps = problems()
    bot = StoryBot(["faithful", "flip"])
    first = narrate(ps[:2], "story-heist", writer=bot, out=out)
    with out.open("a") as f:
        f.write('{"item_id": "torn')  # a killed run's half line
    calls = bot.calls
    again = narrate(ps, "story-heist", writer=bot, out=out)
    assert [x.model_dump_json() for x in again[:2]] == [x.model_dump_json() for x in first]
    assert bot.calls > calls
    assert [json.loads(x)["item_id"] for x in out.read_text().splitlines()] == [
        it.item_id for it in again
    ]
    with pytest.raises(ConfigError, match="written by an LLM"):
        lf.render(ps, "story")
    with pytest.raises(ConfigError, match="attempts"):
        StoryConfig(attempts=0)
    with pytest.raises(ConfigError, match="not a story renderer"):
        narrate(ps, "formula", writer=bot)


def test_error_aware_prompt() -> None:
    it = narrate(
        problems(2)[:1], "story", writer=StoryBot(["faithful"]), cfg=StoryConfig(aware=True)
    )[0]
    assert it.rendering == "story-aware" and "satisfiability bias" in it.messages[0].content
    f = lf.render(problems(2)[:1], "formula-trace-aware")[0]
    assert "condition omission" in f.messages[0].content


def test_suite_story_block_validation_and_writer_override(tmp_path) -> None:
    from logicforge.suites import load_suite

    y = tmp_path / "s.yaml"
    y.write_text(
        "name: s\nproblems:\n  - family: satbench\n    params: {n_clauses: 5, dims: [2, 2]}\n"
        "    count: 1\nrenderers: [story-spy]\nmodels: [oracle]\n"
    )
    with pytest.raises(ConfigError, match="story"):
        load_suite(y)
    s = load_suite(y, writer="random")
    assert s.story is not None and s.story.writer == "random" and s.story.attempts == 3
    with pytest.raises(lf.errors.UnknownNameError, match="no-such-model"):
        load_suite(y, writer="no-such-model")
    assert load_suite("satbench-formula-vs-story", writer="oracle").story.writer == "oracle"


def test_stories_over_a_real_http_backend() -> None:
    """Writer and checker behind a real OpenAI-compatible server on 127.0.0.1 that only ever
    answers {"answer": ...}: every request goes over HTTP, nothing usable comes back, and every
    condition ends as the template — no crash, nothing unverified in the item."""
    from .fakeserver import FakeServer

    ps = problems(2)
    with FakeServer() as srv:
        m = lf.load_model(f"openai-compatible:{srv.base_url}:writer")
        items = narrate(ps, "story-detective", writer=m, cfg=StoryConfig(attempts=2))
        asyncio.run(m.aclose())
        assert srv.requests >= 2 * 9 * 2
    for it in items:
        st = it.metadata["story"]
        assert st["fallbacks"] == 9 and st["scene_source"] == "template"
        assert all(
            "entity extraction unusable" in f for c in st["conditions"] for f in c["failures"]
        )


@pytest.mark.parametrize("renderer", ["story-spy", "story-heist", "story-detective"])
def test_theme_state_words_are_read_as_values(renderer: str) -> None:
    p = problems(2)[0]  # a SAT formula
    it = narrate([p], renderer, writer="oracle")[0]
    model = {abs(x): x > 0 for x in p.oracle["model"]}
    words = {v: w for w, v in it.value_words.items()}
    answer = {n: words[model[v]] for n, v in it.mapping.items()}
    text = "[SAT]\n" + json.dumps({"answer": "SAT", "assignment": answer})
    rec = score(it, text)
    assert rec.verdict.correct and rec.verdict.witness_valid


def test_optional_llm_consistency_check_is_recorded_not_trusted() -> None:
    ps = problems(2)
    cfg = StoryConfig(llm_check=True)
    items = narrate(ps, "story", writer=StoryBot(["flip", "faithful"]), cfg=cfg)
    for it in items:
        chk = it.metadata["story"]["llm_check"]
        assert chk["verdict"] == {"consistent": True, "mismatched": []} and chk["error"] is None
    st = story_stats(items)[0]
    assert st["llm_checked"] == 2 and st["llm_consistent"] == 2
    # a checker that cannot answer the question leaves a recorded error, the story unchanged
    it = narrate(ps[:1], "story", writer=StoryBot(["faithful"]), checker="oracle", cfg=cfg)[0]
    assert it.metadata["story"]["llm_check"]["error"] is not None


def test_verbaliser_and_template_items_ask_for_the_same_answer() -> None:
    """Figs. 8–9 compare verbalisations, so a themed story ends with the template renderers'
    own answer instructions (decision, assignment when SAT), never SATBench's conflict list."""
    from logicforge.renderers.base import answer_instructions

    p = lf.generate("2sat/backbone", {"n_clauses": 10}, count=1, seed=3)[0]
    tmpl = lf.render([p], "logic")[0]
    story = narrate([p], "story-spy", writer="random")[0]  # every condition its fallback
    head = "Reply with your reasoning if you like, then end with one final JSON object"
    for it in (tmpl, story):
        text = it.messages[-1].content
        assert head in text and '"conflict"' not in text and "[UNSAT]" not in text
    assert story.answer_format == tmpl.answer_format == ""
    t = THEMES["spy"]
    legend = f" (true = {t.true_state}, false = {t.false_state})"
    assert story.messages[-1].content.endswith(
        answer_instructions(list(story.mapping), legend=legend)
    )
    satbench = narrate([p], "story", writer="random")[0]
    assert '"conflict"' in satbench.messages[-1].content  # SATBench's own protocol keeps its trace


def test_failed_stories_are_discarded_and_counted(tmp_path) -> None:
    """SATBench discards a story that fails validation; `on_failure: discard` does the same and
    the suite counts the discards (never silent); `template` keeps them with exact sentences."""
    from logicforge.llm.story import failed_validation
    from logicforge.suites import load_suite, run_suite

    plan = ["faithful"] * 20 + ["flip"]  # one failed condition in the third story
    ps = problems()
    kept_all = narrate(ps, "story", writer=StoryBot(plan), cfg=StoryConfig(attempts=1))
    failed = [it for it in kept_all if failed_validation(it)]
    assert failed and len(failed) < len(kept_all)  # some stories fail, some pass
    kept = narrate(
        ps, "story", writer=StoryBot(plan), cfg=StoryConfig(attempts=1, on_failure="discard")
    )
    assert [it.item_id for it in kept] == [
        it.item_id for it in kept_all if not failed_validation(it)
    ]
    with pytest.raises(ConfigError, match="on_failure"):
        StoryConfig(on_failure="ignore")

    suite = load_suite("satbench-formula-vs-story", writer="random", models=["oracle"])
    assert suite.story.on_failure == "discard"
    small = suite.with_blocks(count=1)
    run_suite(small, tmp_path, progress=False)
    st = json.loads((tmp_path / "story-discards-story.json").read_text())
    assert st["problems"] == 16 and st["discarded"] == 16 and st["discard_rate"] == 1.0
    items = [json.loads(x) for x in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert {it["rendering"] for it in items} == {"formula-trace"}  # no failed story is asked
