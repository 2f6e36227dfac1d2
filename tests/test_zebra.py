"""ZebraLogic: uniqueness and irredundancy certified by an independent z3 encoding over integer
house positions (a second implementation of the clue semantics), scoring, rendering, parsing."""

from __future__ import annotations

import json
import sys
from collections import Counter

import pytest
import z3

import logicforge as lf
from logicforge.families.zebra import size_group
from logicforge.families.zebra.clues import Clue
from logicforge.kinds import parse_answer, verify


def z3_constraint(c: Clue, pos: list[list[z3.ArithRef]]) -> z3.BoolRef:
    """The clue semantics written again, independently, as integer arithmetic."""
    p = pos[c.a[0]][c.a[1]]
    if c.type == "FoundAt":
        return p == c.second
    if c.type == "NotAt":
        return p != c.second
    q = pos[c.second[0]][c.second[1]]  # type: ignore[index]
    return {
        "SameHouse": p == q,
        "DirectLeft": p + 1 == q,
        "DirectRight": p == q + 1,
        "SideBySide": z3.Or(p + 1 == q, q + 1 == p),
        "LeftOf": p < q,
        "RightOf": p > q,
        "OneBetween": z3.Or(p + 2 == q, q + 2 == p),
        "TwoBetween": z3.Or(p + 3 == q, q + 3 == p),
    }[c.type]


def count_solutions(
    d: dict, clues: list[Clue], limit: int = 2
) -> tuple[int, list[list[int]] | None]:
    n, m = d["n_houses"], d["n_attributes"]
    pos = [[z3.Int(f"p_{a}_{v}") for v in range(n)] for a in range(m)]
    s = z3.Solver()
    for a in range(m):
        s.add(z3.Distinct(pos[a]))
        s.add(*[z3.And(x >= 0, x < n) for x in pos[a]])
    s.add(*[z3_constraint(c, pos) for c in clues])
    found, first = 0, None
    while found < limit and s.check() == z3.sat:
        mod = s.model()
        vals = [[mod.eval(x).as_long() for x in row] for row in pos]
        first = first or vals
        found += 1
        s.add(z3.Or(*[x != vals[a][v] for a, row in enumerate(pos) for v, x in enumerate(row)]))
    return found, first


def hidden_pos(d: dict) -> list[list[int]]:
    rows = d["solution"]["rows"]
    return [
        [next(h for h, r in enumerate(rows) if r[a + 1] == val) for val in d["values"][a]]
        for a in range(d["n_attributes"])
    ]


SIZES = [
    (2, 2),
    (2, 4),
    (2, 6),
    (3, 2),
    (3, 3),
    (3, 5),
    (4, 2),
    (4, 4),
    (5, 3),
    (5, 5),
    (6, 4),
    (6, 6),
    (7, 3),
]


@pytest.mark.parametrize("n, m", SIZES)
def test_unique_irredundant_and_true(n: int, m: int) -> None:
    count = 20 if n * m <= 25 else 10
    for p in lf.generate("zebra", {"n_houses": n, "n_attributes": m}, count=count, seed=n * 10 + m):
        d = p.problem
        clues = [Clue.from_json(c) for c in d["clues"]]
        hidden = hidden_pos(d)
        assert all(c.holds(hidden) for c in clues)
        k, sol = count_solutions(d, clues)
        assert k == 1 and sol == hidden
        for i in range(len(clues)):  # irredundant: dropping any clue admits a second solution
            assert count_solutions(d, clues[:i] + clues[i + 1 :])[0] >= 2


def test_all_nine_types_occur_in_a_6x6_batch() -> None:
    hist: Counter[str] = Counter()
    for p in lf.generate("zebra", {"n_houses": 6, "n_attributes": 6}, count=40, seed=3):
        hist.update(p.metadata["clue_types"])
    kinds = {"DirectLeft/Right" if t in ("DirectLeft", "DirectRight") else t for t in hist}
    assert len(kinds) == 9, hist


def test_same_seed_same_puzzles_and_metadata() -> None:
    a = lf.generate("zebra", {"n_houses": 5, "n_attributes": 4}, count=5, seed=7)
    lf.generate("zebra", {"n_houses": 5, "n_attributes": 4}, count=3, seed=8)  # other work between
    b = lf.generate("zebra", {"n_houses": 5, "n_attributes": 4}, count=5, seed=7)
    assert [p.model_dump_json() for p in a] == [p.model_dump_json() for p in b]
    assert a[0].metadata["size_group"] == "Large" and a[0].metadata[
        "log10_search_space"
    ] == pytest.approx(4 * 2.0792, abs=1e-3)
    assert a[0].problem["attributes"][0] == "Name"


