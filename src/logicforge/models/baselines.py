"""Baselines that answer through the same text format as an LLM, so parser and verifier run too.

* ``random`` — SAT or UNSAT by a fair coin keyed on (seed, item, sample); a random assignment when SAT.
* ``always-sat`` / ``always-unsat`` — constant decisions (always-sat gives an all-true assignment).
* ``oracle`` — the solver's answer with its model as witness: the ceiling of every metric.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..logic.sat import solve
from ..registry import MODELS
from ..rng import stable_int
from ..schema import Item
from .base import Response, Sampling


def _answer_text(
    decision: str, item: Item, values: dict[int, bool] | None, counts: dict[str, int] | None = None
) -> str:
    obj: dict[str, object] = {"answer": decision, **(counts or {})}
    if decision == "SAT" and values is not None:
        names = {v: k for k, v in item.mapping.items()}
        obj["assignment"] = {names[v]: values[v] for v in sorted(values) if v in names}
    return "Final answer:\n" + json.dumps(obj)


class _Baseline:
    cache_id: str | None = None

    def __init__(self, name: str) -> None:
        self.name = name

    async def aclose(self) -> None:
        return None

    def _answer(self, item: Item, sample: int) -> str:
        raise NotImplementedError

    async def generate(self, item: Item, sampling: Sampling, sample: int) -> Response:
        text = self._answer(item, sample)
        return Response(text=text, finish_reason="stop", prompt_tokens=0, completion_tokens=0)


class RandomBaseline(_Baseline):
    def __init__(self, seed: int) -> None:
        super().__init__(f"random:seed={seed}" if seed else "random")
        self.seed = seed

    def _answer(self, item: Item, sample: int) -> str:
        import numpy as np

        rng = np.random.default_rng(stable_int(self.seed, item.item_id, sample))
        if item.kind == "fol":
            return json.dumps({"answer": ["True", "False", "Uncertain"][int(rng.integers(3))]})
        if item.kind == "deduction":  # multiple choice over the objects
            k = int(item.problem["n_objects"])
            return json.dumps({"answer": chr(ord("A") + int(rng.integers(k)))})
        if item.kind == "zebra" and item.gold.get("cell"):  # multiple choice: a random option
            k = len(item.gold["cell"]["options"])
            return json.dumps({"answer": chr(ord("A") + int(rng.integers(k)))})
        if item.kind == "zebra":  # a random grid: each attribute's values in a random house order
            d = item.problem
            houses: dict[str, dict[str, str]] = {f"House {h + 1}": {} for h in range(d["n_houses"])}
            for a, vals in zip(d["attributes"], d["values"], strict=True):
                for h, i in enumerate(rng.permutation(len(vals)).tolist()):
                    houses[f"House {h + 1}"][a] = vals[i]
            return json.dumps({"reasoning": "random guess", "solution": houses})
        if rng.random() < 0.5:
            n = len(item.mapping)
            vals = rng.random(n) < 0.5
            return _answer_text("SAT", item, {v: bool(vals[v - 1]) for v in range(1, n + 1)})
        return _answer_text("UNSAT", item, None)


class ConstantBaseline(_Baseline):
    def __init__(self, decision: str) -> None:
        super().__init__("always-sat" if decision == "SAT" else "always-unsat")
        self.decision = decision

    def _answer(self, item: Item, sample: int) -> str:
        vals = {v: True for v in item.mapping.values()} if self.decision == "SAT" else None
        return _answer_text(self.decision, item, vals)


class OracleBaseline(_Baseline):
    def __init__(self) -> None:
        super().__init__("oracle")

    def _answer(self, item: Item, sample: int) -> str:
        if item.kind != "cnf":
            from ..kinds import get_kind

            return "Final answer:\n" + get_kind(item.kind).oracle_text(item)
        stats = item.rendering == "formula-stats"  # report MiniSat's own branches and conflicts
        sol = solve(CNF(item.problem["clauses"], item.problem.get("num_vars")), stats=stats)
        if sol.label == "UNKNOWN":
            return "I could not decide."
        if sol.label == "UNSAT" and item.rendering.startswith(
            ("formula-trace", "story")
        ):  # cite a core
            from ..logic.sat import minimal_unsat_core

            core = minimal_unsat_core(
                [list(c) for c in item.problem["clauses"]], item.problem.get("num_vars") or 0
            )
            return "[UNSAT]\n" + json.dumps({"answer": "UNSAT", "conflict": [i + 1 for i in core]})
        counts = (
            {"branches": sol.stats["decisions"], "conflicts": sol.stats["conflicts"]}
            if stats
            else None
        )
        return _answer_text(sol.label, item, sol.assignment, counts)


def _no_opts(name: str, head: str, opts: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    if head:
        raise ConfigError("model", f"{name}:{head}", f"{name} takes no argument")
    for k in opts:
        if k not in allowed:
            raise ConfigError(
                "model", f"{name};{k}", f"unknown option; allowed: {', '.join(allowed) or 'none'}"
            )


def _random(head: str, opts: dict[str, str]) -> RandomBaseline:
    _no_opts("random", head, opts, ("seed",))
    try:
        return RandomBaseline(int(opts.get("seed", "0")))
    except ValueError:
        raise ConfigError("model", opts.get("seed"), "random seed must be an integer") from None


def _const(decision: str) -> Callable[[str, dict[str, str]], ConstantBaseline]:
    def make(head: str, opts: dict[str, str]) -> ConstantBaseline:
        _no_opts("always-" + decision.lower(), head, opts)
        return ConstantBaseline(decision)

    return make


def _oracle(head: str, opts: dict[str, str]) -> OracleBaseline:
    _no_opts("oracle", head, opts)
    return OracleBaseline()


MODELS.register("random", _random)
MODELS.register("always-sat", _const("SAT"))
MODELS.register("always-unsat", _const("UNSAT"))
MODELS.register("oracle", _oracle)
