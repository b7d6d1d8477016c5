"""Checks a Russian catalogue for names inserted in the wrong case or without agreement.

Point it at any ``.po`` file (``python -m tests.russian_lint path/to/ru/.../x.po
[--names a,b]``) or call :func:`catalogue_problems` from a test. It finds:

* **case**: a name parameter right after a preposition that governs an oblique case,
  with no case specifier (``по {target}`` should be ``по {target:dat}``);
* **agreement**: a name parameter that opens a clause and is followed by a past-tense
  verb or a short adjective/participle with a gender (``{squad} залегло``,
  ``{model} выведен``) where the template never asks for ``{squad:agree:...}``.

Which parameters are names is not written in a template (``{target}`` is a unit in
one message and a die roll in another), so the caller says: either a set of
parameter names, or, per message, the parameters that were seen holding a name
(:func:`names_in_messages` collects them from played games).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from kubik.engine.requests import Message
from kubik.text.i18n import NAME_ID

#: Prepositions and the oblique case each one takes with a name («в» and «на» take
#: the accusative or the locative: the fix says "acc/loc").
PREPOSITIONS: Mapping[str, str] = {
    "без": "gen",
    "для": "gen",
    "до": "gen",
    "из": "gen",
    "из-за": "gen",
    "из-под": "gen",
    "от": "gen",
    "у": "gen",
    "около": "gen",
    "возле": "gen",
    "вокруг": "gen",
    "после": "gen",
    "против": "gen",
    "среди": "gen",
    "кроме": "gen",
    "вместо": "gen",
    "ради": "gen",
    "мимо": "gen",
    "к": "dat",
    "ко": "dat",
    "по": "dat",
    "благодаря": "dat",
    "навстречу": "dat",
    "через": "acc",
    "про": "acc",
    "сквозь": "acc",
    "в": "acc/loc",
    "во": "acc/loc",
    "на": "acc/loc",
    "за": "acc/ins",
    "под": "acc/ins",
    "с": "ins/gen",
    "со": "ins/gen",
    "над": "ins",
    "перед": "ins",
    "между": "ins",
    "о": "loc",
    "об": "loc",
    "обо": "loc",
    "при": "loc",
}

#: Parameter names that hold a unit, model, side or other name in the engine, game
#: and console catalogues (a ruleset's catalogue is checked with the names its games
#: actually pass: see :func:`names_in_messages`).
DEFAULT_NAMES: frozenset[str] = frozenset(
    {"a", "b", "attacker", "defender", "loser", "model", "scenario", "shooter", "side"}
    | {"squad", "target", "unit", "vehicle", "victim", "winner", "who", "officer", "hero"}
)

_FIELD = re.compile(r"\{(\w+)(?::([^{}]*(?:\{[^{}]*\}[^{}]*)*))?\}")
_WORD_BEFORE = re.compile(r"([\w-]+)[\s«\"„]*$")
_CLAUSE_START = re.compile(r"(^|[.:;!?(—–,«]\s*)$")
_WORD_AFTER = re.compile(r"^[\s»\"“]*((?:не|уже|ещё|снова|тоже|всё|так и)\s+)*([\w-]+)")


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: the message, the parameter, what is wrong and the suggested fix."""

    message_id: str
    param: str
    kind: str  # "case" or "agreement"
    text: str

    def __str__(self) -> str:
        return f"{self.message_id}: {{{self.param}}} {self.text}"


def _fields(template: str) -> list[tuple[int, int, str, str]]:
    return [(m.start(), m.end(), m.group(1), m.group(2) or "") for m in _FIELD.finditer(template)]


def case_problems(message_id: str, template: str, names: Collection[str]) -> list[Problem]:
    """Names after a preposition that governs an oblique case, with no case specifier."""
    problems: list[Problem] = []
    for start, _end, param, spec in _fields(template):
        if param not in names or spec.split(":")[0] in ("gen", "dat", "acc", "ins", "loc"):
            continue
        before = _WORD_BEFORE.search(template[:start])
        if before is None:
            continue
        preposition = before.group(1).lower()
        if preposition in PREPOSITIONS:
            case = PREPOSITIONS[preposition]
            text = f"after «{preposition}» needs a case: {{{param}:{case.split('/')[0]}}}"
            if "/" in case:
                text += f" (or {case}, as the sense requires)"
            problems.append(Problem(message_id, param, "case", text))
    return problems


