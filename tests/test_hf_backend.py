"""The transformers backend on a tiny GPT-2 built here from a config (no download): batched
decoding through the runner, greedy determinism, truncation, and clear errors."""

from __future__ import annotations

import json

import pytest

import logicforge as lf

torch = pytest.importorskip("torch", reason="installed by `make test` via the [test] extra")
transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> str:
    from tokenizers import Tokenizer, models, pre_tokenizers

    d = tmp_path_factory.mktemp("tiny-gpt2")
    words = ["[UNK]", "[PAD]", "[EOS]", "SAT", "UNSAT", "answer", "{", "}", '"', ":", "x1", "x2"]
    words += [f"w{i}" for i in range(100)]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="[EOS]"
    )
    fast.chat_template = (
        "{% for m in messages %}{{ m['role'] }} : {{ m['content'] }}\n{% endfor %}assistant :"
    )
    fast.save_pretrained(d)
    torch.manual_seed(0)
    cfg = transformers.GPT2Config(
        vocab_size=len(words), n_positions=4096, n_embd=32, n_layer=1, n_head=2,
        eos_token_id=2, pad_token_id=1, bos_token_id=2,
    )  # fmt: skip
    transformers.GPT2LMHeadModel(cfg).save_pretrained(d)
    return str(d)


def test_batched_greedy_decoding_through_the_runner(tiny_model, tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 2.0}, count=6, seed=1))
    spec = f"hf:{tiny_model};batch=4"
    s = lf.Sampling(temperature=0.0, max_tokens=6)
    lf.run(items, spec, tmp_path / "a.jsonl", sampling=s, concurrency=6)
    lf.run(items, spec, tmp_path / "b.jsonl", sampling=s, concurrency=6)
    a = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    b = [json.loads(x) for x in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert len(a) == 6 and all(r["error"] is None for r in a)
    assert [r["text"] for r in a] == [r["text"] for r in b]  # greedy: deterministic
    assert max(r["extra"]["batch_size"] for r in a) > 1  # concurrent requests were batched
    for r in a:
        assert r["usage"]["prompt_tokens"] > 20 and r["usage"]["completion_tokens"] <= 6
        assert r["finish_reason"] in ("stop", "length") and r["verdict"] is not None


def test_missing_local_files_and_vllm_give_clear_errors(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 2.0}, count=1, seed=1))
    c = lf.run(items, f"hf:{tmp_path / 'nothing-here'}", tmp_path / "r.jsonl")
    rec = json.loads((tmp_path / "r.jsonl").read_text())
    assert c["errors"] == 1 and "local files" in rec["error"]
    try:
        import vllm  # noqa: F401
    except ImportError:
        with pytest.raises(lf.ModelError, match="pip install vllm"):
            lf.load_model("vllm:some-model")
    with pytest.raises(lf.ConfigError, match="batch"):
        lf.load_model(f"hf:{tmp_path};batch=0")
