"""Every registered renderer, through the command line as a user runs it: its problems made
(generate, with a reduction or a story writer where the renderer needs one; import for FOLIO's
data), then ``run`` with the oracle, ``score`` and ``report`` — each verb exits 0 and the oracle
is perfect in every accuracy column of every table the report writes.

A renderer registered without a way here to make its problems fails
``test_every_renderer_has_a_recipe``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main

from .fuzzing import lsat_files
from .test_kind_contract import ACCURACY_LIKE, FOLIO_ROWS

SMALL = ["--family", "ksat/random", "--set", "n_vars=4", "--grid", "alpha=1.5,8.0"]
# the problems of each kind, as `generate` arguments (both labels wherever the kind has two)
SOURCES: dict[str, list[str]] = {
    "cnf": ["--family", "ksat/random", "--set", "n_vars=8", "--grid", "alpha=2.0,7.0"],
    "vc": [*SMALL, "--transform", "reduce:to=vc"],
    "packing": [*SMALL, "--transform", "reduce:to=packing"],
    "coloring": ["--family", "coloring/planted", "--set", "n_nodes=8"],
    "zebra": ["--family", "zebra", "--set", "n_houses=3", "--set", "n_attributes=3"],
    "deduction": ["--family", "ordering", "--set", "n_objects=4"],
}
IMPORTED = {"fol", "lsat"}  # kinds that come from data files: `logicforge import`


def _puzzle_sources() -> dict[str, list[str]]:
    """The solution puzzles (every kind without a recipe above): their family's own example
    parameters."""
    out = {}
    for name in lf.FAMILIES.names():
        fam = lf.FAMILIES.get(name)
        example = getattr(fam, "example", None)
        if example is not None and fam.kind not in SOURCES:  # type: ignore[attr-defined]
            sets = [x for k, v in example.items() for x in ("--set", f"{k}={v}")]
            out[str(fam.kind)] = ["--family", name, *sets]  # type: ignore[attr-defined]
    return out


SOURCES.update(_puzzle_sources())


def _renderers() -> list[str]:
    return sorted(lf.RENDERERS.names())


def _kind(renderer: str) -> str:
    return str(lf.RENDERERS.get(renderer).kind)


def test_every_renderer_has_a_recipe() -> None:
    missing = [r for r in _renderers() if _kind(r) not in SOURCES and _kind(r) not in IMPORTED]
    assert not missing, f"add a way to make these renderers' problems: {missing}"


def _make_items(renderer: str, d: Path) -> Path:
    """The items of ``renderer`` in ``d``, made by the command line; returns the items file."""
    kind = _kind(renderer)
    if kind in IMPORTED:
        if kind == "lsat":
            data, dataset = lsat_files(d), "arlsat"
        else:
            data, dataset = d / "folio.jsonl", "folio"
            data.write_text("".join(json.dumps(r) + "\n" for r in FOLIO_ROWS), encoding="utf-8")
        args = ["import", dataset, str(data), "--renderer", renderer, "--out", str(d)]
        assert main([*args, "--json"]) == 0
        return d / "items.jsonl"
    if getattr(lf.RENDERERS.get(renderer), "needs_writer", False):  # a story: written by a model
        gen = ["generate", *SOURCES[kind], "--count", "2", "--out", str(d), "--quiet"]
        assert main(gen) == 0
        story = ["narrate", str(d / "problems.jsonl"), "--renderer", renderer]
        out = d / "story.jsonl"
        assert main([*story, "--writer", "oracle", "--out", str(out), "--quiet"]) == 0
        return out
    gen = ["generate", *SOURCES[kind], "--count", "2", "--renderer", renderer]
    assert main([*gen, "--out", str(d), "--quiet"]) == 0
    return d / "items.jsonl"


@pytest.mark.parametrize("renderer", _renderers())
def test_generate_run_score_report_with_the_oracle(renderer: str, tmp_path: Path) -> None:
    items = _make_items(renderer, tmp_path)
    n_items = sum(1 for line in items.read_text().splitlines() if line.strip())
    assert n_items >= 2
    records = tmp_path / "records.jsonl"
    run = ["run", "--items", str(items), "--model", "oracle", "--records", str(records),
           "--cache", str(tmp_path / "cache.sqlite")]  # fmt: skip
    assert main([*run, "--quiet"]) == 0
    scored = tmp_path / "scored.jsonl"
    assert main(["score", "--items", str(items), "--records", str(records),
                 "--out", str(scored)]) == 0  # fmt: skip
    rows = [json.loads(x) for x in scored.read_text().splitlines() if x.strip()]
    assert len(rows) == n_items
    assert all(r["verdict"]["correct"] for r in rows), [r["verdict"] for r in rows]
    report = tmp_path / "report"
    rep = ["report", "--records", str(records), "--items", str(items), "--out", str(report)]
    assert main(rep) == 0
    checked = 0
    for table in sorted(report.glob("*.csv")):
        with table.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                for col, value in row.items():
                    if col.endswith(("_lo", "_hi")) or not any(a in col for a in ACCURACY_LIKE):
                        continue
                    if value == "":  # undefined in the group (no SAT item, no solution grid)
                        continue
                    assert float(value) == 1.0, f"{table.name}: {col} = {value} in {row}"
                    checked += 1
    assert checked >= 1, "no accuracy column was checked"
