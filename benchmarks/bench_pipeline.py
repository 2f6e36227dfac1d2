"""logicforge pipeline benchmarks. Prints figures and ratios; asserts nothing.

(a) Labelled random 3-SAT at N = 75, α = 4.26: instances per second through ``lf.generate``
    (draw, MiniSat 2.2 label with statistics, typed record) and the ratio of that total time to
    bare solver time (MiniSat on the same formulas, clauses already in memory).
(b) Harness throughput: ``logicforge run`` as a fresh process against a zero-latency
    OpenAI-compatible server on 127.0.0.1 (a separate process): 2,000 items at concurrency 64,
    end to end including start-up, parsing, scoring and durable writes; samples/s, client CPU per
    sample and peak RSS of the client process; "after start-up" is, per round, the run's CPU
    less that of the one-request run just before it, and the median round is reported (one
    start-up run alone swings ±10 %; a busy spell moves both sides of a round).

Usage: python benchmarks/bench_pipeline.py [--instances 2000] [--items 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pysat.solvers import Solver

import logicforge as lf
from logicforge.runner.store import write_jsonl


def bench_generation(n: int, rounds: int = 5, chunk: int = 250) -> None:
    """Labelled generation against bare MiniSat on the same formulas: ``rounds`` rounds of ``n``
    instances, each round alternating the two sides chunk by chunk (``chunk`` instances
    generated, then the same formulas solved bare), so a machine that slows down for a while
    slows both; the median round's ratio is reported beside every round's."""
    lf.generate(
        "ksat/random", {"n_vars": 75, "alpha": 4.26}, count=1, seed=99
    )  # load the registry once
    runs = []
    sat = 0
    for _ in range(rounds):
        total = bare = 0.0
        sat = 0
        for c in range(-(-n // chunk)):
            k = min(chunk, n - c * chunk)
            t0 = time.perf_counter()
            problems = lf.generate("ksat/random", {"n_vars": 75, "alpha": 4.26}, count=k, seed=c)
            total += time.perf_counter() - t0
            formulas = [p.problem["clauses"] for p in problems]
            t0 = time.perf_counter()
            for cl in formulas:
                with Solver(name="minisat22", bootstrap_with=cl) as s:
                    s.solve()
                    s.accum_stats()
            bare += time.perf_counter() - t0
            sat += sum(p.label == "SAT" for p in problems)
            del problems, formulas
        runs.append((total / bare, total, bare))
    ratio, total, bare = sorted(runs)[len(runs) // 2]
    print(
        f"(a) labelled 3-SAT, N=75, α=4.26: {n} instances ({sat} SAT) in {total:.2f} s = {n / total:,.0f} instances/s"
    )
    print(
        f"    bare MiniSat time {bare:.2f} s; total / bare solver = {ratio:.2f}×  (target ≤ 1.5×; "
        f"median of {rounds} rounds, each interleaved in chunks of {chunk}: "
        f"{', '.join(f'{r:.2f}×' for r, _, _ in runs)})"
    )


def _client(cmd: list[str]) -> tuple[float, float, float]:
    """Run one client process; its wall time, CPU seconds and peak RSS in MB.

    Peak RSS is the kernel's high-water mark of the client's own address space (VmHWM, polled
    until exit); ``ru_maxrss`` would also count the benchmark's pages copied at fork time."""
    # byte-compiled modules, as an installed package has them (the warm-up run writes them)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    hwm_kb = 0
    while True:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        hwm_kb = max(hwm_kb, int(line.split()[1]))
        except OSError:
            pass
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"client failed with exit code {proc.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, hwm_kb / 1024


def bench_harness(n_items: int, concurrency: int, repeat: int) -> None:
    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        problems = lf.generate("ksat/random", {"n_vars": 20, "alpha": 4.26}, count=n_items, seed=1)
        items = lf.render(problems, "formula")
        write_jsonl(d / "items.jsonl", items)
        write_jsonl(d / "one.jsonl", items[:1])
        port_file = d / "port"
        server = subprocess.Popen([sys.executable, str(here / "zero_server.py"), str(port_file)])
        try:
            for _ in range(100):
                if port_file.exists() and port_file.read_text():
                    break
                time.sleep(0.05)
            port = port_file.read_text()

            def cmd(items_file: str, records: str) -> list[str]:
                return [
                    sys.executable,
                    "-m",
                    "logicforge",
                    "run",
                    "--items",
                    str(d / items_file),
                    "--model",
                    f"openai-compatible:http://127.0.0.1:{port}/v1:bench",
                    "--records",
                    str(d / records),
                    "--concurrency",
                    str(concurrency),
                    "--no-cache",
                    "--quiet",
                ]

            _client(cmd("one.jsonl", "warm-up.jsonl"))  # writes the byte-code caches
            runs, ones = [], []
            for r in range(repeat):  # fresh records files each time; the medians are reported
                ones.append(_client(cmd("one.jsonl", f"one-records{r}.jsonl")))  # start-up
                runs.append(_client(cmd("items.jsonl", f"records{r}.jsonl")))
            wall, cpu, rss = sorted(runs)[len(runs) // 2]
            w1 = statistics.median(w for w, _, _ in ones)
            c1 = statistics.median(c for _, c, _ in ones)
            # per round: the run's CPU less the start-up run just before it, so that a busy
            # spell moves both sides of each difference; the median round is reported
            after = [
                1000 * (c - o) / (n_items - 1)
                for (_, c, _), (_, o, _) in zip(runs, ones, strict=True)
            ]
        finally:
            server.kill()
            server.wait()
        lines = (d / "records0.jsonl").read_bytes().count(b"\n")
        assert lines == n_items, f"expected {n_items} records, found {lines}"
        print(
            f"(b) harness: {n_items} items at concurrency {concurrency} against a zero-latency server on 127.0.0.1\n"
            f"    median of {repeat} runs; each run: {', '.join(f'{n_items / w:,.0f}' for w, _, _ in runs)} samples/s; "
            f"start-up runs (one request, interleaved): {', '.join(f'{c:.3f}' for _, c, _ in ones)} s CPU"
        )
        print(
            f"    {n_items / wall:,.0f} samples/s end to end (start-up included; target ≥ 2,000): {wall:.2f} s wall"
        )
        print(
            f"    client CPU {1000 * cpu / n_items:.3f} ms/sample with start-up, "
            f"{statistics.median(after):.3f} ms/sample after start-up (median of the {repeat} "
            f"interleaved rounds: {', '.join(f'{a:.3f}' for a in after)}; target ≤ 0.25); "
            f"start-up with one request {w1:.2f} s wall (target ≤ 0.3 s to the first request), {c1:.2f} s CPU (medians)"
        )
        print(f"    peak RSS of the client {rss:.0f} MB (target ≤ 100)")
        print(
            "    Inspect AI and lm-evaluation-harness beside it, in the same run: "
            "benchmarks/bench_scale_out.py (e)"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--instances", type=int, default=2000)
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    print(f"logicforge {lf.__version__} · Python {sys.version.split()[0]} · {os.cpu_count()} CPUs")
    bench_generation(a.instances)
    bench_harness(a.items, a.concurrency, a.repeat)


if __name__ == "__main__":
    main()
