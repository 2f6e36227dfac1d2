"""Test-time strategies that wrap a model: best-of-n, self-verification, SymbCoT.

Each is a model spec (``bestofn:…``, ``selfverify:…``, ``symbcot:…``) registered in ``MODELS``;
they read and check answers through the kinds' answer formats (:mod:`logicforge.kinds`).
"""

from . import bestofn, selfverify, symbcot

__all__ = ["bestofn", "selfverify", "symbcot"]
