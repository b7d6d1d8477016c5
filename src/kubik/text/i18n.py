"""Text for people: rendering structured messages in English or Russian.

Catalogues are gettext ``.po`` files read with Babel from
``locale/<lang>/LC_MESSAGES/*.po``: kubik's own beside this module (domains ``kubik``,
``game``, ``console`` ...), each ruleset's in its package (``steel_war``,
``old_west_game`` ...; see :mod:`kubik.rulesets.registry`). The msgid is the message
id used in the code (``steel_war.morale_test.result``); the msgstr is a
``str.format`` template over the message's named parameters. Extensions of the format spec:

* ``{n:plural:one=hit|other=hits}`` picks the locale's plural form of ``n``
  (Russian has one/few/many: ``{n:plural:one=попадание|few=попадания|many=попаданий}``);
  an optional ``zero=`` form is used for 0, and the forms may contain ``{n}``;
* ``{unit:gen}`` puts a name in a case: ``gen``, ``dat``, ``acc``, ``ins``, ``loc``
  (``nom``, the default, is the name as written), as the word before it governs:
  «огонь по {target:dat}», «против {unit:gen}», «с {unit:ins}», «в {vehicle:acc}»;
  ``cap`` capitalises the first letter of a name that opens a sentence
  (``{model:cap}``, ``{model:acc:cap}``; a bare id stays as written). English
  renders the name as it is, capitalised by ``cap``. In Russian a preposition in the
  spec comes before the name in the form the name's first sounds ask for:
  ``{target:с:ins}`` → «со щитоносцем», «с Рубакой» (``с``, ``к``, ``в``, ``о``;
  English, which writes its own prepositions, ignores it);
* ``{unit:agree:m=отступил|f=отступила|n=отступило|pl=отступили}`` prints the word
  that agrees with the name's gender or number (not the name): ``m``, ``f``, ``n``,
  ``pl``, and ``sg`` for any singular (``{side:agree:sg=побеждает|pl=побеждают}``);
  a missing form falls back to ``sg``, then to the first one. English templates use
  ``sg``/``pl`` (``{side:agree:sg=wins|pl=win}``): a name is plural there only when
  its data says ``gender_ru = "pl"``;
* ``{problems:join:; }`` renders each item of a list and joins them with what
  follows ``join:``; ``{near:join:, | или }`` puts what follows ``|`` before the
  last item instead («a, b или c»; a plain list is joined with ", "); a case before
  it declines each item: ``{weapons:ins:join:, | и }`` → «топором и пистолетом»;
* ``plural`` of a fraction takes the locale's form for fractions («7,5 шага»);
* a parameter that says itself (a :class:`Said`, such as a die: ``d6``, ``к6``), an
  ``Enum`` with a ``msgid``, a bool or a nested :class:`~kubik.text.message.Message` is
  itself translated;
* a number with a fractional part (a ``float`` or ``Decimal``) is written with the
  language's decimal sign — «4,5 шага» in Russian, "4.5 paces" in English — whatever
  its format spec (``{gap:.1f}``); a list of such numbers is joined with «; » in
  Russian, where the comma is the decimal sign.

Names are ``game.name`` messages (:func:`name_msg`): the English and Russian
name, and optionally the Russian case forms and gender from the scenario; what is
not given is worked out by :mod:`kubik.text.russian` (pymorphy3). Any other parameter
(a message, a string) in a case is declined from its Russian text the same way.

Game terms keep their Russian names: English text writes them beside the English
word («Стойкий», Steady), Russian text uses them as they are.

>>> render(msg("kubik.test.plural", n=5), "ru")
'5 попаданий'
>>> render(msg("kubik.test.plural", n=1), "en")
'1 hit'
>>> sheriff = name_msg("Sheriff John Baker", "Шериф Джон Бейкер")
>>> render(msg("kubik.test.retreat", unit=sheriff), "ru")
'Шериф Джон Бейкер отступил, огонь по Шерифу Джону Бейкеру прекращён'
>>> render(msg("kubik.test.retreat", unit=name_msg("Squad", "Отделение Петрова")), "ru")
'Отделение Петрова отступило, огонь по Отделению Петрова прекращён'
>>> render(msg("kubik.test.retreat", unit=sheriff), "en")
'Sheriff John Baker retreats; fire at Sheriff John Baker stops'
>>> back_off = msg("kubik.test.decimal", paces=4.5)
>>> render(back_off, "ru"), render(back_off, "en")
('отойти на 4,5 шага', 'back off 4.5 paces')
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from kubik.rulesets import registry as rulesets
from kubik.text.message import Message, msg
from kubik.text.po import po_messages

if TYPE_CHECKING:  # Babel and the Russian grammar load when a message asks for them
    from babel import Locale

    from kubik.text.russian import Case, Gender

Lang = Literal["en", "ru"]


class Said(Protocol):
    """A value that says itself in a language (a die: ``d6`` in English, ``к6`` in
    Russian): text renders it without knowing its kind, so it stays below the dice."""

    def said_in(self, lang: str) -> str:
        """The value as ``lang`` writes it."""
        ...


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


def glossary() -> tuple[Term, ...]:
    """Every ruleset's glossary (``glossary.toml`` and ``glossary/*.toml`` in its package)."""
    return _glossary(rulesets.changes())


