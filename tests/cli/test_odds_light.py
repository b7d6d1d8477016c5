"""The light way into ``kubik odds`` says exactly what the typer command says.

The ``kubik`` console script reads a plain ``kubik odds`` command line without typer
(:func:`kubik.cli.launch.run`); every command line here is run both ways, the light
way and the typer way (:func:`kubik.cli.app.main`), and their stdout, stderr and exit
code must be the same byte for byte: answers in JSON and for people, English and
Russian, every option, and errors (bad input, unknown names, bad values). Command
lines the light reader is not sure of must go to typer.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kubik.cli import app as cli
from kubik.cli import launch
from kubik.cli import odds as cli_odds
from kubik.cli.odds import ODDS_PARAMETERS, plain_odds

FIGHT = '{"a": [{"fight": 3, "attacks": 1}, {"fight": 3, "attacks": 1}], "b": [{"fight": 4, "attacks": 2, "fame": 2}], "advantage": "b"}'  # noqa: E501
FAME_STRIKE = '{"strength": 3, "toughness": 8, "fame": 3}'
MORALE = '{"quality": "d8", "leadership": 2, "threat": 6}'
FIRE = (
    '{"quality": "d8", "weapons": [{"weapon": "lmg", "count": 2}], "distance": 10, '
    '"target_models": 4}'
)

#: Command lines the light reader answers itself.
PLAIN: list[list[str]] = [
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--json"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--lang", "ru"],
    ["odds", "old_west.wound", "--lang=ru", "--input", FAME_STRIKE, "--json"],
    ["odds", "--input=" + FAME_STRIKE, "old_west.wound", "--policy", "just_enough"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--policy", "optimal", "--json"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--compare"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--compare", "--json", "--lang", "ru"],
    ["odds", "old_west.fight", "-i", FIGHT, "--policy", "optimal", "--explain"],
    ["odds", "old_west.fight", "-i", FIGHT, "--explain", "--lang", "ru"],
    ["odds", "old_west.fight", "-i", FIGHT, "--explain", "--json"],
    ["odds", "old_west.fight", "-i", FIGHT, "--objective", "a=winner=a", "--json"],
    ["odds", "old_west.fight", "-i", FIGHT, "--objective", "a=winner=a", "--objective", "b=x"],
    ["odds", "old_west.fight", "-i", FIGHT, "--objective", "nonsense"],
    ["odds", "steel_war.fire", "-i", FIRE, "--observed", '{"killed": 1}'],
    ["odds", "steel_war.fire", "-i", FIRE, "--observed", '{"killed": 1}', "--json"],
    ["odds", "steel_war.fire", "-i", FIRE, "--observed", "{bad", "--lang", "ru"],
    ["odds", "steel_war.fire", "-i", FIRE, "--observed", "[1]"],
    ["odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "300", "--seed", "7"],
    ["odds", "steel_war.morale_test", "-i", MORALE, "--simulate=300", "--seed=7", "--json"],
    ["odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "0"],
    ["odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "9", "--compare"],
    ["odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "99999999999", "--json"],
    ["odds", "steel_war.morale_test", "-i", "{bad", "--lang", "ru"],
    ["odds", "steel_war.morale_test", "-i", "[1]"],
    ["odds", "steel_war.morale_test", "-i", '{"quality": "d9", "leadership": 2, "threat": 1}'],
    ["odds", "steel_war.morale_test", "-i", MORALE[:-1] + ', "mood": 1}', "--json"],
    ["odds", "steel_war.morale_test", "-i", "@/no/such/file.json"],
    ["odds", "steel_war.morale_tst", "-i", MORALE],
    ["odds", "nope.x", "-i", "{}", "--lang", "ru"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--policy", "greedy"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--explain", "--policy", "default"],
    ["odds", "", "-i", "{}"],
]

#: Command lines it leaves to typer: help, usage errors, values typer reads its own way.
TO_TYPER: list[list[str]] = [
    ["odds", "--help"],
    ["odds", "old_west.wound", "-h"],
    ["odds", "old_west.wound"],
    ["odds", "-i", FAME_STRIKE],
    ["odds", "old_west.wound", "old_west.fight", "-i", FAME_STRIKE],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--simulate", "many"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--simulate", "-5"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--seed", " 5"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--lang", "fr"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--lang", "RU"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--colour"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--json=yes"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "--json", "--json"],
    ["odds", "old_west.wound", "-i", FAME_STRIKE, "-i", FAME_STRIKE],
    ["odds", "old_west.wound", "-i" + FAME_STRIKE],
    ["odds", "old_west.wound", "--input"],
    ["odds", "old_west.wound", "--input", "--json"],
    ["odds", "--", "old_west.wound", "-i", FAME_STRIKE],
    ["--lang", "ru", "odds", "old_west.wound", "-i", FAME_STRIKE],
    ["odd", "old_west.wound", "-i", FAME_STRIKE],
    [],
]


def _run(main: object, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str, int]:
    assert callable(main)
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return out, err, code


@pytest.mark.parametrize("args", PLAIN, ids=lambda a: " ".join(a)[:60])
def test_the_light_way_answers_a_plain_odds_command_as_typer_does(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert plain_odds(args) is not None, "the light reader should answer this itself"
    light = _run(launch.run, args, capsys)
    full = _run(cli.main, args, capsys)
    assert light == full
    assert light[0] or light[1]  # it said something


@pytest.mark.parametrize("args", TO_TYPER, ids=lambda a: " ".join(a)[:60])
def test_a_command_line_the_light_reader_is_not_sure_of_goes_to_typer(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert plain_odds(args) is None
    assert _run(launch.run, args, capsys) == _run(cli.main, args, capsys)


def test_the_typer_command_is_made_from_the_one_table() -> None:
    """Every row of the table is a parameter of typer's ``odds``, in order, with its
    flags, metavar, help and default; and nothing else is."""
    import typer.main

    group = typer.main.get_command(cli.app)
    command = group.commands["odds"]  # type: ignore[attr-defined]
    params = [p for p in command.params if p.name != "help"]
    assert [p.name for p in params] == [row.name for row in ODDS_PARAMETERS]
    for param, row in zip(params, ODDS_PARAMETERS, strict=True):
        assert tuple(o for o in param.opts if o.startswith("-")) == row.flags
        assert param.metavar == row.metavar
        assert getattr(param, "help", row.help) == row.help
        assert param.required == (row.default is cli_odds.REQUIRED)


def test_a_plain_odds_question_in_json_loads_no_typer_rich_numpy_babel_or_game() -> None:
    """What makes the light way light (the modules, not a time: bench/ measures that)."""
    script = (
        "import sys; from kubik.cli.launch import run; "
        f"run(['odds', 'old_west.wound', '-i', {FAME_STRIKE!r}, '--json']); "
        "heavy = ('typer', 'click', 'rich', 'numpy', 'babel', 'kubik.game', 'kubik.sim', "
        "'kubik.bots', 'kubik.table', 'kubik.text.i18n'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or "
        "m.startswith(heavy[5:])), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout)["procedure"] == "old_west.wound"
    assert done.stderr.strip() == "[]"


def test_a_first_fire_question_loads_its_procedure_alone(tmp_path: Path) -> None:
    """A first ``kubik odds steel_war.fire ... --json`` (an empty cache of answers) imports
    the module registering fire and the rules it uses, no other procedure's module, no
    other ruleset, no goals for the optimal policy and no driver but the odds."""
    script = (
        "import sys; from kubik.cli.launch import main; "
        f"main(['odds', 'steel_war.fire', '-i', {FIRE!r}, '--json']); "
        "print(sorted(m for m in sys.modules if m.startswith('kubik.')), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "KUBIK_HOME": str(tmp_path), "KUBIK_ANSWER_CACHE": "on"},
    )
    assert json.loads(done.stdout)["procedure"] == "steel_war.fire"
    loaded = set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))
    procedures = {m for m in loaded if ".procedures." in m}
    assert procedures == {"kubik.rulesets.steel_war.procedures.fire"}
    shared = {"data", "registry"}  # kubik.rulesets' own modules, not rulesets
    rulesets = {m.split(".")[2] for m in loaded if m.startswith("kubik.rulesets.")} - shared
    assert rulesets == {"steel_war"}
    not_needed = {
        "kubik.rulesets.steel_war.objectives",
        "kubik.engine.objectives",
        "kubik.engine.optimal",
        "kubik.engine.expectimax",
        "kubik.engine.explain",
        "kubik.engine.simulate",
        "kubik.engine.run",
    }
    assert loaded & not_needed == set()
