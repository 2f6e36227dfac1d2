"""Replies written the way real models write them, for every answer format.

The CNF corpus is built from pieces written in the styles real replies take — chain-of-thought
openings that mention both verdicts in questions and hedges, the ADR paper's Listing-1 endings
(a bare or bold verdict line, then branch / conflict counts, then ``x1 = TRUE`` lines), trace
endings (``[SAT]`` / ``[UNSAT]``), final-answer phrases and boxes — and every assignment layout
seen in practice (``x1 = T`` lines, comma lists, bold values, markdown tables with several
variable / value pairs per row, blank-separated lines). Every combination has a known verdict and
assignment. Refusals, harness errors and cut-off outlines must stay undecided. The other formats
(YES/NO + certificate, multiple choice, grids) have hand-written replies of their own.

Grow this file with every parser bug found.
"""

from __future__ import annotations

import itertools
import json

import pytest

import logicforge as lf
from logicforge.kinds import parse_answer, verify
from logicforge.parse.decision import parse_decision

from .test_parse_golden import X, item

OPENINGS = [
    "We must determine whether the formula is SATISFIABLE or UNSATISFIABLE. Let's use the DPLL "
    "algorithm.\n\nStep 1: Unit propagation. There are no unit clauses.\nStep 2: Pick x1 = TRUE.",
    "Let me check whether the formula is satisfiable.\n\nI'll try x1 = True first and see if it "
    "leads to a contradiction.",
    "Is the formula satisfiable? To find out, I will branch on the variables in order.\n\n"
    "- Branch 1: x1 = T, then clause 2 forces x2 = F.\n- Backtrack once.",
    "The answer is SAT or UNSAT? We need to check every clause carefully.",
    "To see if the formula is satisfiable, I'll run a DPLL-style search with unit propagation and "
    "pure literal elimination.",
    "This is a 3-SAT formula over 3 variables. A SAT solver would be quickest, but let's reason "
    "by hand.",
    "<think>Maybe it's UNSAT? Or SAT. Let me just try values.</think>\n",
    "First, note that if the formula is SAT there must be an assignment satisfying every clause; "
    "if it is UNSAT, every branch must end in a conflict.",
    "",
    "Okay, so I need to figure out if this CNF is satisfiable or not. Hmm.\n\nClause 1 says x1 or "
    "not x2.",
    "## Analysis\n\n| Clause | Literals |\n|---|---|\n| 1 | x1, ¬x2 |\n\nWe want to know whether "
    "it is satisfiable.",
    "Could it be UNSAT? Let's check. After propagation no clause is violated so far.",
]

# endings: (text with {assign} where the assignment goes, verdict, reports counts)
SAT_ENDINGS = [
    ("**SATISFIABLE**\n12\n5\n{assign}", True),
    ("SATISFIABLE\n{assign}", False),
    ("[SAT]\n{assign}", False),
    ("Final Answer: **SAT**\n\n{assign}", False),
    ("Therefore, the formula is satisfiable.\n\n{assign}", False),
    ("\\boxed{{SAT}}\n{assign}", False),
    ("Answer: SATISFIABLE\nBranches: 4\nConflicts: 1\n{assign}", True),
    ("So the answer is SAT.\n{assign}", False),
]
UNSAT_ENDINGS = [
    ("**UNSATISFIABLE**\n12\n5", True),
    ("… leading to a final determination of unsatisfiability.\nUNSATISFIABLE\n12\n5", True),
    ("[UNSAT]", False),
    ("Final Answer: UNSAT", False),
    ("Therefore the formula is unsatisfiable.", False),
    ("\\boxed{UNSAT}", False),
    ("Every branch ends in a conflict, so it is UNSAT.", False),
    ("Answer: UNSATISFIABLE\nBranches: 7\nConflicts: 6", True),
]
GOOD = {"x1": True, "x2": False, "x3": True}
LAYOUTS = [
    "x1 = TRUE\nx2 = FALSE\nx3 = TRUE",
    "x1 = T\nx2 = F\nx3 = T",
    "x1=true, x2=false, x3=true",
    "| Variable | Value | Variable | Value |\n|---|---|---|---|\n| x1 | True | x2 | False |\n"
    "| x3 | True | | |",
    "- **x1** = **True**\n- **x2** = **False**\n- **x3** = **True**",
    "x1: 1\n\nx2: 0\n\nx3: 1",
]

