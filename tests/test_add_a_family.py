"""``docs/add-a-family.md`` followed as written: its code blocks assembled into a plug-in package
in a temporary folder (each block marked ``file=…`` appended to that file), installed by its
``logicforge.plugins`` entry point the way ``pip install`` would declare it, then — in fresh
processes that see logicforge only as installed, with no file of it touched — the contract tests
run on the new family and kind, and the page's own commands generate, run and report with the
package's family, renderer, model backend and report analysis."""

from __future__ import annotations

import csv
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "add-a-family.md"
BLOCK = re.compile(r"^```(\w+) file=(\S+)\n(.*?)^```", re.S | re.M)
COMMANDS = re.compile(r"^## 8\. Try it.*?^```bash\n(.*?)^```", re.S | re.M)


def assemble(doc: str, into: Path) -> dict[str, str]:
    """Write the doc's ``file=`` blocks under ``into`` (blocks of one file in order) and a
    ``.dist-info`` declaring its entry points; the files written, by path."""
    files: dict[str, str] = {}
    for _, path, body in BLOCK.findall(doc):
        files[path] = files.get(path, "") + ("\n\n" if path in files else "") + body
    for path, body in files.items():
        (into / path).parent.mkdir(parents=True, exist_ok=True)
        (into / path).write_text(body, encoding="utf-8")
    project = tomllib.loads(files["pyproject.toml"])["project"]
    info = into / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    eps = "".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in table.items())
        for group, table in project["entry-points"].items()
    )
    (info / "entry_points.txt").write_text(eps)
    return files


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    pkg = tmp_path_factory.mktemp("plugin")
    assemble(DOC.read_text(encoding="utf-8"), pkg)
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(pkg), os.environ.get("PYTHONPATH", "")])}
    return pkg, env  # type: ignore[return-value]


def test_the_page_has_a_whole_package() -> None:
    doc = DOC.read_text(encoding="utf-8")
    paths = {p for _, p, _ in BLOCK.findall(doc)}
    assert paths == {"lf_sumline/sumline.py", "lf_sumline/__init__.py", "lf_sumline/extras.py",
                     "pyproject.toml"}  # fmt: skip
    assert COMMANDS.search(doc), "the page's 'Try it' commands"
    # the page names only files and functions that exist
    for ref in re.findall(r"`((?:src/logicforge|tests|docs)/[\w/.-]+)`", doc):
        assert (ROOT / ref).exists(), ref


def test_contract_tests_pass_on_the_new_family(plugin) -> None:
    pkg, env = plugin
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider",
         "tests/test_families_common.py", "tests/test_kind_contract.py", "tests/test_knobs.py",
         "tests/test_levels.py", "tests/test_family_contract.py",
         "-k", "sumline"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    tail = (r.stdout + r.stderr)[-3000:]
    assert r.returncode == 0, tail  # 5 (nothing selected) fails too
    passed = int(re.search(r"(\d+) passed", r.stdout).group(1))  # type: ignore[union-attr]
    assert passed >= 17, tail  # the family, kind, knob and level contracts


def test_the_commands_use_the_plugins_family_model_and_analysis(plugin, tmp_path) -> None:
    pkg, env = plugin
    m = COMMANDS.search(DOC.read_text(encoding="utf-8"))
    assert m
    for line in m.group(1).strip().splitlines():
        argv = shlex.split(line)
        assert argv[0] == "logicforge"
        r = subprocess.run([sys.executable, "-m", "logicforge", *argv[1:]], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
        assert r.returncode == 0, (line, (r.stdout + r.stderr)[-2000:])
    rows = list(csv.DictReader((tmp_path / "sl/report/sumline_length.csv").open()))
    acc = {int(r["length"]): float(r["accuracy"]) for r in rows}
    assert acc == {4: 1.0, 7: 0.0}  # skip=5: rows of 7 have a fifth cell, the backend errs there
    assert "sumline_length" in (tmp_path / "sl/report/report.html").read_text(encoding="utf-8")
    assert not (ROOT / "src/logicforge/families/sumline.py").exists()  # no file of logicforge
