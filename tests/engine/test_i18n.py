"""Text for people: catalogues, plural forms, glossary terms, both languages."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from kubik.engine import msg
from kubik.engine.dice import D8
from kubik.text.glossary import markdown
from kubik.text.i18n import catalogue, glossary, render


def test_plural_forms_follow_the_language() -> None:
    assert render(msg("kubik.test.plural", n=1), "en") == "1 hit"
    assert render(msg("kubik.test.plural", n=3), "en") == "3 hits"
    assert [render(msg("kubik.test.plural", n=n), "ru") for n in (1, 3, 5, 21, 11)] == [
        "1 попадание",
        "3 попадания",
        "5 попаданий",
        "21 попадание",
        "11 попаданий",
    ]


def test_dice_render_as_d_in_english_and_k_in_russian() -> None:
    message = msg(
        "steel_war.morale_test.result", die=D8, roll=6, leadership=2, threat=6, target=8, drop=1
    )
    assert "d8" in render(message, "en")
    assert "к8" in render(message, "ru")


def test_unknown_message_falls_back_to_its_id_and_parameters() -> None:
    assert render(msg("no.such.message", x=1), "ru") == "no.such.message(x=1)"


def test_enum_parameters_with_a_msgid_are_translated() -> None:
    class Answer(Enum):
        YES = "yes"

        @property
        def msgid(self) -> str:
            return "kubik.bool.true"

    assert render(msg("kubik.test.enum", a=Answer.YES), "ru") == "kubik.test.enum(a=Answer.YES)"
    assert render(
        msg("kubik.log.choice", side="a", answer=Answer.YES, reason="r"), "ru"
    ).startswith("a выбирает: да")


def test_every_catalogue_message_exists_in_both_languages() -> None:
    en, ru = set(catalogue("en")), set(catalogue("ru"))
    assert en - ru == set(), f"missing in Russian: {sorted(en - ru)}"
    assert ru - en == set(), f"missing in English: {sorted(ru - en)}"


def test_glossary_terms_keep_their_russian_names() -> None:
    for term in glossary():
        assert term.ru in render(msg(term.msgid), "en")
        assert render(msg(term.msgid), "ru") == term.ru


def test_glossary_doc_is_up_to_date() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
    assert doc.read_text(encoding="utf-8").strip() == markdown().strip(), (
        "regenerate with: python -m kubik.text.glossary > docs/glossary.md"
    )
