"""``/generate`` off the server's process: generation runs in worker processes with a time limit,
a memory limit and an output budget, so no request can stall ``/health`` or take the server's
memory.

A request is first *estimated*: the worker times its first item and measures its JSON, and a
request whose ``count`` items would pass the time limit or the output budget is refused at
once, saying by how much. What the estimate misses, the limits stop: a worker past
``time_limit`` seconds is killed (and replaced), and one past ``memory_mb`` fails its
allocation inside the worker (``RLIMIT_AS``), never in the server.

Example:
    >>> job = {"family": "ksat/random", "params": {"n_vars": 5}, "count": 2, "seed": 0,
    ...        "level": None, "renderer": None, "mode": "certified"}
    >>> out = generate_job(job, time_limit=30, max_bytes=1 << 20)
    >>> len(out["items"]), '"rendering":"formula-proof"' in out["items"][0]
    (2, True)
    >>> generate_job({**job, "renderer": "formula"}, 30, 1 << 20)["error"][:40]
    "the renderer 'formula' asks for no certi"
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import resource
import time
from typing import Any

from .errors import LogicforgeError

_GRACE = 2.0  # seconds past the time limit before a worker is killed (its reply in transit)


def _unpayable(item: Any, renderer: str) -> str:
    """Why the certified reward could not pay some item this renderer makes ('' if none)."""
    from .kinds import answer_format, get_kind
    from .kinds.base import gold_labels

    fmt = answer_format(item)
    if fmt.certifies is None:
        return ""
    missing = [x for x in gold_labels(item) if x not in fmt.certifies]
    if not missing:
        return ""
    use = get_kind(item.kind).trainer
    return (
        f"the renderer {renderer!r} asks for no certificate of {', '.join(missing)}, so "
        f"/verify could not pay a right answer on such items in certified mode: use "
        f'{use!r} (the default), or ask with "reward_mode": "decision"'
    )


def generate_job(job: dict[str, Any], time_limit: float, max_bytes: int) -> dict[str, Any]:
    """One ``/generate`` request, run where it is called (in a worker): ``{"items": [item JSON,
    …]}`` or ``{"error": why}``."""
    from .families.base import generate_problems, get_family
    from .kinds import get_kind
    from .renderers import render_problem

    fam = get_family(job["family"])
    renderer = job["renderer"] or get_kind(fam.kind).trainer
    count = job["count"]
    t0 = time.monotonic()
    out: list[str] = []
    size = 0
    problems = generate_problems(
        job["family"], [job["params"]], count, job["seed"], level=job["level"]
    )
    for j, p in enumerate(problems):
        item = render_problem(p, renderer)
        text = item.model_dump_json()
        size += len(text)
        if j == 0:
            if job["mode"] == "certified" and (why := _unpayable(item, renderer)):
                return {"error": why}
            spent = time.monotonic() - t0
            if spent * count > time_limit or size * count > max_bytes:
                return {
                    "error": f"too costly: the first item took {spent:.2f} s and "
                    f"{size:,} bytes, so {count} would take about {spent * count:.0f} s and "
                    f"{size * count:,} bytes; this server's limits are {time_limit:g} s and "
                    f"{max_bytes:,} bytes per request (ask for fewer or smaller items)"
                }
        if size > max_bytes:
            return {"error": f"the items passed this server's {max_bytes:,} bytes per request"}
        out.append(text)
    return {"items": out}


def _child(conn: Any, memory_mb: int, time_limit: float, max_bytes: int) -> None:
    """A worker process: answers jobs until its pipe closes; exits after a memory failure."""
    if memory_mb:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard < 0 else min(cap, hard), hard))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            res = generate_job(job, time_limit, max_bytes)
        except MemoryError:
            msg = f"generation passed this server's {memory_mb} MiB memory limit"
            conn.send({"error": msg, "exit": True})
            return
        except (LogicforgeError, ValueError, TypeError, KeyError, RecursionError) as e:
            res = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        conn.send(res)


class _Worker:
    def __init__(self, ctx: Any, memory_mb: int, time_limit: float, max_bytes: int) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_child, args=(child, memory_mb, time_limit, max_bytes), daemon=True
        )
        self.proc.start()
        child.close()

    def call(self, job: dict[str, Any], limit: float) -> dict[str, Any] | None:
        """The job's result, or None when the worker did not answer in time or died."""
        try:
            self.conn.send(job)
            if self.conn.poll(limit):
                res: dict[str, Any] = self.conn.recv()
                return res
        except (EOFError, OSError, BrokenPipeError):
            pass
        return None

    def alive(self) -> bool:
        return bool(self.proc.is_alive())

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
            self.proc.join(5)
            self.conn.close()


class GenerateWorkers:
    """``workers`` generation processes (started on first use, replaced when killed)."""

    def __init__(
        self,
        workers: int = 1,
        time_limit: float = 60.0,
        memory_mb: int = 4096,
        max_bytes: int = 64 << 20,
    ) -> None:
        self.workers, self.time_limit = workers, time_limit
        self.memory_mb, self.max_bytes = memory_mb, max_bytes
        self._idle: asyncio.Queue[_Worker] | None = None
        self._started: list[_Worker] = []
        self.killed = 0

    def _new(self) -> _Worker:
        ctx = multiprocessing.get_context("spawn")
        w = _Worker(ctx, self.memory_mb, self.time_limit, self.max_bytes)
        self._started.append(w)
        return w

    async def run(self, job: dict[str, Any]) -> dict[str, Any]:
        """Run one job in a free worker: its result, or an error after the time limit."""
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                self._idle.put_nowait(await asyncio.to_thread(self._new))
        w = await self._idle.get()
        res: dict[str, Any] | None = None
        try:
            res = await asyncio.to_thread(w.call, job, self.time_limit + _GRACE)
        finally:
            if res is None or res.pop("exit", False) or not w.alive():
                self.killed += 1
                await asyncio.to_thread(w.kill)
                w = await asyncio.to_thread(self._new)
            self._idle.put_nowait(w)
        if res is None:
            return {
                "error": f"generation passed this server's time limit of {self.time_limit:g} s "
                "and was stopped: ask for fewer or smaller items"
            }
        return res

    def close(self) -> None:
        for w in self._started:
            w.kill()
        self._started.clear()
