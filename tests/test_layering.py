"""Imports run one way: a module may import only from its own layer or the layers below it.

Every ``import`` and ``from … import`` statement counts, at module level or inside a function
(a lazy import is an edge like any other), and no two modules reach each other, within a layer
either. Built-ins reach the registries only through the
manifest, which the registry imports by name.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "logicforge"

# lowest first; a module's layer is that of its first path component below logicforge/
LAYERS: list[tuple[str, ...]] = [
    (
        "errors",
        "schema",
        "registry",
        "rng",
        "_manifest",
        "_version",
        "executor",
        "aio",
        "jsonfast",
        "gctune",
        "datadir",
        "numfmt",
        "prices",
        "fields",
    ),
    ("logic", "parse"),
    ("kinds",),
    ("families", "reductions"),
    ("transforms",),
    ("renderers",),
    ("models",),
    ("strategies",),
    ("llm",),
    ("runner",),
    ("imports",),
    ("metrics",),
    ("reports",),
    ("export", "serve", "serve_guard"),
    (
        "api",
        "files",
        "suites",
        "demo",
        "serve_verify",
        "serve_workers",
        "curriculum",
        "leakage",
        "calibration",
    ),
    ("cli", "__init__", "__main__"),
]
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _top(module: str) -> str:
    """'logicforge.runner.store' -> 'runner'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path, root: Path | None = None) -> str:
    rel = path.relative_to((root or SRC).parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1] if len(parts) > 1 else parts
    return ".".join(parts)


def _imports(path: Path, root: Path | None = None) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    mod = _module_name(path, root)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("logicforge")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("logicforge"):
                continue
            if target == "logicforge" or (node.module is None and node.level):
                out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, target))
    return out


def back_edges() -> list[str]:
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        src_mod = _module_name(path)
        src_top = _top(src_mod) if src_mod != "logicforge" else "__init__"
        if src_top.endswith(".py"):
            src_top = src_top[:-3]
        lo = LAYER_OF.get(src_top)
        if lo is None:
            bad.append(f"{src_mod}: package {src_top!r} has no layer; add it to LAYERS")
            continue
        for line, target in _imports(path):
            t = _top(target)
            lt = LAYER_OF.get(t)
            if lt is None:
                bad.append(f"{src_mod}:{line} imports {target}: no layer for {t!r}")
            elif lt > lo:
                bad.append(f"{src_mod}:{line} imports {target} ({t} is above {src_top})")
    return bad


# metrics are pure functions over records: nothing that calls a model (a backend, a strategy, a
# judge or story writer, the runner) is imported there — those live in llm/ and above
PURE = {"metrics": ("models", "strategies", "llm", "runner")}


def impure_imports(root: Path | None = None) -> list[str]:
    root = root or SRC
    bad = []
    for pkg, banned in PURE.items():
        for path in sorted((root / pkg).rglob("*.py")):
            for line, target in _imports(path, root):
                if _top(target) in banned:
                    bad.append(f"{_module_name(path, root)}:{line} imports {target}")
    return bad


def test_metrics_import_nothing_that_calls_a_model() -> None:
    assert not impure_imports(), impure_imports()


def test_the_purity_rule_catches_a_metrics_to_models_import(tmp_path) -> None:
    """The rule fails on a metrics module that imports a model backend."""
    fake = tmp_path / "logicforge"
    (fake / "metrics").mkdir(parents=True)
    (fake / "metrics" / "sneaky.py").write_text("from ..models.base import Model\n")
    assert any("sneaky" in b and "models.base" in b for b in impure_imports(fake))


def module_graph() -> dict[str, set[str]]:
    """Module → the logicforge modules it imports (a name inside a module: that module; a
    package's name: its ``__init__``)."""
    paths = sorted(SRC.rglob("*.py"))
    known = {_module_name(p) for p in paths}
    graph = {}
    for path in paths:
        mod, edges = _module_name(path), set()
        for _, target in _imports(path):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != mod:
                edges.add(target)
        graph[mod] = edges
    return graph


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


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_relative_and_lazy_imports() -> None:
    g = module_graph()
    assert "logicforge.kinds.cnf_decision" in g["logicforge.kinds.proof"]  # from . import x as y
    assert "logicforge.runner.ray_exec" in g["logicforge.runner.runner"]  # inside a function
    assert "logicforge.families._latin" in g["logicforge.families.sudoku"]  # from ._latin import
    assert "logicforge.kinds" in g["logicforge.api"]  # a package's name: its __init__


def test_no_import_cycles() -> None:
    """Within a layer too, no two modules reach each other (a lazy import hides a cycle, it does
    not remove it; a submodule importing back its package's ``__init__`` closes one as well)."""
    assert _cycles(module_graph()) == []


