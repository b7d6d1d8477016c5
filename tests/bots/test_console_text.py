"""Every text the terminal shows exists in English and Russian."""

from __future__ import annotations

import re
from pathlib import Path

from kubik.cli.console.parse import CONTROLLER_KINDS
from kubik.text.i18n import catalogue, missing_messages

SOURCES = [
    Path(__file__).resolve().parents[2] / "src" / "kubik" / name
    for name in ("cli/play.py", "cli/demo.py", "cli/console/prompt.py", "cli/console/render.py")
]


def used_message_ids() -> set[str]:
    ids: set[str] = set()
    for path in SOURCES:
        ids |= set(re.findall(r'"(console\.[a-z_.]+[a-z_])"', path.read_text(encoding="utf-8")))
    ids |= {f"console.controller.{kind}" for kind in CONTROLLER_KINDS}
    return ids


def test_every_console_message_has_english_and_russian() -> None:
    ids = used_message_ids()
    assert {"console.roll.ask", "console.choose.ask", "console.help"} <= ids
    assert missing_messages(ids) == {"en": set(), "ru": set()}


def test_both_catalogues_hold_the_same_console_messages() -> None:
    en = {m for m in catalogue("en") if m.startswith("console.")}
    ru = {m for m in catalogue("ru") if m.startswith("console.")}
    assert en == ru
    assert len(en) > 50
