"""Russian names in every case and the words that agree with them (kubik.text.russian, i18n).

The expected forms are written by hand, as a Russian speaker declines these names;
nothing here is computed by the code under test.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from kubik.engine.log import ChoiceEntry, ChoiceOrigin
from kubik.engine.narration import entry_text
from kubik.engine.requests import msg
from kubik.text.i18n import name_msg, render
from kubik.text.russian import agree, inflect, name_forms

# name: (genitive, dative, accusative, instrumental, locative, gender)
EXAMPLES: dict[str, tuple[str, str, str, str, str, str]] = {
    # the issue's own examples
    "Отделение Петрова": (
        "Отделения Петрова",
        "Отделению Петрова",
        "Отделение Петрова",
        "Отделением Петрова",
        "Отделении Петрова",
        "n",
    ),
    "Шериф Джон Бейкер": (
        "Шерифа Джона Бейкера",
        "Шерифу Джону Бейкеру",
        "Шерифа Джона Бейкера",
        "Шерифом Джоном Бейкером",
        "Шерифе Джоне Бейкере",
        "m",
    ),
    "Малыш Билли": (
        "Малыша Билли",
        "Малышу Билли",
        "Малыша Билли",
        "Малышом Билли",
        "Малыше Билли",
        "m",
    ),
    "БТР «Медведь»": ("БТР «Медведь»",) * 5 + ("m",),
    "Барф-джат": ("Барф-джат",) * 5 + ("m",),
    # a genitive after an animate head is a genitive too, not a name in apposition
    "Командир Петрова": (
        "Командира Петрова",
        "Командиру Петрова",
        "Командира Петрова",
        "Командиром Петрова",
        "Командире Петрова",
        "m",
    ),
    # a woman's foreign name in a consonant never declines; her gender still counts
    "Калами Джейн": ("Калами Джейн",) * 5 + ("f",),
    "1-е отделение «Стальных»": (
        "1-го отделения «Стальных»",
        "1-му отделению «Стальных»",
        "1-е отделение «Стальных»",
        "1-м отделением «Стальных»",
        "1-м отделении «Стальных»",
        "n",
    ),
    "ручной пулемёт": (
        "ручного пулемёта",
        "ручному пулемёту",
        "ручной пулемёт",
        "ручным пулемётом",
        "ручном пулемёте",
        "m",
    ),
    "бочки": ("бочек", "бочкам", "бочки", "бочками", "бочках", "pl"),
    "веранда салуна": (
        "веранды салуна",
        "веранде салуна",
        "веранду салуна",
        "верандой салуна",
        "веранде салуна",
        "f",
    ),
}

# every side and unit name of the built-in scenarios (Док's accusative comes from the
# scenario's data: see tests/game/test_name_grammar.py)
BUILT_IN: dict[str, tuple[str, str, str, str, str, str]] = {
    "отряд маршала": (
        "отряда маршала",
        "отряду маршала",
        "отряд маршала",
        "отрядом маршала",
        "отряде маршала",
        "m",
    ),
    "банда Клэнтона": (
        "банды Клэнтона",
        "банде Клэнтона",
        "банду Клэнтона",
        "бандой Клэнтона",
        "банде Клэнтона",
        "f",
    ),
    "маршал Уайетт": (
        "маршала Уайетта",
        "маршалу Уайетту",
        "маршала Уайетта",
        "маршалом Уайеттом",
        "маршале Уайетте",
        "m",
    ),
    "помощник Вирджил": (
        "помощника Вирджила",
        "помощнику Вирджилу",
        "помощника Вирджила",
        "помощником Вирджилом",
        "помощнике Вирджиле",
        "m",
    ),
    "помощник Морган": (
        "помощника Моргана",
        "помощнику Моргану",
        "помощника Моргана",
        "помощником Морганом",
        "помощнике Моргане",
        "m",
    ),
    "помощник Бэт": (
        "помощника Бэта",
        "помощнику Бэту",
        "помощника Бэта",
        "помощником Бэтом",
        "помощнике Бэте",
        "m",
    ),
    "Айк Клэнтон": (
        "Айка Клэнтона",
        "Айку Клэнтону",
        "Айка Клэнтона",
        "Айком Клэнтоном",
        "Айке Клэнтоне",
        "m",
    ),
    "Билли": ("Билли",) * 5 + ("m",),
    "Фрэнк": ("Фрэнка", "Фрэнку", "Фрэнка", "Фрэнком", "Фрэнке", "m"),
    "Том": ("Тома", "Тому", "Тома", "Томом", "Томе", "m"),
    "Джонни Ринго": ("Джонни Ринго",) * 5 + ("m",),
    "Кёрли Билл": ("Кёрли Билла", "Кёрли Биллу", "Кёрли Билла", "Кёрли Биллом", "Кёрли Билле", "m"),
    "«Стальные»": ("«Стальных»", "«Стальным»", "«Стальных»", "«Стальными»", "«Стальных»", "pl"),
    "БТР «Стальных»": ("БТР «Стальных»",) * 5 + ("m",),
    "Стальные, десант": (
        "Стальных, десанта",
        "Стальным, десанту",
        "Стальных, десант",
        "Стальными, десантом",
        "Стальных, десанте",
        "m",
    ),
    "Стальные, 1-е отделение": (
        "Стальных, 1-го отделения",
        "Стальным, 1-му отделению",
        "Стальных, 1-е отделение",
        "Стальными, 1-м отделением",
        "Стальных, 1-м отделении",
        "n",
    ),
    "Лианра": ("Лианры", "Лианре", "Лианру", "Лианрой", "Лианре", "f"),
    "Стальные, 2-е отделение": (
        "Стальных, 2-го отделения",
        "Стальным, 2-му отделению",
        "Стальных, 2-е отделение",
        "Стальными, 2-м отделением",
        "Стальных, 2-м отделении",
        "n",
    ),
    "Стальные, 3-е отделение": (
        "Стальных, 3-го отделения",
        "Стальным, 3-му отделению",
        "Стальных, 3-е отделение",
        "Стальными, 3-м отделением",
        "Стальных, 3-м отделении",
        "n",
    ),
    "Лианра, 1-е отделение": (
        "Лианры, 1-го отделения",
        "Лианре, 1-му отделению",
        "Лианру, 1-е отделение",
        "Лианрой, 1-м отделением",
        "Лианре, 1-м отделении",
        "n",
    ),
    "Лианра, 2-е отделение": (
        "Лианры, 2-го отделения",
        "Лианре, 2-му отделению",
        "Лианру, 2-е отделение",
        "Лианрой, 2-м отделением",
        "Лианре, 2-м отделении",
        "n",
    ),
    "Лианра, 3-е отделение": (
        "Лианры, 3-го отделения",
        "Лианре, 3-му отделению",
        "Лианру, 3-е отделение",
        "Лианрой, 3-м отделением",
        "Лианре, 3-м отделении",
        "n",
    ),
    "Странник барф-джат": (
        "Странника барф-джат",
        "Страннику барф-джат",
        "Странника барф-джат",
        "Странником барф-джат",
        "Страннике барф-джат",
        "m",
    ),
    "Лейтенант «Стальных»": (
        "Лейтенанта «Стальных»",
        "Лейтенанту «Стальных»",
        "Лейтенанта «Стальных»",
        "Лейтенантом «Стальных»",
        "Лейтенанте «Стальных»",
        "m",
    ),
    "Лианрийский командир": (
        "Лианрийского командира",
        "Лианрийскому командиру",
        "Лианрийского командира",
        "Лианрийским командиром",
        "Лианрийском командире",
        "m",
    ),
    "Перестрелка на главной улице": (
        "Перестрелки на главной улице",
        "Перестрелке на главной улице",
        "Перестрелку на главной улице",
        "Перестрелкой на главной улице",
        "Перестрелке на главной улице",
        "f",
    ),
}


@pytest.mark.parametrize(("name", "expected"), [*EXAMPLES.items(), *BUILT_IN.items()])
def test_a_name_in_every_case(name: str, expected: tuple[str, ...]) -> None:
    forms = name_forms(name)
    got = tuple(forms.case(case) for case in ("gen", "dat", "acc", "ins", "loc"))
    assert (*got, forms.gender) == expected
    assert forms.case("nom") == name


@pytest.mark.parametrize(
    "name",
    [
        "Барф-джат",  # hyphenated and unknown
        "Steel",  # Latin
        "T-34",
        "ОПКа",  # unknown, mixed capitals
        "кзотл",  # unknown, lower case
        "Ззык",  # unknown, a consonant the ending does not settle without a stress (ins)
        "Кено",  # indeclinable
    ],
)
def test_unknown_words_stay_as_written(name: str) -> None:
    forms = name_forms(name)
    changed = {forms.case(c) for c in ("gen", "dat", "ins", "loc")} - {name}
    if name == "Ззык":  # a man's or a nation's name in -к declines; only the stress-free cases
        assert forms.case("gen") == "Ззыка" and forms.case("acc") == name
        return
    assert not changed, changed


def test_after_an_inanimate_head_nothing_else_changes() -> None:
    assert inflect("отряд Кено «Клинок»", "ins") == "отрядом Кено «Клинок»"


def test_the_head_of_a_quoted_whole_name_declines_inside_the_quotes() -> None:
    assert inflect("«Красные дьяволы»", "dat") == "«Красным дьяволам»"


def test_agreement_picks_the_form_for_the_gender_then_singular() -> None:
    forms = {"m": "залёг", "f": "залегла", "n": "залегло", "pl": "залегли"}
    assert [agree(forms, g) for g in ("m", "f", "n", "pl")] == list(forms.values())
    assert agree({"sg": "стреляет", "pl": "стреляют"}, "n") == "стреляет"
    assert agree({"sg": "стреляет", "pl": "стреляют"}, "pl") == "стреляют"


# -- rendering ------------------------------------------------------------------


def _retreat(unit: object, lang: str) -> str:
    return render(msg("kubik.test.retreat", unit=unit), lang)


@pytest.mark.parametrize(
    ("en", "ru", "expected"),
    [
        ("Squad", "Отделение Петрова", "Отделение Петрова отступило, огонь по Отделению Петрова"),
        ("Lianra", "Лианра", "Лианра отступила, огонь по Лианре"),
        ("The Steel", "«Стальные»", "«Стальные» отступили, огонь по «Стальным»"),
        ("The sheriff", "Шериф Джон Бейкер", "Шериф Джон Бейкер отступил, огонь по Шерифу Джону"),
    ],
)
def test_templates_decline_names_and_verbs_agree(en: str, ru: str, expected: str) -> None:
    assert _retreat(name_msg(en, ru), "ru").startswith(expected)
    assert _retreat(name_msg(en, ru), "en") == f"{en} retreats; fire at {en} stops"


def test_explicit_forms_and_gender_in_the_data_win() -> None:
    doc = name_msg("Doc", "Док", cases={"dat": "Доку-врачу"}, gender="f")
    assert _retreat(doc, "ru") == "Док отступила, огонь по Доку-врачу прекращён"
    plural = name_msg("The Clantons", "Клэнтоны", gender="pl")
    assert _retreat(plural, "en") == "The Clantons retreat; fire at The Clantons stops"


def test_a_name_opening_a_sentence_is_capitalised() -> None:
    posse = name_msg("the Marshal's posse", "отряд маршала")
    choice = msg("game.log.choice", side=posse, answer="огонь", reason="что делать")
    assert render(choice, "ru") == "Отряд маршала выбирает: огонь — что делать"
    assert render(choice, "en") == "The Marshal's posse chooses огонь — что делать"
    steel = name_msg("The Steel", "«Стальные»", gender="pl")
    assert render(msg("game.log.choice", side=steel, answer="1", reason="r"), "ru").startswith(
        "«Стальные» выбирают: 1"
    )


def test_the_winner_agrees_with_the_verb_in_both_languages() -> None:
    end = msg(
        "game.ended.winner",
        winner=name_msg("The Steel", "«Стальные»", gender="pl"),
        turns=5,
        reason=msg("game.turn_limit", n=5),
    )
    assert render(end, "ru") == (
        "Партия окончена после 5 ходов: побеждают «Стальные» (истёк лимит в 5 ходов)."
    )
    assert render(end, "en") == (
        "The game is over after 5 turns: The Steel win (the turn limit (5 turns) is reached)."
    )


def test_contact_breaches_name_both_models_in_the_genitive() -> None:
    a, b = name_msg("Frank", "Фрэнк"), name_msg("Doc", "Док", cases={"gen": "Дока"})
    overlap = msg("game.contact.overlap", a=a, b=b)
    assert render(overlap, "ru") == "подставки Фрэнка и Дока заходят одна на другую"
    assert render(overlap, "en") == "the bases of Frank and Doc overlap"


def test_a_bare_id_is_neither_declined_nor_capitalised() -> None:
    assert render(msg("game.log.choice", side="steel", answer="1", reason="r"), "ru") == (
        "steel выбирает: 1 — r"
    )


def test_the_analyser_loads_only_when_russian_text_asks_for_a_case() -> None:
    """English, and Russian without case or agreement, never load the dictionary."""
    code = (
        "import sys\n"
        "from kubik.text.i18n import msg, name_msg, render\n"
        "n = name_msg('Sheriff', 'Шериф')\n"
        "render(msg('kubik.test.retreat', unit=n), 'en')\n"
        "render(msg('game.started', scenario=n), 'ru')\n"
        "assert 'pymorphy3' not in sys.modules, 'loaded too early'\n"
        "render(msg('kubik.test.retreat', unit=n), 'ru')\n"
        "assert 'pymorphy3' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_rule_role_that_decides_is_named_in_words() -> None:
    """A rule's own chooser (the psionic, the target) is no side of the scenario."""
    entry = ChoiceEntry("psionic", msg("kubik.bool.true"), (1, 2), 1, ChoiceOrigin.BOT)
    assert entry_text(entry, "ru") == "Псионик выбирает: 1 — да"
    assert entry_text(entry, "en") == "The psionic chooses 1 — yes"
    odd = ChoiceEntry("nobody_known", msg("kubik.bool.true"), (1, 2), 1, ChoiceOrigin.BOT)
    assert entry_text(odd, "ru") == "nobody_known выбирает: 1 — да"
