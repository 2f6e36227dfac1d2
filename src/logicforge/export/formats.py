"""Chat-format SFT data from verified responses, DIMACS files, and the ZebraLogic JSON layout."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..kinds import get_kind
from ..logic.cnf import to_dimacs
from ..runner.store import atomic_text
from ..schema import Item, LabelledProblem


def export_sft(
    items: Iterable[Item],
    records: Iterable[Mapping[str, Any]],
    out: str | Path,
    reward_mode: str = "certified",
    models: Iterable[str] | None = None,
) -> int:
    """Write every response that earns the full reward in ``reward_mode`` as one chat-format
    JSONL line: ``{"messages": [...prompt, {"role": "assistant", ...}], "item_id", "model",
    "family", "kind"}``. ``certified`` (the default) keeps a decision only with its checked
    certificate — an assignment for SAT, a refutation or a minimal core for UNSAT — so a model
    tuned on the file never learns to answer without one; items whose prompt asks for no
    certificate are refused before anything is written (``reward_mode="decision"`` keeps every
    verified-correct response, a SAT one only with a valid witness). ``models`` keeps only the
    records of those models (a teacher's answers, not the oracle's beside them); a name that no
    record carries is a :class:`~logicforge.errors.ConfigError` naming the models there are.
    Returns the number of lines.

    Example:
        >>> import logicforge as lf, tempfile, pathlib
        >>> ps = lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0)
        >>> its = lf.render(ps, "formula-proof")
        >>> recs = [{"item_id": its[0].item_id, "text": '{"answer": "SAT"}', "verdict": {"correct": True}}]
        >>> export_sft(its, recs, pathlib.Path(tempfile.mkdtemp()) / "sft.jsonl")
        0
    """
    from ..kinds import parse_answer, verify
    from ..metrics.reward import require_certified, reward_of

    by_id = {it.item_id: it for it in items}
    require_certified(by_id.values(), reward_mode)
    if models is not None:
        keep = set(models)
        records = list(records)
        present = {str(r.get("model")) for r in records}
        if missing := sorted(keep - present):
            raise ConfigError(
                "model", missing[0], f"no record of it; the records hold {sorted(present)}"
            )
        records = [r for r in records if r.get("model") in keep]
    p = Path(out)
    n = 0
    with atomic_text(p) as f:
        for r in records:
            v = r.get("verdict") or {}
            it = by_id.get(r.get("item_id", ""))
            if it is None or not v.get("correct") or v.get("witness_valid") is False:
                continue
            if r.get("error") or not r.get("text"):
                continue
            answer = parse_answer(r["text"], it)  # checked again: the record may be old
            if reward_of(it, answer, verify(it, answer), mode=reward_mode) < 1.0:
                continue
            row = {
                "messages": [m.model_dump() for m in it.messages]
                + [{"role": "assistant", "content": r["text"]}],
                "item_id": it.item_id,
                "model": r.get("model"),
                "family": it.family,
                "kind": it.kind,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def export_dimacs(problems: Iterable[LabelledProblem], out_dir: str | Path) -> int:
    """One ``<problem_id>.cnf`` per problem whose kind exports DIMACS (``Kind.exports``), its
    label and origin in ``c`` comment lines."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    n = 0
    for p in problems:
        to_cnf = get_kind(p.kind).exports.get("dimacs")
        if to_cnf is None:
            continue
        cnf = to_cnf(p.problem)
        comments = [
            f"logicforge problem {p.problem_id}",
            f"family {p.family} params {json.dumps(p.params, sort_keys=True)}",
            f"label {p.label}",
        ]
        with atomic_text(d / f"{p.problem_id}.cnf") as f:
            f.write(to_dimacs(cnf, comments))
        n += 1
    return n


def export_zebralogic(problems: Iterable[LabelledProblem], out: str | Path) -> int:
    """Zebra puzzles in the public ZebraLogic layout, one JSON object per line:
    ``{"id", "size": "N*M", "puzzle", "solution": {"header", "rows"}}``."""
    from ..families.zebra.render import puzzle_text

    p = Path(out)
    n = 0
    with atomic_text(p) as f:
        for q in problems:
            if "zebra-json" not in get_kind(q.kind).exports or "solution" not in q.problem:
                continue
            d = q.problem
            row = {
                "id": q.problem_id,
                "size": f"{d['n_houses']}*{d['n_attributes']}",
                "puzzle": puzzle_text(d),
                "solution": {"header": d["solution"]["header"], "rows": d["solution"]["rows"]},
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n
