"""The package's layers: every import points down (or stays in its layer), and no import cycle exists.

Every ``import`` and ``from … import`` in ``uts58_adapt`` is read with :mod:`ast`, wherever
it is (module level, inside a function, under ``TYPE_CHECKING``), and so is every
``importlib.import_module("…")`` with a constant name.  Each module belongs to one
layer of :data:`LAYERS` (the most specific prefix wins); an import from a module to a
module of a higher layer fails, as does any cycle between modules, even inside a layer.
A new module that no layer names fails too: place it in the map.

See docs/architecture.md for what each layer holds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "uts58_adapt"

#: The layers, top first.  A module may import from its own layer and the layers below it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("entry points: the public API and the CLI", ("uts58_adapt", "uts58_adapt.cli", "uts58_adapt.__main__")),
    ("CLI commands", ("uts58_adapt.commands",)),
    ("audit reports", ("uts58_adapt.report",)),
    (
        "detection, wrapping, integrations, HTML",
        (
            "uts58_adapt.detection",
            "uts58_adapt.wrapping",
            "uts58_adapt.integrations",
            "uts58_adapt.html",
            "uts58_adapt.html_fragment",
            "uts58_adapt.conformance",
        ),
    ),
    ("backends: adapters over the linkifiers", ("uts58_adapt.backends",)),
    ("refine: the spec's algorithms and the host stage", ("uts58_adapt.refine",)),
    (
        "properties, result types, data access",
        (
            "uts58_adapt.properties",
            "uts58_adapt.link",
            "uts58_adapt.public_suffixes",
            "uts58_adapt._io",
            "uts58_adapt._data",
        ),
    ),
    (
        "generated tables (17.0.0 and the 18.0.0 draft), and the Unicode version that picks them",
        (
            "uts58_adapt._tables",
            "uts58_adapt._idna_tables",
            "uts58_adapt._security_tables",
            "uts58_adapt._tables_18_0_0",
            "uts58_adapt._idna_tables_18_0_0",
            "uts58_adapt._security_tables_18_0_0",
            "uts58_adapt._tld_data",
            "uts58_adapt._unicode_version",
        ),
    ),
]


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of ``module``: an exact name, else the longest package prefix."""
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            exact = module == prefix
            inside = prefix != "uts58_adapt" and module.startswith(prefix + ".")
            if (exact or inside) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def package_modules() -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (path, is a package)}`` for every module of ``uts58_adapt``."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _resolve(package: str, level: int, module: str | None) -> str:
    base = package.split(".")
    if level:
        base = base[: len(base) - level + 1]
        return ".".join(base + ([module] if module else []))
    return module or ""


def _constant_prefix(node: ast.expr) -> str:
    """The constant text of a module name: a string, or the start of an f-string (``f".commands.{name}"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.rstrip(".")
    return ""


def imports_of(name: str, path: Path, is_package: bool, modules: dict[str, tuple[Path, bool]]) -> set[tuple[str, int]]:
    """The modules of the package that ``name`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if is_package else name.rpartition(".")[0]
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(package, node.level, node.module)
            for alias in node.names:
                # "from . import hosts" imports the module hosts; "from .x import y" the module x.
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in modules else base)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module":
            target = _constant_prefix(node.args[0]) if node.args else ""
            if not target:
                continue  # a name only known at run time (the backends' registry: their own package)
            level = len(target) - len(target.lstrip("."))
            targets = [_resolve(package, level, target.lstrip(".") or None) if level else target]
        for target in targets:
            # "import a.b.c" or an unknown attribute: the longest prefix that is a module of ours.
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add((target, node.lineno))
    return found


def import_graph() -> dict[str, set[tuple[str, int]]]:
    modules = package_modules()
    return {name: imports_of(name, path, is_pkg, modules) for name, (path, is_pkg) in modules.items()}


def upward_arrows(graph: dict[str, set[tuple[str, int]]]) -> list[str]:
    """Each import from a module to a module of a higher layer, described."""
    out = []
    for source, targets in sorted(graph.items()):
        for target, line in sorted(targets):
            s, t = layer_of(source), layer_of(target)
            if s is not None and t is not None and t < s:
                out.append(f"{source} (line {line}, layer '{LAYERS[s][0]}') imports {target} (layer '{LAYERS[t][0]}')")
    return out


def cycles(graph: dict[str, set[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    edges = {name: sorted({t for t, _ in targets}) for name, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in package_modules() if layer_of(name) is None]
    assert not unplaced, f"modules in no layer of LAYERS (add them to tests/test_layering.py): {unplaced}"


def test_no_import_points_up() -> None:
    arrows = upward_arrows(import_graph())
    assert not arrows, "imports that point up:\n" + "\n".join(arrows)


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_graph_sees_function_level_and_relative_imports() -> None:
    """The parser finds what the checks rely on: a function-level import, ``from . import x``,
    ``importlib.import_module`` with a relative name, and the generated tables' readers."""
    graph = import_graph()
    targets = {name: {t for t, _ in found} for name, found in graph.items()}
    assert "uts58_adapt.refine.migration" in targets["uts58_adapt.detection"]  # inside a function
    assert "uts58_adapt.refine.hosts" in targets["uts58_adapt.refine.migration"]  # from . import hosts
    assert "uts58_adapt.commands" in targets["uts58_adapt.cli"]  # import_module(f".commands.{name}")
    assert "uts58_adapt._idna_tables" in targets["uts58_adapt.refine.host_chars"]
    assert "uts58_adapt._security_tables" in targets["uts58_adapt.refine.risks"]
    assert "uts58_adapt._tables" in targets["uts58_adapt.properties"]  # import_module(f"._tables{MODULE_SUFFIX}")
    assert "uts58_adapt._tld_data" in targets["uts58_adapt.public_suffixes"]


@pytest.mark.parametrize(
    ("source", "target", "bad"),
    [
        ("uts58_adapt.refine.hosts", "uts58_adapt.backends._tlds", True),  # issue 25: refine read the TLDs of backends
        ("uts58_adapt.refine.migration", "uts58_adapt.backends.base", True),  # and RawLink
        ("uts58_adapt.properties", "uts58_adapt.refine.hosts", True),
        ("uts58_adapt.backends.urlextract", "uts58_adapt.refine.hosts", False),
        ("uts58_adapt.refine.hosts", "uts58_adapt.public_suffixes", False),
        ("uts58_adapt.html_fragment", "uts58_adapt.html", False),  # same layer
    ],
)
def test_the_checks_can_fail(source: str, target: str, bad: bool) -> None:
    assert bool(upward_arrows({source: {(target, 1)}})) is bad
    assert cycles({"a": {("b", 1)}, "b": {("c", 1)}, "c": {("a", 1)}, "d": {("a", 1)}}) == [["a", "b", "c"]]


def test_no_cycle_among_the_benchmark_scripts() -> None:
    """benchmarks/*.py import each other as top-level modules (bench.py imported bench_audit.py,
    which imported bench.py back): no cycle there either."""
    scripts = {p.stem: p for p in sorted((PACKAGE.parent / "benchmarks").glob("*.py"))}
    graph: dict[str, set[tuple[str, int]]] = {}
    for name, path in scripts.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(a.name, node.lineno) for a in node.names if a.name in scripts}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module in scripts:
                found.add((node.module, node.lineno))
        graph[name] = found
    assert "bench_audit" in {t for t, _ in graph.get("bench", set())}  # the parser sees bench.py's import
    assert not cycles(graph), cycles(graph)
