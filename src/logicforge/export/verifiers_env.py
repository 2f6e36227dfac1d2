"""logicforge as a ``verifiers`` environment (PyPI ``verifiers`` ≥ 0.4, its ``v1`` stack).

:func:`taskset` gives a :class:`verifiers.v1.Taskset` over any registered family: each task is one
rendered Item (its chat messages as the prompt, the whole Item on the task data), generated when
the taskset is iterated — by ``family`` / ``params`` / ``level`` / ``count`` / ``seed``, so the
same arguments give byte-identical tasks. Each task's scoring is logicforge's parser and
verifier: the reward ``logicforge`` is :func:`logicforge.metrics.reward.reward` of the last reply
(``partial`` as configured), and the metrics ``format``, ``decision``, ``witness`` and ``length``
(the last two where they apply) are its parts (:func:`~logicforge.metrics.reward.reward_components`). Model text is only parsed,
never run.

Example (needs ``pip install verifiers``)::

    from logicforge.export.verifiers_env import taskset
    ts = taskset("zebra", level=3, count=100, seed=0)
    env = vf.SingleAgentEnv(...)  # with ts as its taskset, as any verifiers environment
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import ConfigError


@lru_cache(maxsize=1)
def classes() -> tuple[Any, Any, Any, Any]:
    """The verifiers classes (data, task, taskset config, taskset), built on first use."""
    try:
        import verifiers.v1 as vf
    except ImportError:
        raise ConfigError(
            "verifiers",
            None,
            "the verifiers environment needs `pip install 'verifiers>=0.4'`",
        ) from None

    class LogicforgeData(vf.TaskData):
        item: str = ""  # the Item as JSON
        family: str = ""
        partial: bool = False
        max_chars: int | None = None
        reward_mode: str = "certified"

    class LogicforgeTask(vf.Task[LogicforgeData, vf.State, vf.TaskConfig]):
        @property
        def key(self) -> str:
            return str(self.data.id)

        def _parts(self, trace: Any) -> dict[str, float | None]:
            """The reward's parts, parsed and checked once per trace (reward and metric share)."""
            from ..metrics.reward import reward_components
            from ..schema import Item

            got = trace.info.get("logicforge")
            if got is None:
                item = Item.model_validate_json(self.data.item)
                got = reward_components(
                    item,
                    trace.last_reply,
                    self.data.partial,
                    self.data.max_chars,
                    mode=self.data.reward_mode,
                )
                trace.info["logicforge"] = got
            return dict(got)

        @vf.reward
        async def logicforge(self, task: Any, trace: Any) -> float:
            return float(self._parts(trace)["reward"] or 0.0)

        @vf.metric
        async def parts(self, task: Any, trace: Any) -> dict[str, float]:
            got = self._parts(
                trace
            )  # a part that does not apply (no witness, no limit) is left out
            return {k: float(v) for k, v in got.items() if k != "reward" and v is not None}

    class LogicforgeTasksetConfig(vf.TasksetConfig):
        family: str = "ksat/random"
        params: dict[str, Any] = {}
        level: int | None = None
        count: int = 100
        seed: int = 0
        renderer: str | None = None
        partial: bool = False
        max_chars: int | None = None
        reward_mode: str = "certified"

    class LogicforgeTaskset(vf.Taskset[LogicforgeTask, LogicforgeTasksetConfig]):
        def load(self) -> Any:
            from ..families import generate_problems
            from ..kinds import get_kind
            from ..metrics.reward import check_mode, uncertified
            from ..renderers.base import render_problem

            c = self.config
            check_mode(c.reward_mode)
            problems = generate_problems(c.family, c.params, c.count, c.seed, level=c.level)
            for p in problems:
                it = render_problem(p, c.renderer or get_kind(p.kind).trainer)
                if c.reward_mode == "certified" and (why := uncertified(it)):
                    raise ConfigError("reward_mode", c.reward_mode, why)
                prompt = [{"role": m.role, "content": m.content} for m in it.messages]
                yield LogicforgeTask(
                    LogicforgeData(
                        id=it.item_id,
                        name=it.item_id,
                        prompt=prompt,
                        item=it.model_dump_json(),
                        family=it.family,
                        partial=c.partial,
                        max_chars=c.max_chars,
                        reward_mode=c.reward_mode,
                    ),
                    c.task,
                )

    return LogicforgeData, LogicforgeTask, LogicforgeTasksetConfig, LogicforgeTaskset


def taskset(
    family: str,
    params: dict[str, Any] | None = None,
    *,
    count: int = 100,
    seed: int = 0,
    level: int | None = None,
    renderer: str | None = None,
    partial: bool = False,
    max_chars: int | None = None,
    reward_mode: str = "certified",
) -> Any:
    """A verifiers ``Taskset`` of ``count`` items of ``family`` (see the module docstring),
    rendered by ``renderer`` or the kind's training renderer (a certificate asked for every
    answer) and paid by the reward ``reward_mode``."""
    from ..metrics.reward import check_mode
    from ..registry import FAMILIES

    FAMILIES.get(family)  # an unknown family fails here, naming the known ones
    check_mode(reward_mode)
    _, _, config, ts = classes()
    return ts(
        config(
            family=family,
            params=dict(params or {}),
            level=level,
            count=count,
            seed=seed,
            renderer=renderer,
            partial=partial,
            max_chars=max_chars,
            reward_mode=reward_mode,
        )  # fmt: skip
    )


def score(task: Any, reply: str) -> Any:
    """Score ``reply`` to ``task`` offline as verifiers would after a rollout: the verifiers
    ``Trace`` with its rewards and metrics filled in. Called plainly it returns the Trace; inside
    a running event loop (an ``async def``) it returns a coroutine to ``await`` — so both
    ``score(t, r).reward`` and ``(await score(t, r)).reward`` work where each is written."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop: a plain call
        return asyncio.run(ascore(task, reply))
    return ascore(task, reply)


async def ascore(task: Any, reply: str) -> Any:
    """:func:`score` as a coroutine, always."""
    from verifiers.v1 import AgentConfig
    from verifiers.v1.trace import AgentInfo, Trace, TraceTask

    trace = Trace(
        task=TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
        agent=AgentInfo(config=AgentConfig()),
        root_reply=reply,
    )
    await task.score(trace)
    return trace
