"""logicforge: forge solver-verified logical-reasoning problems, render them as prompts, run any
LLM on them, verify every answer deterministically, and report what aggregate accuracy hides.

Example:
    >>> import logicforge as lf
    >>> problems = lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=3, seed=0)
    >>> items = lf.render(problems, "formula")
    >>> len(items)
    3
"""

from . import transforms  # noqa: E402, F401  (lf.transforms.pair, lf.transforms.edits)
from ._version import __version__
from .api import (
    generate,
    generate_mixture,
    import_problems,
    iter_items,
    load_items,
    load_problems,
    reduce,
    render,
    report,
    rescore,
    run,
    score,
    transform,
)
from .errors import (
    ConfigError,
    DataFileError,
    DimacsError,
    GenerationError,
    LogicforgeError,
    ModelError,
    UnknownNameError,
)
from .logic import (
    CNF,
    VarPool,
    count_models,
    equivalent,
    parse_dimacs,
    read_dimacs,
    solve,
    to_dimacs,
    unsat_core,
)
from .metrics.reward import reward
from .models import Prompt, Sampling, load_model
from .registry import FAMILIES, METRICS, MODELS, RENDERERS, TRANSFORMS
from .runner.budget import Budget
from .schema import Answer, Item, LabelledProblem, Record, Verdict

__all__ = [
    "__version__",
    "generate",
    "generate_mixture",
    "transform",
    "reduce",
    "render",
    "run",
    "score",
    "report",
    "reward",
    "import_problems",
    "rescore",
    "iter_items",
    "load_items",
    "load_problems",
    "CNF",
    "VarPool",
    "parse_dimacs",
    "read_dimacs",
    "to_dimacs",
    "solve",
    "unsat_core",
    "count_models",
    "equivalent",
    "Prompt",
    "Sampling",
    "Budget",
    "load_model",
    "FAMILIES",
    "RENDERERS",
    "TRANSFORMS",
    "MODELS",
    "METRICS",
    "LabelledProblem",
    "Item",
    "Record",
    "Answer",
    "Verdict",
    "LogicforgeError",
    "ConfigError",
    "DimacsError",
    "UnknownNameError",
    "GenerationError",
    "DataFileError",
    "ModelError",
]
