"""The ``cnf`` kind: a CNF formula, labels SAT / UNSAT, a satisfying assignment as witness.

Answer formats (all read by one parser; they differ in what is asked and in the oracle's reply):

* ``decision+assignment`` — SAT with an assignment, or UNSAT (the formula and template renderers);
* ``decision+stats`` — the same plus the branches and conflicts a solver would need (the ADR
  paper's Listing 1; the oracle reports MiniSat's own counts);
* ``decision+conflict`` — SAT with an assignment, or UNSAT citing the conditions that conflict
  (traces and stories; a cited set is checked to be unsatisfiable and minimal);
* ``decision+proof`` — SAT with an assignment, or UNSAT with a checked refutation
  (:mod:`.proof`, the ``formula-proof`` renderer);
* ``mus``, ``mcs``, ``maxsat``, ``search`` — certificate tasks (:mod:`.certificates`): a minimal
  unsatisfiable subset, a minimal correction set, an optimal assignment with its count, a
  satisfying assignment; metric set ``certificate``.

Example:
    >>> import logicforge as lf
    >>> from logicforge.kinds import answer_format, parse_answer, verify
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 2.0}, count=1, seed=0))[0]
    >>> fmt = answer_format(it)
    >>> a = fmt.oracle(it)
    >>> b = parse_answer(fmt.to_text(a, it), it)
    >>> (b.label, b.assignment) == (a.label, a.assignment), verify(it, a).correct
    (True, True)
"""

from __future__ import annotations

from ..logic.canon import cnf_key
from ..logic.cnf import CNF
from . import certificates, proof
from .base import AnswerFormat, Kind, register_kind
from .cnf_decision import (
    LABELS,
    budgeted,
    constant,
    decision_format,
    random,
    wrong,
)
from .feedback import cnf_facts

KIND = register_kind(
    Kind(
        "cnf",
        LABELS,
        (
            decision_format("decision+assignment"),
            decision_format("decision+stats", stats=True),
            decision_format("decision+conflict", conflict=True),
            AnswerFormat(
                "decision+proof",
                "binary",
                proof.parse,
                proof.to_text,
                proof.check,
                proof.oracle,
                random,
                wrong,
                constant,
                budgeted=budgeted,
                reward=proof.reward,
                feedback=cnf_facts,
                forgeries=proof.forgeries,
                justified=True,
                certifies=("SAT", "UNSAT"),
            ),
            *certificates.formats(),
        ),
        default_renderer="formula",
        training_renderer="formula-proof",
        words_renderer="team",
        formal_renderer="formula",
        group_columns=("alpha", "n_vars"),
        exports={"dimacs": lambda problem: CNF.from_json(problem)},
        canonical=lambda d: cnf_key(d["clauses"], int(d.get("num_vars") or 0)),
    )
)
