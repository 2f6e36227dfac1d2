"""Label-preserving zebra perturbations: clue order and value renaming.

* ``zebra-shuffle`` — present the same clues in a random order.
* ``zebra-rename`` — replace every attribute's values by a random bijection onto values of the
  same category in the pool (consistently in the value lists, the clues and the hidden grid), so
  the puzzle is the same up to names.

Both are re-certified (exactly one solution, equal to the renamed grid) by the independent check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...registry import TRANSFORMS
from ...rng import shuffled
from .clues import Clue
from .generate import recheck
from .pool import BY_NAME


def _certify(d: dict[str, Any]) -> None:
    n, m = d["n_houses"], d["n_attributes"]
    rows = d["solution"]["rows"]
    pos = [
        [next(h for h, r in enumerate(rows) if r[a + 1] == v) for v in d["values"][a]]
        for a in range(m)
    ]
    recheck(n, m, [Clue.from_json(c) for c in d["clues"]], pos)


# a transform's result: the changed problem and what it did
Applied = tuple[dict[str, Any], dict[str, Any]]


class _Preserving:
    """A zebra transform that keeps the solution (and so the label)."""

    effect = "preserves"
    kind = "zebra"


@dataclass(frozen=True)
class ZebraShuffle(_Preserving):
    name = "zebra-shuffle"

    def apply_problem(self, d: dict[str, Any], rng: np.random.Generator) -> Applied:
        order = shuffled(rng, len(d["clues"]))
        out = d | {"clues": [d["clues"][i] for i in order]}
        _certify(out)
        return out, {"order": order}


@dataclass(frozen=True)
class ZebraRename(_Preserving):
    name = "zebra-rename"

    def apply_problem(self, d: dict[str, Any], rng: np.random.Generator) -> Applied:
        mapping: list[dict[str, str]] = []
        for a, vals in zip(d["attributes"], d["values"], strict=True):
            pool = list(BY_NAME[a].values)
            new = [pool[i] for i in rng.choice(len(pool), len(vals), replace=False).tolist()]
            mapping.append(dict(zip(vals, new, strict=True)))
        values = [[mp[v] for v in vals] for mp, vals in zip(mapping, d["values"], strict=True)]
        rows = [
            [r[0], *(mapping[a][v] for a, v in enumerate(r[1:]))] for r in d["solution"]["rows"]
        ]
        out = d | {"values": values, "solution": {"header": d["solution"]["header"], "rows": rows}}
        _certify(out)  # clues refer to value indices, which renaming keeps
        return out, {"renamed": [dict(mp) for mp in mapping]}


TRANSFORMS.register("zebra-shuffle", ZebraShuffle)
TRANSFORMS.register("zebra-rename", ZebraRename)
