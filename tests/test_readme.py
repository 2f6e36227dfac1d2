"""Every command of the README runs, as written, in one temporary directory, in the README's
order (later commands read what earlier ones wrote).

Only what cannot run in a test is changed, each change listed in ``REWRITES``: counts are made
small (a suite runs one formula per point: ``--count 1``); the placeholder server ``http://127.0.0.1:8000/v1`` and the placeholder ``MODEL`` become a
real OpenAI-compatible server on 127.0.0.1 (``tests/fakeserver.py``); the embedded model, where
it would answer hundreds of items, becomes the ``random`` baseline (the embedded model's own
tests run it for real; the dry run keeps it, since it only probes its speed); ``<item_id>`` is
the first item written; ``serve-verify`` is started, asked ``/health`` and stopped. ``make demo``
and ``make test`` are the set-up commands themselves (run by CI), not re-run here."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .fakeserver import FakeServer

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LOGICFORGE_SHARED_DATA", "/work/shared/data"))

# (pattern, replacement) applied to each command line, in order
REWRITES = [
    (r"--count \d+", "--count 1"),
    (r"--model embedded\b(?! --dry-run)", "--model random"),  # a dry run only probes its speed
    (r"--writer embedded\b", "--writer random"),
    (r"--judge embedded\b", "--judge {server}"),
    (r"\bMODEL\b", "{server}"),
    (r"http://127\.0\.0\.1:8000/v1:", "{url}:"),
]
# suites whose own model list runs the embedded model: given a small stand-in
OWN_MODELS = {"logicedit-strategies": "random", "logicedit-logicaldeduction": "random"}


def _blocks(lang: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def _commands() -> list[str]:
    out = []
    for block in _blocks("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip() and not line.lstrip().startswith("make "):
                out.append(line.strip())
    return out


def test_the_readme_has_commands_to_run() -> None:
    cmds = _commands()
    assert len(cmds) > 25 and all("logicforge" in c for c in cmds)
    # nothing reads a folder a fresh clone lacks: data commands go through the data folder
    assert not [c for c in cmds if "../" in c], "a README command reads outside the clone"


def test_a_missing_data_folder_says_where_it_looked(tmp_path) -> None:
    """From a fresh clone with no data folder, the README's data command fails saying where it
    looked and what the folder holds (exit 2, nothing written)."""
    cmd = next(c for c in _commands() if "import dimacs data:" in c)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), LOGICFORGE_DATA=str(tmp_path / "none"))
    r = subprocess.run([sys.executable, "-m", *shlex.split(cmd, comments=True)], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 2 and "not in the data folder" in r.stderr and "satlib/" in r.stderr
    assert not (tmp_path / "runs").exists()


def _rewrite(cmd: str, subs: dict[str, str]) -> str:
    for pat, rep in REWRITES:
        cmd = re.sub(pat, rep.format(**subs), cmd)
    return cmd


def _subs(url: str) -> dict[str, str]:
    """What the rewrites put in: the fake server's URL, a model spec on it, the data folder."""
    return {"url": url, "server": f"openai-compatible:{url}:m"}


def _loads_a_model(cmd: str) -> bool:
    """A command that, rewritten, still runs the embedded model (the dry run's speed probe; a
    dry run without it loads nothing — the first phase, where a load is refused, proves it)."""
    if "--dry-run" in cmd and "--probe-speed" not in cmd:
        return False
    return bool(re.search(r"--(model|writer|judge) embedded\b", cmd))


def test_suite_lines_say_when_their_own_models_run_a_local_model() -> None:
    """`suite logicedit-strategies --out …` ran SmolLM2 seven times per item, unsaid."""
    from logicforge.suites.suite import load_suite

    checked = 0
    for cmd in _commands():
        words = shlex.split(cmd, comments=True)
        if words[1:2] != ["suite"] or len(words) < 3 or words[2].startswith("-"):
            continue
        if "--model" in words:
            continue  # the line names its models
        models = load_suite(words[2]).models
        if any("embedded" in m for m in models):
            checked += 1
            assert "embedded" in cmd.split("#", 1)[-1], f"say it runs the embedded model: {cmd}"
    assert checked >= 1


