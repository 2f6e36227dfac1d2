"""Data out (and back in): Hugging Face dataset layout, chat-format SFT data, DIMACS files, the
ZebraLogic JSON layout, and an Inspect AI task.

Example:
    >>> import logicforge as lf, tempfile
    >>> items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=3, seed=1))
    >>> d = tempfile.mkdtemp()
    >>> _ = export_hf(items, d)
    >>> [x.model_dump_json() for x in load_hf(d)] == [x.model_dump_json() for x in items]
    True
"""

from .formats import export_dimacs, export_sft, export_zebralogic
from .hf import export_hf, load_hf
from .inspect_task import export_inspect

__all__ = [
    "export_dimacs",
    "export_hf",
    "export_inspect",
    "export_sft",
    "export_zebralogic",
    "load_hf",
]
