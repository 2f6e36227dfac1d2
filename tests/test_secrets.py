"""API keys never reach disk: every file a CLI session produces is searched for the key."""

from __future__ import annotations

import os
import subprocess
import sys

from .fakeserver import FakeServer

KEY = "sk-lf-test-7f3a9c1e5b"


def _cli(*args: str, env: dict[str, str], cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "logicforge", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def test_no_file_a_session_writes_holds_the_key(tmp_path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    key_file = tmp_path / "key.txt"  # outside the searched folder: it is the key's home
    key_file.write_text(KEY + "\n")
    env = {**os.environ, "LF_SECRET_KEY": KEY}
    logs = []
    with FakeServer() as srv:
        base = f"openai-compatible:{srv.base_url}:fake"
        steps = [
            ("generate", "--family", "ksat/random", "--set", "n_vars=6", "--set", "alpha=3.0",
             "--count", "8", "--out", "data"),
            ("run", "--items", "data/items.jsonl", "--records", "rec.jsonl", "--cache",
             "cache/responses.sqlite", "--model", f"{base};api_key_env=LF_SECRET_KEY", "--quiet"),
            ("run", "--items", "data/items.jsonl", "--records", "rec2.jsonl", "--cache",
             "cache/responses.sqlite", "--model", f"{base};key_file={key_file}", "--quiet"),
            ("report", "--records", "rec.jsonl", "--out", "report"),
        ]  # fmt: skip
        for s in steps:
            p = _cli(*s, env=env, cwd=work)
            logs.append(p.stdout + p.stderr)
            assert p.returncode == 0, p.stderr
        # servers that echo the credentials: in a 400's body, and inside a 200 reply's text
        for script, out in ((["echo-400"], "echo400"), (["echo-200"], "echo200")):
            srv.default_script = script
            srv.seen.clear()
            for s in (
                ("run", "--items", "data/items.jsonl", "--records", f"{out}.jsonl", "--cache",
                 "cache/responses.sqlite", "--model", f"openai-compatible:{srv.base_url}:{out};"
                 "api_key_env=LF_SECRET_KEY;max_retries=0", "--quiet"),
                ("report", "--records", f"{out}.jsonl", "--out", f"report-{out}"),
                ("export", "sft", "--items", "data/items.jsonl", "--records", f"{out}.jsonl",
                 "--out", f"sft-{out}"),
            ):  # fmt: skip
                p = _cli(*s, env=env, cwd=work)
                logs.append(p.stdout + p.stderr)
                assert p.returncode in (0, 3), p.stderr  # 3: records ended in an error
        assert any("[credential redacted]" in line for line in (work / "echo400.jsonl").open())
        assert any("[credential redacted]" in line for line in (work / "echo200.jsonl").open())
        srv.default_script = ["401"]  # and a refused key: the message names the variable only
        srv.seen.clear()
        p = _cli(
            "run", "--items", "data/items.jsonl", "--records", "rec3.jsonl", "--no-cache",
            "--model", f"openai-compatible:{srv.base_url}:other;api_key_env=LF_SECRET_KEY",
            env=env, cwd=work,
        )  # fmt: skip
        logs.append(p.stdout + p.stderr)
        assert p.returncode == 2 and "LF_SECRET_KEY" in p.stderr
        assert all(h == f"Bearer {KEY}" for h in srv.auth_headers)  # it was sent, to the server
    (work / "session.log").write_text("\n".join(logs))
    files = [f for f in work.rglob("*") if f.is_file()]
    assert len(files) >= 8
    for f in files:
        data = f.read_bytes()
        for secret in (KEY.encode(), b"Authorization", b"Bearer"):
            assert secret not in data, f"{secret!r} found in {f}"


def test_a_key_echoed_at_any_offset_leaves_no_fragment(tmp_path) -> None:
    """A server that echoes the raw key at every offset 0…300 of an error body (a 400 and an
    error inside a 200): neither the records nor the report holds 8 or more of the key's
    characters in a row (bodies were cut to an excerpt before the key was redacted: up to 49
    of its characters were written)."""
    import logicforge as lf

    key = "sk-lf-walk-" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
    ps = lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=301, seed=5)
    items = lf.render(ps, "formula")
    os.environ["LF_WALK_KEY"] = key
    try:
        with FakeServer() as srv:
            for i, it in enumerate(items):
                status = "400" if i % 2 == 0 else "200"
                srv.scripts[it.messages[-1].content] = [f"echo-key-at:{status}:{i}"]
            spec = f"openai-compatible:{srv.base_url}:walk;api_key_env=LF_WALK_KEY;max_retries=0"
            lf.run(items, spec, tmp_path / "records.jsonl")
        lf.report(tmp_path / "records.jsonl", tmp_path / "report", ps)
    finally:
        del os.environ["LF_WALK_KEY"]
    grams = {key[i : i + 8].encode() for i in range(len(key) - 7)}
    files = [f for f in tmp_path.rglob("*") if f.is_file()]
    assert any(b"[credential redacted]" in (tmp_path / "records.jsonl").read_bytes() for _ in [0])
    for f in files:
        data = f.read_bytes()
        leaked = [g for g in grams if g in data]
        assert not leaked, f"{f} holds {leaked[:3]}"
