"""Verification-server throughput. Prints figures; asserts nothing.

``serve-verify`` in one process on 127.0.0.1 (4 verification threads), a local load generator
(aiohttp, 32 connections) sending /verify batches of 16 requests that name items by id; half the
replies right, half random. Verifications per second for CNF (random 3-SAT, N = 75 at α = 4.26),
zebra 6×6 and deduction (7 objects), and the in-process ``lf.reward`` rate for comparison.

Usage: python benchmarks/bench_verify_server.py [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import aiohttp
import numpy as np

import logicforge as lf
from logicforge.kinds import answer_format
from logicforge.serve_verify import InThread

SETS = {
    "cnf N=75": ("ksat/random", {"n_vars": 75, "alpha": 4.26}, "formula"),
    "zebra 6x6": ("zebra", {"n_houses": 6, "n_attributes": 6}, "zebra"),
    "deduction 7": ("ordering", {"n_objects": 7}, "deduction"),
}


def texts_for(items: list[lf.Item]) -> list[str]:
    rng = np.random.default_rng(0)
    out = []
    for it in items:
        fmt = answer_format(it)
        out.append(fmt.to_text(fmt.oracle(it) if rng.random() < 0.5 else fmt.random(it, rng), it))
    return out


async def load(url: str, items: list[lf.Item], texts: list[str], calls: int, batch: int) -> float:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=32)) as s:

        async def one(k: int) -> None:
            reqs = [
                {"item_id": items[(k * batch + j) % len(items)].item_id,
                 "response": texts[(k * batch + j) % len(items)]}
                for j in range(batch)
            ]  # fmt: skip
            async with s.post(f"{url}/verify", data=json.dumps({"requests": reqs})) as r:
                assert r.status == 200
                await r.read()

        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(one(k) for k in range(calls))), 600)
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16)
    a = ap.parse_args()
    print(f"logicforge {lf.__version__}; {a.calls} calls × {a.batch} verifications per set")
    for name, (family, params, renderer) in SETS.items():
        items = lf.render(lf.generate(family, params, count=64, seed=1), renderer)
        texts = texts_for(items)
        t0 = time.perf_counter()
        for it, t in zip(items * 4, texts * 4, strict=True):
            lf.reward(it, t)
        inproc = 4 * len(items) / (time.perf_counter() - t0)
        with InThread(items=items, concurrency=4) as srv:
            wall = asyncio.run(load(srv.url, items, texts, a.calls, a.batch))
        n = a.calls * a.batch
        print(
            f"    {name:<12} {n / wall:>8,.0f} verifications/s over HTTP ({wall:.2f} s for {n:,}); "
            f"in process {inproc:>8,.0f}/s"
        )


if __name__ == "__main__":
    main()
