"""Harness at scale. Prints figures and ratios; asserts nothing.

(c) Latency hiding: ``logicforge run`` against an OpenAI-compatible server on 127.0.0.1 that
    answers after 200 ms, at concurrency 64: achieved samples/s against the ideal
    concurrency ÷ latency (target ≥ 90 %).
(d) Memory while streaming: ``logicforge generate`` of a large 2-SAT set (generate → render →
    write, one problem at a time); the client's resident memory sampled as it runs (target: flat).
(e) Peers side by side: Inspect AI and lm-evaluation-harness, each installed by this script into
    its own temporary virtual environment, run the same items against the same zero-latency
    server with a minimal task (exact-match / includes scorer), beside ``logicforge run``;
    samples/s end to end and CPU per sample for each.

Usage: python benchmarks/bench_scale_out.py [--stream 200000] [--no-peer]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

import logicforge as lf
from logicforge.runner.store import write_jsonl

HERE = Path(__file__).resolve().parent


def _server(d: Path, latency: float) -> tuple[subprocess.Popen, str]:
    pf = d / f"port-{latency}"
    proc = subprocess.Popen([sys.executable, str(HERE / "zero_server.py"), str(pf), str(latency)])
    for _ in range(200):
        if pf.exists() and pf.read_text():
            return proc, pf.read_text()
        time.sleep(0.05)
    raise SystemExit("server did not start")


def _timed(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float]:
    # every tool with its byte-code caches, as installed packages have them
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    _, status, ru = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[:4]} failed")
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def _lf_run(d: Path, port: str, items: str, records: str, concurrency: int = 64) -> list[str]:
    return [sys.executable, "-m", "logicforge", "run", "--items", str(d / items), "--model",
            f"openai-compatible:http://127.0.0.1:{port}/v1:bench", "--records", str(d / records),
            "--concurrency", str(concurrency), "--no-cache", "--quiet"]  # fmt: skip


def latency(d: Path, n: int) -> None:
    proc, port = _server(d, 0.2)
    try:
        _timed(_lf_run(d, port, "one.jsonl", "warm-up.jsonl"))  # writes the byte-code caches
        one, _ = _timed(_lf_run(d, port, "one.jsonl", "lat1.jsonl"))  # start-up + one request
        wall, _ = _timed(_lf_run(d, port, "items.jsonl", "lat.jsonl"))
    finally:
        proc.kill()
    ideal = 64 / 0.2
    steady = (n - 1) / (wall - one)
    print(
        f"(c) 200 ms latency, concurrency 64, {n} items: {n / wall:,.0f} samples/s end to end "
        f"= {100 * n / wall / ideal:.0f} % of the ideal {ideal:,.0f}/s; after start-up "
        f"({one - 0.2:.2f} s) {steady:,.0f}/s = {100 * steady / ideal:.0f} % (target ≥ 90 %)"
    )


def stream(d: Path, n: int) -> None:
    cmd = [sys.executable, "-m", "logicforge", "generate", "--family", "2sat/implication-cycle",
           "--set", "n_clauses=20", "--count", str(n), "--out", str(d / "stream"), "--quiet"]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd)
    samples: list[tuple[float, float, int]] = []
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                rss = next(int(x.split()[1]) for x in f if x.startswith("VmRSS:"))
            samples.append((time.perf_counter() - t0, rss / 1024, 0))
        except (OSError, StopIteration):
            pass
        time.sleep(0.5)
    wall = time.perf_counter() - t0
    with open(d / "stream" / "problems.jsonl", "rb") as f:
        got = sum(1 for _ in f)
    marks = (
        [samples[int(len(samples) * f)] for f in (0.1, 0.5, 0.9)] if len(samples) >= 10 else samples
    )
    print(
        f"(d) streaming generate → render → write of {got:,} 2-SAT problems in {wall:.0f} s "
        f"({got / wall:,.0f}/s): resident memory "
        + ", ".join(f"{rss:.0f} MB at {t:.0f} s" for t, rss, _ in marks)
        + f"; peak {max(s[1] for s in samples):.0f} MB"
    )


TASK = """
from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset, Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

@task
def bench():
    return Task(dataset=json_dataset("samples.jsonl"), solver=generate(), scorer=includes())
"""


LM_EVAL_TASK = """task: lfbench
dataset_path: json
dataset_kwargs:
  data_files:
    test: {samples}
