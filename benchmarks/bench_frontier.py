"""Ability-frontier search on a real model. Prints figures; asserts nothing.

The embedded SmolLM2-135M (greedy, JSON-constrained, 48 tokens) on a family's levels 0..10 (by
default ``ordering``: multiple-choice deduction, whose one-letter answers fit the token budget —
on CNF the assignment JSON does not fit in 48 tokens and every reply is truncated): the frontier
search's answer, probes and items used, beside the full grid (every level, ``--per-level``
items) and its own answer. Not part of ``make bench``: it
runs the embedded model (never beside another llama.cpp process).

Usage: python benchmarks/bench_frontier.py [--per-level 16] [--threshold 0.25] [--family ordering]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import logicforge as lf
from logicforge.curriculum import frontier


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-level", type=int, default=16)
    ap.add_argument("--threshold", type=float, default=0.25)
    ap.add_argument("--family", default="ordering")
    a = ap.parse_args()
    model = lf.load_model("embedded")
    sampling = lf.Sampling(temperature=0.0, max_tokens=48, structured=True)
    tmp = Path(tempfile.mkdtemp())
    runs = [0]

    def accuracy_of(level: int, n: int, offset: int) -> list[bool]:
        from logicforge.kinds import get_kind

        renderer = get_kind(lf.FAMILIES.get(a.family).kind).renderer  # type: ignore[attr-defined]
        ps = lf.generate(a.family, count=n, seed=100 + offset, level=level)
        items = lf.render(ps, renderer)
        runs[0] += 1
        out = tmp / f"r{runs[0]}.jsonl"
        lf.run(items, model, out, sampling=sampling, concurrency=1, progress=False)
        recs = [json.loads(x) for x in out.read_text().splitlines()]
        return [bool((r.get("verdict") or {}).get("correct")) for r in recs]

    t0 = time.perf_counter()
    res = frontier(accuracy_of, threshold=a.threshold, batch=8, max_per_level=a.per_level)
    t_search = time.perf_counter() - t0
    t0 = time.perf_counter()
    grid = {lv: accuracy_of(lv, a.per_level, 0) for lv in range(11)}
    t_grid = time.perf_counter() - t0
    accs = {lv: sum(r) / len(r) for lv, r in grid.items()}
    full = max((lv for lv, x in accs.items() if x >= a.threshold), default=-1)
    print(f"logicforge {lf.__version__}; {model.name} on {a.family}, threshold {a.threshold}")
    print(f"  frontier search: level {res['frontier']} (bracket {res['bracket']}), "
          f"{res['items']} items, {t_search:.0f} s, "
          + ("every probe decided" if res["decided"] else "NOT decided: some probe's CI holds the threshold"))  # fmt: skip
    for p in res["probes"]:
        lo, hi = p["ci"]
        print(
            f"    probe level {p['level']:>2}: {p['accuracy']:.2f} of {p['n']} (CI {lo:.2f}–{hi:.2f})"
            + ("" if p["decided"] else ", undecided")
        )
    print(f"  full grid: level {full}, {11 * a.per_level} items, {t_grid:.0f} s; accuracy per level "
          + " ".join(f"{lv}:{x:.2f}" for lv, x in accs.items()))  # fmt: skip


if __name__ == "__main__":
    main()