CORPUS: list[tuple[str, str, dict[str, bool] | None, bool]] = [
    *(
        (f"{o}\n\n{e.format(assign=a)}", "SAT", GOOD, counts)
        for o, (e, counts), a in itertools.product(OPENINGS, SAT_ENDINGS, LAYOUTS)
    ),
    *(
        (f"{o}\n\n{e}", "UNSAT", None, counts)
        for o, (e, counts) in itertools.product(OPENINGS, UNSAT_ENDINGS)
    ),
]

UNDECIDED = [
    "UNABLE TO DETERMINE SATISFIABILITY WITH MANUAL METHODS. RECOMMEND USING A SPECIALIZED SAT "
    "SOLVER.",
    "[Error] module 'openai' has no attribute 'error'",
    "Error: Request timed out after 600 s (SAT benchmark run 12)",
    "Traceback (most recent call last):\n  File \"run.py\", line 3\nKeyError: 'SAT'",
    "I'm sorry, but I cannot determine whether this formula is satisfiable without a solver.",
    "Let me check whether the formula is satisfiable...\n\nStep 1: choose x1 = True.\nStep 2: "
    "clause 3 becomes (x2 ∨ x3).\nStep 3: choose x2",
    "We use DPLL.\n1. Unit propagation: none.\n2. Decide x1 = T.\n3. Propagate: x2 = F.\n4. "
    "Decide x3",
    "Is the formula satisfiable or unsatisfiable? This requires careful analysis of each clause.",
    "To determine whether the formula is SAT or UNSAT, we first list the clauses:\n1. (x1 ∨ ¬x2)",
    "It could be SAT, or it could be UNSAT; I would need more time.",
    "A 3-SAT instance like this one is best handed to a SAT solver such as MiniSat.",
    "The satisfiability of this formula depends on x1.",
]


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 600 and len(UNDECIDED) >= 10


@pytest.mark.parametrize("i", range(len(CORPUS)))
def test_real_style_replies(i: int) -> None:
    text, label, assignment, counts = CORPUS[i]
    a = parse_answer(text, item())
    assert a.label == label, (a, text)
    if assignment is not None:
        inv = {v: k for k, v in X.items()}
        assert {inv[k]: v for k, v in (a.assignment or {}).items()} == assignment, (a, text)
    if counts:
        assert a.stats and set(a.stats) == {"branches", "conflicts"}, (a.stats, text)


@pytest.mark.parametrize("text", UNDECIDED)
def test_refusals_errors_and_cut_off_outlines_are_no_decision(text: str) -> None:
    a = parse_answer(text, item())
    assert a.label is None and a.parse_error, (a, text)


def test_every_reply_a_strict_last_word_reader_decides_is_decided_alike() -> None:
    """The strict reader takes the last standalone SATISFIABLE / UNSATISFIABLE word. logicforge
    decides every reply it decides, and agrees with it wherever that word is the reply's final
    verdict (not a word of the opening's question)."""
    import re

    strict = re.compile(r"\b(UNSATISFIABLE|SATISFIABLE)\b")
    endings = [e for e, _ in SAT_ENDINGS + UNSAT_ENDINGS]
    checked = 0
    for text, _, _, _ in CORPUS:
        words = strict.findall(text.split("</think>")[-1])
        if not words:
            continue
        ours = parse_answer(text, item()).label
        assert ours is not None, text
        if any(strict.search(e) for e in endings if e.split("{")[0] in text):
            assert ours == ("UNSAT" if words[-1] == "UNSATISFIABLE" else "SAT"), text
            checked += 1
    assert checked >= 200


