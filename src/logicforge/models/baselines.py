"""Baselines that answer through the same text format as an LLM, so parser and verifier run too.

Every baseline asks the item's answer format (:mod:`logicforge.kinds`) for an answer and writes it
with the format's ``to_text``; none of them knows any kind.

* ``random`` — a uniform guess keyed on (seed, item, sample): a fair coin between the two labels
  (with a random assignment for SAT), a random option, a random grid.
* ``always-sat`` / ``always-unsat`` — constant labels for binary formats (always-sat gives an
  all-true assignment); no answer for the others.
* ``oracle`` — the solver's answer with its witness: the ceiling of every metric;
* ``learner`` — right on a share ``p`` of items at first, and on a later turn only when told
  what the checker found (the ``repair`` strategy's test subject; ``listens=no`` ignores it);
* ``budget:N`` — a reference solver allowed at most N conflicts (MiniSat on the problem's CNF or
  SAT encoding; for generated deduction puzzles, N arrangements checked): its answer when it
  finishes, a seeded random guess when the budget runs out, so
  its accuracy falls as problems get harder (the difficulty levels' yardstick); formats with no
  budgeted solver get an error record.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigError, LogicforgeError
from ..kinds import answer_format
from ..registry import MODELS
from ..rng import stable_int
from ..schema import Answer, Item
from .base import Prompt, Response, Sampling


class _Baseline:
    cache_id: str | None = None
    needs_item = True  # answers from the task, not the text (``serve`` needs --items)

    def __init__(self, name: str) -> None:
        self.name = name

    async def aclose(self) -> None:
        return None

    def _answer(self, item: Item, sample: int) -> str:
        raise NotImplementedError

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        if prompt.item is None:  # plain messages (a served chat, a judge's question)
            return Response(
                text=None,
                error=f"{self.name} answers logicforge items only; this prompt carries no problem",
            )
        text = self._answer(prompt.item, sample)
        return Response(text=text, finish_reason="stop", prompt_tokens=0, completion_tokens=0)


def _text(item: Item, answer: Answer) -> str:
    if answer.label is None:
        return "I could not decide."
    return answer_format(item).to_text(answer, item)


class RandomBaseline(_Baseline):
    def __init__(self, seed: int) -> None:
        super().__init__(f"random:seed={seed}" if seed else "random")
        self.seed = seed

    def _answer(self, item: Item, sample: int) -> str:
        import numpy as np

        rng = np.random.default_rng(stable_int(self.seed, item.item_id, sample))
        return _text(item, answer_format(item).random(item, rng))


class ConstantBaseline(_Baseline):
    def __init__(self, decision: str) -> None:
        super().__init__("always-sat" if decision == "SAT" else "always-unsat")
        self.label = decision

    def _answer(self, item: Item, sample: int) -> str:
        fmt = answer_format(item)
        if fmt.constant is None:
            return f"I always answer {self.label}, which is not an answer to this question."
        return _text(item, fmt.constant(item, self.label))


class NoisyBaseline(_Baseline):
    """Right on a fixed pseudo-random share ``p`` of items (the same items every run), wrong on
    the rest, and — where the answer carries a witness — giving it on only ``witness`` of its
    right SAT answers: a scripted model that is neither perfect nor constant, for checking that
    every table follows from its records.

    Example:
        >>> NoisyBaseline(0.7, 0.5, 0).name
        'noisy:p=0.7'
    """

    def __init__(self, p: float, witness: float, seed: int) -> None:
        super().__init__(f"noisy:p={p:g}" + (f";seed={seed}" if seed else ""))
        self.p, self.witness, self.seed = p, witness, seed

    def _answer(self, item: Item, sample: int) -> str:
        import numpy as np

        rng = np.random.default_rng(stable_int(self.seed, "noisy", item.item_id, sample))
        fmt = answer_format(item)
        if rng.random() >= self.p:
            return _text(item, fmt.wrong(item))
        right = fmt.oracle(item)
        if right.label == "SAT" and rng.random() >= self.witness:
            right = Answer(label="SAT")  # the verdict without its witness
        return _text(item, right)


class LearnerBaseline(_Baseline):
    """A scripted model for multi-turn repair: its first answer is right on a fixed
    pseudo-random share ``p`` of items and wrong (the format's wrong answer) on the rest; on a
    later turn it answers right only when the last message carries the checker's facts
    (:func:`logicforge.kinds.feedback.feedback`) — plain retries and review prompts get its first
    answer again. With ``listens=False`` it ignores every message and repeats its first answer.

    Example:
        >>> LearnerBaseline(0.3, True, 0).name, LearnerBaseline(0.3, False, 0).name
        ('learner:p=0.3', 'learner:p=0.3;listens=no')
    """

    def __init__(self, p: float, listens: bool, seed: int) -> None:
        name = f"learner:p={p:g}" + ("" if listens else ";listens=no")
        super().__init__(name + (f";seed={seed}" if seed else ""))
        self.p, self.listens, self.seed = p, listens, seed

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        from ..kinds.feedback import HEAD

        item = prompt.item
        last = prompt.messages[-1].content if prompt.messages else ""
        if item is not None and self.listens and last.startswith(HEAD):
            text = _text(item, answer_format(item).oracle(item))
            return Response(text=text, finish_reason="stop", prompt_tokens=0, completion_tokens=0)
        return await super().generate(prompt, sampling, sample)

    def _answer(self, item: Item, sample: int) -> str:
        import numpy as np

        rng = np.random.default_rng(stable_int(self.seed, "learner", item.item_id, sample))
        fmt = answer_format(item)
        return _text(item, fmt.oracle(item) if rng.random() < self.p else fmt.wrong(item))


class OracleBaseline(_Baseline):
    def __init__(self) -> None:
        super().__init__("oracle")

    def _answer(self, item: Item, sample: int) -> str:
        return _text(item, answer_format(item).oracle(item))


class BudgetBaseline(_Baseline):
    """Example:
    >>> BudgetBaseline(100).name
    'budget:100'
    """

    def __init__(self, conflicts: int) -> None:
        super().__init__(f"budget:{conflicts}")
        self.conflicts = conflicts

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        item = prompt.item
        if item is not None and answer_format(item).budgeted is None:
            return Response(
                text=None,
                error=f"{self.name} has no budgeted solver for {answer_format(item).name} answers",
            )
        try:
            return await super().generate(prompt, sampling, sample)
        except LogicforgeError as e:  # the format's solver cannot take this item
            return Response(text=None, error=f"{self.name}: {e}")

    def _answer(self, item: Item, sample: int) -> str:
        import numpy as np

        fmt = answer_format(item)
        got = fmt.budgeted(item, self.conflicts) if fmt.budgeted else None
        if got is None:  # the budget ran out: guess
            got = fmt.random(
                item, np.random.default_rng(stable_int("budget", item.item_id, sample))
            )
        return _text(item, got)


def _budget(head: str, opts: dict[str, str]) -> BudgetBaseline:
    _no_opts("budget", "", opts)
    try:
        n = int(head)
    except ValueError:
        raise ConfigError(
            "model", f"budget:{head}", "expected budget:<conflicts>, e.g. budget:100"
        ) from None
    if n < 1:
        raise ConfigError("model", f"budget:{head}", "the conflict budget must be ≥ 1")
    return BudgetBaseline(n)


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


def _noisy(head: str, opts: dict[str, str]) -> NoisyBaseline:
    _no_opts("noisy", head, opts, ("p", "witness", "seed"))
    try:
        p, w = float(opts.get("p", "0.7")), float(opts.get("witness", "0.5"))
        seed = int(opts.get("seed", "0"))
    except ValueError:
        raise ConfigError("model", opts, "noisy takes p=<0..1>;witness=<0..1>;seed=<int>") from None
    for k, v in (("p", p), ("witness", w)):
        if not 0.0 <= v <= 1.0:
            raise ConfigError(k, v, "must be in [0, 1]")
    return NoisyBaseline(p, w, seed)


def _learner(head: str, opts: dict[str, str]) -> LearnerBaseline:
    _no_opts("learner", head, opts, ("p", "listens", "seed"))
    listens = opts.get("listens", "yes")
    if listens not in ("yes", "no"):
        raise ConfigError("listens", listens, "must be yes or no")
    try:
        p, seed = float(opts.get("p", "0.3")), int(opts.get("seed", "0"))
    except ValueError:
        raise ConfigError(
            "model", opts, "learner takes p=<0..1>;listens=yes|no;seed=<int>"
        ) from None
    if not 0.0 <= p <= 1.0:
        raise ConfigError("p", p, "must be in [0, 1]")
    return LearnerBaseline(p, listens == "yes", seed)


def _oracle(head: str, opts: dict[str, str]) -> OracleBaseline:
    _no_opts("oracle", head, opts)
    return OracleBaseline()


MODELS.register("random", _random)
MODELS.register("always-sat", _const("SAT"))
MODELS.register("always-unsat", _const("UNSAT"))
MODELS.register("oracle", _oracle)
MODELS.register("noisy", _noisy)
MODELS.register("budget", _budget)
MODELS.register("learner", _learner)
