"""Russian names in every case: which words of a name change, and into what.

A Russian sentence needs a unit's or side's name in the case its verb or
preposition governs («огонь по Шерифу Джону Бейкеру», «против Лианры») and its
verbs agree with the name («Отделение Петрова залегло», ««Стальные» побеждают»).
Scenario data may give the forms outright; otherwise :func:`name_forms` works them
out with pymorphy3 (OpenCorpora's dictionary), carefully:

* only the head of the name changes: the leading adjectives and the first noun in
  the nominative, and, after a person (an animate head), the names that follow it
  («Шериф Джон Бейкер» → «Шерифа Джона Бейкера»); everything after an inanimate
  head, a quoted name, a genitive («Отделение Петрова»), an abbreviation (БТР) or
  an indeclinable word (Билли, Ринго) stays as written;
* a name in quotes declines inside them when it is the whole name («Стальные» →
  «Стальных»), and stays as written after a head noun (БТР «Медведь»);
* parts separated by commas decline each on its own («Стальные, 1-е отделение» →
  «Стальных, 1-го отделения»); the last part gives the gender;
* words the dictionary does not know decline only by the few rules that have no
  exceptions: a capitalised foreign name ending in a hard consonant declines as a
  masculine noun when the name is a man's or unknown (Уайетт → Уайетта; a woman's,
  Джейн, never declines), one in -а/-я as a feminine one (Лианра → Лианры);
  everything else (hyphenated, lower-case, all capitals, other endings) is kept.

When in doubt a word is kept as written: a nominative where an oblique case should
be reads as a slip, a wrong ending reads as a blunder. Capitalisation is kept.

The analyser loads lazily (only Russian text that asks for a case or agreement
needs it) and every name is worked out once per process.

>>> name_forms("Шериф Джон Бейкер").case("dat")
'Шерифу Джону Бейкеру'
>>> name_forms("Отделение Петрова").case("ins"), name_forms("Отделение Петрова").gender
('Отделением Петрова', 'n')
>>> name_forms("БТР «Медведь»").case("gen"), name_forms("«Стальные»").case("acc")
('БТР «Медведь»', '«Стальных»')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final, Literal

#: The oblique cases a template may ask for (the nominative is the name as written).
Case = Literal["nom", "gen", "dat", "acc", "ins", "loc"]
CASES: Final[tuple[Case, ...]] = ("nom", "gen", "dat", "acc", "ins", "loc")
#: Grammatical gender, or plural (verbs agree with plural names in number only).
Gender = Literal["m", "f", "n", "pl"]
GENDERS: Final[tuple[Gender, ...]] = ("m", "f", "n", "pl")

_GRAMMEME: Final[dict[Case, str]] = {
    "nom": "nomn",
    "gen": "gent",
    "dat": "datv",
    "acc": "accs",
    "ins": "ablt",
    "loc": "loct",
}
_GENDER_OF_TAG: Final[dict[str, Gender]] = {"masc": "m", "femn": "f", "neut": "n"}
_PROPER: Final[frozenset[str]] = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_HARD_CONSONANTS: Final[str] = "бвгдзклмнпрстфх"
_ADJECTIVE_ENDINGS: Final[tuple[str, ...]] = ("ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие")


@dataclass(frozen=True, slots=True)
class NameForms:
    """A name in each case, and the gender (or plural) its verbs agree with."""

    forms: tuple[tuple[Case, str], ...]
    gender: Gender

    def case(self, case: Case) -> str:
        """The name in ``case``."""
        return dict(self.forms)[case]


# -- the analyser -------------------------------------------------------------------


@cache
def _analyzer() -> Any:
    """pymorphy3's analyser, loaded on first use (about 0.3 s, then shared)."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=4096)
def _parses(word: str) -> tuple[Any, ...]:
    return tuple(_analyzer().parse(word))


@lru_cache(maxsize=4096)
def _known(word: str) -> bool:
    return bool(_analyzer().word_is_known(word))


