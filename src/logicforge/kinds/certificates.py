"""Certificate answer formats of the ``cnf`` kind: MUS, MCS, MaxSAT and SAT search.

Each asks for an object a solver can check, not only a verdict; the clauses are numbered
``C1 … Cm`` in the prompt (renderers ``formula-mus``, ``formula-mcs``, ``formula-maxsat``,
``formula-search``). Their metric set is ``certificate``: ``correct`` means the certificate is
the one asked for, ``score`` is the documented partial credit, and the training reward is
``correct`` (``partial=True``: ``score``).

=========  =============================================  =========================================
format     asked for                                      correct (score 1) · partial credit
=========  =============================================  =========================================
``mus``    UNSAT and a minimal unsatisfiable subset:      the set cannot hold together and every
           ``{"answer": "UNSAT", "mus": [1, 4, 7]}``;     member is needed · an unsatisfiable set
           SAT and an assignment when there is none       that is not minimal: ½ · |M| / |S| (M a
                                                          minimal subset inside it); otherwise 0
``mcs``    UNSAT and a minimal correction set:            the other clauses can all hold and
           ``{"answer": "UNSAT", "mcs": [3]}``; SAT and   putting back any member breaks that · a
           an assignment when there is none               correction set that is not minimal:
                                                          ½ · |M| / |S|; otherwise 0
``maxsat`` an assignment and how many clauses it          the count is true and optimal (RC2) · a
           satisfies: ``{"assignment": …,                 true count s below the optimum o:
           "satisfied": 17}``                             ½ · clip((s − r) / (o − r), 0, 1), r the
                                                          mean of a random assignment; a false
                                                          count 0
``search`` a satisfying assignment, or UNSAT when none    a valid assignment (gold UNSAT: saying
           exists                                         UNSAT) · none: 0 or 1
=========  =============================================  =========================================

On a satisfiable formula ``mus`` and ``mcs`` are answered as SAT with an assignment (checked);
the label is still recorded, so the SAT / UNSAT twins of :mod:`logicforge.transforms.pair` apply
to every format. Checkers: :mod:`logicforge.logic.optimum` (MiniSat subsets, RC2).

Example:
    >>> import logicforge as lf
    >>> from logicforge.kinds import answer_format, parse_answer, verify
    >>> p = lf.generate("ksat/random", {"n_vars": 5, "alpha": 8.0, "target_label": "UNSAT"}, count=1)
    >>> it = lf.render(p, "formula-mus")[0]
    >>> a = answer_format(it).oracle(it)
    >>> v = verify(it, parse_answer(answer_format(it).to_text(a, it), it))
    >>> v.correct, v.score
    (True, 1.0)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..logic import optimum as opt
from ..parse.answer import cited_conditions
from ..schema import Answer, Item, Verdict
from . import cnf_decision as decision
from . import maxsat
from .base import FINAL, AnswerFormat
from .feedback import cnf_facts
from .maxsat import clauses_of, n_vars_of, random_values, scored

if TYPE_CHECKING:
    import numpy as np

CERT_KEYS = {"mus": ("mus", "core", "clauses", "conflict"), "mcs": ("mcs", "correction", "remove")}


def _sat_part(item: Item, answer: Answer) -> Verdict:
    """A SAT answer: right iff the gold is SAT and the assignment checks out."""
    v = decision.check(item, answer)
    ok = bool(v.correct and v.witness_valid)
    return v.model_copy(update={"correct": ok, "witness_valid": ok, "score": float(ok)})


# -- MUS and MCS: a set of clause numbers -----------------------------------------------------


def _set_parse(task: str) -> Any:
    def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
        a = decision.parse(body, objs, item)
        if a.label != "UNSAT":
            return a
        cited = cited_conditions(objs, CERT_KEYS[task])
        return a.model_copy(update={"certificate": None if cited is None else {task: cited}})

    return parse


def _set_check(task: str) -> Any:
    def check(item: Item, answer: Answer) -> Verdict:
        if answer.label == "SAT":
            return _sat_part(item, answer)
        gold = item.gold.get("label")
        if gold != "UNSAT":
            why = f"said UNSAT, gold {gold}"
            return scored(False, 0.0, reason=why, error_type="spurious contradiction")
        cited = (answer.certificate or {}).get(task)
        if cited is None:
            return scored(False, 0.0, reason=f"no {task} given", error_type="no certificate")
        clauses = clauses_of(item)
        bad = sorted({i for i in cited if not 1 <= i <= len(clauses)})
        if bad:
            why = f"clauses that do not exist: {bad[:5]}"
            return scored(False, 0.0, reason=why, error_type="condition hallucination")
        idx = sorted({i - 1 for i in cited})
        with opt.Subsets(clauses, n_vars_of(item)) as s:
            if task == "mus":
                valid = bool(idx) and not s.sat(idx)
                minimal = valid and s.is_mus(idx)
                inner = opt.shrink_unsat(s, idx) if valid and not minimal else idx
                what = "the cited clauses can all hold together"
            else:
                valid = s.sat([j for j in range(len(clauses)) if j not in set(idx)])
                minimal = valid and s.is_mcs(idx)
                inner = opt.shrink_correction(s, idx) if valid and not minimal else idx
                what = "the clauses left can still not all hold"
        details: dict[str, Any] = {
            "cited": len(idx),
            "valid": valid,
            "minimal": minimal,
            "minimal_inside": len(inner),
        }
        if valid and not minimal:  # the minimal set found inside it, as clause numbers
            details["inside"] = [i + 1 for i in inner]
        if minimal:
            return scored(True, 1.0, details=details)
        if not valid:
            return scored(
                False, 0.0, reason=what, error_type="invalid certificate", details=details
            )
        return scored(
            False,
            0.5 * len(inner) / len(idx),
            reason=f"not minimal: {len(inner)} of the {len(idx)} clauses suffice",
            error_type="non-minimal certificate",
            details=details,
        )

    return check


def _set_format(task: str) -> AnswerFormat:
    def to_text(a: Answer, item: Item) -> str:
        cited = (a.certificate or {}).get(task)
        if a.label == "UNSAT" and cited is not None:
            return FINAL + json.dumps({"answer": "UNSAT", task: cited})
        return decision.to_text(a, item)

    def oracle(item: Item) -> Answer:
        if item.gold.get("label") != "UNSAT":
            return decision.oracle(item)
        found = (
            opt.mus(clauses_of(item), n_vars_of(item))
            if task == "mus"
            else opt.minimum_correction_set(clauses_of(item), n_vars_of(item))
        )
        return Answer(label="UNSAT", certificate={task: [i + 1 for i in found]})

    def random(item: Item, rng: np.random.Generator) -> Answer:
        if rng.random() < 0.5:
            return Answer(label="SAT", assignment=random_values(item, rng))
        m = len(item.problem["clauses"])
        chosen = [i + 1 for i in range(m) if rng.random() < 0.5]
        return Answer(label="UNSAT", certificate={task: chosen})

    def constant(item: Item, label: str) -> Answer:
        if label == "SAT":
            return decision.constant(item, "SAT")
        every = list(range(1, len(item.problem["clauses"]) + 1))
        return Answer(label="UNSAT", certificate={task: every})

    def wrong(item: Item) -> Answer:
        return constant(item, "UNSAT" if item.gold.get("label") == "SAT" else "SAT")

    return AnswerFormat(
        task,
        "certificate",
        _set_parse(task),
        to_text,
        _set_check(task),
        oracle,
        random,
        wrong,
        constant,
        reward=certificate_reward,
        feedback=cnf_facts,
    )


# -- SAT search: an assignment, or UNSAT ---------------------------------------------------------


def _search_check(item: Item, answer: Answer) -> Verdict:
    if answer.label == "SAT":
        return _sat_part(item, answer)
    ok = item.gold.get("label") == "UNSAT"
    why = "" if ok else f"said UNSAT, gold {item.gold.get('label')}"
    return scored(ok, float(ok), reason=why, error_type=None if ok else "spurious contradiction")


def certificate_reward(item: Item, a: Answer, v: Verdict, partial: bool) -> float:
    """1 for the certificate asked for, else 0; with ``partial`` the verdict's score."""
    if v.parse_failure:
        return 0.0
    return float(v.score or 0.0) if partial else float(v.correct)