@cache
def _glossary(changes: int) -> tuple[Term, ...]:
    return tuple(term for ruleset in rulesets.ruleset_ids() for term in _terms(ruleset))


def _terms(ruleset: str) -> tuple[Term, ...]:
    """One ruleset's glossary."""
    terms: list[Term] = []
    for item in rulesets.files(ruleset, "glossary.toml", "glossary"):
        with item.open("rb") as handle:
            data = tomllib.load(handle)
        for entry in data.get("term", []):
            terms.append(Term(ruleset, entry["id"], entry["ru"], entry["en"]))
    return tuple(terms)


#: kubik's own message catalogues (each ruleset ships its own, in its package).
LOCALE = Path(__file__).resolve().parent / "locale"


def catalogue(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``: msgid → template (kubik's own catalogues and every
    ruleset's, all domains merged).

    Glossary terms are messages too: ``<ruleset>.term.<id>`` renders in English as
    "English («Русский»)" — game terms keep their Russian names — and in Russian as
    the Russian term; ``<ruleset>.term.<id>.short`` is the bare word.

    The catalogues are read as messages are asked for (:class:`_Catalogue`): a question
    about one ruleset reads kubik's own catalogues and that ruleset's, not every one.
    """
    return _catalogue(lang, rulesets.changes())


@cache
def _catalogue(lang: str, changes: int) -> _Catalogue:
    return _Catalogue(lang)


class _Catalogue(Mapping[str, str]):
    """The messages of one language, read a part at a time: kubik's own catalogues
    first; a ruleset's catalogues when one of its ids (``steel_war.…``) is asked for,
    its glossary when one of its terms (``steel_war.term.…``) is; every ruleset's (which
    finds every installed ruleset) only for an id that none of those holds, or to list
    them all. No id is in two parts (a test checks it), so an id reads the same
    template whichever parts are read. Within a part the files are read one at a time,
    as far as the id asked for (no id is in two files of a part either): an odds answer
    reads the command line's catalogue, not the web's."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._part: dict[str, str] = {}  # the messages of the files read so far
        #: each part's files not read yet: kubik's own (under ``""``), the rulesets asked
        self._unread: dict[str, list[Path]] | None = None
        self._rulesets_read: set[str] = set()
        self._whole: dict[str, str] | None = None

    def __getitem__(self, message_id: str) -> str:
        if self._whole is not None:
            return self._whole[message_id]
        part = self._part
        found = part.get(message_id)
        if found is not None:
            return found
        unread = self._unread
        if unread is None:
            unread = self._unread = {"": _own_files(self.lang)}
        ruleset, _, rest = message_id.partition(".")
        # a ruleset's glossary (``<ruleset>.term.…``) and its catalogues are read apart
        read = f"{ruleset}.term" if rest.startswith("term.") else ruleset
        if read not in self._rulesets_read and rulesets.is_own(ruleset):
            self._rulesets_read.add(read)
            if read == ruleset:
                unread[ruleset] = rulesets.message_files(ruleset, self.lang)
            else:
                for term in _terms(ruleset):
                    part.update(_term_messages(term, self.lang))
                found = part.get(message_id)
                if found is not None:
                    return found
        for files in (unread.get(ruleset, []), unread[""]):  # the id's ruleset's first
            while files:
                part.update(po_messages(files.pop(0), self.lang))
                found = part.get(message_id)
                if found is not None:
                    return found
        return self._all()[message_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def _all(self) -> dict[str, str]:
        whole = self._whole
        if whole is None:
            whole = {}
            for term in glossary():
                whole.update(_term_messages(term, self.lang))
            files = _own_files(self.lang)
            for ruleset in rulesets.ruleset_ids():
                files += rulesets.message_files(ruleset, self.lang)
            whole.update(_read_po(files, self.lang))
            self._whole = whole
            self._part, self._unread = {}, None
        return whole


def _own_files(lang: str) -> list[Path]:
    own = LOCALE / lang / "LC_MESSAGES"
    return sorted(own.glob("*.po")) if own.is_dir() else []


def _term_messages(term: Term, lang: str) -> dict[str, str]:
    ru, en = _escape(term.ru), _escape(term.en)
    return {
        term.msgid: f"{en} («{ru}»)" if lang == "en" else ru,
        f"{term.msgid}.short": en if lang == "en" else ru,
    }


def _read_po(files: list[Path], lang: str) -> dict[str, str]:
    """The translated messages of ``.po`` files, a later file's over an earlier one's."""
    messages: dict[str, str] = {}
    for item in files:
        messages.update(po_messages(item, lang))
    return messages


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


#: The message id of a name given by a scenario or a ruleset (see :func:`name_msg`).
NAME_ID = "game.name"
#: A list in a case, joined: ``{weapons:ins:join:, | и }`` («топором и пистолетом»).
_JOIN = re.compile(r"(?:(?P<case>gen|dat|acc|ins|loc|nom):)?join:(?P<how>.*)", re.DOTALL)


def name_msg(
    en: str,
    ru: str = "",
    *,
    cases: Mapping[str, str] | None = None,
    gender: str | None = None,
) -> Message:
    """A name in both languages (``ru`` defaults to ``en``), with the Russian case forms
    (``gen``, ``dat``, ``acc``, ``ins``, ``loc``) and gender (``m``, ``f``, ``n``,
    ``pl``) that scenario data gives; what it does not give is worked out when needed.

    >>> name_msg("Doc", "Док", cases={"acc": "Дока"}, gender="m").params
    (('en', 'Doc'), ('ru', 'Док'), ('ru_acc', 'Дока'), ('ru_gender', 'm'))
    """
    from kubik.text.russian import CASES, GENDERS

    oblique = CASES[1:]
    params: dict[str, str] = {"en": en, "ru": ru or en}
    for case, form in (cases or {}).items():
        if case not in oblique:
            raise ValueError(f"case {case!r}: one of {', '.join(oblique)}")
        if form:
            params[f"ru_{case}"] = form
    if gender:
        if gender not in GENDERS:
            raise ValueError(f"gender {gender!r}: one of {', '.join(GENDERS)}")
        params["ru_gender"] = gender
    return msg(NAME_ID, **params)


@cache
def _name_specs() -> frozenset[str]:
    """What a name's format spec may say: a case, a preposition, ``cap``."""
    from kubik.text.russian import CASES, PREPOSITIONS

    return frozenset((*CASES, *PREPOSITIONS, "cap"))


@cache
def _locale(lang: str) -> Locale:
    """Babel's locale of ``lang`` (its plural rule, its decimal sign), loaded when a
    message first asks for one: most text never does."""
    from babel import Locale

    return Locale.parse(lang)


def _spec_forms(spec: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in spec.split("|"))


_BARE_ID = re.compile(r"[a-z0-9_.-]+")


def _is_name(value: Any) -> bool:
    """A name (a message, or text that is not a bare id such as ``steel`` or ``lianra_3.5``)."""
    return isinstance(value, Message) or (isinstance(value, str) and not _BARE_ID.fullmatch(value))


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Unnamed:
    """A parameter a template names that its message does not give: only ``agree``
    may meet it (a phrase shared by sentences with and without the name it agrees
    with), and takes the first form."""


_UNNAMED = _Unnamed()


class _Formatter(string.Formatter):
    def __init__(self, lang: str, params: Mapping[str, Any] | None = None) -> None:
        self.lang = lang
        self.params: Mapping[str, Any] = params or {}

    @property
    def locale(self) -> Locale:
        return _locale(self.lang)

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            return _UNNAMED
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        if value is _UNNAMED:
            if not format_spec.startswith("agree:"):
                raise KeyError("a parameter the message does not give")
            return next(iter(_spec_forms(format_spec[6:]).values()), "")
        if format_spec.startswith("given:"):
            names = format_spec[6:].split(",")
            extra = {name: self.params[name] for name in names if name in self.params}
            items = value if isinstance(value, tuple | list) else (value,)
            return ", ".join(self.with_params(item, extra) for item in items)
        if format_spec.startswith("plural:"):
            forms = _spec_forms(format_spec[7:])
            # a fraction takes its own form («7,5 шага»): the locale's rule for it
            fraction = isinstance(value, float) and not value.is_integer()
            number: float = abs(value) if fraction else abs(int(value))
            if number == 0 and "zero" in forms:
                return forms["zero"]
            form = self.locale.plural_form(number)
            return forms.get(form, forms.get("other", ""))
        joined = _JOIN.fullmatch(format_spec)
        if joined is not None:
            case = cast("Case", joined["case"] or "nom")
            items = value if isinstance(value, tuple | list) else (value,)
            texts = [self.in_case(v, case) for v in items]
            separator, _, last = joined["how"].partition("|")
            if last and len(texts) > 1:
                return separator.join(texts[:-1]) + last + texts[-1]
            return separator.join(texts)
        if format_spec.startswith("agree:"):
            from kubik.text.russian import agree

            return agree(_spec_forms(format_spec[6:]), self.gender(value))
        if format_spec and _name_specs().issuperset(parts := format_spec.split(":")):
            from kubik.text.russian import CASES, PREPOSITIONS, preposition

            cases = [p for p in CASES if p in parts]
            text = self.in_case(value, cases[-1] if cases else "nom")
            said = [p for p in parts if p in PREPOSITIONS]
            if said and self.lang == "ru":  # «со щитоносцем», «ко мне», «во Франции»
                text = f"{preposition(said[0], text)} {text}"
            return _capitalised(text) if "cap" in parts and _is_name(value) else text
        converted = self.convert_value(value)
        text = str(super().format_field(converted, format_spec))
        if "," in format_spec and self.lang != "en":  # «1 500 000», not «1,500,000»
            symbols = self.locale.number_symbols.get("latn", self.locale.number_symbols)
            text = text.replace(",", symbols["group"])
        return self.decimal_sign(text) if _is_fractional(converted) else text

    def decimal_sign(self, number: str) -> str:
        """``number`` (as Python writes it) with this language's decimal sign."""
        if self.lang == "en":
            return number
        sign = self.locale.number_symbols.get("latn", self.locale.number_symbols)["decimal"]
        return number.replace(".", sign) if sign != "." else number

    def with_params(self, value: Any, extra: Mapping[str, Any]) -> str:
        """A nested message (or named enum) rendered with ``extra`` parameters of the
        message around it: a phrase that agrees with the sentence's subject."""
        msgid = getattr(value, "msgid", None) if isinstance(value, Enum) else None
        if msgid:
            value = Message(msgid)
        if isinstance(value, Message):
            return render(Message(value.id, tuple({**extra, **value.kwargs}.items())), self.lang)
        return str(self.convert_value(value))

    def in_case(self, value: Any, case: Case) -> str:
        """``value`` (a name, a message, a named enum or a string) in ``case``; English
        ignores cases."""
        if isinstance(value, tuple | list):
            return ", ".join(self.in_case(v, case) for v in value)
        named = getattr(value, "msgid", None) if isinstance(value, Enum) else None
        if named and self.lang == "ru":
            value = Message(str(named))
        if self.lang != "ru" or case == "nom" or not isinstance(value, Message | str):
            return str(self.convert_value(value))
        from kubik.text.russian import name_forms

        if isinstance(value, str):
            return name_forms(value).case(case)
        if value.id != NAME_ID:
            return name_forms(render(value, self.lang)).case(case)
        params = value.kwargs
        given = params.get(f"ru_{case}")
        return str(given) if given else name_forms(str(params["ru"])).case(case)

    def gender(self, value: Any) -> str:
        """The gender (or plural) a word agrees with; English knows singular and plural."""
        given = value.kwargs.get("ru_gender") if isinstance(value, Message) else None
        if self.lang != "ru":
            return "pl" if given == "pl" else str(given or "sg")
        if given:
            return cast("Gender", given)
        from kubik.text.russian import name_forms

        if isinstance(value, Message):
            text = value.kwargs["ru"] if value.id == NAME_ID else render(value, self.lang)
            return name_forms(str(text)).gender
        if isinstance(value, tuple | list) and len(value) > 1:
            return "pl"
        return name_forms(str(self.convert_value(value))).gender

    def convert_value(self, value: Any) -> Any:
        if isinstance(value, Message):
            return render(value, self.lang)
        if isinstance(value, bool):
            return render(Message(f"kubik.bool.{str(value).lower()}"), self.lang)
        said_in = getattr(value, "said_in", None)
        if said_in is not None:
            return said_in(self.lang)
        if isinstance(value, Enum):
            msgid = getattr(value, "msgid", None)
            return render(Message(msgid), self.lang) if msgid else str(value.value)
        if isinstance(value, Fraction):
            return str(value)
        if isinstance(value, tuple | list):
            items = [self.convert_value(v) for v in value]
            if any(_is_fractional(item) for item in items) and self.decimal_sign(".") != ".":
                return "; ".join(self.decimal_sign(str(item)) for item in items)
            return ", ".join(str(item) for item in items)
        return value


def _is_fractional(value: Any) -> bool:
    """Whether ``value`` is a number written with a decimal sign (not an int or a bool)."""
    return isinstance(value, float | Decimal)


def render(message: Message, lang: str = "en") -> str:
    """The message as text in ``lang`` (falls back to English, then to the id)."""
    template = catalogue(lang).get(message.id)
    if template is None and lang != "en":
        template = catalogue("en").get(message.id)
    if template is None:
        params = ", ".join(f"{k}={v}" for k, v in message.params)
        return f"{message.id}({params})" if params else message.id
    formatter = _Formatter(lang, message.kwargs)
    try:
        return formatter.vformat(template, (), message.kwargs)
    except (KeyError, IndexError, ValueError, AttributeError) as error:
        return f"{message.id}: {template} [{error}]"


def missing_messages(message_ids: set[str]) -> dict[str, set[str]]:
    """For each language, the ids that have no template (for tests)."""
    return {lang: {m for m in message_ids if m not in catalogue(lang)} for lang in LANGS}


__all__ = [
    "LANGS",
    "NAME_ID",
    "Lang",
    "Said",
    "Term",
    "catalogue",
    "glossary",
    "missing_messages",
    "msg",
    "name_msg",
    "render",
]