def test_a_table_assignment_that_falsifies_a_clause_is_never_valid() -> None:
    it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 2.0}, count=1, seed=3))[0]
    names = list(it.mapping)
    from logicforge.logic.cnf import CNF

    cnf = CNF(it.problem["clauses"], it.problem["num_vars"])
    for bits in itertools.product([True, False], repeat=len(names)):
        values = dict(zip(names, bits, strict=True))
        cells = " | ".join(f"{n} | {'True' if v else 'False'}" for n, v in values.items())
        text = f"**SATISFIABLE**\n3\n0\n| Var | Val | Var | Val | Var | Val |\n|---|---|---|---|---|---|\n| {cells} |"
        v = verify(it, parse_answer(text, it))
        ok = cnf.evaluate({it.mapping[n]: b for n, b in values.items()})
        if it.gold["label"] == "SAT":
            assert v.witness_valid is ok, (text, v)


@pytest.mark.parametrize(
    "text, decision",
    [
        ("Yes. A cover of size 4 exists: nodes 1, 3, 5, 7.\n\nYES\ncover: [1, 3, 5, 7]", "SAT"),
        ("Let's check whether a cover with at most 4 nodes exists.\n\n**NO**", "UNSAT"),
        ('Is there a cover? If YES, list it. After trying all subsets: {"answer": "NO"}', "UNSAT"),
        ("Final answer: YES\nCover = 2, 4, 6", "SAT"),
        ("YES or NO? I cannot decide without more work.", None),
        ("[Error] rate limited", None),
    ],
)
def test_yes_no_replies(text: str, decision: str | None) -> None:
    p = lf.generate("ksat/random", {"n_vars": 3, "n_clauses": 2}, count=1, seed=0)[0]
    it = lf.render(lf.reduce([p], "vc"), "vc")[0]
    assert parse_answer(text, it).label == decision


@pytest.mark.parametrize(
    "text, choice",
    [
        ("Let's place them in order... so the leftmost is the owl.\n\n\\boxed{B}", "B"),
        ("Option A can't be right, and neither can C.\nThe answer is (D).", "D"),
        ('Reasoning...\n{"answer": "C"}', "C"),
        ("The answer is ... I am not sure.", None),
    ],
)
def test_choice_replies(text: str, choice: str | None) -> None:
    it = lf.render(lf.generate("ordering", {"n_objects": 5}, count=1, seed=0), "deduction")[0]
    assert parse_answer(text, it).label == choice


def test_grid_replies_in_fences_with_a_preamble() -> None:
    p = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=1)[0]
    it = lf.render([p], "zebra")[0]
    attrs = p.problem["solution"]["header"][1:]
    sol = {
        f"House {r[0]}": dict(zip(attrs, r[1:], strict=True)) for r in p.problem["solution"]["rows"]
    }
    text = (
        "Let me work through the clues one by one.\n\nClue 1 puts ...\n\n```json\n"
        + json.dumps({"reasoning": "…", "solution": sol}, indent=2)
        + "\n```\nThat is my final grid."
    )
    v = verify(it, parse_answer(text, it))
    assert v.correct and v.score == 1.0


def test_the_nine_patterns_of_the_audit() -> None:
    cases = {
        "We must determine whether the formula is SATISFIABLE or UNSATISFIABLE.\n…\n**SATISFIABLE**"
        "\n10\n2\nx1 = TRUE\nx2 = FALSE": "SAT",
        "… leading to a final determination of unsatisfiability.\nUNSATISFIABLE\n12\n5": "UNSAT",
        "…see if the formula is satisfiable… [UNSAT]": "UNSAT",
        "…check whether the formula is satisfiable… UNSATISFIABLE": "UNSAT",
        "The answer is SAT or UNSAT? … UNSAT": "UNSAT",
        "Is the formula satisfiable? … [UNSAT]": "UNSAT",
        "UNABLE TO DETERMINE SATISFIABILITY WITH MANUAL METHODS. RECOMMEND USING A SPECIALIZED "
        "SAT SOLVER.": None,
        "[Error] module 'openai' has no attribute 'error'": None,
        "Let me check whether the formula is satisfiable…": None,
    }
    for text, want in cases.items():
        assert parse_decision(text)[0] == want, text


