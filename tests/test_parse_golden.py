"""Golden table of real-style responses. Grow it with every parser bug found.

Columns: response text, expected decision (None = parse failure), expected assignment
(dict name → bool, or ANY to skip the check).
"""

from __future__ import annotations

import pytest

from logicforge.kinds import parse_answer
from logicforge.schema import Item, Message

ANY = object()
X = {"x1": 1, "x2": 2, "x3": 3}
PROMPT = (
    "You are a SAT logic solver.\nThe formula is:\n(x1 ∨ ¬x2)\n\n"
    "Reply with your reasoning if you like, then end with one final JSON object on its own line.\n"
    'If a satisfying assignment exists: {"answer": "SAT", "assignment": {"x1": true, "x2": false, "x3": true, ...}} giving every variable a value.\n'
    'If no assignment can satisfy every constraint: {"answer": "UNSAT"}'
)


def item(mapping: dict[str, int] = X) -> Item:
    return Item(
        item_id="i",
        problem_id="p",
        family="ksat/random",
        kind="cnf",
        params={},
        seed=0,
        rendering="formula",
        messages=[Message(role="user", content=PROMPT)],
        gold={"label": "SAT"},
        mapping=mapping,
        problem={"clauses": [[1, -2]], "num_vars": 3},
    )


T, F = True, False
CASES: list[tuple[str, str | None, object]] = [
    # plain JSON
    (
        '{"answer": "SAT", "assignment": {"x1": true, "x2": false, "x3": true}}',
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    ('{"answer": "UNSAT"}', "UNSAT", None),
    ('{"answer": "unsat"}', "UNSAT", None),
    (
        '{"answer":"SATISFIABLE","assignment":{"x1":1,"x2":0,"x3":1}}',
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    ('{"answer": "UNSATISFIABLE"}', "UNSAT", None),
    (
        '{"decision": "SAT", "model": {"x1": "true", "x2": "false", "x3": "T"}}',
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    ('{"result": "unsatisfiable"}', "UNSAT", None),
    (
        '{"satisfiable": true, "assignment": {"x1": true, "x2": true, "x3": true}}',
        "SAT",
        {"x1": T, "x2": T, "x3": T},
    ),
    ('{"satisfiable": false}', "UNSAT", None),
    # code fences
    (
        '```json\n{"answer": "SAT", "assignment": {"x1": false, "x2": false, "x3": false}}\n```',
        "SAT",
        {"x1": F, "x2": F, "x3": F},
    ),
    ('Here is my answer:\n```\n{"answer": "UNSAT"}\n```\nThanks.', "UNSAT", None),
    # JSON with comments / trailing commas
    (
        '{\n  "answer": "SAT", // found one\n  "assignment": {"x1": true, "x2": false, "x3": true,},\n}',
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    # assignment as list
    ('{"answer": "SAT", "assignment": [1, -2, 3]}', "SAT", {"x1": T, "x2": F, "x3": T}),
    ('{"answer": "SAT", "assignment": ["x1", "-x2", "¬x3"]}', "SAT", {"x1": T, "x2": F, "x3": F}),
    (
        '{"answer": "SAT", "assignment": ["x1", "~x2", "NOT x3"]}',
        "SAT",
        {"x1": T, "x2": F, "x3": F},
    ),
    # x1=True lines
    ("SATISFIABLE\nx1 = True\nx2 = False\nx3 = True", "SAT", {"x1": T, "x2": F, "x3": T}),
    ("The formula is satisfiable.\nx1: true\nx2: false\nx3: 1", "SAT", {"x1": T, "x2": F, "x3": T}),
    ("SAT\n- x1 = 1\n- x2 = 0\n- x3 = 0", "SAT", {"x1": T, "x2": F, "x3": F}),
    ("SAT\nx1=T, x2=F, x3=T", "SAT", {"x1": T, "x2": F, "x3": T}),
    (
        "Final answer: SATISFIABLE\nx1 is true\nx2 is false\nx3 is true",
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    # boxed
    (r"After checking all clauses, \boxed{UNSAT}", "UNSAT", None),
    (r"\boxed{\text{SAT}}", "SAT", ANY),
    (r"Maybe \boxed{SAT}? No: \boxed{UNSAT}", "UNSAT", None),
    # final answer phrases; last explicit one wins
    ("I first thought it was SAT. Final answer: UNSAT", "UNSAT", None),
    ("Answer: UNSATISFIABLE", "UNSAT", None),
    ("Answer: SATISFIABLE", "SAT", ANY),
    ("**Answer:** UNSAT", "UNSAT", None),
    ("**Final Answer**: SAT", "SAT", ANY),
    ("Result: sat", "SAT", ANY),
    ("The formula is not satisfiable.", "UNSAT", None),
    ("Therefore, the formula is unsatisfiable.", "UNSAT", None),
    ("Therefore the formula is satisfiable.", "SAT", ANY),
    ("So it is UNSAT.", "UNSAT", None),
    ("Answer: SAT\nWait, let me recheck. Answer: UNSAT", "UNSAT", None),
    ("Final answer: UNSAT. Hmm, actually final answer: SAT", "SAT", ANY),
    # JSON beats earlier phrases and bare words
    (
        'The formula looks unsatisfiable at first.\n{"answer": "SAT", "assignment": {"x1": true, "x2": true, "x3": false}}',
        "SAT",
        {"x1": T, "x2": T, "x3": F},
    ),
    ('{"answer": "SAT"}\nI changed my mind:\n{"answer": "UNSAT"}', "UNSAT", None),
    # UNSAT inside SAT and vice versa: whole words only
    ("UNSATISFIABLE", "UNSAT", None),
    ("SATISFIABLE", "SAT", ANY),
    ("UNSAT", "UNSAT", None),
    ("SAT", "SAT", ANY),
    ("The answer is UNSAT because x1 forces a conflict.", "UNSAT", None),
    ("Everything checks out, it's SAT.", "SAT", ANY),
    # think blocks
    ("<think>maybe UNSAT? no, SAT</think>\nFinal answer: SAT", "SAT", ANY),
    ('<think>it is SAT</think>\n{"answer": "UNSAT"}', "UNSAT", None),
    ("<think>long reasoning that never ends SAT UNSAT", None, None),
    ("reasoning without open tag, SAT?</think>\nAnswer: UNSAT", "UNSAT", None),
    ("<thinking>UNSAT</thinking>The answer: SAT", "SAT", ANY),
    # ambiguous / none
    ("It could be SAT or UNSAT, I am not sure.", None, None),
    ("I cannot determine this.", None, None),
    ("", None, None),
    ("   \n  ", None, None),
    ("The students sat down and solved it.", None, None),
    ('{"answer": "maybe"}', None, None),
    ("{not json at all", None, None),
    # echoed instructions are no verdict
    (PROMPT, None, None),
    ('If no assignment can satisfy every constraint: {"answer": "UNSAT"}', None, None),
    # unknown / duplicate variables
    ('{"answer": "SAT", "assignment": {"x1": true, "x9": false}}', "SAT", {"x1": T}),
    ('{"answer": "SAT", "assignment": [1, 2, -2]}', "SAT", None),
    ("SAT\nx1 = true\nx1 = false\nx2 = true", "SAT", None),
    # lowercase short forms in prose do not count, but JSON values do
    (
        '{"answer": "sat", "assignment": {"X1": true, "X2": false, "X3": false}}',
        "SAT",
        {"x1": T, "x2": F, "x3": F},
    ),
    ("the instance is sat", "SAT", ANY),
    # yes/no in JSON
    (
        '{"answer": "yes", "assignment": {"x1": true, "x2": true, "x3": true}}',
        "SAT",
        {"x1": T, "x2": T, "x3": T},
    ),
    ('{"answer": "no"}', "UNSAT", None),
    # bare mentions that agree
    (
        "After unit propagation nothing conflicts. SATISFIABLE. Assignment: x1=1, x2=0, x3=1",
        "SAT",
        {"x1": T, "x2": F, "x3": T},
    ),
    ("UNSAT — every branch ends in a conflict. UNSAT.", "UNSAT", None),
    # a huge response still parses (tail kept)
    ("blah " * 200_000 + '{"answer": "UNSAT"}', "UNSAT", None),
]


def _names(a: dict[int, bool] | None) -> dict[str, bool] | None:
    if a is None:
        return None
    inv = {v: k for k, v in X.items()}
    return {inv[k]: v for k, v in a.items()}


def test_table_is_big_enough() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize(
    "text, decision, assignment", CASES, ids=[f"row{i}" for i in range(len(CASES))]
)
def test_golden(text: str, decision: str | None, assignment: object) -> None:
    a = parse_answer(text, item())
    assert a.label == decision, (a, text[:200])
    if decision is None:
        assert a.parse_error
    if assignment is not ANY and decision == "SAT":
        assert _names(a.assignment) == assignment, a


def test_named_mapping_logic_scheme() -> None:
    it = item({"A": 1, "B": 2, "AA": 3})
    a = parse_answer('{"answer": "SAT", "assignment": {"A": true, "B": false, "AA": true}}', it)
    assert a.assignment == {1: True, 2: False, 3: True}
    a = parse_answer("SAT\nA = true\nB = false\nAA = false", it)
    assert a.assignment == {1: True, 2: False, 3: False}


def test_unknown_names_recorded() -> None:
    a = parse_answer('{"answer": "SAT", "assignment": {"x1": true, "x9": false}}', item())
    assert a.unknown_names == ["x9"]


def test_parser_never_raises_on_odd_input() -> None:
    for t in [
        None,
        "\x00\xff",
        "{" * 10_000,
        "}" * 1000,
        '{"answer": ' * 500,
        "\\boxed{" * 100,
        "<think>" * 50,
    ]:
        a = parse_answer(t, item())  # type: ignore[arg-type]
        assert a.label in (None, "SAT", "UNSAT")
