"""Requests name the rules they apply, Choose carries labels, and Call/Forecast are typed.

The log carries each roll's, decision's and event's rule IDs into its JSON form
(``"rules": [...]``), which is what ``kubik coverage`` counts. A ``Call`` whose
arguments do not fit the called procedure's signature fails mypy, not a battle.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api

from kubik.core.errors import ProcedureError
from kubik.engine import Call, Choose, Emit, Procedure, Roll, emit, msg, play
from kubik.engine.dice import D6
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.narration import entry_json


def _hit(need: int) -> Procedure[bool]:
    (value,) = yield Roll(D6, "to hit", rules=("SW-FIRE-01",))
    yield emit("kubik.test.plural", rules="SW-FIRE-06", n=value)
    return value >= need


def _volley() -> Procedure[int]:
    hits = 0
    for _ in range(2):
        hits += bool((yield Call(_hit, (4,))))
    pick = yield Choose(
        ("a", "b"), "s", "which?", labels=(msg("x.a"), msg("x.b")), rules="OW-CC-02"
    )
    assert pick in ("a", "b")
    return hits


def test_rule_ids_reach_the_log_and_its_json() -> None:
    result = play(_volley, (), random.Random(3))
    rolls = [e for e in result.log if isinstance(e, RollEntry)]
    events = [e for e in result.log if isinstance(e, EventEntry)]
    choices = [e for e in result.log if isinstance(e, ChoiceEntry)]
    assert [r.rules for r in rolls] == [("SW-FIRE-01",), ("SW-FIRE-01",)]
    assert {e.rules for e in events} == {("SW-FIRE-06",)}
    assert choices[0].rules == ("OW-CC-02",) and choices[0].label == msg("x.a")
    assert entry_json(rolls[0])["rules"] == ["SW-FIRE-01"]
    assert entry_json(events[0])["rules"] == ["SW-FIRE-06"]
    assert entry_json(choices[0])["rules"] == ["OW-CC-02"]


def test_rule_ids_are_checked() -> None:
    with pytest.raises(ProcedureError, match="not a rule ID"):
        Roll(D6, "x", rules=("fire",))
    with pytest.raises(ProcedureError, match="not a rule ID"):
        Emit(msg("x"), ("SW",))
    assert emit("x", rules="SW-SUP-02").rules == ("SW-SUP-02",)


def test_choose_labels_one_per_option() -> None:
    request = Choose((1, 2), "s", "r", labels=(msg("one"), msg("two")))
    assert request.label(2) == msg("two")
    with pytest.raises(ProcedureError, match="2 options but 1 labels"):
        Choose((1, 2), "s", "r", labels=(msg("one"),))
    assert Choose((1,), "s", "r").label(1) is None


def test_a_call_with_arguments_that_do_not_fit_fails_mypy(tmp_path: Path) -> None:
    source = tmp_path / "mistyped.py"
    source.write_text(
        textwrap.dedent(
            """
            from kubik.engine.dice import D6
            from kubik.engine import Call, Forecast, Procedure, Roll

            def wound(strength: int, side: str = "a") -> Procedure[bool]:
                (v,) = yield Roll(D6, "wound")
                return bool(v > strength)

            def fight() -> Procedure[bool]:
                ok = yield Call(wound, (3, "a"))
                swapped = yield Call(wound, ("a", 3))
                forecast = Forecast(wound, (3,), value=int)
                bad = Forecast(wound, ("3",), value=int)
                return bool(ok and swapped and forecast and bad)
            """
        )
    )
    out, _, status = mypy_api.run(
        ["--strict", "--no-incremental", "--follow-imports=silent", str(source)]
    )
    assert status == 1
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 2, out
    assert ":11:" in errors[0] and ":13:" in errors[1]
