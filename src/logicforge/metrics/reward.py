"""The verifiers as a reward function for training reasoners (RL, rejection sampling).

``reward(item, response) -> float`` in [0, 1], deterministic, from the same parser and verifier
as evaluation. Partial credit:

* decisions with a witness (CNF, colouring, vertex cover, packing): gold UNSAT / NO — 1 for the
  right decision; gold SAT / YES — 0.5 for the right decision, plus 0.5 when the witness (the
  assignment, colouring, cover or packing) checks out, so a bare right guess earns half;
* zebra grids: the fraction of cells right (1 only for the whole grid); multiple choice: 0 or 1;
* an unreadable answer, a wrong decision, or a response that is not text: 0.

An item whose gold label is unknown (the solver timed out) has no reward: :class:`ConfigError`.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
    >>> it.gold["label"], reward(it, '{"answer": "SAT"}'), reward(it, "no idea")
    ('SAT', 0.5, 0.0)
"""

from __future__ import annotations

from ..errors import ConfigError
from ..kinds import verify
from ..schema import Item


def reward(item: Item, response: str | None) -> float:
    """Reward in [0, 1] for one response to one item (see the module docstring for the rules)."""
    from ..kinds import parse_answer

    if item.gold.get("label") == "UNKNOWN":
        raise ConfigError("item", item.item_id, "its gold label is unknown; it earns no reward")
    if not isinstance(response, str):
        return 0.0
    v = verify(item, parse_answer(response, item))
    if v.parse_failure:
        return 0.0
    if v.score is not None:  # partial credit the kind defines (zebra cells)
        return float(v.score)
    if not v.correct:
        return 0.0
    if v.witness_valid is None:  # nothing to witness (UNSAT / NO, multiple choice)
        return 1.0
    return 1.0 if v.witness_valid else 0.5
