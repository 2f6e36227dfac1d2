"""The verifiers as a reward function for training reasoners (RL, rejection sampling).

``reward(item, response, partial=False) -> float`` in [0, 1], deterministic, from the same parser
and verifier as evaluation:

* decisions with a witness (CNF, colouring, vertex cover, packing): gold UNSAT / NO — 1 for the
  right decision; gold SAT / YES — 1 when the witness (the assignment, colouring, cover or
  packing) checks out, 0.5 for the bare right decision with no witness, and **0 for a witness
  that does not check out** (a false certificate is a wrong answer, not half a right one);
* zebra grids: 1 for the whole grid right, else 0; with ``partial=True`` the fraction of cells
  right, but only for a complete grid whose every attribute is a permutation of its values (a
  partial, stuffed or copied grid earns 0 — ZebraLogic's cell accuracy in the report is not
  changed by this); multiple choice: 0 or 1;
* an unreadable answer (empty, hedged between labels, an echoed prompt), a wrong decision, or a
  response that is not text: 0.

:mod:`logicforge.metrics.redteam` tries answers that must earn 0 and right answers in unusual
layouts that must earn 1, on every kind; ``tests/test_reward_redteam.py`` holds the false
positives at 0.

An item whose gold label is unknown (the solver timed out) has no reward: :class:`ConfigError`.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
    >>> it.gold["label"], reward(it, '{"answer": "SAT"}'), reward(it, "no idea")
    ('SAT', 0.5, 0.0)
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..kinds import verify
from ..schema import Answer, Item, Verdict


def reward(item: Item, response: str | None, partial: bool = False) -> float:
    """Reward in [0, 1] for one response to one item (see the module docstring for the rules)."""
    from ..kinds import parse_answer

    if item.gold.get("label") == "UNKNOWN":
        raise ConfigError("item", item.item_id, "its gold label is unknown; it earns no reward")
    if not isinstance(response, str):
        return 0.0
    answer = parse_answer(response, item)
    return reward_of(item, answer, verify(item, answer), partial)


def reward_of(item: Item, answer: Answer, v: Verdict, partial: bool = False) -> float:
    """The reward of an answer already parsed and verified (:func:`reward` without doing the
    parse and the check again)."""
    from ..kinds import answer_format

    own = answer_format(item).reward
    if own is not None:
        return float(own(item, answer, v, partial))
    if v.parse_failure or not v.correct:
        return 0.0
    if v.witness_valid is None or v.witness_valid:  # nothing to witness, or it checks out
        return 1.0
    return 0.0 if (answer.assignment or answer.certificate) else 0.5


COMPONENTS = ("format", "decision", "witness", "length", "reward")


def reward_components(
    item: Item, response: str | None, partial: bool = False, max_chars: int | None = None
) -> dict[str, float | None]:
    """The reward's parts, for logging and multi-objective training:

    * ``format`` — 1 when an answer could be read in the asked format, else 0;
    * ``decision`` — 1 when the label (or option) is right;
    * ``witness`` — 1 / 0 for the witness (assignment, colouring, grid, proof, certificate) when
      the answer has one to check, None when it has none;
    * ``length`` — 1 within ``max_chars`` characters, else ``max_chars / len`` (None without a
      limit);
    * ``reward`` — the combined scalar: :func:`reward`'s rule (a false witness is worth 0, not a
      weighted share), times ``length`` when a limit is given.

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
        >>> reward_components(it, '{"answer": "SAT"}', max_chars=8)["length"]
        0.47058823529411764
    """
    from ..kinds import parse_answer

    if item.gold.get("label") == "UNKNOWN":
        raise ConfigError("item", item.item_id, "its gold label is unknown; it earns no reward")
    length = None
    if max_chars is not None:
        if max_chars < 1:
            raise ConfigError("max_chars", max_chars, "must be a positive number of characters")
        n = len(response) if isinstance(response, str) else 0
        length = 1.0 if n <= max_chars else max_chars / n
    if not isinstance(response, str):
        return {"format": 0.0, "decision": 0.0, "witness": None, "length": length, "reward": 0.0}
    answer = parse_answer(response, item)
    return components_of(item, answer, verify(item, answer), partial, length)


def components_of(
    item: Item, answer: Answer, v: Verdict, partial: bool = False, length: float | None = None
) -> dict[str, float | None]:
    """:func:`reward_components` of an answer already parsed and verified."""
    combined = reward_of(item, answer, v, partial)
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
    writes it); the reward is :func:`reward`'s. ``ground_truth`` must be the item's gold label
    — a mismatch means the row and the item were mixed up, a ``ConfigError``.

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
        >>> row = verl_rows([it])[0]
        >>> compute_score(row["data_source"], '{"answer": "SAT"}', row["reward_model"]["ground_truth"], row["extra_info"])
        0.5
    """
    raw = (extra_info or {}).get("item")
    if raw is None:
        raise ConfigError("extra_info", extra_info, "must carry the logicforge item under 'item'")
    item = Item.model_validate_json(raw) if isinstance(raw, str) else Item.model_validate(raw)
    if str(item.gold.get("label")) != str(ground_truth):
        raise ConfigError(
            "ground_truth",
            ground_truth,
            f"differs from {item.item_id}'s gold {item.gold.get('label')}",
        )
    return reward(item, solution_str)


def verl_rows(items: Any) -> list[dict[str, Any]]:
    """verl's RL dataset rows for items: ``data_source`` (the family), ``prompt`` (chat
    messages), ``ability``, ``reward_model`` (``{"style": "rule", "ground_truth": label}``) and
    ``extra_info`` carrying the whole item, so :func:`compute_score` needs nothing else."""
    return [
        {
            "data_source": f"logicforge/{it.family}",
            "prompt": [m.model_dump() for m in it.messages],
            "ability": "logic",
            "reward_model": {"style": "rule", "ground_truth": str(it.gold.get("label"))},
            "extra_info": {"item": it.model_dump_json(), "item_id": it.item_id, "index": i},
        }
        for i, it in enumerate(items)
    ]


def trl_rows(items: Any) -> list[dict[str, Any]]:
    """Rows for TRL's GRPO trainer (a conversational ``prompt`` and the item as JSON in an
    ``item`` column, which TRL passes to reward functions by name)."""
    return [
        {"prompt": [m.model_dump() for m in it.messages], "item": it.model_dump_json()}
        for it in items
    ]


def trl_reward(completions: list[Any], item: list[str], **_: Any) -> list[float]:
    """A TRL reward function (``GRPOTrainer(reward_funcs=trl_reward, …)`` over :func:`trl_rows`):
    :func:`reward` of each completion — plain text, or conversational (a list of messages whose
    last is the reply).

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
        >>> trl_reward([[{"role": "assistant", "content": '{"answer": "SAT"}'}], "no idea"],
        ...            [it.model_dump_json()] * 2)
        [0.5, 0.0]
    """
    out = []
    for c, raw in zip(completions, item, strict=True):
        text = c[-1].get("content") if isinstance(c, list) and c else c
        out.append(reward(Item.model_validate_json(raw), text if isinstance(text, str) else None))
    return out
