"""ZebraLogic's Z3 conflicts measure through Z3's C API: the same statistics, run by run, as the
Python layer builds, and the same per-puzzle means as recorded before the change
(``tests/data/z3_reference.json``, made with the Python layer on these seeds)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import logicforge as lf
from logicforge.families.zebra.clues import TYPES, Clue
from logicforge.families.zebra.z3measure import STATS, Z3_TIMEOUT_MS, z3_run

z3 = pytest.importorskip("z3")
REFERENCE = Path(__file__).parent / "data" / "z3_reference.json"


def _python_layer(n, m, clues, seed, order):
    """The measure's run as the z3 Python layer states it (the reference)."""
    ctx = z3.Context()
    pos = [[z3.Int(f"p{a}_{v}", ctx) for v in range(n)] for a in range(m)]
    s = z3.Solver(ctx=ctx)
    s.set("random_seed", seed)
    s.set("timeout", Z3_TIMEOUT_MS)
    for a in range(m):
        s.add(z3.Distinct(pos[a]), *[z3.And(x >= 0, x < n) for x in pos[a]])
    for i in order:
        c, t = clues[i], TYPES[clues[i].type]
        p = pos[c.a[0]][c.a[1]]
        if isinstance(c.second, int):
            s.add(z3.Or([p == h for h in range(n) if t.holds(h, c.second)]))
        else:
            q = pos[c.second[0]][c.second[1]]
            pairs = [(h1, h2) for h1 in range(n) for h2 in range(n) if t.holds(h1, h2)]
            s.add(z3.Or([z3.And(p == h1, q == h2) for h1, h2 in pairs]))
    res = str(s.check())
    st = s.statistics()
    keys = set(st.keys())
    return res, {k: float(st.get_key_value(k)) if k in keys else 0.0 for k in STATS}


@pytest.mark.parametrize("size", [(2, 3), (3, 3), (4, 4), (5, 4), (6, 6)])
def test_each_run_has_the_python_layers_statistics(size) -> None:
    n, m = size
    for p in lf.generate("zebra", {"n_houses": n, "n_attributes": m}, count=2, seed=13):
        clues = [Clue.from_json(c) for c in p.problem["clues"]]
        rng = np.random.default_rng(p.spawn_key[1])
        for _ in range(3):
            seed, order = int(rng.integers(2**31)), rng.permutation(len(clues)).tolist()
            assert z3_run(n, m, clues, seed, order) == _python_layer(n, m, clues, seed, order)


def test_the_measure_is_the_recorded_one_for_the_same_seeds(monkeypatch) -> None:
    monkeypatch.setenv("LOGICFORGE_CACHE_DIR", "off")
    cases = json.loads(REFERENCE.read_text())["cases"]
    assert any(c["z3"]["z3_conflicts"] > 0 for c in cases)  # the sample includes real search
    for case in cases:
        params = case["params"] | {"z3_encoding": "clue-expansion"}  # measure version 1
        ps = lf.generate("zebra", params, count=case["index"] + 1, seed=case["seed"])
        got = {k: v for k, v in ps[case["index"]].metadata.items() if k.startswith("z3_")}
        assert got == case["z3"] | {"z3_encoding": "clue-expansion"}, case


def test_timings_split_a_run_into_its_parts() -> None:
    p = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=1, seed=2)[0]
    clues = [Clue.from_json(c) for c in p.problem["clues"]]
    spent: dict[str, float] = {}
    res, stats = z3_run(4, 4, clues, 7, list(range(len(clues))), spent)
    assert res == "sat" and stats is not None and set(stats) == set(STATS)
    assert set(spent) == {"context", "build", "solve", "statistics"}
    assert all(v >= 0 for v in spent.values()) and spent["solve"] > 0
