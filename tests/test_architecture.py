"""The shape of gamelib: module sizes, the import graph, the order of its layers by package
(games < search < connect4 < session < ui, see :data:`LAYERS`) and which may import the UI.

The import graph is read from the source with :mod:`ast`, so it sees every import,
including those inside functions (an import deferred into a function is still a
dependency, and two modules that import each other that way are still a cycle).
Imports under ``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping, Set
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gamelib"
MAX_LINES = 600
MAX_FUNCTION_LINES = 100
SPEED_KERNEL = "gamelib.connect4.negamax"
"""The one module whose functions may be longer: the solver's kernel, written for speed (its
docstring says so and names the part a reader must understand)."""
UI_LIBRARIES = ("ipycanvas", "ipywidgets", "matplotlib")
NO_UI_LAYERS = ("gamelib.game", "gamelib.games", "gamelib.search", "gamelib.connect4",
                "gamelib.learn", "gamelib.session")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement, with whether it is outside ``if TYPE_CHECKING:``."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, runs: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, runs))
            visit(child, runs and not _type_checking_block(child))

    visit(tree, True)
    return found


def imported_names(name: str, source: str | None = None) -> set[str]:
    """The absolute module names ``name`` imports when it runs (TYPE_CHECKING excluded);
    ``source`` replaces the module's file (for testing this function)."""
    text = MODULES[name].read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text)
    package = name if is_package(name) else name.rpartition(".")[0]
    result: set[str] = set()
    for node, runs in _imports(tree):
        if not runs:
            continue
        if isinstance(node, ast.Import):
            result.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        result.add(base)
        # `from package import submodule` depends on the submodule itself.
        result.update(f"{base}.{alias.name}" for alias in node.names
                      if f"{base}.{alias.name}" in MODULES)
    return result


@functools.cache  # parsed once per run: the tests only read it
def import_graph() -> dict[str, frozenset[str]]:
    """Edges between gamelib's modules: module -> the gamelib modules it imports.

    ``from gamelib.search.common import X`` is an edge to ``gamelib.search.common`` only,
    not to the package ``gamelib.search`` that Python also initialises on the way: a
    package's ``__init__`` importing its submodules is the normal shape, not a cycle.
    """
    return {name: frozenset(m for m in imported_names(name) if m in MODULES and m != name)
            for name in MODULES}


def find_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


# -- the graph tools work -------------------------------------------------------------------


def test_find_cycle_finds_a_cycle_and_only_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_imports_inside_functions_and_skips_type_checking() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import memo\n"
        "from .alphabeta import alphabeta\n"
        "if TYPE_CHECKING:\n"
        "    from gamelib.search.bounded import BoundCache\n"
        "def f():\n"
        "    import gamelib.search.engine\n"
        "    from ..games import tictactoe\n"
    )
    names = imported_names("gamelib.search.minimax", source)
    assert {"gamelib.search.memo", "gamelib.search.alphabeta", "gamelib.search.engine",
            "gamelib.games.tictactoe"} <= names
    assert "gamelib.search.bounded" not in names


# -- the rules --------------------------------------------------------------------------------


def test_no_import_cycle_inside_gamelib() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "gamelib modules import each other in a cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_600_lines(name: str) -> None:
    lines = line_count(MODULES[name])
    assert lines <= MAX_LINES, (
        f"{MODULES[name].relative_to(ROOT)} has {lines} lines: split it (at most {MAX_LINES})"
    )


def long_functions(path: Path, limit: int) -> list[str]:
    """The functions and methods of ``path`` over ``limit`` lines (decorators, signature,
    docstring and body), as ``"name (lines)"``."""
    return [f"{node.name} ({node.end_lineno - node.lineno + 1})"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > limit]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != SPEED_KERNEL))
def test_no_function_is_over_100_lines(name: str) -> None:
    long = long_functions(MODULES[name], MAX_FUNCTION_LINES)
    assert long == [], (f"{MODULES[name].relative_to(ROOT)}: {', '.join(long)} over "
                        f"{MAX_FUNCTION_LINES} lines: split by seam")


