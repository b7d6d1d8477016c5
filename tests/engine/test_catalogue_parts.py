"""The catalogues are read a part at a time (kubik's own, then a ruleset's as its ids
are asked for) and with kubik's own ``.po`` reader: both must give exactly what reading
every catalogue whole with Babel gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kubik.rulesets import registry as rulesets
from kubik.text import i18n
from kubik.text.po import po_messages

LANGS = ("en", "ru")


def _shipped(lang: str) -> list[Path]:
    files = sorted((i18n.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
    for ruleset in rulesets.ruleset_ids():
        files += rulesets.message_files(ruleset, lang)
    return files


def _babel(path: Path, lang: str) -> dict[str, str]:
    with path.open("rb") as handle:
        return {
            m.id: str(m.string)
            for m in read_po(handle, locale=lang)
            if m.id and isinstance(m.id, str) and m.string
        }


@pytest.mark.parametrize("lang", LANGS)
def test_every_shipped_catalogue_reads_as_babel_reads_it(lang: str) -> None:
    files = _shipped(lang)
    assert len(files) > 10
    for path in files:
        assert po_messages(path, lang) == _babel(path, lang), path


def test_a_catalogue_using_more_of_the_format_is_read_by_babel(tmp_path: Path) -> None:
    path = tmp_path / "x.po"
    path.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "a"\nmsgstr ""\n"tab\\there, "\n"\\"quoted\\""\n\n'
        'msgctxt "menu"\nmsgid "b"\nmsgstr "B"\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "1"\nmsgstr[1] "n"\n\n'
        '#~ msgid "gone"\n#~ msgstr "Gone"\n',
        encoding="utf-8",
    )
    assert po_messages(path, "en") == _babel(path, "en") == {"a": 'tab\there, "quoted"', "b": "B"}
    plain = tmp_path / "y.po"
    plain.write_text('# c\nmsgid "a"\nmsgstr "A \\\\ \\n"\n\nmsgid "e"\nmsgstr ""\n', "utf-8")
    assert po_messages(plain, "en") == _babel(plain, "en") == {"a": "A \\ \n"}


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_is_in_two_parts(lang: str) -> None:
    """An id in two parts could read differently by which parts were read first."""
    owner: dict[str, str] = {}
    parts = {"kubik": i18n._read_po(i18n._own_files(lang), lang)}
    for ruleset in rulesets.ruleset_ids():
        messages = i18n._read_po(rulesets.message_files(ruleset, lang), lang)
        assert not [m for m in messages if m.startswith(f"{ruleset}.term.")], ruleset
        parts[ruleset] = messages
        parts[f"{ruleset}.term"] = {
            m: t
            for term in i18n._terms(ruleset)
            for m, t in i18n._term_messages(term, lang).items()
        }
    for part, messages in parts.items():
        for message_id in messages:
            assert message_id not in owner, f"{message_id}: in {owner[message_id]} and {part}"
            owner[message_id] = part


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_is_in_two_files_of_a_part(lang: str) -> None:
    """A part's files are read one at a time, as far as the id asked: an id in two of
    them could read differently by how far the reading had gone."""
    parts = {"kubik": i18n._own_files(lang)}
    for ruleset in rulesets.ruleset_ids():
        parts[ruleset] = rulesets.message_files(ruleset, lang)
    for part, files in parts.items():
        owner: dict[str, str] = {}
        for path in files:
            for message_id in po_messages(path, lang):
                assert message_id not in owner, f"{part}: {message_id} in {owner[message_id]}"
                owner[message_id] = path.name


def test_an_id_reads_its_parts_files_only_as_far_as_it_is() -> None:
    asked = i18n._Catalogue("en")
    assert asked.get("cli.odds.exact_title") == "exact odds"
    assert asked._unread is not None
    assert asked._unread[""]  # kubik's own catalogues after the command line's: unread
    first = sorted(rulesets.message_files("steel_war", "en"))[0]
    message_id = next(iter(po_messages(first, "en")))
    assert asked.get(message_id) == i18n._Catalogue("en")._all()[message_id]
    assert asked._unread["steel_war"]  # the ruleset's further catalogues: unread
    assert asked._rulesets_read == {"steel_war"}


@pytest.mark.parametrize("lang", LANGS)
def test_read_by_parts_is_read_whole(lang: str) -> None:
    whole = i18n._Catalogue(lang)
    every = dict(whole.items())
    by_prefix: dict[str, list[str]] = {}
    for message_id in every:
        ruleset, _, rest = message_id.partition(".")
        part = f"{ruleset}.term" if rest.startswith("term.") else ruleset
        by_prefix.setdefault(part, []).append(message_id)
    for ids in by_prefix.values():
        by_parts = i18n._Catalogue(lang)  # read afresh for each ruleset's ids
        assert {m: by_parts.get(m) for m in ids} == {m: every[m] for m in ids}
    asked = i18n._Catalogue(lang)
    term = "steel_war.term.melee.close_combat"
    assert asked.get(term) == every[term]
    assert asked._whole is None  # one ruleset's term reads that ruleset's glossary alone
    assert asked._rulesets_read == {"steel_war.term"}
    assert asked.get("kubik.no.such.message") is None
    assert dict(asked.items()) == every
