"""Property tests of the game layer's loaders: a scenario file and a saved game.

Hypothesis mutates the built-in scenarios and a real save (wrong types, values out
of range, fields deleted or added, garbage text, corrupt rows). Loading either works
— and the game then starts — or ends with a one-line :class:`KubikError` naming the
file, field or save; never another exception.
"""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubik.core.errors import KubikError
from kubik.game import GameSession, GameStore, parse_scenario, register_ruleset
from tests.cli.test_properties import _mutate, _paths
from tests.game.toy import GAME, SCENARIO

_STORES = itertools.count()

BUILT_IN = {
    "toy": SCENARIO,
    **{
        f"{ruleset}.{name}": (
            resources.files("kubik") / "rulesets" / ruleset / "scenarios" / f"{name}.toml"
        ).read_text(encoding="utf-8")
        for ruleset, name in (("steel_war", "demo"), ("old_west", "demo"))
    },
}

LEAVES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=60),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "steel", "lianra", "law", "outlaws", "human", "bot", "d8", "rifle", "x"]),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-5, max_value=60), max_size=4),
    st.lists(st.lists(st.floats(min_value=-10, max_value=60), max_size=3), max_size=4),
    st.dictionaries(st.sampled_from(["id", "side", "x", "weapon"]), st.integers(0, 9), max_size=2),
)


def toml_value(value: Any) -> str:
    """A value as inline TOML (``None`` has no TOML form: callers leave it out)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        items = [
            f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items() if v is not None
        ]
        return "{" + ", ".join(items) + "}"
    return json.dumps(str(value))


def toml_text(data: dict[str, Any]) -> str:
    return "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items() if v is not None)


@st.composite
def scenario_texts(draw: st.DrawFn) -> str:
    text = BUILT_IN[draw(st.sampled_from(sorted(BUILT_IN)))]
    if draw(st.integers(0, 4)) == 0:  # text-level damage: a line cut, doubled or garbled
        lines = text.splitlines()
        index = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["cut", "double", "garble"]))
        if how == "cut":
            del lines[index]
        elif how == "double":
            lines.insert(index, lines[index])
        else:
            lines[index] = draw(st.text(max_size=20))
        return "\n".join(lines)
    data: Any = tomllib.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(data))[1:]))
        how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        data = _mutate(data, path, how, draw(LEAVES))
    return toml_text(data)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scenario_texts())
def test_any_scenario_loads_and_starts_or_is_one_line(text: str) -> None:
    try:
        scenario = parse_scenario(text, "mutated.toml")
        session = GameSession(
            scenario, 1, controllers={side: "human" for side in scenario.side_ids}
        )
    except KubikError as error:
        message = str(error)
        assert message.startswith("mutated.toml") or "mutated" not in message
        assert "\n" not in message
        return
    assert session.pending is not None or session.finished


@pytest.fixture(scope="module")
def a_save(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Any], list[str]]]:
    register_ruleset(GAME, replace=True)
    scenario = parse_scenario(SCENARIO)
    session = GameSession(scenario, 9, controllers={"steel": "bot", "lianra": "bot"})
    session.advance()
    record = session.record.to_json()
    answers = [json.dumps(a) for a in record.pop("answers")]
    yield record, answers


@st.composite
def damaged_saves(draw: st.DrawFn, save: tuple[dict[str, Any], list[str]]) -> tuple[str, list[str]]:
    header, answers = save
    data: Any = dict(header)
    rows = list(answers)
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["header", "row", "row", "text"]))
        if target == "header":
            path = draw(st.sampled_from(list(_paths(data))[1:]))
            how = draw(st.sampled_from(["replace", "delete", "add"]))
            data = _mutate(data, path, how, draw(LEAVES))
        elif target == "row" and rows:
            index = draw(st.integers(0, len(rows) - 1))
            try:
                row: Any = json.loads(rows[index])
            except ValueError:
                continue  # garbled already
            path = draw(st.sampled_from(list(_paths(row))))
            row = _mutate(
                row, path, draw(st.sampled_from(["replace", "delete", "add"])), draw(LEAVES)
            )
            rows[index] = json.dumps(row, allow_nan=True)
        elif rows:
            rows[draw(st.integers(0, len(rows) - 1))] = draw(st.text(max_size=12))
    return json.dumps(data, allow_nan=True), rows


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_any_damaged_save_loads_or_is_one_line_naming_it(
    tmp_path: Path, a_save: tuple[dict[str, Any], list[str]], data: st.DataObject
) -> None:
    header, rows = data.draw(damaged_saves(a_save))
    path = tmp_path / f"{next(_STORES)}.sqlite3"
    with GameStore(path) as store:
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO games (name, header) VALUES ('g', ?)", (header,))
            db.executemany(
                "INSERT INTO answers (game, idx, answer) VALUES ('g', ?, ?)", list(enumerate(rows))
            )
        listed = store.list(progress=True)
        assert [game.name for game in listed] == ["g"]
        try:
            record = store.load("g")
            session = GameSession.from_record(record)
        except KubikError as error:
            assert "\n" not in str(error)
            assert listed[0].error is not None
            return
        assert len(session.answers) == len(record.answers)
        assert listed[0].error is None