def test_every_package_has_a_layer() -> None:
    tops = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in SRC.rglob("*.py")}
    assert not sorted(tops - set(LAYER_OF))


def test_imports_run_one_way() -> None:
    bad = back_edges()
    assert not bad, f"{len(bad)} back-edge(s):\n" + "\n".join(bad)


def test_the_checker_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The walk must see an import inside a function, relative or absolute."""
    f = SRC / "logic" / "__init__.py"
    edges = dict((t, n) for n, t in _imports(f))
    assert edges  # logic/__init__ imports its modules
    code = "def f():\n    from ..runner import store\n    import logicforge.reports\n"
    p = SRC / "logic" / "_probe_layering.py"
    p.write_text(code)
    try:
        found = [t for _, t in _imports(p)]
        assert found == ["logicforge.runner", "logicforge.reports"]
        assert any("_probe_layering" in b for b in back_edges())
    finally:
        p.unlink()


KIND_MODULES = ("kinds", "families", "reductions")  # where a kind may name itself


def _kind_names() -> set[str]:
    from logicforge.registry import KINDS

    return set(KINDS.names())


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _strings(e)]
    return []


def kind_branches(root: Path | None = None) -> list[str]:
    """Comparisons of something called ``kind`` with a kind's name, and ``getattr(x, "kind", …)``
    defaults, outside the kind and family modules (of ``root``, default the package)."""
    root = root or SRC
    names = _kind_names()
    bad = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in KIND_MODULES:
            continue
        src = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                text = " ".join(ast.get_source_segment(src, s) or "" for s in sides)
                if "kind" in text and any(s in names for x in sides for s in _strings(x)):
                    bad.append(f"{path.relative_to(root)}:{node.lineno}: {text}")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) == 3
                and _strings(node.args[1]) == ["kind"]
            ):
                bad.append(f"{path.relative_to(root)}:{node.lineno}: getattr(…, 'kind', default)")
    return bad


def test_nothing_outside_the_kinds_branches_on_a_kind_name() -> None:
    bad = kind_branches()
    assert not bad, "\n".join(bad)


def test_no_assert_statement_in_the_library() -> None:
    """Certified promises use ``errors.certify``, which ``python -O`` cannot remove."""
    bad = [
        f"{p.relative_to(SRC)}:{n.lineno}"
        for p in sorted(SRC.rglob("*.py"))
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(n, ast.Assert)
    ]
    assert not bad, bad


def test_certify_survives_python_O(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "from logicforge.errors import certify, CertificationError\n"
        "try:\n    certify(False, 'x')\nexcept CertificationError:\n    print('raised')\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "raised", out.stderr


def test_the_kind_branch_checker_sees_a_branch(tmp_path) -> None:
    """On a copy of a package folder (writing into the source tree raced the checks that read
    it, run in parallel)."""
    (tmp_path / "metrics").mkdir()
    p = tmp_path / "metrics" / "_probe_kind_branch.py"
    p.write_text('def f(item):\n    return item.kind != "cnf" or getattr(item, "kind", "x")\n')
    found = [b for b in kind_branches(tmp_path) if "_probe_kind_branch" in b]
    assert len(found) == 2, found


def test_a_lookup_by_name_imports_only_that_module() -> None:
    """Every name of the manifest's by-name map is registered by the module it names (a lookup
    in a fresh process imports that module alone, not the whole registry), and
    ``logicforge run``'s path — the CLI parser, an openai-compatible model, the cnf kind — loads
    no family and not numpy."""
    import json
    import subprocess
    import sys

    from logicforge import _manifest

    modules = {(what, m) for what, names in _manifest.NAMED.items() for m in names.values()}
    for what, module in sorted(modules):
        names = [n for n, m in _manifest.NAMED[what].items() if m == module]
        code = f"""
import json
from logicforge import registry
reg = next(r for r in vars(registry).values()
           if isinstance(r, registry.Registry) and r.what == {what!r})
print(json.dumps([[n, reg.find(n) is not None and not reg._loaded] for n in {names!r}]))
"""
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert dict(json.loads(out.stdout)) == dict.fromkeys(names, True), (what, module)
    code = """
import json, sys
from logicforge.cli import build_parser
from logicforge.models.base import load_model
from logicforge.registry import KINDS
build_parser()
load_model("openai-compatible:http://127.0.0.1:9/v1:m")
KINDS.get("cnf")
print(json.dumps(sorted(m for m in sys.modules
    if m == "numpy" or m.startswith("logicforge.families."))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == []


def test_no_module_is_over_450_lines() -> None:
    """One module per concept, around 400 lines: a module past 450 is split by topic."""
    long = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450
    }
    assert not long, f"split these by topic: {long}"
