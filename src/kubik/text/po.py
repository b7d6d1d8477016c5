"""Reading kubik's ``.po`` message catalogues quickly, exactly as Babel reads them.

Text for people needs the translated messages of a few catalogues, and a first
``kubik odds`` question that prints text would otherwise spend a tenth of its time in
Babel's reader (and its imports). kubik's catalogues use a small part of the format:
comments, and ``msgid``/``msgstr`` pairs of quoted strings over one or more lines.
:func:`po_messages` reads that part itself and hands any file using more (plural forms,
contexts, obsolete entries, another charset, a repeated id, anything it does not
know) to Babel whole; ``tests/text/test_po_reader.py`` checks that both read every
shipped catalogue the same.
"""

from __future__ import annotations

import re
from pathlib import Path

#: Babel's escapes in a quoted string (``babel.messages.pofile.unescape``).
_ESCAPE = re.compile(r'\\([\\abfnrtv"])')
_ESCAPED = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_CHARSET = re.compile(rb"charset=([A-Za-z0-9_-]+)")


class _Unusual(Exception):
    """A catalogue using more of the format than :func:`_read` reads."""


def po_messages(path: Path, lang: str) -> dict[str, str]:
    """The translated messages of one catalogue: msgid → msgstr, the header and the
    messages without a translation left out."""
    data = path.read_bytes()
    try:
        return _read(data)
    except _Unusual:
        return _read_with_babel(path, lang)


def _unquote(part: str) -> str:
    inner = part[1:-1]
    if "\\" not in inner:
        return inner
    return _ESCAPE.sub(lambda m: _ESCAPED.get(m[1], m[1]), inner)


def _read(data: bytes) -> dict[str, str]:
    charset = _CHARSET.search(data)
    if charset is not None and charset[1].lower().replace(b"-", b"") != b"utf8":
        raise _Unusual
    messages: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None

    def finish() -> None:
        if msgid is None:
            return
        if msgstr is None:
            raise _Unusual  # (Babel warns and reads an empty translation)
        key = "".join(map(_unquote, msgid))
        if key in seen:
            raise _Unusual  # a repeated id: Babel keeps the first one's translation
        seen.add(key)
        text = "".join(map(_unquote, msgstr))
        if key and text:
            messages[key] = text

    seen: set[str] = set()
    for raw in data.splitlines():
        stripped = raw.strip()
        if not stripped:
            continue
        line = stripped.decode("utf-8")
        if line[0] == "#":
            if line[1:2] in ("~", "-"):
                raise _Unusual
            finish()
            msgid = msgstr = current = None
            continue
        if line[0] == '"':
            if current is None:
                raise _Unusual
            current.append(line)
            continue
        keyword, _, argument = line.partition(" ")
        if keyword == "msgid":
            finish()
            msgid, msgstr = [argument.strip()], None
            current = msgid
        elif keyword == "msgstr" and msgid is not None and msgstr is None:
            argument = argument.strip()
            msgstr = [argument] if argument != '""' else []
            current = msgstr
        else:
            raise _Unusual
    finish()
    return messages


def _read_with_babel(path: Path, lang: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    messages: dict[str, str] = {}
    with path.open("rb") as handle:
        for message in read_po(handle, locale=lang):
            if message.id and isinstance(message.id, str) and message.string:
                messages[message.id] = str(message.string)
    return messages


__all__ = ["po_messages"]
