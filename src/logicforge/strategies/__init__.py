"""Test-time strategies that wrap a model: best-of-n, self-verification, repair with solver
feedback, SymbCoT.

Each is a model spec (``bestofn:…``, ``selfverify:…``, ``repair:…``, ``symbcot:…``) registered in ``MODELS``;
they read and check answers through the kinds' answer formats (:mod:`logicforge.kinds`).
"""

from . import bestofn, repair, selfverify, symbcot

__all__ = ["bestofn", "repair", "selfverify", "symbcot"]