# -- words --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Word:
    """How one word of a name changes: by a dictionary parse, by a rule, or not at all."""

    text: str
    kind: Literal["noun", "adj", "masc", "fem", "keep"]
    parse: Any = None

    def form(self, case: Case, *, animate: bool | None, agree: Any = None) -> str:
        if case == "nom" or self.kind == "keep":
            return self.text
        if self.kind == "masc":
            return _restore(self.text, _masculine(self.text.lower(), case, animate))
        if self.kind == "fem":
            return _restore(self.text, _feminine(self.text.lower(), case))
        return _restore(self.text, self._inflected(case, animate, agree))

    def _inflected(self, case: Case, animate: bool | None, agree: Any) -> str | None:
        parse = self.parse
        if self.kind == "adj" and agree is not None:
            parse = _matching_adjective(self.text, agree) or parse
        tag = parse.tag
        animate_accusative = tag.number == "plur" or (tag.gender == "masc" and tag.number == "sing")
        if case == "acc" and animate_accusative:
            if animate is None:
                return self.text.lower()
            grammemes = {"accs", "anim" if animate else "inan"}
            if self.kind == "noun":
                return _inflect(parse, {"gent"} if animate else {"nomn"})
            return _inflect(parse, grammemes)
        return _inflect(parse, {_GRAMMEME[case]})


def _inflect(parse: Any, grammemes: set[str]) -> str | None:
    changed = parse.inflect(grammemes)
    return None if changed is None else str(changed.word)


def _matching_adjective(text: str, head: Any) -> Any:
    """The adjective's nominative parse that agrees with the head noun's gender and number."""
    for parse in _parses(text.lower()):
        tag = parse.tag
        nominative = tag.POS in ("ADJF", "PRTF") and tag.case == "nomn"
        same_gender = head.number == "plur" or str(tag.gender) == str(head.gender)
        if nominative and tag.number == head.number and same_gender:
            return parse
    return None


def _restore(original: str, changed: str | None) -> str:
    """``changed`` written as ``original`` is (capitalised, all capitals), or ``original``
    when there is no form."""
    if not changed:
        return original
    if len(original) > 1 and original.isupper():
        return changed.upper()
    if original[:1].isupper():
        return changed[:1].upper() + changed[1:]
    return changed


def _masculine(word: str, case: Case, animate: bool | None) -> str | None:
    """A foreign masculine name in a hard consonant (Уайетт, Бэт): second declension."""
    if case == "acc":
        return word + "а" if animate else word if animate is False else None
    return word + {"gen": "а", "dat": "у", "ins": "ом", "loc": "е"}[case]


def _feminine(word: str, case: Case) -> str | None:
    """A foreign name in -а or -я (Лианра): first declension, where no stress decides."""
    stem, last = word[:-1], word[-1]
    if last == "я":
        if stem.endswith("и"):
            return stem + {"gen": "и", "dat": "и", "acc": "ю", "ins": "ей", "loc": "и"}[case]
        return stem + {"gen": "и", "dat": "е", "acc": "ю", "ins": "ей", "loc": "е"}[case]
    if case == "ins" and stem[-1:] in "жшчщц":
        return None  # -ой or -ей: the stress decides
    soft = stem[-1:] in "гкхжшчщ"
    return (
        stem + {"gen": "и" if soft else "ы", "dat": "е", "acc": "у", "ins": "ой", "loc": "е"}[case]
    )


def _foreign_rule(text: str, gender: Gender | None) -> Literal["masc", "fem"] | None:
    """Which declension an unknown capitalised name takes, if one does without doubt."""
    if not text[:1].isupper() or not text.isalpha() or sum(c.isupper() for c in text) > 1:
        return None  # lower case, hyphenated, digits, abbreviations (ОПКа)
    last = text[-1].lower()
    if last in _HARD_CONSONANTS and gender in (None, "m"):
        return "masc"
    if last in "ая" and len(text) > 2:
        return "fem"
    return None


