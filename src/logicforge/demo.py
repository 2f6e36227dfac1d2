"""``logicforge demo``: a small phase-transition study that runs in a few minutes on 2 cores.

Random 3-SAT at N = 20 over α ∈ {3.0, 3.5, 4.0, 4.26, 4.5, 5.0, 5.5}; the baselines answer every
item, the embedded SmolLM2 model the first few per α (structured JSON replies); then the report.
"""

from __future__ import annotations

import time
from pathlib import Path

from . import api
from .errors import ModelError
from .models.base import Sampling
from .runner.store import write_jsonl

ALPHAS = [3.0, 3.5, 4.0, 4.26, 4.5, 5.0, 5.5]
BASELINES = ["random", "always-sat", "always-unsat", "oracle"]


def run_demo(out: Path, per_alpha: int = 5, embedded_per_alpha: int = 2, seed: int = 0) -> Path:
    t0 = time.monotonic()
    problems = api.generate(
        "ksat/random", {"n_vars": 20, "k": 3}, count=per_alpha, seed=seed, grid={"alpha": ALPHAS}
    )
    items = api.render(problems, "formula-ascii")
    write_jsonl(out / "problems.jsonl", problems)
    write_jsonl(out / "items.jsonl", items)
    records = out / "records.jsonl"
    labels = [p.label for p in problems]
    print(
        f"generated {len(problems)} random 3-SAT problems (N=20; {labels.count('SAT')} SAT, {labels.count('UNSAT')} UNSAT)"
    )
    for m in BASELINES:
        api.run(items, m, records, concurrency=4, manifest=False)
    if embedded_per_alpha > 0:
        subset = [it for it in items if it.metadata["spawn_key"][1] < embedded_per_alpha]
        print(f"running the embedded model (SmolLM2-135M-Instruct, CPU) on {len(subset)} items …")
        try:
            api.run(
                subset,
                "embedded",
                records,
                sampling=Sampling(temperature=0.0, max_tokens=200, structured=True),
                concurrency=1,
                cache_path=out / "cache.sqlite",
                progress=True,
                manifest=False,  # `logicforge demo` writes the demo's one manifest
            )
        except ModelError as e:
            print(f"embedded model unavailable: {e}")
    path = api.report(
        records,
        out / "report",
        out / "problems.jsonl",
        title="logicforge demo: random 3-SAT phase transition (N = 20)",
        command="logicforge demo",
        items=out / "items.jsonl",
    )
    print((out / "report" / "metrics_by_model.md").read_text())
    print(f"demo finished in {time.monotonic() - t0:.0f} s")
    return path
