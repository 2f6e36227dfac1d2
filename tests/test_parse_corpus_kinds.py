"""A combinatorial corpus of realistic replies for the non-CNF answer formats.

Every reply is an opening (chain-of-thought that names both verdicts or several options in
questions and hedges, or none) joined to an ending written the way models end: a JSON object, a
bare / bold / boxed / ``Answer:`` verdict line, a certificate in prose, a list, braces or lines,
reasoning after the answer. The certificates are the oracle's, so each reply must parse to its
verdict and, for YES, to a certificate the verifier accepts. Grow it with every parser bug found.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import logicforge as lf
from logicforge.families.coloring import uncolourable_twin
from logicforge.kinds import answer_format, parse_answer, verify

OPENINGS = [
    "",
    "We have to decide: YES or NO? Let me work through it.\n\n",
    "If the answer were NO, some constraint would have to fail. Could it be YES instead?\n\n",
    "Step 1: list the constraints.\nStep 2: try candidates one by one.\nStep 3: check.\n\n",
    "Let me think about whether the answer is YES.\n\n",
    "**Reasoning.** Suppose the answer is NO and look for a contradiction.\n\n",
    "<think>\nYES would need a witness. Let me search for one.\n</think>\n\n",
]

UNDECIDED = [
    "YES or NO? That depends on the structure; I would need more time.",
    "I am unable to determine the answer with manual methods.",
    "[Error] 429 Too Many Requests",
    "Step 1: list the constraints.\nStep 2: try every subset of size",
]


def _vc_items() -> tuple[object, object]:
    sat = unsat = None
    seed = 0
    while sat is None or unsat is None:
        p = lf.generate("ksat/random", {"n_vars": 4, "alpha": 4.5}, count=1, seed=seed)[0]
        it = lf.render(lf.reduce([p], "vc"), "vc")[0]
        if it.gold["label"] == "SAT":
            sat = sat or it
        else:
            unsat = unsat or it
        seed += 1
    return sat, unsat


def _colour_items() -> tuple[object, object]:
    for seed in range(50):
        p = lf.generate("coloring/planted", {"n_nodes": 8, "k": 3, "edge_density": 1.5}, 1, seed)[0]
        twin = uncolourable_twin(p, np.random.default_rng(seed))
        if twin is not None:
            return tuple(lf.render(list(twin), "coloring"))  # type: ignore[return-value]
    raise AssertionError("no uncolourable twin in 50 seeds")


VC_SAT, VC_UNSAT = _vc_items()
COVER = answer_format(VC_SAT).oracle(VC_SAT).certificate["cover"]  # type: ignore[union-attr]
C = ", ".join(map(str, COVER))

YES_COVER = [
    json.dumps({"answer": "YES", "cover": COVER}),
    f"Answer: YES\nCover: {C}",
    f"**YES**\n\nCover = {{{C}}}",
    f"Final answer: YES. The cover is [{C}].",
    "```json\n" + json.dumps({"answer": "YES", "cover": COVER}) + "\n```",
    f"The cover {{{C}}} touches every edge.\n\n**Answer: YES**",
    json.dumps({"answer": "YES", "cover": [str(x) for x in COVER]}),
    f"YES — a valid cover is {C}.\n\nAnswer: YES (cover: {C})",
]
NO = [
    "Answer: NO",
    "**NO**",
    '{"answer": "NO"}',
    "Final answer: NO",
    "NO",
    "The answer is NO.",
    "Every candidate leaves an edge uncovered, so no such set exists.\n\n**Answer: NO**",
    "\\boxed{NO}",
    "Answer: **NO**",
    "No such set exists.\n\nFinal answer: NO.",
]

VC_CASES = [(o + e, VC_SAT, "SAT") for o in OPENINGS for e in YES_COVER] + [
    (o + e, VC_UNSAT, "UNSAT") for o in OPENINGS for e in NO
]


@pytest.mark.parametrize("i", range(len(VC_CASES)))
def test_vertex_cover_replies(i: int) -> None:
    text, item, label = VC_CASES[i]
    a = parse_answer(text, item)  # type: ignore[arg-type]
    assert a.label == label, (a, text)
    v = verify(item, a)  # type: ignore[arg-type]
    assert v.correct, (v, text)
    if label == "SAT":
        assert sorted(a.certificate["cover"]) == sorted(COVER), (a, text)  # type: ignore[index]


COL_SAT, COL_UNSAT = _colour_items()
COLOURING = answer_format(COL_SAT).oracle(COL_SAT).certificate["colouring"]  # type: ignore[union-attr]
LINES = "\n".join(f"{v}: {c}" for v, c in COLOURING.items())
NODE_LINES = "\n".join(f"Node {v} = colour {c}" for v, c in COLOURING.items())
ARROWS = "\n".join(f"{v} → {c}" for v, c in COLOURING.items())
YES_COLOUR = [
    json.dumps({"answer": "YES", "colouring": COLOURING}),
    json.dumps({"answer": "YES", "coloring": {f"n{v}": c for v, c in COLOURING.items()}}),
    f"Answer: YES\n\n{LINES}",
    f"**YES**\n\nColouring:\n{NODE_LINES}",
    f"A valid colouring:\n{ARROWS}\n\nFinal answer: YES",
    "```json\n" + json.dumps({"answer": "YES", "colouring": COLOURING}, indent=2) + "\n```",
]
COL_CASES = [(o + e, COL_SAT, "SAT") for o in OPENINGS for e in YES_COLOUR] + [
    (o + e, COL_UNSAT, "UNSAT") for o in OPENINGS for e in NO
]


@pytest.mark.parametrize("i", range(len(COL_CASES)))
def test_colouring_replies(i: int) -> None:
    text, item, label = COL_CASES[i]
    a = parse_answer(text, item)  # type: ignore[arg-type]
    assert a.label == label, (a, text)
    assert verify(item, a).correct, (a, text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", UNDECIDED)
@pytest.mark.parametrize("which", ["vc", "coloring"])
def test_yes_no_non_answers_are_no_decision(text: str, which: str) -> None:
    item = VC_SAT if which == "vc" else COL_SAT
    a = parse_answer(text, item)  # type: ignore[arg-type]
    assert a.label is None and a.parse_error, (a, text)


DEDUCTION = lf.render(lf.generate("ordering", {"n_objects": 5}, count=1, seed=3), "deduction")[0]
MC_OPENINGS = [
    "",
    "Option A can't be right: it breaks the second clue. Could it be (C)?\n\n",
    "Let me check each option: (A) fails, (B) fails ... \n\n",
    "If the answer were (E), the first clue would be violated.\n\n",
    "<think>\nIs it (A) or (D)? Checking clue 3...\n</think>\n",
]
MC_ENDINGS = [
    "The answer is ({x}).",
    "\\boxed{{{x}}}",
    "Final answer: {x}",
    '{{"answer": "{x}"}}',
    "**Answer: {x}**",
    "Answer: ({x})",
    "So option {x} is correct.\n\nAnswer: {x}",
    "Therefore, the correct option is ({x}).",
    "**Final answer: ({x})**",
    "Answer: {x})",
]
MC_CASES = [
    (o + e.format(x=x), x)
    for o in MC_OPENINGS
    for e in MC_ENDINGS
    for x in [DEDUCTION.gold["label"], next(c for c in "ABCDE" if c != DEDUCTION.gold["label"])]
]


@pytest.mark.parametrize("i", range(len(MC_CASES)))
def test_choice_replies(i: int) -> None:
    text, x = MC_CASES[i]
    a = parse_answer(text, DEDUCTION)
    assert a.label == x, (a, text)
    assert verify(DEDUCTION, a).correct == (x == DEDUCTION.gold["label"])


@pytest.mark.parametrize(
    "text", ["I cannot decide between (A) and (B).", "[Error] context length exceeded", "Is it A?"]
)
def test_choice_non_answers(text: str) -> None:
    assert parse_answer(text, DEDUCTION).label is None


ZEBRA = lf.render(
    lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=4), "zebra"
)[0]
_ATTRS = ZEBRA.problem["solution"]["header"][1:]
_ROWS = ZEBRA.problem["solution"]["rows"]
_SOL = {f"House {r[0]}": dict(zip(_ATTRS, r[1:], strict=True)) for r in _ROWS}
_DOWN = "\n".join(
    ["| House | " + " | ".join(_ATTRS) + " |", "|---|" + "---|" * len(_ATTRS)]
    + [f"| {r[0]} | " + " | ".join(r[1:]) + " |" for r in _ROWS]
)
_ACROSS = "\n".join(
    ["| | " + " | ".join(f"**House {r[0]}**" for r in _ROWS) + " |", "|--|" + "--|" * len(_ROWS)]
    + [f"| {a} | " + " | ".join(r[i + 1] for r in _ROWS) + " |" for i, a in enumerate(_ATTRS)]
)
GRID_OPENINGS = [
    "",
    "Clue 1 puts the first value in House 1. Could House 2 hold it instead? No.\n\n",
    "Let me build the grid step by step.\n\n",
]
GRID_ENDINGS = [
    json.dumps({"reasoning": "...", "solution": _SOL}),
    "```json\n" + json.dumps({"solution": _SOL}, indent=2) + "\n```",
    json.dumps({"solution": {k.lower(): v for k, v in _SOL.items()}}),
    json.dumps({"solution": {k: {a: [v] for a, v in row.items()} for k, row in _SOL.items()}}),
    f"Final grid:\n\n{_DOWN}",
    f"{_ACROSS}\n\nThis satisfies every clue.",
]
GRID_CASES = [o + e for o in GRID_OPENINGS for e in GRID_ENDINGS]


@pytest.mark.parametrize("i", range(len(GRID_CASES)))
def test_grid_replies(i: int) -> None:
    v = verify(ZEBRA, parse_answer(GRID_CASES[i], ZEBRA))
    assert v.correct and v.details["cells_right"] == v.details["cells_total"], GRID_CASES[i]


def test_the_corpus_covers_every_format() -> None:
    sizes = {
        "yes-no+cover": len(VC_CASES),
        "yes-no+colouring": len(COL_CASES),
        "choice": len(MC_CASES),
        "grid": len(GRID_CASES),
    }
    assert sum(sizes.values()) >= 300, sizes
