"""Only rule modules decide rules: battle code asks them, it does not answer for them.

A verdict that allows or refuses an option comes from the rule module's permission
function; battle code (``kubik/game/**``, each ruleset's ``battle/**`` and
``turns.py``) builds none itself — :meth:`Verdict.combine` of the rules' verdicts and
:meth:`Verdict.neutral` for an option no rule governs are fine. Every rulebook number
a battle reads is read through its rule module, never straight from the ruleset's
data (the battle's own ``game_*`` tables and the bots' ``bot`` tastes are not
rulebook numbers).

Today's offenders are listed per file with how many each has; a list that only
shrinks: the test fails on a new one, and on a file that needs fewer than listed
(lower or drop its entry as its ruleset is fixed).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import kubik
from kubik.engine.applied import NOT_RULES

SRC = Path(kubik.__file__).parent
RULESETS = SRC / "rulesets"

#: Battle code building a verdict of its own, per file (path under ``src/kubik``).
VERDICTS_BUILT: dict[str, int] = {
    "rulesets/apocalypse/battle/actions.py": 16,
    "rulesets/apocalypse/battle/fights.py": 5,
    "rulesets/apocalypse/battle/moving.py": 3,
    "rulesets/apocalypse/battle/psyche.py": 1,
    "rulesets/apocalypse/battle/shots.py": 4,
    "rulesets/apocalypse/battle/songs.py": 2,
    "rulesets/fantasy/battle/charges.py": 2,
    "rulesets/fantasy/battle/deploy.py": 2,
    "rulesets/fantasy/battle/game.py": 1,
    "rulesets/fantasy/battle/shots.py": 2,
    "rulesets/steel_war/battle/assault.py": 1,
    "rulesets/steel_war/battle/game.py": 1,
    "rulesets/steel_war/battle/menu.py": 1,
}

#: Battle code reading rulebook numbers straight from the data, per file.
NUMBERS_READ: dict[str, int] = {
    "rulesets/apocalypse/battle/actions.py": 6,
    "rulesets/apocalypse/battle/fights.py": 3,
    "rulesets/apocalypse/battle/game.py": 3,
    "rulesets/apocalypse/battle/moving.py": 1,
    "rulesets/apocalypse/battle/psyche.py": 2,
    "rulesets/apocalypse/battle/shots.py": 1,
    "rulesets/apocalypse/battle/songs.py": 2,
    "rulesets/apocalypse/battle/warriors.py": 3,
    "rulesets/fantasy/battle/deploy.py": 1,
    "rulesets/fantasy/battle/formation.py": 1,
    "rulesets/fantasy/battle/game.py": 1,
    "rulesets/fantasy/battle/shots.py": 2,
    "rulesets/steel_war/battle/carry.py": 1,
    "rulesets/steel_war/battle/psionics.py": 1,
}

#: What builds a verdict (``Verdict(...)`` itself too); ``combine`` and ``neutral`` do not.
BUILDERS = frozenset({"allow", "forbid", "need", "of"})
#: A ruleset's readers of its whole data (not of one rule's number).
DATA_READERS = frozenset({"data", "number", "decimal", "psi_data", "_data"})
LOADER = "load_ruleset_data"
#: Tables of the data that are no rulebook numbers: the battle's own and the bots' tastes.
OWN_TABLES = ("game_", "bot")


def battle_files() -> Iterator[Path]:
    """Every module of battle code: the game layer, each ruleset's battle and turns."""
    yield from sorted((SRC / "game").rglob("*.py"))
    for ruleset in sorted(p for p in RULESETS.iterdir() if (p / "__init__.py").exists()):
        yield from sorted((ruleset / "battle").rglob("*.py"))
        if (ruleset / "turns.py").exists():
            yield ruleset / "turns.py"


