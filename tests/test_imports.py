"""The import graph, read from the source: the command line is a leaf, nothing imports
in a circle (lazy imports inside functions included), and the engine package reaches
Qt and the front end through its launcher module only."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("assistant", "ui", "tools")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module ``name`` imports, at the top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _importers(graph, prefix: str) -> set[str]:
    return {name for name, imported in graph.items() if any(m == prefix or m.startswith(prefix + ".") for m in imported)}


def test_nothing_imports_the_command_line(graph):
    assert _importers(graph, "assistant.cli") == {"assistant.__main__"}


def test_no_import_cycles(graph):
    inside = {name: {m for m in imported if m in graph and m != name} for name, imported in graph.items()}
    try:
        TopologicalSorter(inside).prepare()
    except CycleError as cycle:
        pytest.fail(f"import cycle: {' -> '.join(cycle.args[1])}")


def test_the_engine_reaches_qt_and_the_front_end_through_the_launcher_only(graph):
    engine_side = {name for name in graph if name.split(".")[0] == "assistant"}
    assert _importers(graph, "ui") & engine_side == {"assistant.launcher"}
    assert _importers(graph, "PySide6") & engine_side == {"assistant.launcher"}


def test_the_graph_is_read_right(graph):
    """The checks above would pass on an empty graph: make sure it is not."""
    assert "assistant.pipeline.listen" in graph["assistant.pipeline.engine"]
    assert "assistant.config" in graph["assistant.options"]
    assert "assistant.kiosk.soak" in graph["assistant.kiosk.command"]  # a lazy import
    assert "ui.app" in graph["assistant.launcher"]


def test_every_module_imports():
    """A name one module takes from another that is gone fails here, not only in the slow
    tests that reach it."""
    import importlib

    for name in sorted(n for n in _modules() if not n.endswith("__main__")):
        if name.startswith(("ui", "tools")):
            pytest.importorskip("PySide6")
        importlib.import_module(name)