def _nominatives(text: str) -> list[Any]:
    """The word's nominative parses as a noun or adjective, by pymorphy's score; when the
    best is a noun and the word is capitalised, a proper name first (Том, not «том»)."""
    found = sorted(
        (
            p
            for p in _parses(text.lower())
            if p.tag.case == "nomn" and p.tag.POS in ("NOUN", "ADJF", "PRTF")
        ),
        key=lambda p: -p.score,
    )
    if found and found[0].tag.POS == "NOUN" and text[:1].isupper():
        found.sort(key=lambda p: not (p.tag.POS == "NOUN" and _PROPER & p.tag.grammemes))
    return found


def _gender(tag: Any) -> Gender | None:
    if tag.number == "plur" or "Pltm" in tag.grammemes:
        return "pl"
    return _GENDER_OF_TAG.get(str(tag.gender))


# -- phrases ------------------------------------------------------------------------

_TOKEN = re.compile(r"«[^»]*»|\"[^\"]*\"|„[^“]*“|[\w-]+|\s+|.", re.UNICODE)


@dataclass(slots=True)
class _Phrase:
    """The declining head of one comma-separated part of a name."""

    words: dict[int, _Word]
    inner: dict[int, NameForms]
    gender: Gender | None = None
    animate: bool | None = None
    head: Any = None


def _plan(tokens: list[str]) -> _Phrase:
    phrase = _Phrase({}, {})
    head_seen = False
    started = False
    for index, token in enumerate(tokens):
        if token.isspace():
            continue
        if token[0] in '«"„':
            if not started and token[-1:] in '»"“' and len(token) > 2:
                inner = name_forms(token[1:-1])
                phrase.inner[index] = inner
                phrase.gender = inner.gender
            break
        if not (token[0].isalnum() or token[0] == "-"):
            break
        word = _plan_word(token, phrase, head_seen=head_seen, started=started)
        if word is None:
            break
        started = True
        phrase.words[index] = word
        if word.kind in ("noun", "masc", "fem"):
            head_seen = True
    return phrase


def _plan_word(text: str, phrase: _Phrase, *, head_seen: bool, started: bool) -> _Word | None:
    """How ``text`` changes at this point of the name (``None``: it and the rest stay)."""
    if head_seen and (phrase.animate is False or not text[:1].isupper()):
        return None
    known = _known(text.lower())
    if not known and text.lower().endswith(_ADJECTIVE_ENDINGS) and "-" not in text:
        adjectives = [p for p in _nominatives(text) if p.tag.POS == "ADJF"]
        if adjectives and not head_seen:  # adjectives decline regularly (Лианрийский)
            return _Word(text, "adj", adjectives[0])
    if not known:
        rule = _foreign_rule(text, phrase.gender)
        if rule is None:
            vowel_name = text[:1].isupper() and text.isalpha() and not text.isupper()
            return _Word(text, "keep") if vowel_name else (None if started else _Word(text, "keep"))
        if not head_seen:
            phrase.gender = phrase.gender or ("m" if rule == "masc" else "f")
        return _Word(text, rule)
    candidates = _nominatives(text)
    if not candidates:
        return None
    best = candidates[0]
    tag = best.tag
    if "Fixd" in tag.grammemes or (tag.POS == "NOUN" and "Abbr" in tag.grammemes):
        masc_name = (
            phrase.gender == "m"
            and phrase.animate
            and text[-1].lower() in _HARD_CONSONANTS
            and tag.POS == "NOUN"
            and "femn" in tag.grammemes
        )
        if masc_name:  # a man's foreign name the dictionary knows as a woman's (Вирджил)
            return _Word(text, "masc")
        if not head_seen:
            phrase.gender = phrase.gender or _gender(tag)
            phrase.animate = tag.animacy == "anim" if tag.POS == "NOUN" else phrase.animate
        return _Word(text, "keep")
    if tag.POS == "NOUN":
        if head_seen:
            head = phrase.head
            if head is not None and (
                tag.number != head.number
                or (head.gender in ("masc", "femn") and str(tag.gender) != str(head.gender))
            ):
                return None  # not a name in apposition: a genitive («Командир Петрова»)
            return _Word(text, "noun", best)
        phrase.head = tag
        phrase.gender = _gender(tag)
        phrase.animate = tag.animacy == "anim"
        return _Word(text, "noun", best)
    if head_seen:
        return None
    return _Word(text, "adj", best)


