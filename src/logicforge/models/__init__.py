"""Model backends behind one async interface; the ``MODELS`` registry imports each backend's
module on first use (:mod:`logicforge._manifest`).

Specs (``--model``): ``random[:seed=N]``, ``always-sat``, ``always-unsat``, ``oracle``,
``embedded`` (SmolLM2-135M-Instruct from PyPI through xllamacpp's prebuilt llama.cpp;
``;backend=llama-cpp`` for llama-cpp-python), ``local:/path/model.gguf``,
``openai-compatible:<base URL>:<model name>`` (alias ``openai:``), ``hf:<local dir>``
(transformers, batched), ``vllm:<model>`` (offline engine), ``openai-batch:<base URL>:<model>``
and ``anthropic-batch:<base URL>:<model>`` (provider batch APIs, durable); wrappers
``selfverify:<rounds>:<none|oracle>:<spec>``, ``bestofn:<n>:<oracle|majority|model(<spec>)>:<spec>``
and ``symbcot:<spec>`` (three-stage symbolic chain of thought) live in
:mod:`logicforge.strategies`.

Example:
    >>> from logicforge.models import load_model
    >>> load_model("always-sat").name
    'always-sat'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .._manifest import BUILTINS
from .base import Model, Prompt, Response, Sampling, load_model

# this package's backend modules, as the registry's manifest lists them
_MODULES = tuple(m.rsplit(".", 1)[1] for m in BUILTINS["model"] if m.startswith(f"{__name__}."))

__all__ = ["Model", "Prompt", "Response", "Sampling", "load_model", *_MODULES]


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
