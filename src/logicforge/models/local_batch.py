"""Batched local backends: Hugging Face ``transformers`` (CPU or GPU) and the offline vLLM engine.

The runner asks for one response at a time, concurrently; a micro-batcher gathers the requests
that arrive within a few milliseconds (up to ``batch``) with the same sampling parameters and
decodes them together in a worker thread. Each SDK is imported when the model is first used, with
a ``pip install`` hint when it is missing.

Specs: ``hf:<model dir or name>;batch=8;device=cpu`` (files must be local: no hub download) and
``vllm:<model dir or name>;batch=64``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import CertificationError, ConfigError, ModelError
from ..registry import MODELS
from ..rng import stable_int
from .base import Prompt, Response, Sampling


def _prompt_text(tokenizer: Any, prompt: Prompt) -> str:
    msgs = [m.model_dump() for m in prompt.messages]
    if getattr(tokenizer, "chat_template", None):
        return str(tokenizer.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False))
    return "\n\n".join(m["content"] for m in msgs) + "\n\n"


def _cut_at_stop(text: str, stop: tuple[str, ...]) -> tuple[str, bool]:
    cut = min((i for s in stop if (i := text.find(s)) != -1), default=-1)
    return (text[:cut], True) if cut != -1 else (text, False)


class _Batcher:
    """Collects concurrent requests into batches of equal sampling parameters."""

    def __init__(self, run_batch: Any, batch: int, wait_s: float = 0.005) -> None:
        self.run_batch, self.batch, self.wait_s = run_batch, batch, wait_s
        self.queue: asyncio.Queue[tuple[Prompt, Sampling, int, asyncio.Future[Response]]] | None = (
            None
        )
        self.task: asyncio.Task[None] | None = None

    async def submit(self, prompt: Prompt, s: Sampling, sample: int) -> Response:
        if self.queue is None:
            self.queue = asyncio.Queue()
            self.task = asyncio.create_task(self._loop())
        fut: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        await self.queue.put((prompt, s, sample, fut))
        return await fut

    async def _loop(self) -> None:
        if self.queue is None:
            raise CertificationError(
                "certification failed: the batching loop starts after its queue exists"
            )
        while True:
            first = await self.queue.get()
            group = [first]
            deadline = time.monotonic() + self.wait_s
            while len(group) < self.batch:
                try:
                    nxt = await asyncio.wait_for(
                        self.queue.get(), max(0.0, deadline - time.monotonic())
                    )
                except TimeoutError:
                    break
                if nxt[1] != first[1]:  # other sampling parameters: next batch
                    self.queue.put_nowait(nxt)
                    break
                group.append(nxt)
            try:
                out = await asyncio.to_thread(
                    self.run_batch, [g[0] for g in group], first[1], [g[2] for g in group]
                )
            except Exception as e:  # a failed batch fails each of its requests, never the run
                out = [Response(text=None, error=f"{type(e).__name__}: {e}") for _ in group]
            for g, r in zip(group, out, strict=True):
                r.extra["batch_size"] = len(group)
                if not g[3].done():
                    g[3].set_result(r)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task, self.queue = None, None


class HFModel:
    """``transformers`` causal LM, batched, left-padded; greedy when temperature is 0."""

    def __init__(self, path: str, batch: int = 8, device: str = "cpu") -> None:
        if batch < 1:
            raise ConfigError("batch", batch, "must be ≥ 1")
        import importlib.util

        if (
            importlib.util.find_spec("transformers") is None
            or importlib.util.find_spec("torch") is None
        ):
            raise ModelError(  # before any work, not once per item
                "the hf backend needs transformers and torch: pip install 'logicforge[hf]'"
            )
        self.path, self.device = path, device
        self.name = path.rstrip("/").split("/")[-1]
        self.cache_id = f"hf:{path}"
        self._tok: Any = None
        self._model: Any = None
        self._batcher = _Batcher(self._run_batch, batch)

    def _load(self) -> None:
        if self._model is not None:
            return
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise ModelError(
                "the hf backend needs transformers and torch: pip install 'logicforge[hf]'"
            ) from None
        try:
            self._tok = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
            self._model = AutoModelForCausalLM.from_pretrained(self.path, local_files_only=True)
        except OSError as e:
            raise ModelError(f"cannot load {self.path!r} from local files: {e}") from None
        self._model.to(self.device).eval()
        self._tok.padding_side = "left"
        if self._tok.pad_token is None:
            self._tok.pad_token = self._tok.eos_token

    def _run_batch(self, prompts: list[Prompt], s: Sampling, samples: list[int]) -> list[Response]:
        import torch

        self._load()
        t0 = time.perf_counter()
        texts = [_prompt_text(self._tok, it) for it in prompts]
        enc = self._tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        enc = {k: v.to(self.device) for k, v in enc.items()}
        if s.seed is not None:
            torch.manual_seed(stable_int(s.seed, samples[0]) % (2**31))
        kw: dict[str, Any] = {
            "max_new_tokens": s.max_tokens,
            "pad_token_id": self._tok.pad_token_id,
        }
        if s.temperature > 0:
            kw |= {"do_sample": True, "temperature": s.temperature, "top_p": s.top_p}
        else:
            kw["do_sample"] = False
        with torch.no_grad():
            out = self._model.generate(**enc, **kw)
        width = enc["input_ids"].shape[1]
        lat = time.perf_counter() - t0
        res = []
        for i in range(len(prompts)):
            new = out[i, width:]
            ids = [int(t) for t in new if int(t) != self._tok.pad_token_id]
            eos = self._tok.eos_token_id is not None and self._tok.eos_token_id in ids
            if eos:
                ids = ids[: ids.index(self._tok.eos_token_id)]
            text, stopped = _cut_at_stop(self._tok.decode(ids, skip_special_tokens=True), s.stop)
            prompt_len = int(enc["attention_mask"][i].sum())
            res.append(
                Response(
                    text=text,
                    finish_reason="stop"
                    if (eos or stopped or len(ids) < s.max_tokens)
                    else "length",
                    prompt_tokens=prompt_len,
                    completion_tokens=len(ids),
                    latency_s=lat,
                )
            )
        return res

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        return await self._batcher.submit(prompt, sampling, sample)

    async def aclose(self) -> None:
        await self._batcher.close()


class VLLMModel:
    """vLLM's offline engine (``vllm.LLM``), batched through ``LLM.chat``."""

    def __init__(self, path: str, batch: int = 64) -> None:
        try:
            import vllm  # noqa: F401
        except ImportError:
            raise ModelError(
                "the vllm backend needs vLLM: pip install vllm (on a GPU machine)"
            ) from None
        self.path = path
        self.name = path.rstrip("/").split("/")[-1]
        self.cache_id = f"vllm:{path}"
        self._llm: Any = None
        self._batcher = _Batcher(self._run_batch, batch)

    def _run_batch(self, prompts: list[Prompt], s: Sampling, samples: list[int]) -> list[Response]:
        from vllm import LLM, SamplingParams

        if self._llm is None:
            self._llm = LLM(model=self.path)
        t0 = time.perf_counter()
        params = [
            SamplingParams(
                temperature=s.temperature,
                top_p=s.top_p,
                max_tokens=s.max_tokens,
                stop=list(s.stop) or None,
                seed=None if s.seed is None else stable_int(s.seed, k) % (2**31),
            )
            for k in samples
        ]
        convs = [[m.model_dump() for m in it.messages] for it in prompts]
        outs = self._llm.chat(convs, params, use_tqdm=False)
        lat = time.perf_counter() - t0
        return [
            Response(
                text=o.outputs[0].text,
                finish_reason=o.outputs[0].finish_reason,
                prompt_tokens=len(o.prompt_token_ids or []),
                completion_tokens=len(o.outputs[0].token_ids),
                latency_s=lat,
            )
            for o in outs
        ]

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        return await self._batcher.submit(prompt, sampling, sample)

    async def aclose(self) -> None:
        await self._batcher.close()


def _int_opts(opts: dict[str, str], allowed: tuple[str, ...]) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    for k, v in opts.items():
        if k not in allowed:
            raise ConfigError("model", k, f"unknown option; allowed: {', '.join(allowed)}")
        if k == "device":
            kw[k] = v
            continue
        try:
            kw[k] = int(v)
        except ValueError:
            raise ConfigError(k, v, "must be an integer") from None
    return kw


def _hf(head: str, opts: dict[str, str]) -> HFModel:
    if not head:
        raise ConfigError("model", "hf:", "expected hf:<local model directory>")
    return HFModel(head, **_int_opts(opts, ("batch", "device")))


def _vllm(head: str, opts: dict[str, str]) -> VLLMModel:
    if not head:
        raise ConfigError("model", "vllm:", "expected vllm:<model directory or name>")
    return VLLMModel(head, **_int_opts(opts, ("batch",)))


MODELS.register("hf", _hf)
MODELS.register("vllm", _vllm)
