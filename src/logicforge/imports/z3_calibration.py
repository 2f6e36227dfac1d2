"""ZebraLogic's Z3 conflicts measure held against the authors' own statistics: the 16 real
puzzles of ZeroEval's result file, measured here, beside the per-puzzle means the authors
published (``z3_stats_16.json``, from ZeroEval's ``zebra_logic_analysis/z3_data_dict.json``).

``benchmarks/bench_zebra_z3_calibration.py`` prints the table for each encoding and
``tests/test_zebra_z3_calibration.py`` holds the default encoding to it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DataFileError
from ..families.zebra.z3measure import z3_complexity
from .zebralogic_text import parse_puzzle

MIN_PUBLISHED = 3.0  # puzzles whose published mean is below this are shown, not held to a ratio


@dataclass(frozen=True)
class PuzzleComparison:
    puzzle_id: str
    size: str
    conflicts: float  # this measure's mean
    published_conflicts: float
    propagations: float
    published_propagations: float

    @property
    def ratio(self) -> float | None:
        """Measured over published conflicts; None below :data:`MIN_PUBLISHED`."""
        if self.published_conflicts < MIN_PUBLISHED:
            return None
        return self.conflicts / self.published_conflicts


def compare(
    puzzles: str | Path,
    stats: str | Path,
    runs: int = 32,
    encoding: str = "positions",
    seed: int = 0,
) -> list[PuzzleComparison]:
    """Measure every puzzle of ``puzzles`` (ZeroEval's zebra-grid result file) that ``stats``
    has published statistics for, ``runs`` runs each (the paper: 32) on a per-puzzle stream
    ``SeedSequence(seed, spawn_key=(i,))``."""
    try:
        rows = json.loads(Path(puzzles).read_text(encoding="utf-8"))
        published = json.loads(Path(stats).read_text(encoding="utf-8"))["puzzles"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DataFileError(f"{puzzles} / {stats}: not ZeroEval's files ({e})") from None
    out = []
    for i, row in enumerate(r for r in rows if r.get("id") in published):
        n, _, values, clues = parse_puzzle(row["puzzle"])
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        got = z3_complexity(n, len(values), clues, runs, rng, encoding)
        ref = published[row["id"]]
        mean = {k: math.nan if (v := got[f"z3_{k}"]) is None else float(v)
                for k in ("conflicts", "propagations")}  # fmt: skip
        out.append(
            PuzzleComparison(
                row["id"],
                f"{n}x{len(values)}",
                mean["conflicts"],
                float(ref["conflicts"]),
                mean["propagations"],
                float(ref["propagations"]),
            )  # fmt: skip
        )
    return out


def geometric_mean_ratio(rows: list[PuzzleComparison]) -> float:
    """The geometric mean of the conflict ratios over the puzzles held to one."""
    rs = [r.ratio for r in rows if r.ratio is not None]
    return math.exp(sum(math.log(max(r, 1e-9)) for r in rs) / len(rs))


def table(rows: list[PuzzleComparison], low: float = 0.67, high: float = 1.5) -> str:
    """The per-puzzle comparison as Markdown, with the geometric mean of the ratios."""
    lines = [
        "| puzzle | size | conflicts | published | ratio | propagations | published |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = (
            "—"
            if r.ratio is None
            else f"{r.ratio:.2f}" + ("" if low <= r.ratio <= high else " (outside)")
        )
        lines.append(
            f"| {r.puzzle_id} | {r.size} | {r.conflicts:.2f} | {r.published_conflicts:.2f} | "
            f"{ratio} | {r.propagations:.1f} | {r.published_propagations:.1f} |"
        )
    held = sum(r.ratio is not None for r in rows)
    inside = sum(r.ratio is not None and low <= r.ratio <= high for r in rows)
    lines.append("")
    lines.append(
        f"{inside} of {held} puzzles with ≥ {MIN_PUBLISHED:g} published conflicts within "
        f"{low}×–{high}×; geometric mean of the ratios {geometric_mean_ratio(rows):.3f}"
    )
    return "\n".join(lines)