def test_threads_sharing_a_pool_make_the_same_puzzles() -> None:
    """Puzzles of one size share the pool's clause lists, into which each writes its selectors:
    eight threads generating at once make exactly the puzzles one thread makes."""
    from concurrent.futures import ThreadPoolExecutor

    def batch(seed: int) -> list[str]:
        ps = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=6, seed=seed)
        return [p.model_dump_json() for p in ps]

    alone = [batch(s) for s in range(8)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        with ThreadPoolExecutor(8) as ex:
            together = list(ex.map(batch, range(8)))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone
    assert len({x for b in alone for x in b}) == 48


def test_size_groups_match_the_paper() -> None:
    table = {
        "Small": ["2*2", "2*3", "2*4", "2*5", "2*6", "3*2", "3*3", "4*2"],
        "Medium": ["3*4", "3*5", "3*6", "4*3", "4*4", "5*2", "6*2"],
        "Large": ["4*5", "5*3", "4*6", "5*4", "6*3"],
        "X-Large": ["5*5", "6*4", "5*6", "6*5", "6*6"],
    }
    for group, sizes in table.items():
        for s in sizes:
            n, m = map(int, s.split("*"))
            assert size_group(n, m) == group, s


def test_oracle_scores_full_and_swapped_pair_scores_partial() -> None:
    import asyncio

    from logicforge.models.baselines import OracleBaseline

    p = lf.generate("zebra", {"n_houses": 4, "n_attributes": 3}, count=1, seed=2)[0]
    it = lf.render([p], "zebra")[0]
    text = asyncio.run(OracleBaseline().generate(lf.Prompt.of(it), lf.Sampling(), 0)).text
    v = verify(it, parse_answer(text, it))
    assert v.correct and v.score == 1.0
    sol = json.loads(text.split("\n", 1)[1])["solution"]
    sol["House 1"]["Name"], sol["House 2"]["Name"] = sol["House 2"]["Name"], sol["House 1"]["Name"]
    v = verify(it, parse_answer("```json\n" + json.dumps({"solution": sol}) + "\n```", it))
    assert not v.correct and v.score == pytest.approx(10 / 12)


@pytest.mark.parametrize(
    "text, score",
    [
        ('{"solution": {"house 1": {"name": " ARNOLD "}},}', None),
        ("no json at all", 0.0),
        ('{"solution": {"House 1": {"Name": ["x", "y"]}}}', None),
    ],
)
def test_parser_tolerance(text: str, score: float | None) -> None:
    p = lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1, seed=0)[0]
    it = lf.render([p], "zebra")[0]
    a = parse_answer(text, it)
    v = verify(it, a)
    if score == 0.0:
        assert a.parse_error and v.parse_failure and not v.correct
    else:
        assert a.label == "SAT" and 0.0 <= (v.score or 0.0) <= 0.25


def test_zebra_in_the_runner_and_metrics(tmp_path) -> None:
    ps = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=4, seed=1)
    items = lf.render(ps, "zebra")
    for m in ("oracle", "always-sat", "random"):
        lf.run(items, m, tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    agg = {r["model"]: r for r in lf.metrics.aggregate(recs)}
    assert agg["oracle"]["accuracy"] == 1.0 and agg["oracle"]["cell_accuracy"] == 1.0
    assert agg["always-sat"]["accuracy"] == 0.0 and agg["always-sat"]["cell_accuracy"] == 0.0


def test_zebra_suite_and_random_baseline(tmp_path) -> None:
    from logicforge.suites import load_suite, run_suite

    suite = load_suite("zebra-grid")
    run_suite(
        suite.with_blocks(count=2, grid={"n_houses": [2, 3], "n_attributes": [2, 3]}),
        tmp_path,
        progress=False,
    )
    rows = {
        r.split(",")[0] + "," + r.split(",")[1]: r
        for r in (tmp_path / "report" / "metrics_by_model_size_group.csv").read_text().splitlines()
    }
    assert "oracle,Small" in rows
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    rand = [r for r in recs if r["model"] == "random"]
    assert rand and all(
        r["verdict"]["score"] is not None and not r["verdict"]["parse_failure"] for r in rand
    )
    assert (tmp_path / "report" / "cell_accuracy_vs_search_space.png").exists()


@pytest.mark.embedded
def test_embedded_model_on_a_zebra_puzzle(tmp_path) -> None:
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    items = lf.render(
        lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1, seed=0), "zebra"
    )
    c = lf.run(
        items,
        "embedded",
        tmp_path / "r.jsonl",
        sampling=lf.Sampling(max_tokens=160, structured=True),
    )
    r = json.loads((tmp_path / "r.jsonl").read_text())
    assert c["errors"] == 0 and r["verdict"] is not None and r["verdict"]["score"] is not None


