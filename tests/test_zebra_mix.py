"""The zebra family's default clue mix against ZebraLogic's public puzzles (``clues.MIX``), and
the report's ``clue_mix`` table recomputed from the problems."""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter

import logicforge as lf
from logicforge.families.zebra.clues import CLUES_PER_PUZZLE, MIX, MIX_TOLERANCE, TYPES
from logicforge.reports.compute import clue_mix

# ZebraLogic's clue sentences, one pattern per type (its templates; anything else is SameHouse)
PATTERNS = [
    ("NotAt", r" is not in the \w+ house"),
    ("FoundAt", r" is in the \w+ house"),
    ("DirectLeft", r"directly left of"),
    ("DirectRight", r"directly right of"),
    ("SideBySide", r"next to each other"),
    ("LeftOf", r"somewhere to the left of"),
    ("RightOf", r"somewhere to the right of"),
    ("OneBetween", r"one house between"),
    ("TwoBetween", r"two houses between"),
]


def _paper_sizes(count: int, seed: int) -> list[lf.LabelledProblem]:
    out = []
    for n in range(2, 7):
        for m in range(2, 7):
            out += lf.generate(
                "zebra", {"n_houses": n, "n_attributes": m}, count=count, seed=seed + 10 * n + m
            )
    return out


def test_reference_mix_is_the_public_puzzles(shared_data) -> None:
    data = json.loads(
        (
            shared_data / "zeroeval" / "zebra-grid_Meta-Llama-3.1-405B-Instruct@hyperbolic.json"
        ).read_text(encoding="utf-8")
    )
    c: Counter[str] = Counter()
    for x in data:
        for s in re.findall(r"^\d+\. (.*)$", x["puzzle"].split("## Clues:")[1], re.M):
            c[next((t for t, pat in PATTERNS if re.search(pat, s)), "SameHouse")] += 1
    total = sum(c.values())
    assert total == 176
    assert set(MIX) == set(TYPES)
    for t in TYPES:
        assert abs(MIX[t] - c[t] / total) < 0.001, t


def test_default_mix_within_tolerance_of_zebralogic() -> None:
    ps = _paper_sizes(8, 100)  # other seeds than those the weights were fitted on
    c: Counter[str] = Counter()
    for p in ps:
        c.update(p.metadata["clue_types"])
    total = sum(c.values())
    for t in TYPES:
        assert abs(c[t] / total - MIX[t]) <= MIX_TOLERANCE, (t, c[t] / total, MIX[t])
    n = [p.metadata["n_clues"] for p in ps]
    mean, median = CLUES_PER_PUZZLE
    assert abs(statistics.mean(n) - mean) <= 0.6
    assert abs(statistics.median(n) - median) <= 1  # 9 or 10 here, by seed
    assert c["FoundAt"] < c["NotAt"]  # the simpler clue is removed more often, as the paper


def test_weights_move_the_mix() -> None:
    """The knob is live: favouring SameHouse over everything else raises its share."""
    base = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=10, seed=1)
    only = lf.generate(
        "zebra",
        {"n_houses": 4, "n_attributes": 4, "weights": {"SameHouse": 100.0}},
        count=10,
        seed=1,
    )

    def share(ps: list[lf.LabelledProblem]) -> float:
        c: Counter[str] = Counter()
        for p in ps:
            c.update(p.metadata["clue_types"])
        return c["SameHouse"] / sum(c.values())

    assert share(only) > share(base) + 0.1


def test_clue_mix_table_follows_from_the_problems() -> None:
    ps = [
        {"metadata": {"size": "3*2", "n_clues": 3, "clue_types": {"FoundAt": 1, "NotAt": 2}}},
        {
            "metadata": {
                "size": "2*2",
                "n_clues": 2,
                "clue_types": {"SameHouse": 2},
                "z3_conflicts": 4.0,
            }
        },
        {"metadata": {"size": "2*2", "n_clues": 4, "clue_types": {"SameHouse": 1, "NotAt": 3}}},
        {"metadata": {"alpha": 4.2}},  # not a grid puzzle: ignored
    ]
    rows = clue_mix(ps)
    assert [r["size"] for r in rows] == ["2*2", "3*2", "all"]  # sizes in size order, then all
    r22, r32, everything = rows
    assert r22["puzzles"] == 2 and r22["clues_mean"] == 3 and r22["clues_median"] == 3
    assert r22["SameHouse"] == 0.5 and r22["NotAt"] == 0.5 and r22["FoundAt"] == 0.0
    assert r22["z3_conflicts"] == 4.0  # the mean of the measured ones only
    assert r32["z3_conflicts"] is None  # not measured: empty, never 0
    assert everything["puzzles"] == 3 and everything["NotAt"] == round(5 / 9, 3)
