"""Reductions: label preservation against independent exact solvers (OR-Tools CP-SAT), witness
round trips, rejection of perturbed certificates, and maps back to models."""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest
from ortools.sat.python import cp_model

import logicforge as lf
from logicforge import CNF
from logicforge.kinds import parse_answer, verify
from logicforge.models.baselines import OracleBaseline
from logicforge.reductions import reduce_problem
from logicforge.reductions.packing import check_placement, placement_to_assignment
from logicforge.reductions.vertex_cover import check_cover, cover_to_assignment
from logicforge.transforms.pair import make_pairs

from . import xsat


def random_formulas(count: int, seed: int) -> list[lf.LabelledProblem]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        n = int(rng.integers(2, 7))
        m = int(rng.integers(1, 3 * n + 2))
        k = int(rng.integers(1, min(3, n) + 1))
        out.append(
            lf.generate(
                "ksat/random",
                {"n_vars": n, "k": k, "n_clauses": m},
                count=1,
                seed=seed * 10_000 + i,
            )[0]
        )
    return out


def has_vertex_cover(num_nodes: int, edges: list[list[int]], k: int) -> bool:
    """Exact decision with CP-SAT: is there a cover of at most k nodes?"""
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in range(num_nodes + 1)]
    for u, v in edges:
        m.AddBoolOr([x[u], x[v]])
    m.Add(sum(x[1:]) <= k)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def packing_feasible(d: dict) -> bool:
    """Generic exact packing: each object picks one candidate cell set; no cell used twice."""
    m = cp_model.CpModel()
    cells: dict[tuple[int, int, int], list] = {}
    n, layers = d["columns"], d["layers"]
    for v in range(1, n + 1):
        opts = [m.NewBoolVar(f"r{v}_{y}") for y in (0, 1)]
        m.AddExactlyOne(opts)
        for y, b in zip((0, 1), opts, strict=True):
            for z in range(1, layers + 1):
                cells.setdefault((v, y, z), []).append(b)
    for j, cands in enumerate(d["cube_cells"]):
        opts = [m.NewBoolVar(f"c{j}_{t}") for t in range(len(cands))]
        m.AddExactlyOne(opts)
        for c, b in zip(cands, opts, strict=True):
            cells.setdefault(tuple(c), []).append(b)
    for bs in cells.values():
        m.AddAtMostOne(bs)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    return s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _oracle(item: lf.Item) -> dict:
    text = asyncio.run(OracleBaseline().generate(lf.Prompt.of(item), lf.Sampling(), 0)).text
    return json.loads(text.split("\n", 1)[1])


def test_vertex_cover_on_500_formulas() -> None:
    seen = {"SAT": 0, "UNSAT": 0}
    for p in random_formulas(500, 1):
        src_sat = xsat.solve([list(c) for c in p.problem["clauses"]]) != "UNSAT"
        q = reduce_problem(p, "vc")
        d = q.problem
        assert has_vertex_cover(d["num_nodes"], d["edges"], d["k"]) == src_sat == (p.label == "SAT")
        seen[p.label] += 1
        it = lf.render([q], "vc")[0]
        ans = _oracle(it)
        v = verify(it, parse_answer(json.dumps(ans), it))
        assert v.correct and v.witness_valid in (True, None)
        if ans["answer"] == "YES":
            cover = ans["cover"]
            assert check_cover(d, cover) == ""
            assert CNF.from_json(p.problem).evaluate(cover_to_assignment(d, set(cover)))
            dropped = cover[1:]
            assert check_cover(d, dropped) != ""  # one vertex removed: an edge is uncovered
            bad = verify(it, parse_answer(json.dumps({"answer": "YES", "cover": dropped}), it))
            assert bad.correct and bad.witness_valid is False
    assert min(seen.values()) >= 50