def test_the_listing1_renderer_is_the_papers_prompt() -> None:
    ps = lf.generate("ksat/random", {"n_vars": 5, "alpha": 4.26}, count=3, seed=0)
    for it in lf.render(ps, "formula-listing1"):
        text = it.messages[0].content
        assert text.startswith("You are a SAT logic solver.\nPlease use a step-by-step method")
        assert "* Whether the formula is SATISFIABLE or UNSATISFIABLE" in text
        assert "* Number of branches (i.e., decision points)" in text
        assert it.answer_format == "decision+stats" and it.answer_schema is None
        sat = it.gold["label"] == "SAT"
        reply = (
            ("**SATISFIABLE**\n3\n1\n" + "\n".join(f"{n} = TRUE" for n in it.mapping))
            if sat
            else "UNSATISFIABLE\n9\n8"
        )
        a = parse_answer(reply, it)
        assert a.label == it.gold["label"] and a.stats == (
            {"branches": 3, "conflicts": 1} if sat else {"branches": 9, "conflicts": 8}
        )


YES_NO = [  # (reply, label, cover or None)
    (
        "We need a vertex cover of size at most k.\n\nAfter trying, nodes 1, 3, 5 cover every edge.\n\n"
        '{"answer": "YES", "cover": [1, 3, 5]}',
        "SAT",
        [1, 3, 5],
    ),
    (
        "Is there a cover with at most 3 nodes? Let's check each edge...\n\n**YES**\n\nCover: [2, 4, 6]",
        "SAT",
        [2, 4, 6],
    ),
    ("Final answer: YES\nCover = 1, 2, 7", "SAT", [1, 2, 7]),
    ("Answer: YES. The cover is {4, 5, 6}.", "SAT", [4, 5, 6]),
    ("If a cover existed, it would need 4 nodes, but k = 3.\n\nNO", "UNSAT", None),
    ("Could it be YES? Every attempt leaves an edge uncovered.\n\n**Answer: NO**", "UNSAT", None),
    ('{"answer": "NO"}', "UNSAT", None),
    ("The answer is NO — no cover of that size exists.", "UNSAT", None),
    ("YES or NO? We must check all subsets of size 3.", None, None),
    ("[Error] 503 Service Unavailable", None, None),
    ("I am unable to determine whether such a cover exists.", None, None),
    ('```json\n{"answer": "YES", "cover": [1, 4]}\n```', "SAT", [1, 4]),
]


@pytest.mark.parametrize("text, label, cover", YES_NO)
def test_yes_no_replies_with_certificates(
    text: str, label: str | None, cover: list[int] | None
) -> None:
    p = lf.generate("ksat/random", {"n_vars": 3, "n_clauses": 2}, count=1, seed=0)[0]
    it = lf.render(lf.reduce([p], "vc"), "vc")[0]
    a = parse_answer(text, it)
    assert a.label == label, (a, text)
    if cover is not None:
        assert (a.certificate or {}).get("cover") == cover, (a, text)


CHOICES = [
    ("The owl is the leftmost.\n\nThe answer is (A).", "A"),
    ("Let me order them: C < A < B ... so B is third.\n\\boxed{B}", "B"),
    ("Option C fits every clue.\n\nFinal answer: C", "C"),
    ('{"answer": "D"}', "D"),
    ("Is it (A) or (B)? Checking the clues, it must be (B).\n\nAnswer: (B)", "B"),
    ("**Answer: E**", "E"),
    ("I cannot decide between A and B.", None),
    ("[Error] context length exceeded", None),
]


