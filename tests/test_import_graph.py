"""Modules import one way: no two of logicforge's modules reach each other through their imports
(at the top of a file or inside a function alike — a lazy import hides a cycle, it does not
remove it). A package's ``__init__`` counts as the package; an import of a package's name
reaches its ``__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import logicforge

ROOT = Path(logicforge.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def _edges(name: str, path: Path, known: set[str]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for t in targets:
            while t and t not in known:  # a name inside a module: the module
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {n: _edges(n, p, known) for n, p in mods.items()}


def test_the_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_relative_and_lazy_imports() -> None:
    g = _graph()
    assert "logicforge.kinds.cnf_decision" in g["logicforge.kinds.proof"]  # from . import x as y
    assert "logicforge.runner.ray_exec" in g["logicforge.runner.runner"]  # inside a function
    assert "logicforge.families._latin" in g["logicforge.families.sudoku"]  # from ._latin import


def test_no_import_cycles() -> None:
    g = _graph()
    # a package's __init__ that gathers its submodules' names, imported back by a submodule,
    # is a cycle too: the submodule should import the module that defines the name
    assert _cycles(g) == []