def test_packing_on_500_formulas() -> None:
    seen = {"SAT": 0, "UNSAT": 0}
    rng = np.random.default_rng(7)
    for p in random_formulas(500, 2):
        q = reduce_problem(p, "packing")
        d = q.problem
        assert packing_feasible(d) == (p.label == "SAT")
        seen[p.label] += 1
        it = lf.render([q], "packing")[0]
        ans = _oracle(it)
        v = verify(it, parse_answer(json.dumps(ans), it))
        assert v.correct and v.witness_valid in (True, None)
        if ans["answer"] != "YES":
            continue
        pl = ans["placement"]
        assert check_placement(d, pl) == ""
        assert CNF.from_json(p.problem).evaluate(placement_to_assignment(d, pl))
        j = int(rng.integers(1, d["layers"] + 1))
        # (1) overlap: put cube j on a cell its column's rod occupies (if one of its cells is blocked)
        blocked = [c for c in d["cube_cells"][j - 1] if pl[f"R{c[0]}"][1] == c[1]]
        if blocked:
            assert "overlap" in check_placement(d, pl | {f"C{j}": blocked[0]})
        # (2) cube moved to a cell it may not use (another layer)
        x, y, z = pl[f"C{j}"]
        moved = [x, y, z % d["layers"] + 1] if d["layers"] > 1 else [x, 1 - y, z]
        if moved not in d["cube_cells"][j - 1]:
            assert check_placement(d, pl | {f"C{j}": moved}) != ""
        # (3) an object missing, (4) a rod out of its column
        assert "not placed" in check_placement(d, {k: v for k, v in pl.items() if k != f"C{j}"})
        assert check_placement(d, pl | {"R1": [2, 0, 1]}) != ""
        bad = verify(
            it,
            parse_answer(json.dumps({"answer": "YES", "placement": pl | {f"C{j}": [0, 0, 0]}}), it),
        )
        assert bad.correct and bad.witness_valid is False
    assert min(seen.values()) >= 50


def test_reduction_kinds_and_baselines(tmp_path) -> None:
    ps = lf.generate("ksat/random", {"n_vars": 5, "alpha": 4.5}, count=6, seed=3)
    for kind in ("vc", "packing"):
        items = lf.render(lf.reduce(ps, kind), kind)
        assert all(it.kind == kind and it.answer_schema for it in items)
        for m in ("oracle", "always-sat", "always-unsat", "random"):
            lf.run(items, m, tmp_path / f"{kind}.jsonl")
        recs = [json.loads(x) for x in (tmp_path / f"{kind}.jsonl").read_text().splitlines()]
        agg = {r["model"]: r for r in lf.metrics.aggregate(recs)}
        assert agg["oracle"]["accuracy"] == 1.0 and agg["oracle"]["witness_valid_on_sat"] in (
            1.0,
            None,
        )
        assert agg["always-sat"]["witness_valid_on_sat"] in (0.0, None)
    with pytest.raises(lf.ConfigError, match="renders vc problems"):
        lf.render(ps, "vc")
    with pytest.raises(lf.ConfigError, match="representation"):
        lf.reduce(ps, "sudoku")


@pytest.mark.parametrize(
    "text, decision",
    [
        ("YES", "SAT"),
        ("NO", "UNSAT"),
        ("Answer: no", "UNSAT"),
        ("Final answer: YES", "SAT"),
        ("yes or no?", None),
        ("YES and NO", None),
        ('{"answer": "YES", "cover": [1, 2]}', "SAT"),
        ('{"answer": "no"}', "UNSAT"),
    ],
)
def test_yes_no_parsing(text: str, decision: str | None) -> None:
    p = lf.generate("ksat/random", {"n_vars": 3, "n_clauses": 2}, count=1, seed=0)[0]
    it = lf.render(lf.reduce([p], "vc"), "vc")[0]
    assert parse_answer(text, it).label == decision


def test_satlib_flat_instances_load_as_colourings(shared_data) -> None:
    from logicforge.families.coloring import load_flat_problem

    files = sorted((shared_data / "satlib" / "flat30-60").glob("*.cnf"))
    assert len(files) == 100
    for f in files:
        p = load_flat_problem(f)
        assert (p.problem["num_nodes"], len(p.problem["edges"]), p.problem["k"], p.label) == (
            30,
            60,
            3,
            "SAT",
        )
        it = lf.render([p], "coloring")[0]
        v = verify(it, parse_answer(_oracle_text(it), it))
        assert v.correct and v.witness_valid


