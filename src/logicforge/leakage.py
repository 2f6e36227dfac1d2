"""Duplicates and train/test leakage: every problem gets an exact key (its data as written, with
CNF clauses and literals sorted) and a canonical key up to its kind's symmetries
(:attr:`logicforge.kinds.base.Kind.canonical`: CNF clause and literal order and variable
renaming; zebra attribute renaming, value relabelling and clue order); :func:`check_leakage`
reports the test problems whose key also occurs in the training set, and generation can
exclude a given set of keys.

Example:
    >>> import logicforge as lf
    >>> train = lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=4, seed=0)
    >>> test = lf.transform(train[:1], "rename") + lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=2, seed=9)
    >>> r = check_leakage(train, test)
    >>> r["symmetric"], r["exact"], r["test"]
    (1, 0, 3)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from .schema import LabelledProblem


def exact_key(p: LabelledProblem) -> str:
    d = p.problem
    if isinstance(d.get("clauses"), list | tuple) and "num_vars" in d:
        from .logic.canon import exact_cnf_key

        try:
            return exact_cnf_key(d["clauses"], int(d.get("num_vars") or 0))
        except (TypeError, ValueError):
            pass
    raw = json.dumps(d, sort_keys=True, default=str)
    return "exact:" + hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()


def canonical_key(p: LabelledProblem) -> str:
    """The key up to the kind's symmetries (the exact key where the kind defines none)."""
    from .kinds import get_kind

    fn = get_kind(p.kind).canonical
    return fn(p.problem) if fn is not None else exact_key(p)


def check_leakage(
    train: Iterable[LabelledProblem], test: Iterable[LabelledProblem]
) -> dict[str, Any]:
    """Test problems that also occur in ``train`` exactly, or up to symmetry (and not exactly),
    with the matching training ids; and duplicates within each set."""
    tr = list(train)
    te = list(test)
    tr_keys = [(exact_key(p), canonical_key(p)) for p in tr]  # each key computed once
    te_keys = [(exact_key(p), canonical_key(p)) for p in te]
    ex: dict[str, list[str]] = {}
    ca: dict[str, list[str]] = {}
    for p, (e, c) in zip(tr, tr_keys, strict=True):
        ex.setdefault(e, []).append(p.problem_id)
        ca.setdefault(c, []).append(p.problem_id)
    exact, symmetric = [], []
    for p, (e, c) in zip(te, te_keys, strict=True):
        if e in ex:
            exact.append({"test": p.problem_id, "train": ex[e][:5]})
        elif c in ca:
            symmetric.append({"test": p.problem_id, "train": ca[c][:5]})

    def dups(keys: Sequence[tuple[str, str]]) -> int:
        return len(keys) - len({c for _, c in keys})

    return {
        "train": len(tr),
        "test": len(te),
        "exact": len(exact),
        "symmetric": len(symmetric),
        "exact_pairs": exact,
        "symmetric_pairs": symmetric,
        "duplicates_within_train": dups(tr_keys),
        "duplicates_within_test": dups(te_keys),
    }


def exclude(
    problems: Iterable[LabelledProblem], sealed: Iterable[LabelledProblem]
) -> list[LabelledProblem]:
    """``problems`` without any that matches one of ``sealed`` up to symmetry."""
    keys = {canonical_key(p) for p in sealed}
    return [p for p in problems if canonical_key(p) not in keys]


def seal(
    family: str, params: dict[str, Any], count: int, seed: int, level: int | None = None
) -> dict[str, str]:
    """A sealed test set: ``commitment`` (publish it now) hashes the logicforge version, family,
    parameters, level, count and seed; ``content`` hashes the problems they generate. Reveal the
    seed later: :func:`check_seal` regenerates the set and confirms both.

    Example:
        >>> s = seal("zebra", {"n_houses": 3}, 2, seed=41)
        >>> check_seal(s, "zebra", {"n_houses": 3}, 2, seed=41), check_seal(s, "zebra", {"n_houses": 3}, 2, seed=42)
        (True, False)
    """
    from . import api
    from ._version import __version__

    spec = json.dumps(
        [__version__, family, params, level, count, seed], sort_keys=True, default=str
    )
    problems = api.generate(family, params, count=count, seed=seed, level=level)
    content = "\n".join(p.model_dump_json() for p in problems)
    return {
        "commitment": hashlib.sha256(spec.encode()).hexdigest(),
        "content": hashlib.sha256(content.encode()).hexdigest(),
        "version": __version__,
    }


def check_seal(
    sealed: dict[str, str],
    family: str,
    params: dict[str, Any],
    count: int,
    seed: int,
    level: int | None = None,
) -> bool:
    """Whether the revealed ``seed`` (and the rest) regenerate exactly the sealed set."""
    return seal(family, params, count, seed, level) == sealed
