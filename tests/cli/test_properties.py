"""Property tests: any input a user can give either works or is the one-line error.

Hypothesis mutates every procedure's examples (wrong types, ``true`` for numbers,
numbers out of range, unknown and missing fields, deep nesting, NaN) and throws
random command lines at the ``kubik`` entry point. Nothing may end in a traceback,
an "internal error" or a hang.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubik import api
from kubik.core.errors import KubikError
from tests.bots.cli_harness import install_toys, run_kubik
from tests.game.toy import TOY_ID

SPECS = {spec["name"]: spec for spec in api.procedures()}
NAMES = sorted(SPECS)

NASTY: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=40),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "d4", "d6", "d8", "d12", "d20", "к8", "3", "a", "b", "none", "hard"]),
    st.text(max_size=6),
    st.lists(st.integers(min_value=-2, max_value=12), max_size=3),
    st.dictionaries(st.sampled_from(["fight", "attacks", "x"]), st.integers(0, 12), max_size=2),
    st.recursive(st.integers(0, 3), lambda inner: st.lists(inner, max_size=2), max_leaves=40),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside a JSON value that a mutation can hit."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _mutate(data: Any, path: tuple[Any, ...], how: str, new: Any) -> Any:
    if not path:
        return new if how == "replace" else data
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        copy = dict(data)
        if not rest and how == "delete":
            copy.pop(head, None)
        elif not rest and how == "add":
            copy[f"{head}_unknown"] = new
        else:
            copy[head] = _mutate(data[head], rest, how, new)
        return copy
    if isinstance(data, list):
        copy_list = list(data)
        if not rest and how == "delete":
            del copy_list[head]
        elif not rest and how == "add":
            copy_list.append(new)
        else:
            copy_list[head] = _mutate(data[head], rest, how, new)
        return copy_list
    return data


@st.composite
def procedure_inputs(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(NAMES))
    examples = SPECS[name]["examples"] or [{}]
    data: Any = draw(st.sampled_from(examples))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = list(_paths(data))
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        data = _mutate(data, path, how, draw(NASTY))
    return name, data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(procedure_inputs())
def test_any_procedure_input_works_or_is_an_input_error(case: tuple[str, Any]) -> None:
    name, data = case
    text = json.dumps(data, allow_nan=True)
    for given_input in (data, text):
        try:
            result = api.resolve(name, given_input, seed=1)
        except KubikError as error:
            assert str(error) and "\n" not in str(error)
            continue
        assert result["procedure"] == name
    try:
        odds = api.odds(name, data)
    except KubikError:
        return
    assert odds["exact"] is True and odds["outcomes"]


TOKENS = [
    "procedures",
    "resolve",
    "odds",
    "scenarios",
    "play",
    "load",
    "replay",
    "saves",
    "--json",
    "--lang",
    "ru",
    "en",
    "fr",
    "--seed",
    "-1",
    "7",
    "x",
    "--simulate",
    "0",
    "50",
    "--input",
    "-i",
    '{"strength": 3, "toughness": 8}',
    '{"strength": true}',
    "{",
    "[]",
    "@/dev/null",
    "@/",
    "@examples/strike.json",
    "--dice",
    "6,4",
    "9",
    "six",
    "--policy",
    "",
    "just_enough",
    "--compare",
    "--side",
    "steel=human",
    "steel=random",
    "lianra=default",
    "=",
    "--save",
    "g",
    "bad name",
    "--table",
    "--quiet",
    "--step",
    "--delete",
    "--rename",
    "--version",
    "-h",
    "old_west.wound",
    "steel_war.morale_test",
    "toy_duel.demo",
    "nope.nope",
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("home")
    install_toys(path)
    yield path
    from kubik.game import unregister_ruleset

    unregister_ruleset(TOY_ID)
    unregister_ruleset("toy_forecast")


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=7))
def test_any_command_line_works_or_is_one_line(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    monkeypatch.setenv("KUBIK_HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    if argv[:1] == ["play"] and "toy_duel.demo" not in argv:
        argv = [*argv[:1], "toy_duel.demo", *argv[1:]]  # a toy battle: fast
    done = run_kubik(capsys, monkeypatch, *argv, stdin="quit\n")
    assert "Traceback" not in done.err and "internal error" not in done.err, (argv, done.err)
    assert done.code in {0, 1, 2}, (argv, done.code, done.err)
    if done.code == 2:
        lines = done.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(("error: ", "ошибка: ")), (argv, done.err)
