"""The 2-SAT paper's Tables 4 and 5 (truncation rate; SAT predicted on UNSAT instances) per
generator × |C| and model, from scripted replies that are right, wrong, truncated and refusing on
different items."""

from __future__ import annotations

import csv
from collections import defaultdict

import logicforge as lf


def _scripted(items: list[lf.Item], model: str, salt: int) -> list[dict]:
    replies = ["SAT", "UNSAT", "Let me check whether", "I cannot help with that."]
    out = []
    for i, it in enumerate(items):
        k = (i * 7 + salt) % 5
        text = replies[min(k, 3)]
        out.append(
            {
                "record_id": f"{model}-{i}",
                "item_id": it.item_id,
                "model": model,
                "sample": 0,
                "text": f"The answer is {text}" if k < 2 else text,
                "finish_reason": "length" if k == 2 else "stop",
            }
        )
    return out


def test_tables_4_and_5_follow_from_the_records(tmp_path) -> None:
    ps = []
    for n in (10, 20):
        ps += lf.generate("2sat/implication-cycle", {"n_clauses": n}, count=3, seed=n)
    ps += lf.generate("2sat/backbone", {"n_clauses": 20}, count=3, seed=1)
    items = lf.render(ps, "logic")
    raw = _scripted(items, "m1", 0) + _scripted(items, "m2", 3)
    recs = [r.model_dump() for r in lf.score(raw, items)]
    lf.report(recs, tmp_path, ps, table=["family", "target_clauses"])
    trunc: dict[tuple, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    sat_unsat: dict[tuple, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in recs:
        m_ = r["meta"]
        key = (m_["family"], str(m_["target_clauses"]))
        trunc[key][r["model"]].append(r["finish_reason"] == "length")
        if m_["label"] == "UNSAT":
            pred = (r.get("answer") or {}).get("label")
            sat_unsat[key][r["model"]].append(pred == "SAT")
    for file, want in (("table4.csv", trunc), ("table5.csv", sat_unsat)):
        with (tmp_path / file).open() as f:
            rows = list(csv.DictReader(f))
        assert list(rows[0]) == ["family", "target_clauses", "n", "m1", "m2"]
        assert {(r["family"], r["target_clauses"]) for r in rows} == set(want)
        for r in rows:
            cell = want[(r["family"], r["target_clauses"])]
            for m in ("m1", "m2"):
                assert float(r[m]) == round(100 * sum(cell[m]) / len(cell[m]), 1), (file, r, m)
    with (tmp_path / "table5.csv").open() as f:
        t5 = list(csv.DictReader(f))
    assert {r["family"] for r in t5} == {"2sat/implication-cycle"}  # SAT-only generator left out
    with (tmp_path / "table4.csv").open() as f:
        order = [(r["family"], r["target_clauses"]) for r in csv.DictReader(f)]
    assert order == [  # generators by name, sizes in numeric order
        ("2sat/backbone", "20"),
        ("2sat/implication-cycle", "10"),
        ("2sat/implication-cycle", "20"),
    ]
    assert any(float(r["m1"]) > 0 for r in t5) and any(float(r["m1"]) < 100 for r in t5)
