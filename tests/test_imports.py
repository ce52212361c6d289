"""The import graph, read from the source (lazy imports inside functions included): the
package is six folders by concern and a shared core; hear, think and speak meet only in
the pipeline; the window never loads an engine; nothing imports the commands but the
console script (and the launcher, which is one of them); nothing imports in a circle;
the engine reaches Qt and the front end through its launcher only."""

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


STAGES = ("hear", "think", "speak")
FOLDERS = ("hear", "think", "speak", "machine", "pipeline", "commands")
SHARED = {"__init__", "__main__", "config", "errors", "events", "exiting", "languages", "offline", "resources",
          "sound", "timeline", "writing"}
ENGINE_SIDE = tuple(f"assistant.{folder}" for folder in ("hear", "think", "speak"))


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_top_of_the_package_is_the_folders_and_the_shared_core():
    modules = {p.stem for p in (ROOT / "assistant").glob("*.py")}
    packages = {p.name for p in (ROOT / "assistant").iterdir() if (p / "__init__.py").exists()}
    assert modules | (packages - set(FOLDERS)) == SHARED, "a shared module may be a package (config)"
    assert set(FOLDERS) <= packages
    for folder in FOLDERS:
        doc = ast.get_docstring(ast.parse((ROOT / "assistant" / folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 12, f"assistant/{folder}/__init__.py says what comes in and goes out"


def test_nothing_imports_the_commands_but_the_console_script_and_the_launcher(graph):
    outside = {name for name in _importers(graph, "assistant.commands")
               if not _within(name, "assistant.commands") and not _within(name, "tools")}  # tools/: scripts too
    assert outside == {"assistant.__main__"}
    assert _importers(graph, "assistant.commands.cli") == {"assistant.__main__"}
    # the launcher reaches the front end, and the front end nothing of the commands
    assert not {name for name in _importers(graph, "assistant.commands") if _within(name, "ui")}


@pytest.mark.parametrize("stage", STAGES)
def test_hear_think_and_speak_never_import_each_other(graph, stage):
    others = [f"assistant.{other}" for other in STAGES if other != stage]
    for name, imported in graph.items():
        if _within(name, f"assistant.{stage}"):
            crossing = {m for m in imported if any(_within(m, o) for o in others)}
            assert not crossing, f"{name} imports {crossing}: the stages meet only in assistant.pipeline"


def test_the_shared_core_imports_no_folder(graph):
    for name, imported in graph.items():
        if name.startswith("assistant.") and name.split(".")[1] in SHARED - {"__main__"}:
            below = {m for m in imported if any(_within(m, f"assistant.{f}") for f in FOLDERS)}
            assert not below, f"{name} imports {below}"


def test_the_window_never_loads_an_engine(graph):
    """The window asks the session (assistant.pipeline.session) for engines and devices."""
    for name, imported in graph.items():
        if _within(name, "ui"):
            engines = {m for m in imported if any(_within(m, e) for e in ENGINE_SIDE)}
            assert not engines, f"{name} imports {engines}"


def test_no_import_cycles(graph):
    inside = {name: {m for m in imported if m in graph and m != name} for name, imported in graph.items()}
    try:
        TopologicalSorter(inside).prepare()
    except CycleError as cycle:
        pytest.fail(f"import cycle: {' -> '.join(cycle.args[1])}")


def test_the_engine_reaches_qt_and_the_front_end_through_the_launcher_only(graph):
    engine_side = {name for name in graph if name.split(".")[0] == "assistant"}
    assert _importers(graph, "ui") & engine_side == {"assistant.commands.launcher"}
    assert _importers(graph, "PySide6") & engine_side == {"assistant.commands.launcher"}


def test_no_source_file_needs_scrolling():
    long = {str(p.relative_to(ROOT)): n for package in PACKAGES for p in (ROOT / package).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, f"over 400 lines: {long}"


def test_the_graph_is_read_right(graph):
    """The checks above would pass on an empty graph: make sure it is not."""
    assert "assistant.pipeline.listen" in graph["assistant.pipeline.engine"]
    assert "assistant.config" in graph["assistant.commands.options"]
    assert "assistant.commands.kiosk.soak" in graph["assistant.commands.kiosk.command"]  # a lazy import
    assert "ui.app" in graph["assistant.commands.launcher"]
    assert "assistant.hear.stt" in graph["assistant.pipeline.session"]
    assert "assistant.pipeline.session" in graph["ui.controller"]


def test_every_module_imports():
    """A name one module takes from another that is gone fails here, not only in the slow
    tests that reach it."""
    import importlib

    for name in sorted(n for n in _modules() if not n.endswith("__main__")):
        if name.startswith(("ui", "tools")):
            pytest.importorskip("PySide6")
        importlib.import_module(name)