@pytest.mark.parametrize("text, choice", CHOICES)
def test_deduction_choice_replies(text: str, choice: str | None) -> None:
    it = lf.render(lf.generate("ordering", {"n_objects": 5}, count=1, seed=0), "deduction")[0]
    assert parse_answer(text, it).label == choice, text


FOL = [
    ("Premise 2 gives Q(a), so the conclusion follows.\n\nThe answer is True.", "True"),
    ("The conclusion contradicts premise 1.\n\\boxed{False}", "False"),
    ("Nothing forces P(a) either way.\nAnswer: Uncertain", "Unknown"),
    ('{"answer": "Uncertain"}', "Unknown"),
    ("It could be True or False; I am not sure.", None),
]


@pytest.mark.parametrize("text, label", FOL)
def test_fol_replies(text: str, label: str | None, tmp_path) -> None:
    import json as _json

    from logicforge.families.folio import load_folio

    f = tmp_path / "f.jsonl"
    f.write_text(_json.dumps({"premises-FOL": ["∀x (P(x) → Q(x))", "P(a)"], "premises": ["Every P is a Q.", "a is a P."],
                              "conclusion": "a is a Q.", "conclusion-FOL": "Q(a)", "label": "True"}) + "\n")  # fmt: skip
    it = lf.render(load_folio(f)[0], "fol")[0]
    assert parse_answer(text, it).label == label, text


def test_grid_replies_in_the_layouts_models_write() -> None:
    """The paper's JSON in the shapes seen in practice: lower-case house keys, list values,
    trailing commas, a fence, reasoning after the grid, extra spaces and case in values."""
    p = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=2)[0]
    it = lf.render([p], "zebra")[0]
    attrs = p.problem["solution"]["header"][1:]
    rows = p.problem["solution"]["rows"]

    def grid(key: str, val) -> dict:
        return {
            key.format(r[0]): {a: val(v) for a, v in zip(attrs, r[1:], strict=True)} for r in rows
        }

    shapes = [
        json.dumps({"reasoning": "...", "solution": grid("House {}", str)}),
        json.dumps({"solution": grid("house {}", lambda v: [v])}),
        "```json\n"
        + json.dumps({"reasoning": "r", "solution": grid("{}", lambda v: f"  {v.upper()} ")})
        + "\n```",
        json.dumps({"solution": grid("House {}", str)})[:-1] + ",}\nThat completes the grid.",
    ]
    for text in shapes:
        v = verify(it, parse_answer(text, it))
        assert v.correct and v.score == 1.0, text
    wrong = grid("House {}", str)
    first, second = f"House {rows[0][0]}", f"House {rows[1][0]}"
    a0 = attrs[0]
    wrong[first][a0], wrong[second][a0] = wrong[second][a0], wrong[first][a0]
    v = verify(it, parse_answer(json.dumps({"solution": wrong}), it))
    assert not v.correct and v.details["cells_right"] == v.details["cells_total"] - 2


def test_grid_replies_as_markdown_tables() -> None:
    """Models often answer a grid puzzle with a Markdown table instead of the JSON: houses down
    the side or across the top, bold headers, reasoning before and after; the last table wins."""
    p = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=2)[0]
    it = lf.render([p], "zebra")[0]
    attrs = p.problem["solution"]["header"][1:]
    rows = p.problem["solution"]["rows"]
    down = "\n".join(
        [
            "| House | " + " | ".join(f"**{a}**" for a in attrs) + " |",
            "|---|" + "---|" * len(attrs),
            *(f"| {r[0]} | " + " | ".join(r[1:]) + " |" for r in rows),
        ]
    )
    across = "\n".join(
        [
            "| Attribute | " + " | ".join(f"House {r[0]}" for r in rows) + " |",
            "|:--|" + ":--|" * len(rows),
            *(f"| {a} | " + " | ".join(r[i + 1] for r in rows) + " |" for i, a in enumerate(attrs)),
        ]
    )
    draft = down.replace(rows[0][1], "???")  # an earlier, wrong draft table
    for text in (
        f"Working through the clues.\n\n{down}\n\nThat is the solution.",
        f"Final arrangement:\n{across}",
        f"First attempt:\n{draft}\n\nOn reflection:\n\n{down}",
    ):
        v = verify(it, parse_answer(text, it))
        assert v.correct and v.score == 1.0, text
    v = verify(it, parse_answer(f"Final answer:\n{draft}", it))
    assert not v.correct and v.details["cells_right"] == v.details["cells_total"] - 1
    # a table that names neither the houses nor the attributes is not an answer
    assert parse_answer("| a | b |\n|---|---|\n| x | y |", it).parse_error


