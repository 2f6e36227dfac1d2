"""Hypothesis strategies and targets shared by the CI fuzz tests and ``benchmarks/fuzz_parsers.py``.

A target is (name, function of one text) that must never raise anything but the documented error
(``DimacsError`` for DIMACS, nothing at all for every answer parser and verifier). One target per
registered renderer, so every new family and renderer is fuzzed without touching this file.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

import logicforge as lf
from logicforge.errors import DimacsError
from logicforge.kinds import parse_answer, verify
from logicforge.kinds.base import get_kind
from logicforge.kinds.dispatch import VERIFIER_ERROR
from logicforge.models.tokens import reasoning_text
from logicforge.parse.decision import parse_decision
from logicforge.parse.jsonish import json_objects
from logicforge.strategies.scorers import read_score

from .helpers import render_any

FRAGMENTS = [
    "SAT",
    "UNSAT",
    "SATISFIABLE",
    "UNSATISFIABLE",
    "YES",
    "NO",
    "yes",
    "no",
    "true",
    "false",
    "True",
    "False",
    "null",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    '"',
    "'",
    "\n",
    " ",
    "```json\n",
    "```",
    '"answer"',
    '"assignment"',
    '"solution"',
    '"House 1"',
    '"House 2"',
    '"Name"',
    '"reasoning"',
    '"choice"',
    '"cover"',
    '"sets"',
    '"colours"',
    '"score"',
    "x1",
    "x2",
    "x3",
    "x99",
    "-1",
    "0",
    "1",
    "2",
    "1e309",
    "NaN",
    "\\boxed{",
    "Final answer:",
    "Answer: ",
    "<think>",
    "</think>",
    "//",
    "/*",
    "*/",
    "p cnf 3 2",
    "c ",
    "%",
    "\\ud800",
    "\x00",
    "\u202e",
    "é",
    "🙂",
    "A",
    "B",
    "C1 = resolve(",
    "C2, C5",
    ") on x1: (",
    " = rup: (",
    "¬",
    " ∨ ",
    "⊥",
    "()",
    "\n",
]
texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=60).map("".join),
)


def _example(kind: str) -> tuple[str, dict] | None:
    """(family, small parameters) of a solution puzzle's family (a kind answered with a
    ``solution``), from its ``example``; None for other kinds."""
    if get_kind(kind).formats[0].name != "solution":
        return None
    for name in lf.FAMILIES.names():
        fam = lf.FAMILIES.get(name)
        if getattr(fam, "kind", None) == kind:
            return name, dict(fam.example)  # type: ignore[attr-defined]
    return None


def lsat_files(d: Path) -> Path:
    """Two small AR-LSAT-shaped questions (gold C and A) in ``d``, their Logic-LM-dialect programs
    beside them as the loader expects; returns the question file."""
    head = (
        "# Declarations\npeople = EnumSort([Ann, Bo, Cy])\nslots = EnumSort([1, 2, 3])\n"
        "at = Function([people] -> [slots])\n# Constraints\n"
        "Distinct([p:people], at(p)) ::: Each has a slot of their own.\n"
        "at(Ann) < at(Bo) ::: Ann comes before Bo.\n"
    )
    opts = "".join(
        f"is_valid(at(Cy) == {k}) ::: ({x})\n" for x, k in (("A", 1), ("B", 2), ("C", 3))
    )
    rows, progs = [], []
    for i, (line, gold) in enumerate((("at(Bo) == 2 ::: Bo is second.", "C"),
                                      ("at(Ann) == 2 ::: Ann is second.", "A"))):  # fmt: skip
        rid = f"ar_lsat_fuzz_{i}"
        rows.append({"id": rid, "context": "Three people take slots. " + line.split(":::")[1],
                     "question": "Where is Cy?", "options": ["A) 1", "B) 2", "C) 3"],
                     "answer": gold})  # fmt: skip
        prog = f"{head}{line}\n# Options\nQuestion ::: Where is Cy?\n{opts}"
        progs.append({"id": rid, "raw_logic_programs": [prog]})
    (d / "ar.json").write_text(json.dumps(rows))
    (d / "ar_programs_gpt-4.json").write_text(json.dumps(progs))
    return d / "ar.json"


def _lsat_question() -> lf.LabelledProblem:
    import tempfile

    from logicforge.families.arlsat import load_arlsat

    q = lsat_files(Path(tempfile.mkdtemp()))
    return load_arlsat(q, q.with_name("ar_programs_gpt-4.json"))[0]


def _items() -> dict[str, lf.Item]:
    """One Item per registered renderer, from a small problem of the renderer's kind."""
    small = {
        "cnf": ("ksat/random", {"n_vars": 4, "alpha": 2.0}),
        "zebra": ("zebra", {"n_houses": 3, "n_attributes": 3}),
        "coloring": ("coloring/planted", {"n_nodes": 5, "k": 3}),
        "deduction": ("ordering", {"n_objects": 4}),
    }
    out = {}
    for r in lf.RENDERERS.names():
        kind = lf.RENDERERS.get(r).kind  # type: ignore[attr-defined]
        if kind == "fol":
            import tempfile

            from logicforge.families.folio import load_folio

            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
                f.write(json.dumps({"premises-FOL": ["∀x (P(x) → Q(x))", "P(a)"],
                                    "premises": ["Every P is a Q.", "a is a P."],
                                    "conclusion": "a is a Q.",
                                    "conclusion-FOL": "Q(a)", "label": "True"}) + "\n")  # fmt: skip
            p = load_folio(f.name)[0][0]
        elif kind == "lsat":
            p = _lsat_question()
        elif kind in small:
            fam, params = small[kind]
            p = lf.generate(fam, params, count=1, seed=1)[0]
        elif _example(kind) is not None:  # a family of its own kind that names small parameters
            p = lf.generate(*_example(kind), count=1, seed=1)[0]  # type: ignore[misc]
        else:  # reductions of a CNF (vc, packing)
            p = lf.reduce(lf.generate(*small["cnf"], count=1, seed=1), kind)[0]  # type: ignore[misc]
        out[r] = render_any([p], r)[0]
    return out


def _dimacs(text: str) -> None:
    with contextlib.suppress(DimacsError):
        lf.parse_dimacs(text)


def targets() -> list[tuple[str, Callable[[str], object]]]:
    out: list[tuple[str, Callable[[str], object]]] = []
    for name, item in _items().items():

        def answer(text: str, item: lf.Item = item) -> object:
            a = parse_answer(text, item)
            # the safety nets turn a crash into a recorded error; here a crash must fail
            assert not (a.parse_error or "").startswith("parser error"), a.parse_error
            v = verify(item, a)
            assert v.error_type != VERIFIER_ERROR, v.reason
            return v

        out.append((f"parse+verify[{name}]", answer))
    out += [
        ("parse_decision", parse_decision),
        ("parse_decision[yes-no]", lambda t: parse_decision(t, vocab="yes-no")),
        ("json_objects", json_objects),
        ("read_score", read_score),
        ("reasoning_text", reasoning_text),
        ("parse_dimacs", _dimacs),
    ]
    return out
