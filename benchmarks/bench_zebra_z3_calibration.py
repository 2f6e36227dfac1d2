"""ZebraLogic's Z3 conflicts measure against the authors' published per-puzzle statistics on
the 16 real puzzles of ``shared/data/zeroeval``: one table per encoding (32 runs per puzzle, as
the paper), the geometric mean of the ratios and the seconds each took. Asserts nothing.

Usage: python benchmarks/bench_zebra_z3_calibration.py [--runs 32] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from logicforge.families.zebra.z3measure import Z3_ENCODINGS
from logicforge.imports.z3_calibration import compare, table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=32)
    ap.add_argument("--data", default=os.environ.get("LOGICFORGE_DATA", "../shared/data"))
    a = ap.parse_args()
    os.environ["LOGICFORGE_CACHE_DIR"] = "off"
    d = Path(a.data) / "zeroeval"
    for enc in Z3_ENCODINGS:
        t = time.perf_counter()
        rows = compare(d / "zebra-grid_Meta-Llama-3.1-405B-Instruct@hyperbolic.json",
                       d / "z3_stats_16.json", runs=a.runs, encoding=enc)  # fmt: skip
        print(f"\n## encoding {enc} ({a.runs} runs per puzzle, {time.perf_counter() - t:.1f} s)\n")
        print(table(rows))


if __name__ == "__main__":
    main()
