"""Bring your own benchmark: readers of published problem files (DIMACS folders, ZebraLogic,
SATBench) for ``logicforge import``, and of other harnesses' replies for ``logicforge rescore``.

Each problem reader is a :class:`~logicforge.families.base.Dataset` with a lenient ``read``: it
takes paths and an :class:`~logicforge.schema.ImportLog`, returns the problems it could prove,
and notes every file or row it refused, every time-out and every declared label that the solver
contradicts.
"""
