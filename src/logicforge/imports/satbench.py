"""SATBench's published puzzles (``SATBench-problems.jsonl``: ``dims``, ``num_vars``,
``num_clauses``, ``readable``, ``satisfiable``, ``scenario``, ``variable_mapping``,
``conditions``, ``question``, ``clauses``, …) as ``cnf`` problems whose prompt is the puzzle's own
story (renderer ``satbench-story``), scored by the trace checks.

Read as raw JSONL, row by row: a row may lack columns another has (some lack
``sat_solver_equivalence_check``, which makes ``datasets.load_dataset`` fail). The clauses are
re-solved; the row's ``satisfiable`` is compared with the solver's label and a disagreement is
noted (the solver's label is kept). A row without clauses, with conditions that do not match the
clauses one for one, or with literals beyond ``num_vars`` is rejected with its reason.

Example:
    >>> row = {"id": 7, "dims": [2], "num_vars": 2, "clauses": [[1], [-1, 2]], "satisfiable": True,
    ...        "scenario": "Two lamps.", "variable_mapping": "x(0) means lamp 0 is on.",
    ...        "conditions": ["Lamp 0 is on.", "If lamp 0 is on, lamp 1 is on."],
    ...        "question": "Can all conditions hold?"}
    >>> p = satbench_problem(row, "r.jsonl#1", None)
    >>> p.label, p.problem["var_names"]
    ('SAT', ['x(0)', 'x(1)'])
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import LogicforgeError
from ..families.base import Dataset
from ..logic.cnf import CNF
from ..logic.sat import solve
from ..registry import DATASETS
from ..schema import ImportLog, ImportNote, LabelledProblem
from .base import strict_loader
from .dimacs import dimacs_problem
from .files import iter_rows, slug


class RowError(LogicforgeError):
    """A SATBench row that cannot be a problem (the message says why)."""


def _names(dims: Any, n: int) -> list[str]:
    if isinstance(dims, list) and dims and all(isinstance(d, int) and d > 0 for d in dims):
        names = [f"x({', '.join(map(str, idx))})" for idx in itertools.product(*map(range, dims))]
        if len(names) == n:
            return names
    return [f"x{v}" for v in range(1, n + 1)]


def satbench_problem(row: dict[str, Any], where: str, licence: str | None) -> LabelledProblem:
    clauses = row.get("clauses")
    if not isinstance(clauses, list) or not clauses:
        raise RowError("no 'clauses' list")
    try:
        cls = [tuple(int(x) for x in c) for c in clauses]
    except (TypeError, ValueError):
        raise RowError("'clauses' must be lists of integers") from None
    if any(0 in c or not c for c in cls):
        raise RowError("a clause is empty or holds 0")
    top = max(abs(x) for c in cls for x in c)
    n = row.get("num_vars")
    n = n if isinstance(n, int) and n > 0 else top
    if top > n:
        raise RowError(f"literal {top} beyond num_vars = {n}")
    conds = row.get("conditions")
    if not isinstance(conds, list) or len(conds) != len(cls):
        got = len(conds) if isinstance(conds, list) else "no"
        raise RowError(f"{got} conditions for {len(cls)} clauses (one per clause is needed)")
    cnf = CNF(cls, n)
    sol = solve(cnf, timeout=60.0)
    if sol.label == "UNKNOWN":
        raise RowError("the clauses were not decided within 60 s")
    mapping = row.get("variable_mapping")
    if isinstance(mapping, dict):
        mapping = "\n".join(f"{k}: {v}" for k, v in mapping.items())
    rid = str(row.get("id", row.get("index", where)))
    meta = {
        "source": where,
        "id": rid,
        "sha256": hashlib.sha256(json.dumps(row, sort_keys=True, default=str).encode()).hexdigest(),
        "dims": row.get("dims"),
        "declared_label": None
        if not isinstance(row.get("satisfiable"), bool)
        else ("SAT" if row["satisfiable"] else "UNSAT"),
        "renderer": "satbench-story",
        **({"licence": licence} if licence else {}),
    }
    p = dimacs_problem(cnf, sol.label, sol, meta, f"satbench-{slug(rid)}")
    story = {
        "scenario": str(row.get("scenario") or ""),
        "variable_mapping": str(mapping or ""),
        "conditions": [str(c) for c in conds],
        "question": str(row.get("question") or ""),
    }
    problem = p.problem | {"var_names": _names(row.get("dims"), n), "story": story}
    return p.model_copy(update={"family": "satbench-data", "problem": problem})


def read_satbench(
    paths: Sequence[str | Path], log: ImportLog, licence: str | None = None
) -> list[LabelledProblem]:
    out: list[LabelledProblem] = []
    seen: set[str] = set()
    for where, row in iter_rows(paths, (".jsonl", ".json"), log):
        try:
            p = satbench_problem(row, where, licence)
        except RowError as e:
            (log.unknown if "not decided" in str(e) else log.rejected).append(
                ImportNote(source=where, message=str(e))
            )
            continue
        if p.problem_id in seen:
            p = p.model_copy(update={"problem_id": f"{p.problem_id}-{where.rsplit('#', 1)[1]}"})
            log.warn(where, f"the id {row.get('id')!r} appears again; imported with its row number")
        seen.add(p.problem_id)
        declared = p.metadata["declared_label"]
        if declared is not None and declared != p.label:
            log.disagreements.append(
                {
                    "source": where,
                    "declared": declared,
                    "found": p.label,
                    "found_by": p.oracle["solver"],
                }
            )
        out.append(p)
        log.imported += 1
    return out


DATASETS.register(
    "satbench",
    Dataset(
        strict_loader("satbench", read_satbench),
        what="SATBench-problems.jsonl rows (raw JSONL)",
        read=read_satbench,
    ),
)
