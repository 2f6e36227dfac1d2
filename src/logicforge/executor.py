"""Where shards of work run: in this process, on a local process pool, or on a Ray cluster.

Generation and evaluation both use it; results come back in shard order, so the output of every
executor is byte-identical. The Ray cluster address comes from ``address`` (``--ray-address``),
else ``RAY_ADDRESS``, else a local cluster is started (``pip install ray``).

Example:
    >>> list(ordered_map(abs, [(-1,), (2,), (-3,)]))
    [1, 2, 3]
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .errors import ConfigError
from .gctune import collector_tuned

R = TypeVar("R")


def ray_init(address: str | None = None, num_cpus: int | None = None) -> Any:
    """The ``ray`` module, connected to the cluster (started locally when there is none)."""
    try:
        import ray
    except ImportError:
        raise ConfigError("executor", "ray", "needs Ray: pip install 'ray>=2.9'") from None
    if not ray.is_initialized():
        addr = address or os.environ.get("RAY_ADDRESS")
        kw: dict[str, Any] = {"log_to_driver": False, "include_dashboard": False}
        if addr:
            ray.init(address=addr, **{k: v for k, v in kw.items() if k == "log_to_driver"})
        else:
            ray.init(num_cpus=num_cpus, **kw)
    return ray


# the Ray remote function of each shard function, kept across calls (Ray exports a function to
# the cluster, and to a later one after a restart, on its first use there)
_REMOTE: dict[Callable[..., Any], Any] = {}


def ray_cpus(ray: Any) -> int:
    """The CPUs of the connected cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_window(ray: Any) -> int:
    """How many shards to keep in flight on the cluster."""
    return 4 * ray_cpus(ray)


def ordered_map(
    fn: Callable[..., R],
    shards: Iterable[tuple[Any, ...]],
    executor: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> Iterator[R]:
    """``fn(*shard)`` for every shard, in shard order: here (``workers`` = 1 or a single shard),
    on a local process pool of ``workers`` processes, or on Ray (``executor="ray"``), with a
    bounded number of shards in flight."""
    if executor not in ("local", "ray"):
        raise ConfigError("executor", executor, "choose local or ray")
    if executor == "ray":
        ray = ray_init(address)
        task = _REMOTE.get(fn)
        if task is None:  # made once per function: each new one is exported to the cluster again
            task = _REMOTE[fn] = ray.remote(max_retries=3)(fn)
        pending: deque[Any] = deque()
        it = iter(shards)
        for sh in itertools.islice(it, ray_window(ray)):
            pending.append(task.remote(*sh))
        while pending:
            out = ray.get(pending.popleft())
            nxt = next(it, None)
            if nxt is not None:
                pending.append(task.remote(*nxt))
            yield out
        return
    if workers == 1:
        for sh in shards:
            yield fn(*sh)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    # the heap frozen before the fork: the workers' collections never walk (and so never copy)
    # the pages they share with the parent
    with collector_tuned(), ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futs: deque[Any] = deque()
        it = iter(shards)
        for sh in itertools.islice(it, 4 * workers):
            futs.append(pool.submit(fn, *sh))
        while futs:
            done = futs.popleft().result()
            nxt = next(it, None)
            if nxt is not None:
                futs.append(pool.submit(fn, *nxt))
            yield done