def formats() -> tuple[AnswerFormat, ...]:
    """The four certificate formats, as the ``cnf`` kind registers them."""
    return (
        _set_format("mus"),
        _set_format("mcs"),
        maxsat.maxsat_format(certificate_reward, cnf_facts),
        AnswerFormat(
            "search",
            "certificate",
            decision.parse,
            decision.to_text,
            _search_check,
            decision.oracle,
            decision.random,
            decision.wrong,
            decision.constant,
            budgeted=decision.budgeted,
            reward=certificate_reward,
            feedback=cnf_facts,
            certifies=("SAT",),  # a bare UNSAT carries no certificate: certified refuses it
        ),
    )


# -- what the prompts ask -----------------------------------------------------------------------


def instructions(task: str, names: list[str]) -> str:
    """The closing instruction of a certificate prompt (the clauses are numbered C1 … Cm)."""
    ex = ", ".join(f'"{n}": {"true" if i % 2 == 0 else "false"}' for i, n in enumerate(names[:3]))
    sat = (
        "Reply with your reasoning if you like, then end with one JSON object on its own line.\n"
        f'If every clause can hold at once: {{"answer": "SAT", "assignment": {{{ex}, ...}}}} '
        "giving every variable a value.\n"
    )
    if task == "mus":
        return sat + (
            "If they cannot, give a minimal unsatisfiable subset: clause numbers whose clauses "
            "cannot all hold together, such that without any one of them the rest could: "
            '{"answer": "UNSAT", "mus": [1, 4, 7]}'
        )
    if task == "mcs":
        return sat + (
            "If they cannot, give a minimal correction set: clause numbers whose removal lets all "
            "the other clauses hold, such that keeping any one of them would not: "
            '{"answer": "UNSAT", "mcs": [3]}'
        )
    if task == "maxsat":
        return (
            "Find an assignment that satisfies as many of the clauses as possible (all of them if "
            "you can), and count how many it satisfies. Reply with your reasoning if you like, then "
            "end with one JSON object on its own line: "
            f'{{"assignment": {{{ex}, ...}}, "satisfied": 17}} giving every variable a value.'
        )
    return sat + 'If you are sure no assignment satisfies every clause: {"answer": "UNSAT"}'


def answer_schema(task: str, names: list[str], m: int) -> dict[str, Any]:
    """The JSON schema of a certificate answer, for constrained decoding."""
    from .items import cnf_answer_schema

    base = cnf_answer_schema(names)
    if task == "maxsat":
        return {
            "type": "object",
            "properties": {
                "assignment": base["properties"]["assignment"],
                "satisfied": {"type": "integer", "minimum": 0, "maximum": m},
            },
            "required": ["assignment", "satisfied"],
        }
    if task in CERT_KEYS:
        numbers = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": m}}
        return base | {"properties": base["properties"] | {task: numbers}}
    return base