@cache
def _gendered_predicate(word: str) -> str | None:
    """The gender a past-tense verb or a short adjective/participle shows, if any."""
    from kubik.text.russian import _parses  # the same cached analyser as rendering

    for parse in _parses(word.lower()):
        tag = parse.tag
        past_verb = tag.POS == "VERB" and tag.tense == "past"
        short = tag.POS in ("ADJS", "PRTS")
        if (past_verb or short) and parse.score >= 0.2 and tag.number == "sing":
            return str(tag.gender)
    return None


def agreement_problems(message_id: str, template: str, names: Collection[str]) -> list[Problem]:
    """Names followed by a verb or short form with a fixed gender, never agreed."""
    problems: list[Problem] = []
    agreed = {param for _s, _e, param, spec in _fields(template) if spec.startswith("agree:")}
    for start, end, param, spec in _fields(template):
        if param not in names or param in agreed or spec.startswith(("agree:", "plural:")):
            continue
        if not _CLAUSE_START.search(template[:start]):
            continue  # not the subject: «у стороны {side} не осталось»
        after = _WORD_AFTER.search(template[end:])
        if after is None:
            continue
        word = after.group(2)
        gender = _gendered_predicate(word)
        if gender is not None:
            text = (
                f"«{word}» is {gender}: a name of another gender needs "
                f"{{{param}:agree:m=…|f=…|n=…|pl=…}}"
            )
            problems.append(Problem(message_id, param, "agreement", text))
    return problems


def template_problems(message_id: str, template: str, names: Collection[str]) -> list[Problem]:
    """Every case and agreement problem of one Russian template."""
    return case_problems(message_id, template, names) + agreement_problems(
        message_id, template, names
    )


def read_catalogue(path: Path) -> dict[str, str]:
    """msgid → msgstr of a ``.po`` file."""
    with path.open("rb") as handle:
        return {
            str(m.id): str(m.string)
            for m in read_po(handle, locale="ru")
            if m.id and isinstance(m.id, str) and m.string
        }


def catalogue_problems(
    path: Path, names: Collection[str] | Mapping[str, Collection[str]] = DEFAULT_NAMES
) -> list[Problem]:
    """Every problem of a Russian catalogue; ``names`` is one set of name parameters for
    every message, or per message id (a message not in the mapping is not checked)."""
    problems: list[Problem] = []
    for message_id, template in read_catalogue(path).items():
        message_names = names.get(message_id, ()) if isinstance(names, Mapping) else names
        problems += template_problems(message_id, template, message_names)
    return problems


def _is_name(value: Any) -> bool:
    if isinstance(value, tuple | list):
        return bool(value) and all(_is_name(v) for v in value)
    return isinstance(value, Message) and value.id == NAME_ID


def names_in_messages(messages: Iterable[Message]) -> dict[str, set[str]]:
    """For each message id, the parameters seen holding a name (nested messages too)."""
    found: dict[str, set[str]] = {}
    stack = list(messages)
    while stack:
        message = stack.pop()
        for key, value in message.params:
            if _is_name(value):
                found.setdefault(message.id, set()).add(key)
            for item in value if isinstance(value, tuple | list) else (value,):
                if isinstance(item, Message) and item.id != NAME_ID:
                    stack.append(item)
    return found


def main(argv: list[str]) -> int:
    """``python -m tests.russian_lint FILE.po [--names a,b,c]``: print the findings."""
    names: Collection[str] = DEFAULT_NAMES
    if "--names" in argv:
        index = argv.index("--names")
        names = set(argv[index + 1].split(","))
        argv = argv[:index] + argv[index + 2 :]
    count = 0
    for file in argv:
        for problem in catalogue_problems(Path(file), names):
            print(f"{Path(file).name}: {problem}")
            count += 1
    return 1 if count else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
