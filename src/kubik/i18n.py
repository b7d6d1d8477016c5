"""Text for people: rendering structured messages in English or Russian.

Catalogues are gettext ``.po`` files read with Babel from
``kubik/locale/<lang>/LC_MESSAGES/*.po`` (one file per domain: ``kubik``,
``steel_war``, ``old_west`` ...). The msgid is the message id used in the code
(``steel_war.morale_test.result``); the msgstr is a ``str.format`` template over
the message's named parameters. Two extensions of the format spec:

* ``{n:plural:one=hit|other=hits}`` picks the locale's plural form of ``n``
  (Russian has one/few/many: ``{n:plural:one=попадание|few=попадания|many=попаданий}``);
  an optional ``zero=`` form is used for 0, and the forms may contain ``{n}``;
* a parameter that is a :class:`~kubik.dice.Die`, an ``Enum`` with a ``msgid``,
  a bool or a nested :class:`~kubik.engine.Message` is itself translated.

Game terms keep their Russian names: English text writes them beside the English
word («Стойкий», Steady), Russian text uses them as they are.

>>> render(msg("kubik.test.plural", n=5), "ru")
'5 попаданий'
>>> render(msg("kubik.test.plural", n=1), "en")
'1 hit'
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Literal

from babel import Locale
from babel.messages.pofile import read_po

from kubik.dice import Die
from kubik.engine.requests import Message, msg

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, ...] = ("en", "ru")


@dataclass(frozen=True, slots=True)
class Term:
    """A game term of a ruleset's glossary: its Russian name and its English one."""

    ruleset: str
    id: str
    ru: str
    en: str

    @property
    def msgid(self) -> str:
        """The message id that renders the term: ``<ruleset>.term.<id>``."""
        return f"{self.ruleset}.term.{self.id}"


@cache
def glossary() -> tuple[Term, ...]:
    """Every ruleset's glossary (``rulesets/<id>/glossary.toml`` and ``glossary/*.toml``)."""
    terms: list[Term] = []
    rulesets = resources.files("kubik") / "rulesets"
    for folder in sorted(rulesets.iterdir(), key=lambda p: p.name):
        if not folder.is_dir():
            continue
        files = [folder / "glossary.toml"]
        extra = folder / "glossary"
        if extra.is_dir():
            files += sorted(extra.iterdir(), key=lambda p: p.name)
        for item in files:
            if not item.is_file() or not item.name.endswith(".toml"):
                continue
            with item.open("rb") as handle:
                data = tomllib.load(handle)
            for entry in data.get("term", []):
                terms.append(Term(folder.name, entry["id"], entry["ru"], entry["en"]))
    return tuple(terms)


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``: msgid → template (all domains merged).

    Glossary terms are messages too: ``<ruleset>.term.<id>`` renders in English as
    "English («Русский»)" — game terms keep their Russian names — and in Russian as
    the Russian term; ``<ruleset>.term.<id>.short`` is the bare word.
    """
    messages: dict[str, str] = {}
    for term in glossary():
        ru, en = _escape(term.ru), _escape(term.en)
        messages[term.msgid] = f"{en} («{ru}»)" if lang == "en" else ru
        messages[f"{term.msgid}.short"] = en if lang == "en" else ru
    root = resources.files("kubik") / "locale" / lang / "LC_MESSAGES"
    if not root.is_dir():
        return messages
    for item in sorted(root.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".po"):
            continue
        with item.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and isinstance(message.id, str) and message.string:
                    messages[message.id] = str(message.string)
    return messages


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.locale = Locale.parse(lang)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            forms = dict(part.split("=", 1) for part in format_spec[7:].split("|"))
            number = abs(int(value))
            if number == 0 and "zero" in forms:
                return forms["zero"]
            form = self.locale.plural_form(number)
            return forms.get(form, forms.get("other", ""))
        return str(super().format_field(self.convert_value(value), format_spec))

    def convert_value(self, value: Any) -> Any:
        if isinstance(value, Message):
            return render(value, self.lang)
        if isinstance(value, bool):
            return render(Message(f"kubik.bool.{str(value).lower()}"), self.lang)
        if isinstance(value, Die):
            return f"к{value.faces}" if self.lang == "ru" else value.name
        if isinstance(value, Enum):
            msgid = getattr(value, "msgid", None)
            return render(Message(msgid), self.lang) if msgid else str(value.value)
        if isinstance(value, Fraction):
            return str(value)
        if isinstance(value, tuple | list):
            return ", ".join(str(self.convert_value(v)) for v in value)
        return value


def render(message: Message, lang: str = "en") -> str:
    """The message as text in ``lang`` (falls back to English, then to the id)."""
    template = catalogue(lang).get(message.id)
    if template is None and lang != "en":
        template = catalogue("en").get(message.id)
    if template is None:
        params = ", ".join(f"{k}={v}" for k, v in message.params)
        return f"{message.id}({params})" if params else message.id
    formatter = _Formatter(lang)
    try:
        return formatter.vformat(template, (), message.kwargs)
    except (KeyError, IndexError, ValueError) as error:
        return f"{message.id}: {template} [{error}]"


def missing_messages(message_ids: set[str]) -> dict[str, set[str]]:
    """For each language, the ids that have no template (for tests)."""
    return {lang: {m for m in message_ids if m not in catalogue(lang)} for lang in LANGS}


__all__ = ["LANGS", "Lang", "Term", "catalogue", "glossary", "missing_messages", "msg", "render"]