def _run_command(raw: str, tmp_path: Path, env: dict[str, str], subs: dict[str, str]) -> None:
    cmd = _rewrite(raw, subs)
    words = shlex.split(cmd, comments=True)
    envs = {}
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        k, v = words.pop(0).split("=", 1)
        envs[k] = str((tmp_path / v).resolve()) if v.startswith("..") else v
    assert words[0] == "logicforge", raw
    args = words[1:]
    if "<item_id>" in args:
        first = (tmp_path / "out" / "items.jsonl").read_text().splitlines()[0]
        args[args.index("<item_id>")] = json.loads(first)["item_id"]
    if args[:1] == ["suite"] and len(args) > 1:  # a suite: one formula per point
        if args[1] in OWN_MODELS and "--model" not in args:
            args += ["--model", OWN_MODELS[args[1]]]
        args += ["--count", "1"] + ([] if "--dry-run" in args else ["--quiet"])
    full = [sys.executable, "-m", "logicforge", *args]
    if args[:1] == ["serve-verify"]:
        _serve_and_stop(full, tmp_path, env | envs)
        return
    r = subprocess.run(full, cwd=tmp_path, env=env | envs, capture_output=True,
                       text=True, timeout=600)  # fmt: skip
    # a judge played by the fake server answers {"answer": …}, not a judgement: those are
    # recorded judge errors (exit 3), which is the command working as documented
    ok = (0, 3) if args[0] == "judge" and subs["server"] in args else (0,)
    # the random stand-in writes no story that validates: a suite whose comparison then has no
    # stories says so and exits 3 (the report is still written) — as documented
    if args[0] == "suite" and "--writer" in args and args[args.index("--writer") + 1] == "random":
        ok = (0, 3)
        assert r.returncode == 0 or "failed validation and were discarded" in r.stderr, r.stderr
    assert r.returncode in ok, f"{raw}\n→ {shlex.join(args)}\n{r.stderr[-3000:]}"


@pytest.mark.slow
def test_every_readme_command_runs(tmp_path) -> None:
    """Every command but those that still load the embedded model (the next test runs them)."""
    if not SHARED.is_dir():
        pytest.skip(f"the README's data commands need {SHARED} (LOGICFORGE_SHARED_DATA)")
    # the data folder as the README says to set it; the commands' text is not touched
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), LOGICFORGE_DATA=str(SHARED))
    with FakeServer() as srv:
        url = srv.base_url
        subs = _subs(url)
        # the Python tour first: it writes out/, which the shell tour reads
        code = "\n".join(_blocks("python")).replace("http://127.0.0.1:8000/v1", url)
        run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=600)  # fmt: skip
        assert run.returncode == 0, run.stderr[-3000:]
        for raw in _commands():
            if not _loads_a_model(_rewrite(raw, subs)):
                _run_command(raw, tmp_path, env, subs)


@pytest.mark.embedded
def test_the_readme_commands_that_load_the_embedded_model_run(tmp_path) -> None:
    """The README's commands that run the embedded model even after the rewrites (each stands
    alone: the dry run makes its own suite items), as written."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with FakeServer() as srv:
        subs = _subs(srv.base_url)
        cmds = [raw for raw in _commands() if _loads_a_model(_rewrite(raw, subs))]
        assert cmds, "the README has no embedded-model command left after the rewrites"
        for raw in cmds:
            _run_command(raw, tmp_path, env, subs)


def _serve_and_stop(cmd: list[str], cwd: Path, env: dict[str, str]) -> None:
    i = cmd.index("--port")
    cmd[i + 1] = "0"
    port_file = cwd / "verify-port.json"
    proc = subprocess.Popen([*cmd, "--port-file", str(port_file)], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not port_file.exists():
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            assert time.monotonic() < deadline, "serve-verify did not start"
            time.sleep(0.1)
        port = json.loads(port_file.read_text())["port"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(30)