def test_the_long_function_rule_sees_the_kernel() -> None:
    """The rule is not blind: the kernel it exempts has functions over the limit."""
    assert long_functions(MODULES[SPEED_KERNEL], MAX_FUNCTION_LINES)
    assert "trace_search" in str(long_functions(MODULES["gamelib.search.trace"], 60))


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(NO_UI_LAYERS)))
def test_lower_layers_import_no_ui_library(name: str) -> None:
    """Not even inside a function: gamelib.ui is the only home of widgets and plots."""
    ui = sorted(m for m in imported_names(name) if m.split(".")[0] in UI_LIBRARIES)
    assert ui == [], f"{name} imports {ui}: move that code into gamelib.ui"
    reaches_ui = sorted(m for m in import_graph()[name] if m.startswith("gamelib.ui"))
    assert reaches_ui == [], f"{name} imports {reaches_ui}: a lower layer may not use gamelib.ui"


def test_the_ui_check_sees_a_ui_import() -> None:
    """Control: gamelib.ui does import a UI library, and the parser notices."""
    ui_modules = [n for n in MODULES if n.startswith("gamelib.ui")]
    assert any(m.split(".")[0] in UI_LIBRARIES for n in ui_modules for m in imported_names(n))


# -- layers by package -------------------------------------------------------------------------

LAYERS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("gamelib.errors", "gamelib.game", "gamelib.runtime"),),
    (("gamelib.games",),),
    (("gamelib.search",),),
    (("gamelib.connect4",),),
    (("gamelib.learn",),),
    (("gamelib.session",), ("gamelib.exercises",)),
    (("gamelib.ui", "gamelib.plots", "gamelib.style", "gamelib.alt_text"),),
    (("gamelib", "gamelib.connect_four"),),
)
"""gamelib's layers, bottom first: games < search < connect4 < session < ui. A layer is a
tuple of groups, a group a tuple of units (a package or a top-level module). A module may
import its own group and the layers below; groups that share a layer stand beside each
other and import nothing of one another (the exercises beside the session). The
top-level modules sit with their layer (game.py and errors.py at the bottom, plots.py,
style.py and alt_text.py with ui); ``gamelib`` itself and ``gamelib.connect_four`` (the
command line's entry point, ``python -m gamelib.connect_four``) are at the top."""


def unit_of(name: str) -> str:
    """The unit of LAYERS that module ``name`` belongs to (the longest that contains it)."""
    units = [u for layer in LAYERS for group in layer for u in group
             if name == u or name.startswith(u + ".")]
    return max(units, key=len)


def place_of(unit: str) -> tuple[int, int]:
    """(layer, group) of ``unit``."""
    return next((i, j) for i, layer in enumerate(LAYERS) for j, group in enumerate(layer)
                if unit in group)


def layer_violations(graph: Mapping[str, Set[str]]) -> list[str]:
    """Every import of ``graph`` that goes up a layer or sideways to another group."""
    found = []
    for name, targets in sorted(graph.items()):
        layer, group = place_of(unit_of(name))
        for target in sorted(targets):
            their_layer, their_group = place_of(unit_of(target))
            if their_layer > layer or (their_layer == layer and their_group != group):
                found.append(f"{name} imports {target}")
    return found


def test_every_module_has_a_place_in_the_layers() -> None:
    for name in MODULES:
        assert place_of(unit_of(name)) is not None, name


def test_each_package_imports_only_its_own_layer_and_those_below() -> None:
    violations = layer_violations(import_graph())
    assert violations == [], "imports against the layer order:\n" + "\n".join(violations)


def test_the_layer_check_sees_an_upward_and_a_sideways_import() -> None:
    """Control: search naming connect4, the session naming an exercise, games naming search;
    imports down the layers and inside a group pass."""
    graph = {
        "gamelib.search.engine": {"gamelib.connect4.player", "gamelib.search.common"},
        "gamelib.session.play": {"gamelib.exercises.run", "gamelib.connect4.player"},
        "gamelib.games.nim": {"gamelib.search.common", "gamelib.game"},
        "gamelib.style": {"gamelib.ui.canvas", "gamelib.plots", "gamelib.session"},
        "gamelib.game": {"gamelib.errors"},
    }
    assert layer_violations(graph) == [
        "gamelib.games.nim imports gamelib.search.common",
        "gamelib.search.engine imports gamelib.connect4.player",
        "gamelib.session.play imports gamelib.exercises.run",
    ]


def test_search_never_names_connect4() -> None:
    """Not even in an import inside a function: Connect Four's player is chosen above."""
    for name in (n for n in MODULES if n.startswith("gamelib.search")):
        assert not any(m.startswith("gamelib.connect4") for m in imported_names(name)), name