def _oracle_text(it: lf.Item) -> str:
    return asyncio.run(OracleBaseline().generate(lf.Prompt.of(it), lf.Sampling(), 0)).text


def test_colouring_twins_are_minimal_graph_edits() -> None:
    from logicforge.families.coloring import encode

    ps = lf.generate(
        "coloring/planted", {"n_nodes": 10, "k": 3, "edge_density": 2.2}, count=20, seed=4
    )
    pairs, skipped = make_pairs(ps)
    assert len(pairs) // 2 + skipped == 20 and len(pairs) >= 20
    for s, t in zip(pairs[::2], pairs[1::2], strict=True):
        es, et = {tuple(e) for e in s.problem["edges"]}, {tuple(e) for e in t.problem["edges"]}
        assert (
            es < et and len(et - es) == 1 and list(et - es)[0] == tuple(t.metadata["edit"]["edge"])
        )
        n, k = s.problem["num_nodes"], s.problem["k"]
        assert xsat.solve([list(c) for c in encode(n, s.problem["edges"], k).clauses]) != "UNSAT"
        assert xsat.solve([list(c) for c in encode(n, t.problem["edges"], k).clauses]) == "UNSAT"
        assert brute_colourable(n, t.problem["edges"], k) is False and brute_colourable(
            n, s.problem["edges"], k
        )


def brute_colourable(n: int, edges: list[list[int]], k: int) -> bool:
    """Independent check by backtracking over nodes."""
    adj: dict[int, set[int]] = {v: set() for v in range(1, n + 1)}
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    col: dict[int, int] = {}

    def go(v: int) -> bool:
        if v > n:
            return True
        for c in range(k):
            if all(col.get(w) != c for w in adj[v]):
                col[v] = c
                if go(v + 1):
                    return True
                del col[v]
        return False

    return go(1)


def test_adr_flat_suite_reproduces_section_9_layout(shared_data, tmp_path, monkeypatch) -> None:
    """§9: SATLIB flat30 graphs paired by one added edge, as colouring and as CNF; the
    conventional-vs-ADR table's cells follow from the records of a scripted model that is right
    on some items and wrong on others."""
    import csv
    import json

    from logicforge.suites import load_suite, run_suite

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    suite = load_suite("adr-flat", models=["oracle", "noisy:p=0.7"])
    small = suite.with_blocks(count=8)
    rep = run_suite(small, tmp_path, progress=False).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert {r["meta"]["n_nodes"] for r in recs} == {30}
    with (rep / "conventional_vs_adr.csv").open() as f:
        rows = list(csv.DictReader(f))
    cols = ["model", "variant", "n", "precision", "recall", "f1", "accuracy", "pairs", "adr"]
    assert list(rows[0]) == cols
    assert {(r["model"], r["variant"]) for r in rows} == {
        (m, v) for m in ("oracle", "noisy:p=0.7") for v in ("coloring", "cnf")
    }
    for r in rows:
        mine = [
            x for x in recs if x["model"] == r["model"] and x["meta"]["variant"] == r["variant"]
        ]
        ok = [bool(x["verdict"]["correct"]) for x in mine]
        assert int(r["n"]) == len(mine) and float(r["accuracy"]) == pytest.approx(
            sum(ok) / len(ok), abs=5e-4
        )
        pred_sat = [x for x in mine if (x.get("answer") or {}).get("label") == "SAT"]
        tp = sum(x["meta"]["label"] == "SAT" for x in pred_sat)
        assert float(r["precision"]) == pytest.approx(tp / len(pred_sat), abs=5e-4)
        pairs: dict[str, list[bool]] = {}
        for x in mine:
            pairs.setdefault(x["meta"]["pair_id"], []).append(bool(x["verdict"]["correct"]))
        assert int(r["pairs"]) == len(pairs)
        assert float(r["adr"]) == pytest.approx(
            sum(all(v) for v in pairs.values()) / len(pairs), abs=5e-4
        )
    noisy = [float(r["adr"]) for r in rows if r["model"] != "oracle"]
    assert all(0 <= a < 1 for a in noisy)
