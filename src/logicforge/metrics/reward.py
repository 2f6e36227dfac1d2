"""The verifiers as a reward function for training reasoners (RL, rejection sampling).

``reward(item, response, partial=False, mode="certified") -> float`` in [0, 1], deterministic,
from the same parser and verifier as evaluation. Two modes, named:

* ``certified`` (the default of every training path): a decision earns reward only with a
  certificate the checker accepts — an assignment (colouring, cover, placement) for SAT / YES, a
  refutation (``-proof`` renderers) or a minimal unsatisfiable core (``-trace``) for UNSAT. A
  bare "SAT" or "UNSAT" earns **0**, so no constant policy collects anything. Answers that are
  themselves the checked object — a zebra grid, a puzzle's solution, an ordering's arrangement,
  a MUS / MCS / MaxSAT certificate — earn 1 when right; multiple choice (no certificate to ask)
  earns 1 for the right option. An item whose prompt asks for no certificate of its gold label
  (``formula`` asks for none for UNSAT) is refused with a :class:`ConfigError` that names the
  renderer to use instead (the kind's training renderer, e.g. ``formula-proof``) — rewarding it
  would teach a model never to give that answer;
* ``decision`` (by name only): the decision is what is paid — a right UNSAT / NO 1; a right SAT
  1 with a witness that checks, 0.5 bare, **0 with a witness that does not check** (a false
  certificate is a wrong answer). A constant policy earns the share of its label here (the
  README's training section gives the measured figures).

In both: zebra grids are 1 for the whole grid right, else 0; with ``partial=True`` the fraction
of cells right, but only for a complete grid whose every attribute is a permutation of its values
(a partial, stuffed or copied grid earns 0); an unreadable answer (empty, hedged between labels,
an echoed prompt), a wrong decision, or a response that is not text: 0.

:mod:`logicforge.metrics.redteam` tries answers that must earn 0 and right answers in unusual
layouts that must earn 1, on every kind; ``tests/test_reward_redteam.py`` holds the false
positives at 0; ``benchmarks/bench_rewards.py`` prints every constant answer's mean reward per
family and level.

An item whose gold label is unknown (the solver timed out) has no reward: :class:`ConfigError`.

Example:
    >>> import logicforge as lf
    >>> ps = lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0)
    >>> it = lf.render(ps, "formula-proof")[0]
    >>> it.gold["label"], reward(it, '{"answer": "SAT"}'), reward(it, "no idea")
    ('SAT', 0.0, 0.0)
    >>> reward(it, '{"answer": "SAT"}', mode="decision")
    0.5
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from ..errors import ConfigError
from ..kinds import verify
from ..schema import Answer, Item, Verdict

RewardMode = Literal["certified", "decision"]
REWARD_MODES: tuple[str, ...] = ("certified", "decision")


def check_mode(mode: object) -> RewardMode:
    """``mode`` if it names a reward mode, else a :class:`ConfigError` naming the choices."""
    if mode not in REWARD_MODES:
        raise ConfigError(
            "reward_mode",
            mode,
            "choose certified (the default: a decision pays only with a checked certificate) "
            "or decision (the decision alone; a constant policy earns its label's share)",
        )
    return mode  # type: ignore[return-value]


def uncertified(item: Item) -> str:
    """Why the certified reward cannot pay ``item`` ('' when it can): its prompt asks for no
    certificate of its gold label.

    Example:
        >>> import logicforge as lf
        >>> ps = lf.generate("2sat/implication-cycle", {"n_clauses": 8}, count=1, seed=0)
        >>> bool(uncertified(lf.render(ps, "formula")[0])), uncertified(lf.render(ps, "formula-proof")[0])
        (True, '')
    """
    from ..kinds import answer_format, get_kind

    fmt = answer_format(item)
    gold = item.gold.get("label")
    if fmt.certifies is None or gold in fmt.certifies:
        return ""
    use = get_kind(item.kind).trainer
    hint = f"render it with {use!r}" if use != item.rendering else "render it with a renderer"
    return (
        f"{item.item_id}: the renderer {item.rendering!r} asks for no certificate of {gold}, so "
        f"the certified reward cannot pay a right answer; {hint} that asks for one, or pass "
        "reward_mode='decision'"
    )


def require_certified(items: Iterable[Item], mode: str = "certified") -> None:
    """Refuse, before any work, items the reward ``mode`` cannot pay (see :func:`uncertified`);
    the error names the first and how many there are."""
    if check_mode(mode) != "certified":
        return
    bad = [why for it in items if (why := uncertified(it))]
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ConfigError("reward_mode", mode, bad[0] + more)


def reward(
    item: Item, response: str | None, partial: bool = False, mode: str = "certified"
) -> float:
    """Reward in [0, 1] for one response to one item (see the module docstring for the rules)."""
    from ..kinds import parse_answer

    if item.gold.get("label") == "UNKNOWN":
        raise ConfigError("item", item.item_id, "its gold label is unknown; it earns no reward")
    check_mode(mode)
    if mode == "certified" and (why := uncertified(item)):
        raise ConfigError("reward_mode", mode, why)
    if not isinstance(response, str):
        return 0.0
    answer = parse_answer(response, item)
    return _pay(item, answer, verify(item, answer), partial, mode)  # the item checked above


def reward_of(
    item: Item, answer: Answer, v: Verdict, partial: bool = False, mode: str = "certified"
) -> float:
    """The reward of an answer already parsed and verified (:func:`reward` without doing the
    parse and the check again)."""
    if check_mode(mode) == "certified" and (why := uncertified(item)):
        raise ConfigError("reward_mode", mode, why)
    return _pay(item, answer, v, partial, mode)


def _pay(item: Item, answer: Answer, v: Verdict, partial: bool, mode: str) -> float:
    """The reward rule itself, for a checked mode and an item that mode can pay."""
    from ..kinds import answer_format

    fmt = answer_format(item)
    own = fmt.reward
    if mode == "certified":
        if own is not None:
            return float(own(item, answer, v, partial))
        if v.parse_failure or not v.correct:
            return 0.0
        return 1.0 if fmt.certifies is None or v.witness_valid else 0.0
    if own is not None and fmt.metric_set != "binary":  # a grid, a solution, a certificate
        return float(own(item, answer, v, partial))
    if v.parse_failure or not v.correct:
        return 0.0
    if v.witness_valid is None or v.witness_valid:  # nothing to witness, or it checks out
        return 1.0
    if answer.assignment or answer.certificate:  # a false or unreadable witness
        return 0.0
    # the decision alone: a right UNSAT / NO is the whole decision (the table in reward.md);
    # a right SAT / YES without the witness its format asks for earns half
    return 1.0 if answer.label in ("UNSAT", "NO") else 0.5


COMPONENTS = ("format", "decision", "witness", "length", "reward")


def reward_components(
    item: Item,
    response: str | None,
    partial: bool = False,
    max_chars: int | None = None,
    mode: str = "certified",
) -> dict[str, float | None]:
    """The reward's parts, for logging and multi-objective training:

    * ``format`` — 1 when an answer could be read in the asked format, else 0;
    * ``decision`` — 1 when the label (or option) is right; for a grid or another object
      checked whole (a zebra grid, a puzzle's solution, a core), 1 when it is right;
    * ``witness`` — 1 / 0 for the witness (assignment, colouring, grid, proof, certificate) when
      the answer has one to check, None when it has none;
    * ``length`` — 1 within ``max_chars`` characters, else ``max_chars / len`` (None without a
      limit);
    * ``reward`` — the combined scalar: :func:`reward`'s rule in ``mode`` (a false witness is
      worth 0, not a weighted share), times ``length`` when a limit is given.

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
        >>> reward_components(it, '{"answer": "SAT"}', max_chars=8)["length"]
        0.47058823529411764
    """
    from ..kinds import parse_answer

    if item.gold.get("label") == "UNKNOWN":
        raise ConfigError("item", item.item_id, "its gold label is unknown; it earns no reward")
    if check_mode(mode) == "certified" and (why := uncertified(item)):
        raise ConfigError("reward_mode", mode, why)
    length = None
    if max_chars is not None:
        if max_chars < 1:
            raise ConfigError("max_chars", max_chars, "must be a positive number of characters")
        n = len(response) if isinstance(response, str) else 0
        length = 1.0 if n <= max_chars else max_chars / n
    if not isinstance(response, str):
        return {"format": 0.0, "decision": 0.0, "witness": None, "length": length, "reward": 0.0}
    answer = parse_answer(response, item)
    return components_of(item, answer, verify(item, answer), partial, length, mode)


def components_of(
    item: Item,
    answer: Answer,
    v: Verdict,
    partial: bool = False,
    length: float | None = None,
    mode: str = "certified",
) -> dict[str, float | None]:
    """:func:`reward_components` of an answer already parsed and verified."""
    from ..kinds import answer_format

    combined = reward_of(item, answer, v, partial, mode)
    if answer_format(item).metric_set in ("grid", "certificate"):
        right = bool(v.correct)  # the answer is the object checked: no label to decide
    else:
        right = answer.label is not None and answer.label == item.gold.get("label")
    return {
        "format": 0.0 if v.parse_failure else 1.0,
        "decision": 1.0 if right else 0.0,
        "witness": None if v.witness_valid is None else float(v.witness_valid),
        "length": length,
        "reward": combined * (1.0 if length is None else length),
    }


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: str,
    extra_info: dict[str, Any] | None = None,
    **_: Any,
) -> float:
    """A verl-style reward function (``custom_reward_function.name: compute_score``): the item
    travels in ``extra_info["item"]`` (an Item as JSON text or a dict, as :func:`verl_rows`
    writes it), the reward mode in ``extra_info["reward_mode"]`` (certified when absent); the
    reward is :func:`reward`'s. ``ground_truth`` must be the item's gold label — a mismatch means
    the row and the item were mixed up, a ``ConfigError``.

    Example:
        >>> import logicforge as lf
        >>> ps = lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0)
        >>> row = verl_rows(lf.render(ps, "formula-proof"))[0]
        >>> got = '{"answer": "SAT", "assignment": {"x1": true, "x2": true, "x3": true}}'
        >>> compute_score(row["data_source"], got, row["reward_model"]["ground_truth"], row["extra_info"])
        1.0
        >>> compute_score(row["data_source"], '{"answer": "SAT"}', row["reward_model"]["ground_truth"], row["extra_info"])
        0.0
    """
    info = extra_info or {}
    raw = info.get("item")
    if raw is None:
        raise ConfigError("extra_info", extra_info, "must carry the logicforge item under 'item'")
    item = Item.model_validate_json(raw) if isinstance(raw, str) else Item.model_validate(raw)
    if str(item.gold.get("label")) != str(ground_truth):
        raise ConfigError(
            "ground_truth",
            ground_truth,
            f"differs from {item.item_id}'s gold {item.gold.get('label')}",
        )
    return reward(item, solution_str, mode=str(info.get("reward_mode", "certified")))


def verl_rows(items: Any, reward_mode: str = "certified") -> list[dict[str, Any]]:
    """verl's RL dataset rows for items: ``data_source`` (the family), ``prompt`` (chat
    messages), ``ability``, ``reward_model`` (``{"style": "rule", "ground_truth": label}``) and
    ``extra_info`` carrying the whole item and the reward mode, so :func:`compute_score` needs
    nothing else. Items the mode cannot pay are refused here, before training starts."""
    items = list(items)
    require_certified(items, reward_mode)
    return [
        {
            "data_source": f"logicforge/{it.family}",
            "prompt": [m.model_dump() for m in it.messages],
            "ability": "logic",
            "reward_model": {"style": "rule", "ground_truth": str(it.gold.get("label"))},
            "extra_info": {
                "item": it.model_dump_json(),
                "item_id": it.item_id,
                "index": i,
                "reward_mode": reward_mode,
            },
        }
        for i, it in enumerate(items)
    ]


def trl_rows(items: Any, reward_mode: str = "certified") -> list[dict[str, Any]]:
    """Rows for TRL's GRPO trainer (a conversational ``prompt``, the item as JSON in an ``item``
    column and the reward mode in ``reward_mode``, which TRL passes to reward functions by
    name). Items the mode cannot pay are refused here, before training starts."""
    items = list(items)
    require_certified(items, reward_mode)
    return [
        {
            "prompt": [m.model_dump() for m in it.messages],
            "item": it.model_dump_json(),
            "reward_mode": reward_mode,
        }
        for it in items
    ]


def trl_reward(
    completions: list[Any], item: list[str], reward_mode: list[str] | None = None, **_: Any
) -> list[float]:
    """A TRL reward function (``GRPOTrainer(reward_funcs=trl_reward, …)`` over :func:`trl_rows`):
    :func:`reward` of each completion — plain text, or conversational (a list of messages whose
    last is the reply) — in the row's ``reward_mode`` (certified without the column).

    Example:
        >>> import logicforge as lf
        >>> ps = lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0)
        >>> it = lf.render(ps, "formula-proof")[0]
        >>> got = '{"answer": "SAT", "assignment": {"x1": true, "x2": true, "x3": true}}'
        >>> trl_reward([[{"role": "assistant", "content": got}], '{"answer": "SAT"}'],
        ...            [it.model_dump_json()] * 2)
        [1.0, 0.0]
    """
    modes = reward_mode or ["certified"] * len(item)
    out = []
    for c, raw, mode in zip(completions, item, modes, strict=True):
        text = c[-1].get("content") if isinstance(c, list) and c else c
        out.append(
            reward(
                Item.model_validate_json(raw), text if isinstance(text, str) else None, mode=mode
            )
        )
    return out
