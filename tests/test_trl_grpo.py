"""TRL's GRPO trainer, offline, with logicforge's reward: two optimisation steps of a tiny
randomly initialised Llama with the embedded SmolLM2 tokenizer (read from its GGUF), on
logicforge items; every reward TRL receives is ``lf.reward`` of the completion it generated."""

from __future__ import annotations

import pytest

import logicforge as lf
from logicforge.metrics.reward import trl_reward, trl_rows


def test_grpo_smoke_with_logicforge_rewards(tmp_path, monkeypatch) -> None:
    trl = pytest.importorskip("trl")
    pytest.importorskip("gguf")
    import torch
    from datasets import Dataset
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from logicforge.models.embedded import embedded_model_path

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    gguf = embedded_model_path()
    tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    cfg = LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=4096,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )  # fmt: skip
    torch.manual_seed(0)
    model = LlamaForCausalLM(cfg)
    items = lf.render(lf.generate("ksat/random", level=0, count=4, seed=1))
    seen: list[tuple[str, float]] = []

    def spy(completions, item, **kw):  # noqa: ANN001, ANN003 - TRL's calling convention
        got = trl_reward(completions, item, **kw)
        for c, raw, r in zip(completions, item, got, strict=True):
            text = c[-1]["content"]
            assert r == lf.reward(lf.Item.model_validate_json(raw), text)
            seen.append((text, r))
        return got

    args = trl.GRPOConfig(
        output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=2, num_generations=2,
        max_completion_length=8, logging_steps=1, report_to=[], use_cpu=True, save_strategy="no",
    )  # fmt: skip
    trainer = trl.GRPOTrainer(
        model=model,
        reward_funcs=spy,
        args=args,
        train_dataset=Dataset.from_list(trl_rows(items)),
        processing_class=tok,
    )
    trainer.train()
    assert len(seen) >= 4 and trainer.state.global_step == 2
    assert any("reward" in h for h in trainer.state.log_history)