@lru_cache(maxsize=2048)
def name_forms(name: str) -> NameForms:
    """``name`` (Russian, nominative) in every case, and the gender it agrees in."""
    parts = _split_parts(name)
    forms: dict[Case, list[str]] = {case: [] for case in CASES}
    gender: Gender | None = None
    for part, separator in parts:
        tokens = _TOKEN.findall(part)
        phrase = _plan(tokens)
        adjectives_only = phrase.head is None and any(
            w.kind == "adj" for w in phrase.words.values()
        )
        if adjectives_only:
            # a noun made of adjectives («Стальные», «Рядовой») names people
            first = next(w for w in phrase.words.values() if w.kind == "adj")
            phrase.gender = _gender(first.parse.tag)
            phrase.animate = True
        gender = phrase.gender or _gender_of_names(tokens) or gender
        for case in CASES:
            out: list[str] = []
            for index, token in enumerate(tokens):
                if index in phrase.inner:
                    out.append(f"{token[0]}{phrase.inner[index].case(case)}{token[-1]}")
                elif index in phrase.words:
                    word = phrase.words[index]
                    out.append(word.form(case, animate=phrase.animate, agree=phrase.head))
                else:
                    out.append(token)
            forms[case].append("".join(out) + separator)
    joined = tuple((case, "".join(forms[case])) for case in CASES)
    return NameForms(joined, gender or "m")


def _gender_of_names(tokens: list[str]) -> Gender | None:
    """The gender of the first capitalised word the dictionary knows as a person's name
    (for a name whose head does not decline: «Калами Джейн» is a woman)."""
    for token in tokens:
        if token[:1].isupper() and token.isalpha():
            for parse in _parses(token.lower()):
                if parse.tag.case == "nomn" and {"Name", "Surn"} & parse.tag.grammemes:
                    gender = _gender(parse.tag)
                    if gender in ("m", "f"):
                        return gender
    return None


def _split_parts(name: str) -> list[tuple[str, str]]:
    """``name`` cut at its top-level commas: (part, the comma and space after it)."""
    parts: list[tuple[str, str]] = []
    depth = 0
    start = 0
    for index, char in enumerate(name):
        if char in "«(„":
            depth += 1
        elif char in "»)“" and depth:
            depth -= 1
        elif char == "," and depth == 0:
            end = index + 1
            while end < len(name) and name[end] == " ":
                end += 1
            parts.append((name[start:index], name[index:end]))
            start = end
    parts.append((name[start:], ""))
    return parts


def inflect(name: str, case: Case) -> str:
    """``name`` in ``case`` (see :func:`name_forms`).

    >>> inflect("Лианра", "gen"), inflect("Малыш Билли", "ins")
    ('Лианры', 'Малышом Билли')
    >>> inflect("Странник барф-джат", "dat")
    'Страннику барф-джат'
    """
    return name_forms(name).case(case)


def agree(forms: Mapping[str, str], gender: str) -> str:
    """The form of a word that agrees with a name of ``gender``: ``m``/``f``/``n``/``pl``
    as given, else ``sg`` for any singular, else the first form.

    >>> agree({"m": "отступил", "f": "отступила", "n": "отступило", "pl": "отступили"}, "n")
    'отступило'
    >>> agree({"sg": "выбирает", "pl": "выбирают"}, "f")
    'выбирает'
    """
    if gender in forms:
        return forms[gender]
    if gender != "pl" and "sg" in forms:
        return forms["sg"]
    return next(iter(forms.values()), "")


__all__ = ["CASES", "GENDERS", "Case", "Gender", "NameForms", "agree", "inflect", "name_forms"]
