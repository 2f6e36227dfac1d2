"""Model backends behind one async interface; importing this package registers them.

Specs (``--model``): ``random[:seed=N]``, ``always-sat``, ``always-unsat``, ``oracle``,
``embedded`` (SmolLM2-135M-Instruct from PyPI through xllamacpp's prebuilt llama.cpp;
``;backend=llama-cpp`` for llama-cpp-python), ``local:/path/model.gguf``,
``openai-compatible:<base URL>:<model name>`` (alias ``openai:``), ``hf:<local dir>``
(transformers, batched), ``vllm:<model>`` (offline engine), ``openai-batch:<base URL>:<model>``
and ``anthropic-batch:<base URL>:<model>`` (provider batch APIs, durable); wrappers
``selfverify:<rounds>:<none|oracle>:<spec>``, ``bestofn:<n>:<oracle|majority|model(<spec>)>:<spec>``
and ``symbcot:<spec>`` (three-stage symbolic chain of thought) live in
:mod:`logicforge.strategies`.
"""

from . import baselines, batch, embedded, local_batch, openai_compat
from .base import Model, Prompt, Response, Sampling, load_model

__all__ = [
    "Model",
    "Prompt",
    "Response",
    "Sampling",
    "load_model",
    "baselines",
    "batch",
    "embedded",
    "local_batch",
    "openai_compat",
]
