"""Questions of odds asked in words (``kubik odds steel_war.fire quality=d6 ...``):
the words mean the JSON they stand for, a word that does not fit is one line in
English or Russian, a missing field is asked for in a terminal, and the shell
completes field names and values."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from kubik import api
from kubik.api.question_words import question_from_words, words_of
from kubik.cli import odds as odds_cli
from kubik.core.errors import InputError
from kubik.engine.registry import all_specs, get
from tests.cli.processes import kubik_process as kubik

FIRE_WORDS = ["quality=d6", "weapons=lmg,smg*4", "distance=10", "cover=light"]
FIRE_JSON = {
    "quality": "d6",
    "weapons": [{"weapon": "lmg", "count": 1}, {"weapon": "smg", "count": 4}],
    "distance": 10,
    "cover": "light",
}


def test_the_issues_fire_question_in_words_is_its_json() -> None:
    model = get("steel_war.fire").input_model
    assert question_from_words(model, FIRE_WORDS) == FIRE_JSON
    assert api.odds("steel_war.fire", question_from_words(model, FIRE_WORDS)) == api.odds(
        "steel_war.fire", FIRE_JSON
    )


def test_models_of_a_list_by_number_and_range_and_nested_fields_by_dots() -> None:
    model = get("old_west.fight").input_model
    words = ["a.1-3.fight=5", "a.1-3.attacks=3", "a.2.fame=3", "b.fight=4", "b.attacks=2"]
    assert question_from_words(model, words) == {
        "a": [
            {"fight": 5, "attacks": 3},
            {"fight": 5, "attacks": 3, "fame": 3},
            {"fight": 5, "attacks": 3},
        ],
        "b": [{"fight": 4, "attacks": 2}],
    }
    melee = get("apocalypse.melee").input_model
    assert question_from_words(melee, ["a.toughness=4", "a.shield=yes", "b.shield=нет"]) == {
        "a": {"toughness": 4, "shield": True},
        "b": {"shield": False},
    }


def test_every_example_of_every_procedure_reads_back_from_its_words() -> None:
    for spec in all_specs():
        for example in spec.examples:
            words = words_of(dict(example))
            asked = question_from_words(spec.input_model, words)
            expected = spec.input_model.model_validate(dict(example))
            assert spec.input_model.model_validate(asked) == expected, (spec.name, words)


@pytest.mark.parametrize(
    ("words", "english", "russian"),
    [
        (["range=10"], "range: no such field; the fields are quality, weapons,", "такого поля нет"),
        (["distance"], "'distance' is not FIELD=VALUE", "не ПОЛЕ=ЗНАЧЕНИЕ"),
        (["distance=far"], "distance: 'far' is not a number 0..200", "«far» — не число 0..200"),
        (["distance=500"], "distance: 500 is outside 0..200", "500 вне пределов 0..200"),
        (["prone=maybe"], "prone: 'maybe' is not yes or no", "не «да» и не «нет»"),
        (["weapons=lmg*0"], "repeat an item as ITEM*N", "повтор пишется как ЭЛЕМЕНТ*N"),
        (["distance=1", "distance=2"], "distance: given twice", "задано дважды"),
    ],
)
def test_a_word_that_does_not_fit_is_named_with_what_is_allowed(
    words: list[str], english: str, russian: str
) -> None:
    model = get("steel_war.fire").input_model
    with pytest.raises(InputError) as error:
        question_from_words(model, words)
    assert english in error.value.text("en")
    assert russian in error.value.text("ru")


def test_a_missing_field_off_a_terminal_is_named_with_its_allowed_values() -> None:
    done = kubik("odds", "steel_war.fire", "distance=10", "--lang", "ru")
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and "quality, weapons: обязательные поля" in line
    assert "quality: d4, d6, d8, d10, d12" in line


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_missing_field_in_a_terminal_is_asked_for_until_it_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = _Terminal()
    monkeypatch.setattr("sys.stderr", shown)
    monkeypatch.setattr("sys.stdin", _Terminal("tough\n12\n8\n"))
    assert odds_cli.question("old_west.wound", ["strength=4"], None, "en") == {
        "strength": 4,
        "toughness": 8,
    }
    said = shown.getvalue()
    assert "toughness — victim's Toughness" in said and "[1..10]" in said
    assert "'tough' is not a whole number 1..10" in said and "12 is outside 1..10" in said
    monkeypatch.setattr("sys.stdin", _Terminal("d7\nd8\n"))
    asked = odds_cli.question("steel_war.observe", ["target=d6"], None, "ru")
    assert asked == {"target": "d6", "observer": "d8"}
    assert "выберите одно из: d4, d6, d8, d10, d12" in shown.getvalue()


def test_words_and_input_together_are_refused() -> None:
    done = kubik("odds", "old_west.wound", "strength=3", "-i", '{"strength": 3, "toughness": 3}')
    assert done.returncode == 2
    assert "either as --input JSON or as FIELD=VALUE words" in done.stderr


def test_words_on_the_command_line_answer_as_the_json_does() -> None:
    words = kubik("odds", "steel_war.fire", *FIRE_WORDS, "--json")
    given = kubik("odds", "steel_war.fire", "-i", json.dumps(FIRE_JSON), "--json")
    assert words.returncode == 0, words.stderr
    assert json.loads(words.stdout) == json.loads(given.stdout)


def _context(**params: object) -> SimpleNamespace:
    return SimpleNamespace(params={"procedure": "steel_war.fire", "words": [], **params})


def test_the_shell_completes_field_names_and_their_values() -> None:
    assert odds_cli.complete_words(_context(), "dis") == ["distance="]
    assert "cover=light" in odds_cli.complete_words(_context(), "cover=")
    assert odds_cli.complete_words(_context(), "quality=d1") == ["quality=d10", "quality=d12"]
    listed = odds_cli.complete_words(_context(), "weapons=lmg,sm")
    assert listed == ["weapons=lmg,smg"]
    given = odds_cli.complete_words(_context(words=["quality=d6"]), "")
    assert "quality=" not in given and "weapons=" in given
    assert odds_cli.complete_words(_context(procedure="no.such"), "") == []
    fight = odds_cli.complete_words(_context(procedure="old_west.fight"), "a.1.f")
    assert fight == ["a.1.fight=", "a.1.fame="]
