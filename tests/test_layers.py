"""kubik's import graph has no cycles, and its layers hold (pyproject's import-linter
contracts).

The graph is every ``import`` statement of every module of kubik, those inside functions
too (grimp reads them all), less those under ``if TYPE_CHECKING:`` (they never run). A
cycle, even one held together by an import inside a function, means two modules that
cannot be understood, tested or moved one without the other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import grimp
import pytest

import kubik.rulesets.registry

ROOT = Path(__file__).resolve().parents[1]

#: Battle packages being rebuilt on the board of kubik.game.battle: their modules may
#: still import each other in a cycle (each entry goes once its battle is rebuilt).
CYCLES_ALLOWED_IN = (
    "kubik.rulesets.apocalypse.battle",
    "kubik.rulesets.fantasy.battle",
    "kubik.rulesets.steel_war.battle",
)


def strongly_connected(graph: grimp.ImportGraph) -> Iterator[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's
    algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    work: list[tuple[str, Iterator[str]]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        work.append((module, iter(sorted(graph.find_modules_directly_imported_by(module)))))

    for start in sorted(graph.modules):
        if start in index:
            continue
        visit(start)
        while work:
            module, following = work[-1]
            for other in following:
                if other not in index:
                    visit(other)
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        yield sorted(component)


def _within(modules: Iterable[str], package: str) -> bool:
    return all(m == package or m.startswith(package + ".") for m in modules)


def allowed(component: list[str]) -> bool:
    """A cycle wholly inside one battle package still being rebuilt."""
    return any(_within(component, package) for package in CYCLES_ALLOWED_IN)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("kubik", exclude_type_checking_imports=True, cache_dir=None)


def test_no_two_modules_of_kubik_import_each_other(graph: grimp.ImportGraph) -> None:
    cycles = [c for c in strongly_connected(graph) if not allowed(c)]
    assert cycles == [], "import cycles (imports inside functions count):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_an_import_inside_a_function_makes_a_cycle_and_one_for_types_only_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cyclic_toy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("from cyclic_toy import two\n")
    (package / "two.py").write_text("def late() -> None:\n    from cyclic_toy import one\n")
    (package / "three.py").write_text(
        "from typing import TYPE_CHECKING\nfrom cyclic_toy import one\n"
        "if TYPE_CHECKING:\n    from cyclic_toy import four\n"
    )
    (package / "four.py").write_text("from cyclic_toy import three\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    toy = grimp.build_graph("cyclic_toy", exclude_type_checking_imports=True, cache_dir=None)
    assert list(strongly_connected(toy)) == [["cyclic_toy.one", "cyclic_toy.two"]]
    assert not allowed(["kubik.engine.odds", "kubik.rulesets.steel_war.battle.game"])
    for package in CYCLES_ALLOWED_IN:
        assert allowed([f"{package}.game", f"{package}.moves"])


def test_the_layers_hold() -> None:
    """pyproject.toml's import-linter contracts: the layers, bottom to top, and rule modules
    that see neither the game layer nor the table."""
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_ruleset_registry_needs_only_the_standard_library() -> None:
    """It is the lowest layer: text, data, the engine and the game all ask it."""
    source = Path(str(kubik.rulesets.registry.__file__)).read_text(encoding="utf-8")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    assert imported, "the scan found no import at all"
    assert imported - {"__future__"} <= sys.stdlib_module_names