def _name(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def verdicts_built(tree: ast.AST) -> list[int]:
    """Lines where ``Verdict.allow/forbid/need/of(...)`` or ``Verdict(...)`` is called."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        if (isinstance(fn, ast.Name) and fn.id == "Verdict") or (
            isinstance(fn, ast.Attribute)
            and fn.attr in BUILDERS
            and isinstance(fn.value, ast.Name)
            and fn.value.id == "Verdict"
        ):
            found.append(node.lineno)
    return sorted(found)


def _is_rule_module(module: str) -> bool:
    parts = module.split(".")
    return parts[:2] == ["kubik", "rulesets"] and len(parts) >= 4 and parts[3] not in NOT_RULES


def _readers(tree: ast.Module, own: set[str]) -> set[str]:
    """Names this module calls to read the data whole: the loader, the rule modules'
    data readers it imports, and the battle's own readers (``own``: functions of battle
    code that return the loader's answer, wherever they are defined)."""
    names = {LOADER, *own}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _is_rule_module(node.module):
            names.update(a.asname or a.name for a in node.names if a.name in DATA_READERS)
    return names


def _returns_loader(fn: ast.FunctionDef) -> bool:
    body = [s for s in fn.body if not isinstance(s, ast.Expr)]  # (its docstring aside)
    return (
        len(body) == 1
        and isinstance(body[0], ast.Return)
        and isinstance(body[0].value, ast.Call)
        and isinstance(body[0].value.func, ast.Name)
        and body[0].value.func.id == LOADER
    )


def numbers_read(tree: ast.Module, readers: set[str]) -> list[int]:
    """Lines where battle code reads the data whole, but for a table of its own."""
    own: set[int] = set()  # calls whose table is named right there and is the battle's
    exempt: set[int] = set()  # a battle's own reader returning the loader's answer
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _returns_loader(node):
            exempt.add(id(node.body[-1].value))  # type: ignore[attr-defined]
        key: ast.expr | None = None
        inner: ast.expr | None = None
        if isinstance(node, ast.Subscript):
            inner, key = node.value, node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
        ):
            inner, key = node.func.value, node.args[0]
        if (
            isinstance(inner, ast.Call)
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.startswith(OWN_TABLES)
        ):
            own.add(id(inner))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and _called(node) in readers
            and id(node) not in own
            and id(node) not in exempt
        ):
            found.append(node.lineno)
    return sorted(found)


def _called(call: ast.Call) -> str | None:
    fn = call.func
    if isinstance(fn, ast.Name):
        return fn.id
    if isinstance(fn, ast.Attribute) and fn.attr in DATA_READERS | {LOADER}:
        return fn.attr
    return None


def offenders() -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Per battle file, the lines that build verdicts and those that read numbers."""
    verdicts: dict[str, list[int]] = {}
    numbers: dict[str, list[int]] = {}
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in battle_files()
    }
    own = {
        node.name
        for tree in trees.values()
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and _returns_loader(node)
    }
    for path, tree in trees.items():
        if built := verdicts_built(tree):
            verdicts[_name(path)] = built
        if read := numbers_read(tree, _readers(tree, own)):
            numbers[_name(path)] = read
    return verdicts, numbers


def _check(found: dict[str, list[int]], allowed: dict[str, int], what: str) -> list[str]:
    problems = []
    for name, lines in sorted(found.items()):
        listed = allowed.get(name, 0)
        if len(lines) > listed:
            problems.append(
                f"{name}: {len(lines)} {what} (lines {lines}), {listed} allowed: ask the rule "
                "module instead"
            )
    for name, listed in sorted(allowed.items()):
        now = len(found.get(name, []))
        if now < listed:
            problems.append(f"{name}: {now} {what} now, {listed} listed: lower its entry to {now}")
    return problems


def test_battle_code_builds_no_verdict_of_its_own() -> None:
    verdicts, _ = offenders()
    assert _check(verdicts, VERDICTS_BUILT, "verdicts built") == []


def test_battle_code_reads_rulebook_numbers_only_through_rule_modules() -> None:
    _, numbers = offenders()
    assert _check(numbers, NUMBERS_READ, "numbers read from the data") == []


def test_the_guard_tells_asking_from_deciding() -> None:
    built = ast.parse(
        "a = Verdict.allow('X-01')\n"
        "b = Verdict.combine(may_move(u), Verdict.of(ok, msg('no'), 'X-02'))\n"
        "c = Verdict(Permission.ALLOWED)\n"
        "d = Verdict.neutral()\n"
        "e = Verdict.combine(may_move(u), may_shoot(u))\n"
    )
    assert verdicts_built(built) == [1, 2, 3]
    read = ast.parse(
        "from kubik.rulesets.toy.core import data, number\n"
        "from kubik.rulesets.toy.battle.board import game_data\n"
        "def own():\n"
        "    return load_ruleset_data('toy')\n"
        "a = data()['movement']['march']\n"
        "b = number('melee', 'charge')\n"
        "c = game_data()['game_moves']\n"
        "d = load_ruleset_data('toy').get('bot')\n"
        "e = game_data()['transport']\n"
        "f = march_block_inches()\n"
    )
    assert numbers_read(read, _readers(read, {"game_data", "own"})) == [5, 6, 9]