def test_z3_conflicts_measure_and_figure(tmp_path) -> None:
    ps = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4, "z3_runs": 4}, count=6, seed=3)
    # measured on every puzzle; Z3 decides on most 4×4 grids (some fall to propagation alone)
    assert all(p.metadata["z3_decisions"] is not None for p in ps)
    assert sum(p.metadata["z3_decisions"] > 0 for p in ps) >= len(ps) // 2
    small = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3, "z3_runs": 4}, count=6, seed=3)
    big = lf.generate("zebra", {"n_houses": 5, "n_attributes": 5, "z3_runs": 4}, count=6, seed=3)

    def mean(xs: list) -> float:
        return sum(p.metadata["z3_conflicts"] for p in xs) / len(xs)

    assert mean(big) > mean(small) > 0  # the measure grows with the puzzle
    ps += lf.generate("zebra", {"n_houses": 2, "n_attributes": 2, "z3_runs": 4}, count=3, seed=3)
    lf.run(lf.render(ps, "zebra"), "oracle", tmp_path / "r.jsonl")
    lf.report(tmp_path / "r.jsonl", tmp_path / "rep", ps)
    assert (tmp_path / "rep" / "accuracy_by_z3_conflicts.csv").exists()
    mix = (tmp_path / "rep" / "clue_mix.csv").read_text().splitlines()
    assert mix[0].startswith("size,puzzles,clues_mean,clues_median,") and "z3_conflicts" in mix[0]
    assert [r.split(",")[0] for r in mix[1:]] == ["2*2", "4*4", "all"]


@pytest.mark.parametrize("name", ["zebra-shuffle", "zebra-rename"])
def test_zebra_perturbations_keep_the_unique_solution(name: str) -> None:
    ps = lf.generate("zebra", {"n_houses": 4, "n_attributes": 3}, count=5, seed=9)
    for p, q in zip(ps, lf.transform(ps, name), strict=True):
        d = q.problem
        clues = [Clue.from_json(c) for c in d["clues"]]
        k, sol = count_solutions(d, clues)
        assert k == 1 and sol == hidden_pos(d) and q.label == p.label
        assert sorted(map(json.dumps, d["clues"])) == sorted(map(json.dumps, p.problem["clues"]))
        if name == "zebra-rename":
            assert d["values"] != p.problem["values"] or d["solution"] == p.problem["solution"]
        it = lf.render([q], "zebra")[0]
        assert q.metadata["transforms"][-1]["name"] == name and it.transforms == [name]
    with pytest.raises(lf.ConfigError, match="applies to zebra problems"):
        lf.transform(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1), name)


def test_zebra_perturb_suite_reports_flip_rate(tmp_path) -> None:
    from logicforge.suites import load_suite, run_suite

    suite = load_suite("zebra-perturb")
    run_suite(
        suite.with_blocks(count=2, grid={"n_houses": [3], "n_attributes": [3]}),
        tmp_path,
        progress=False,
    )
    ag = (tmp_path / "report" / "agreement.csv").read_text()
    assert (
        "oracle,original,clue-order,2,1.0,0.0" in ag and "oracle,original,renamed,2,1.0,0.0" in ag
    )


def test_contradictory_twins_are_verified_and_scored_with_adr(tmp_path) -> None:
    from logicforge.metrics.adr import adr_table
    from logicforge.transforms.pair import make_pairs

    ps = lf.generate("zebra", {"n_houses": 4, "n_attributes": 3}, count=8, seed=5)
    pairs, skipped = make_pairs(ps)
    assert skipped == 0 and len(pairs) == 16
    for s, t in zip(pairs[::2], pairs[1::2], strict=True):
        cs = [Clue.from_json(c) for c in s.problem["clues"]]
        ct = [Clue.from_json(c) for c in t.problem["clues"]]
        assert count_solutions(s.problem, cs)[0] == 1 and count_solutions(t.problem, ct)[0] == 0
        assert sum(a != b for a, b in zip(cs, ct, strict=True)) == 1 and len(cs) == len(ct)
        assert (s.label, t.label) == ("SAT", "UNSAT") and s.metadata["pair_id"] == t.metadata[
            "pair_id"
        ]
    items = lf.render(pairs, "zebra-pairs")
    assert 'solution": null' in items[1].messages[0].content
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    row = adr_table(recs)[0]
    assert row["adr"] == 1.0 and row["pairs"] == 8
    it = items[0]
    assert parse_answer('{"reasoning": "contradiction", "solution": null}', it).label == "UNSAT"
    assert not verify(it, parse_answer('{"solution": null}', it)).correct


