"""The long fuzzing budget: every parser and verifier on N random texts each (default 6,000 per
target, over 120,000 in all). Prints the examples run and failures per target; asserts nothing
else. CI runs the same targets with a smaller budget (tests/test_fuzz.py).

Usage: python benchmarks/fuzz_parsers.py [examples per target]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.fuzzing import targets, texts  # noqa: E402


def _fuzzer(fn, seen: list[int], per: int):  # noqa: ANN001, ANN202
    @settings(
        max_examples=per, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(texts)
    def run(text: str) -> None:
        seen[0] += 1
        fn(text)

    return run


def main() -> None:
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 6000
    total, failed = 0, 0
    t0 = time.perf_counter()
    for name, fn in targets():
        seen = [0]
        run = _fuzzer(fn, seen, per)
        try:
            run()
            status = "ok"
        except Exception as e:  # report and go on with the other targets
            failed += 1
            status = f"FAILED: {type(e).__name__}: {e}"[:200]
        total += seen[0]
        print(f"    {name:28s} {seen[0]:7,d} examples  {status}")
    print(
        f"{total:,} examples across {len(targets())} targets in {time.perf_counter() - t0:.0f} s; {failed} targets failed"
    )


if __name__ == "__main__":
    main()
