"""The engine's, game layer's and console's Russian catalogues put names in the case their
preposition governs and make verbs agree (the checks of tests/russian_lint.py).

The rulesets' catalogues are checked by the same helper (``python -m tests.russian_lint
FILE.po``); their authors fix what it finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubik.engine.requests import msg
from kubik.text.i18n import LOCALE, name_msg
from tests.russian_lint import (
    DEFAULT_NAMES,
    agreement_problems,
    case_problems,
    catalogue_problems,
    names_in_messages,
)

OURS = ("game.po", "console.po", "kubik.po")


def _ru(file: str) -> Path:
    return LOCALE / "ru" / "LC_MESSAGES" / file


@pytest.mark.parametrize("file", OURS)
def test_our_catalogues_decline_every_name_and_agree(file: str) -> None:
    assert catalogue_problems(_ru(file), DEFAULT_NAMES) == []


@pytest.mark.parametrize(
    ("template", "fix"),
    [
        ("{shooter} ведёт огонь по {target}", "{target:dat}"),
        ("атака против {defender}", "{defender:gen}"),
        ("погрузка в «{vehicle}»", "{vehicle:acc}"),
        ("схватка с {unit}", "{unit:ins}"),
        ("выгружается из {vehicle}", "{vehicle:gen}"),
    ],
)
def test_a_name_after_a_preposition_needs_a_case(template: str, fix: str) -> None:
    (problem,) = case_problems("x", template, DEFAULT_NAMES)
    assert fix in problem.text


def test_a_name_in_its_case_or_a_number_after_a_preposition_is_fine() -> None:
    assert case_problems("x", 'огонь по {target:dat} в {distance}"', DEFAULT_NAMES) == []
    assert case_problems("x", "огонь по цели {target}", DEFAULT_NAMES) == []


def test_a_subject_needs_its_verb_to_agree() -> None:
    (problem,) = agreement_problems("x", "Рукопашная окончена: {winner} устояло", DEFAULT_NAMES)
    assert problem.param == "winner" and "agree" in problem.text
    assert agreement_problems("x", "{squad} не прошло тест", DEFAULT_NAMES)
    agreed = "{squad} {squad:agree:m=залёг|f=залегла|n=залегло|pl=залегли}"
    assert agreement_problems("x", agreed, DEFAULT_NAMES) == []
    assert agreement_problems("x", "у стороны {side} не осталось", DEFAULT_NAMES) == []
    assert agreement_problems("x", "{squad} движется", DEFAULT_NAMES) == []


def test_the_name_parameters_of_played_messages_are_found_nested() -> None:
    squad = name_msg("Squad", "Отделение")
    label = msg("outer", reason=msg("inner", target=squad, n=3), side=[squad, squad], id="s1")
    assert names_in_messages([label]) == {"outer": {"side"}, "inner": {"target"}}