test_split: test
output_type: generate_until
doc_to_text: "{{{{input}}}}"
doc_to_target: "{{{{target}}}}"
generation_kwargs:
  until: []
  max_gen_toks: 64
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
"""


def _venv(d: Path, name: str, packages: list[str]) -> Path:
    env_dir = d / f"{name}-venv"
    print(f"(e) installing {' '.join(packages)} into a temporary virtual environment …", flush=True)
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", *packages], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    return py


ROUNDS = 3


def peer(d: Path, n: int) -> None:
    py = _venv(d, "inspect", ["inspect-ai", "openai"])
    lm_py = _venv(d, "lm-eval", ["lm-eval[api]"])
    items = [json.loads(x) for x in (d / "items.jsonl").read_text().splitlines()]
    with open(d / "samples.jsonl", "w") as f:
        for it in items:
            f.write(json.dumps({"id": it["item_id"], "input": it["messages"][-1]["content"],
                                "target": it["gold"]["label"]}) + "\n")  # fmt: skip
    (d / "bench_task.py").write_text(TASK)
    proc, port = _server(d, 0.0)
    try:
        env = {**os.environ, "BENCH_BASE_URL": f"http://127.0.0.1:{port}/v1", "BENCH_API_KEY": "x",
               "INSPECT_DISPLAY": "none", "INSPECT_LOG_DIR": str(d / "logs")}  # fmt: skip
        (d / "tasks").mkdir(exist_ok=True)
        (d / "tasks" / "lfbench.yaml").write_text(LM_EVAL_TASK.format(samples=d / "samples.jsonl"))
        lm_env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
                  "HF_HOME": str(d / "hf-home")}  # fmt: skip
        args = (f"model=bench,base_url=http://127.0.0.1:{port}/v1/chat/completions,num_concurrent=64,"
                "tokenized_requests=False,tokenizer_backend=None,max_retries=1")  # fmt: skip
        runs: dict[str, list[tuple[float, float]]] = {"inspect": [], "lm-eval": [], "lf": []}
        for r in range(ROUNDS):  # interleaved rounds; each tool's median run is reported
            runs["inspect"].append(_timed([str(py), "-m", "inspect_ai", "eval", "bench_task.py",
                                           "--model", "openai-api/bench/bench",
                                           "--max-connections", "64"], env=env, cwd=d))  # fmt: skip
            runs["lm-eval"].append(_timed([str(lm_py), "-m", "lm_eval", "--model",
                                           "local-chat-completions", "--model_args", args,
                                           "--tasks", "lfbench", "--include_path", str(d / "tasks"),
                                           "--apply_chat_template", "--output_path",
                                           str(d / f"lm-out{r}")], env=lm_env, cwd=d))  # fmt: skip
            runs["lf"].append(_timed(_lf_run(d, port, "items.jsonl", f"peer{r}.jsonl")))
        (iw, ic), (ew, ec), (lw, lc) = (sorted(runs[k])[len(runs[k]) // 2] for k in runs)
    finally:
        proc.kill()
    print(
        f"    median of {ROUNDS} interleaved rounds; each round's samples/s: "
        + "; ".join(f"{k} " + ", ".join(f"{n / w:,.0f}" for w, _ in v) for k, v in runs.items())
    )
    print(
        f"    inspect-ai: {n / iw:,.0f} samples/s end to end, {1000 * ic / n:.2f} ms CPU/sample\n"
        f"    lm-eval:    {n / ew:,.0f} samples/s end to end, {1000 * ec / n:.2f} ms CPU/sample\n"
        f"    logicforge: {n / lw:,.0f} samples/s end to end, {1000 * lc / n:.2f} ms CPU/sample\n"
        f"    ratios: {iw / lw:.1f}× inspect-ai's samples/s (target ≥ 30×), {ew / lw:.1f}× lm-eval's "
        f"(target ≥ 10×); {ic / lc:.1f}× and {ec / lc:.1f}× less CPU per sample"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--stream", type=int, default=200_000)
    ap.add_argument("--no-peer", action="store_true")
    a = ap.parse_args()
    print(f"logicforge {lf.__version__} · {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ps = lf.generate("ksat/random", {"n_vars": 20, "alpha": 4.26}, count=a.items, seed=1)
        items = lf.render(ps, "formula")
        write_jsonl(d / "items.jsonl", items)
        write_jsonl(d / "one.jsonl", items[:1])
        latency(d, a.items)
        if a.stream:
            stream(d, a.stream)
        if not a.no_peer:
            peer(d, a.items)


if __name__ == "__main__":
    main()