@pytest.mark.parametrize(
    "text, choice",
    [
        ('{"answer": "B"}', "B"),
        ("Final answer: (C)", "C"),
        ("The answer is a tricky one", None),
        ('{"answer": "<letter>"}', None),
        ("option D", "D"),
    ],
)
def test_multiple_choice_cell_mode(text: str, choice: str | None) -> None:
    p = lf.generate("zebra", {"n_houses": 4, "n_attributes": 3}, count=1, seed=0)[0]
    it = lf.render([p], "zebra-mc")[0]
    cell = it.gold["cell"]
    row = p.problem["solution"]["rows"][cell["house"] - 1]
    assert row[p.problem["attributes"].index(cell["attribute"]) + 1] == cell["value"]
    a = parse_answer(text, it)
    assert a.label == choice
    assert verify(it, parse_answer(json.dumps({"answer": cell["letter"]}), it)).correct
    assert verify(it, parse_answer(json.dumps({"answer": cell["value"]}), it)).correct


def test_cell_accuracy_is_correct_cells_over_all_cells() -> None:
    """Hand-computed: a 3×3 grid all right (9 of 9) and a 5×4 grid unanswered (0 of 20):
    ZebraLogic's cell accuracy is 9 / 29; the macro mean of fractions (0.5) is a named extra."""
    from logicforge.metrics import aggregate

    def rec(h: int, a: int, verdict: dict) -> dict:
        meta = {"kind": "zebra", "label": "SAT", "n_houses": h, "n_attributes": a}
        return {"model": "m", "meta": meta, "answer": {"label": "SAT"}, "verdict": verdict}

    full = {"correct": True, "score": 1.0, "details": {"cells_right": 9, "cells_total": 9}}
    none = {"correct": False, "parse_failure": True}
    row = aggregate([rec(3, 3, full), rec(5, 4, none)])[0]
    assert row["cell_accuracy"] == pytest.approx(9 / 29)
    assert row["cell_accuracy_macro"] == pytest.approx(0.5)


def test_zebralogic_table1_in_the_papers_layout(tmp_path) -> None:
    """ZebraLogic's Table 1: per model, grid accuracy overall and per size group (in size
    order), cell accuracy and no-answer share, in %, from a scripted model that is right on some
    puzzles, wrong on others and silent on one — the numbers follow from the records."""
    from logicforge.kinds import answer_format
    from logicforge.models.base import Response
    from logicforge.runner.records import score_response

    ps = lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=3, seed=1) + lf.generate(
        "zebra", {"n_houses": 4, "n_attributes": 4}, count=3, seed=1
    )
    items = lf.render(ps, "zebra")
    recs = []
    for i, it in enumerate(items):
        oracle = answer_format(it).oracle(it)
        text = answer_format(it).to_text(oracle, it)
        if i % 3 == 1:  # wrong: two houses swapped in one attribute
            text = answer_format(it).to_text(answer_format(it).wrong(it), it)
        if i % 3 == 2 and i > 3:  # no answer at all
            text = "I give up."
        recs.append(score_response(it, "scripted", 0, Response(text=text)).model_dump(mode="json"))
    lf.report(recs, tmp_path / "rep", ps)

    md = (tmp_path / "rep" / "zebralogic_table1.md").read_text().splitlines()  # as written
    head = [c.strip() for c in md[0].strip("|").split("|")]
    assert head == ["model", "n", "Overall", "Small <10^3", "Medium 10^3–10^6",
                    "Large 10^6–10^9", "X-Large >10^9", "Cell-level Acc.", "No answer"]  # fmt: skip
    row = [c.strip() for c in md[2].strip("|").split("|")]
    sizes = {it.item_id: it.metadata["size_group"] for it in items}
    correct = [r["verdict"]["correct"] for r in recs]
    by_group: dict[str, list[bool]] = {}
    for r, ok in zip(recs, correct, strict=True):
        by_group.setdefault(sizes[r["item_id"]], []).append(ok)
    assert float(row[2]) == round(100 * sum(correct) / len(correct), 1)
    for col, g in zip(head[3:7], ["Small", "Medium", "Large", "X-Large"], strict=True):
        got = row[head.index(col)]
        want = by_group.get(g)
        assert got == ("—" if want is None else f"{round(100 * sum(want) / len(want), 1):.1f}"), (
            col,
            got,
        )
    size = {it.item_id: it.problem["n_houses"] * it.problem["n_attributes"] for it in items}
    right = sum((r["verdict"].get("details") or {}).get("cells_right", 0) for r in recs)
    total = sum(size[r["item_id"]] for r in recs)  # an unanswered grid has all its cells wrong
    assert float(row[7]) == round(100 * right / total, 1)
    silent = sum(r["answer"]["parse_error"] is not None for r in recs)
    assert silent == 1 and float(row[8]) == round(100 * silent / 6, 1)


