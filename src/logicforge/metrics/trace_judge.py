"""What the trace judge did, read from the records (pure): per model, the records it read, its
errors, the SAT witnesses it recovered and the solver accepted, and its agreement with the
deterministic cited-core check. The judge itself, which calls a model, is
:mod:`logicforge.llm.trace_judge`.

Example:
    >>> judged_summary([])
    []
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any


def judged_summary(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: records the judge read, judge errors, SAT witnesses it recovered (and how many
    the solver accepted), and on right UNSAT answers the agreement between the judge's opinion and
    the deterministic cited-core check."""
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in records:
        tj = (r.get("extra") or {}).get("trace_judge")
        if not tj:
            continue
        row = per[str(r.get("model"))]
        row["judged"] += 1
        row["judge_errors"] += tj.get("error") is not None
        d = (r.get("verdict") or {}).get("details") or {}
        if "judge_assignment_valid" in d:
            row["extracted"] += 1
            row["extracted_valid"] += bool(d["judge_assignment_valid"])
        if "judge_error_type" in d:
            row["classified"] += 1
            row[f"judge: {d['judge_error_type']}"] += 1
        if "judge_core_valid" in d:
            row["core_opinions"] += 1
            row["judge_says_valid"] += bool(d["judge_core_valid"])
            if "cited_unsat" in d:
                row["both_checked"] += 1
                row["agree"] += bool(d["judge_core_valid"]) == bool(d["cited_unsat"])
    out = []
    for model, row in sorted(per.items()):
        d = dict(row)
        both = d.get("both_checked", 0)
        out.append({"model": model, **d, "agreement": d.get("agree", 0) / both if both else None})
    return out
