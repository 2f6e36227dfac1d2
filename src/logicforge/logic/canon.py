"""Canonical keys for finding duplicates up to a problem's symmetries.

:func:`graph_key` hashes a labelled graph by colour refinement (Weisfeiler–Lehman, own code):
isomorphic graphs always get the same key; different graphs almost always differ (colour
refinement cannot tell some regular graphs apart, so a key match is a *candidate* duplicate —
:func:`cnf_key` matches are exact for every formula the tests try). :func:`cnf_key` is invariant
under clause order, literal order within a clause and variable renaming (a bijection on the
variables; a polarity flip is a different formula).

Example:
    >>> a = cnf_key([(1, -2), (2, 3)], 3)
    >>> a == cnf_key([(2, 1), (3, -1)], 3), a == cnf_key([(1, 2), (2, 3)], 3)
    (True, False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def _h(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def graph_key(labels: Sequence[str], edges: Sequence[tuple[int, int]], rounds: int = 5) -> str:
    """A key of the graph with node ``labels`` and undirected ``edges`` that depends only on the
    graph up to isomorphism (the multiset of refined colours over ``rounds`` rounds)."""
    adj: list[list[int]] = [[] for _ in labels]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    colours = [_h(lab) for lab in labels]
    seen = sorted(colours)
    for _ in range(rounds):
        colours = [
            _h(colours[i] + "|" + ",".join(sorted(colours[j] for j in adj[i])))
            for i in range(len(labels))
        ]
        seen += sorted(colours)
    return _h(f"{len(labels)}:{len(edges)}:" + ",".join(seen))


def cnf_key(clauses: Sequence[Sequence[int]], num_vars: int) -> str:
    """The formula up to clause order, literal order and variable renaming: a graph with a
    positive and a negative literal node per variable (joined), a node per clause joined to its
    literals."""
    labels = ["P"] * num_vars + ["N"] * num_vars
    edges = [(v, num_vars + v) for v in range(num_vars)]
    for c in clauses:
        labels.append("C")
        k = len(labels) - 1
        edges += [(abs(x) - 1 + (0 if x > 0 else num_vars), k) for x in c]
    return "cnf:" + graph_key(labels, edges)


def exact_cnf_key(clauses: Sequence[Sequence[int]], num_vars: int) -> str:
    """The formula up to clause and literal order only (the same variables)."""
    body = sorted(tuple(sorted(c)) for c in clauses)
    return "cnf-exact:" + _h(f"{num_vars}:{body}")
