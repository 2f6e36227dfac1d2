"""The five papers, round three: outputs that printed wrong numbers or words, each checked on
the command that showed it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_reproduce_names_the_zebralogic_reward_model() -> None:
    """The doc said the paper's reward model "is not named beyond 'a reward model'"; §5 names
    Skywork-Reward-Llama-3.1-8B-v0.2."""
    doc = (ROOT / "docs" / "reproduce.md").read_text(encoding="utf-8")
    assert "Skywork-Reward-Llama-3.1-8B-v0.2" in doc and "not named" not in doc


def test_filler_arms_have_the_stated_core_and_the_table_counts_every_filler() -> None:
    """`filler_regimes.md` printed `(75, 0) | core 75 | fillers 0` for implication cycles whose
    generator had put 36 fillers beside a 39-clause core."""
    import logicforge as lf
    from logicforge.reports.twosat_studies import _fillers
    from logicforge.suites.suite import load_suite

    suite = load_suite("twosat-fillers")
    cycles = [b for b in suite.problems if b.family == "2sat/implication-cycle"]
    assert cycles and all(b.params["filler_ratio"] == 0.0 for b in cycles)
    for b in cycles:
        (p,) = lf.generate(b.family, b.params, count=1, seed=0)
        assert p.metadata["core_size"] == b.params["n_clauses"] and p.metadata["filler_count"] == 0
    meta = {"filler_count": 36, "transforms": [{"name": "filler", "fillers": 25}]}
    assert _fillers(meta) == 61  # the generator's own and the transform's


def test_a_one_formula_comparison_shows_its_observed_difference() -> None:
    """`variant_tests.md` read `33.3 | 100.0 | diff 0.000` for a group of one formula."""
    from logicforge.reports.twosat_studies import _compare

    row = _compare("m", "f", "shuffled", "construction", {"p1": 1 / 3}, {"p1": 1.0})
    assert abs(row["diff"] - (1 / 3 - 1.0)) < 1e-9 and row["p"] is None  # no test on one
    row = _compare("m", "f", "shuffled", "construction", {"p1": 0.5}, {"p1": 0.5})
    assert row["diff"] == 0.0


def test_the_llm_verbalisers_prompt_keeps_its_verb() -> None:
    """Every story item read "Each of the butler, …, the professor either guilty or innocent"."""
    from logicforge.llm.verbaliser import either

    assert either("is guilty", "is innocent") == "is either guilty or innocent"
    assert either("is a double agent", "is loyal") == "is either a double agent or loyal"


def test_story_puzzles_that_fail_validation_are_discarded_by_default() -> None:
    """`suite satbench --renderer story --writer W` fell back to templates for 718 of 718
    conditions and exited 0; SATBench discards such puzzles, as satbench-formula-vs-story did."""
    from logicforge.suites.suite import load_suite

    assert load_suite("satbench", writer="random").story.on_failure == "discard"
    assert load_suite("satbench-formula-vs-story").story.on_failure == "discard"
    assert load_suite("twosat-llm-verbaliser").story.on_failure == "template"  # §4, by name
