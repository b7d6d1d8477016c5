"""The Old West battle stands on the battle layer and its rules (issue 27): its modules
import each other without a cycle (none hidden in a function or behind TYPE_CHECKING),
read no rulebook number but through a rule module, and build no verdict of their own
beyond the few options no rule governs."""

from __future__ import annotations

import ast
from pathlib import Path

import kubik.rulesets.old_west.battle as battle_package

PACKAGE = "kubik.rulesets.old_west.battle"
FOLDER = Path(battle_package.__file__).parent
#: Options no rule governs (staying put, holding fire, declining a heroic action): the
#: battle offers them with a plain allowing verdict until the engine has a neutral one.
NEUTRAL = {"moves.py": 1, "shots.py": 1, "heroes.py": 1}


def _modules() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text("utf-8")) for path in FOLDER.glob("*.py")}


def _imported(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            rest = node.module.removeprefix(PACKAGE).lstrip(".")
            found |= {rest.split(".")[0]} if rest else {a.name for a in node.names}
    return found


def test_the_battle_package_imports_without_a_cycle_and_only_at_the_top() -> None:
    graph: dict[str, set[str]] = {}
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.If):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{name}: an import inside a function or an if"
        graph[name.removesuffix(".py")] = _imported(tree)
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_battle_reads_rulebook_numbers_only_through_rule_modules() -> None:
    for name, tree in _modules().items():
        calls = [
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        ]
        for reader in ("data", "number", "load_ruleset_data"):
            assert reader not in calls, f"{name} reads the data itself ({reader}())"


def test_the_battle_builds_no_verdict_beyond_the_options_no_rule_governs() -> None:
    for name, tree in _modules().items():
        built = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "Verdict"
            and node.func.attr in {"allow", "forbid", "need", "of"}
        ]
        direct = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Verdict"
        ]
        assert not direct, name
        assert len(built) == NEUTRAL.get(name, 0), name
        for node in built:  # each of those allows, naming no rule
            assert isinstance(node.func, ast.Attribute) and node.func.attr == "allow"
            assert not node.args, name