def test_z3_conflicts_cached_by_content_give_identical_statistics(tmp_path, monkeypatch) -> None:
    """The Z3 conflicts measure (the paper's 32 shuffled runs) is kept by content: the same
    seeds give byte-identical problems with the cache off, filling it, and reading it back —
    and reading it back runs no Z3 at all."""
    import json as _json
    import time as _time

    from logicforge.families.zebra import z3measure as zg

    params = {"n_houses": 4, "n_attributes": 3, "z3_runs": 32}

    def dump() -> list[str]:
        ps = lf.generate("zebra", params, count=4, seed=11)
        return [p.model_dump_json() for p in ps]

    monkeypatch.setenv("LOGICFORGE_CACHE_DIR", "off")
    plain = dump()
    monkeypatch.setenv("LOGICFORGE_CACHE_DIR", str(tmp_path))
    t0 = _time.perf_counter()
    filled = dump()
    cold = _time.perf_counter() - t0
    assert filled == plain
    files = list((tmp_path / "z3").rglob("*.json"))
    assert len(files) == 4 and all("z3_conflicts" in _json.loads(f.read_text()) for f in files)
    monkeypatch.setattr(zg, "Z3_TIMEOUT_MS", zg.Z3_TIMEOUT_MS)  # same key: nothing else changed
    calls = []
    real = zg._z3_cache_put
    monkeypatch.setattr(zg, "_z3_cache_put", lambda k, o: calls.append(k) or real(k, o))
    assert dump() == plain and not calls  # every measurement read back, none recomputed
    assert cold >= 0
    first = _json.loads(plain[0])["metadata"]
    assert first["z3_conflicts"] is not None


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_forked_child_generates_while_the_parent_holds_a_pool_lock() -> None:
    """A fork taken while another thread writes its selectors (the pool's lock held) leaves the
    child a lock of its own: the child generates instead of waiting for ever."""
    import multiprocessing as mp

    from logicforge.families.zebra import generate as zg
    from logicforge.families.zebra.encoding import size_pool

    pool = size_pool(4, 4, zg.ALL_TYPES)
    ctx = mp.get_context("fork")
    with pool.lock:  # as if a thread were inside the selector writing at the fork
        child = ctx.Process(target=_generate_one_4x4)
        child.start()
        child.join(30)
    alive = child.is_alive()
    if alive:
        child.kill()
    assert not alive and child.exitcode == 0


def _generate_one_4x4() -> None:
    lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=1, seed=3)


def test_the_paper_suites_reach_x_large_with_the_public_clue_types() -> None:
    """`zebra-bon` had no X-Large puzzle (Table 2's X-Large column read "—") and both suites
    could write "directly right of", which ZebraLogic's public puzzles never do."""
    import itertools

    from logicforge.families.zebra.clues import TYPES
    from logicforge.families.zebra.generate import size_group
    from logicforge.suites import load_suite

    for name in ("zebra-bon", "zebra-grid"):
        block = load_suite(name).problems[0]
        assert "DirectRight" not in block.params["clue_types"]
        assert set(block.params["clue_types"]) == set(TYPES) - {"DirectRight"}
        sizes = itertools.product(block.grid["n_houses"], block.grid["n_attributes"])
        assert {size_group(n, m) for n, m in sizes} == {"Small", "Medium", "Large", "X-Large"}
    ps = lf.generate(
        "zebra", load_suite("zebra-bon").problems[0].params | {"z3_runs": 0}, count=30, seed=1
    )
    assert all("DirectRight" not in p.metadata["clue_types"] for p in ps)