@pytest.mark.parametrize(
    "text",
    [
        '{"answer": "SAT", "answer": "UNSAT"}',
        'Final:\n```json\n{"answer": "UNSAT", "reasoning": "r", "answer": "SAT"}\n```',
        '{"answer": "SAT", "assignment": {"x1": true, "x2": false, "x1": false}}',
    ],
)
def test_a_key_given_twice_with_different_values_is_ambiguous(text: str) -> None:
    """JSON keeps the last duplicate key, so these used to be scored as whatever came last."""
    a = parse_answer(text, item())
    assert a.label is None and "ambiguous" in (a.parse_error or ""), a


def test_a_key_repeated_with_the_same_value_is_fine() -> None:
    assert parse_answer('{"answer": "UNSAT", "answer": "UNSAT"}', item()).label == "UNSAT"


OUTLINE = (
    "Reasoning outline:\n1. Pick an unassigned variable and assign it.\n"
    "2. Propagate unit clauses.\n3. If a clause becomes empty, backtrack.\n"
    "If all variables become assigned without conflict, the formula is satisfiable.\n"
    "Trying x1 = True falsifies clause 3; x1 = False falsifies clause 5.\n\n"
)


@pytest.mark.parametrize(
    "text, want",
    [
        # a conditional in the outline never outranks the paper's own verdict line
        (OUTLINE + "SATISFIABLE or UNSATISFIABLE: UNSATISFIABLE", "UNSAT"),
        (OUTLINE + "**SATISFIABLE or UNSATISFIABLE:** UNSATISFIABLE\n0\n4", "UNSAT"),
        (OUTLINE + "SAT or UNSAT: SAT\nx1 = True", "SAT"),
        # the conditional alone is no decision; a conditional after the verdict is no revision
        (OUTLINE, None),
        (
            "The formula is UNSAT. If we dropped clause 2, the formula would be satisfiable.",
            "UNSAT",
        ),
        ("Assuming x1 is true, the formula is satisfiable. It is not: UNSATISFIABLE", "UNSAT"),
        ("- If some assignment works, the instance is SAT.\n- Otherwise it is UNSAT.", None),
        # a sentence that states a fact is still read ("Since …, …", decimals, list numbers)
        ("Since every clause holds with x1 = 0.5 rounding up, the formula is satisfiable.", "SAT"),
        ("1. x1 = T\n2. x2 = F\n3. All clauses hold, so the formula is satisfiable.", "SAT"),
    ],
)
def test_conditionals_never_outrank_a_verdict(text: str, want: str | None) -> None:
    assert parse_decision(text)[0] == want, text


def test_conditionals_in_the_yes_no_and_choice_formats() -> None:
    p = lf.generate("ksat/random", {"n_vars": 3, "n_clauses": 2}, count=1, seed=0)[0]
    vc = lf.render(lf.reduce([p], "vc"), "vc")[0]
    text = "If every edge is covered by the chosen nodes, the answer is YES.\n\nAnswer: NO"
    assert parse_answer(text, vc).label == "UNSAT"
    ded = lf.render(lf.generate("ordering", {"n_objects": 5}, count=1, seed=0), "deduction")[0]
    text = "If the owl were leftmost, the answer is (A). It is not.\nThe answer is (C)."
    assert parse_answer(text, ded).label == "C"
    text = "If the owl were leftmost, the answer is (A)."
    assert parse_answer(text, ded).label is None
