"""logicforge: forge solver-verified logical-reasoning problems, render them as prompts, run any
LLM on them, verify every answer deterministically, and report what aggregate accuracy hides.

Example:
    >>> import logicforge as lf
    >>> problems = lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=3, seed=0)
    >>> items = lf.render(problems, "formula")
    >>> len(items)
    3
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # the names below are imported on first use (``import logicforge`` stays light)
    from . import transforms  # noqa: F401  (lf.transforms.pair, lf.transforms.edits)
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

# where each public name lives: imported when first asked for, so a command that never
# generates (``logicforge run``) never loads the families, numpy's generators or the solvers
_WHERE = {
    **dict.fromkeys(
        ("generate", "generate_mixture", "import_problems", "iter_items", "load_items",
         "load_problems", "reduce", "render", "report", "rescore", "run", "score", "transform"),
        ".api",
    ),
    **dict.fromkeys(
        ("ConfigError", "DataFileError", "DimacsError", "GenerationError", "LogicforgeError",
         "ModelError", "UnknownNameError"),
        ".errors",
    ),
    **dict.fromkeys(
        ("CNF", "VarPool", "count_models", "equivalent", "parse_dimacs", "read_dimacs", "solve",
         "to_dimacs", "unsat_core"),
        ".logic",
    ),
    "reward": ".metrics.reward",
    **dict.fromkeys(("Prompt", "Sampling", "load_model"), ".models"),
    **dict.fromkeys(("FAMILIES", "METRICS", "MODELS", "RENDERERS", "TRANSFORMS"), ".registry"),
    "Budget": ".runner.budget",
    **dict.fromkeys(("Answer", "Item", "LabelledProblem", "Record", "Verdict"), ".schema"),
}  # fmt: skip


def __getattr__(name: str) -> Any:
    """A public name's module on first use; a subpackage (``lf.transforms``, ``lf.kinds``) too."""
    where = _WHERE.get(name)
    if where is not None:
        value = getattr(import_module(where, __name__), name)
    elif not name.startswith("__"):
        try:
            value = import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


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
