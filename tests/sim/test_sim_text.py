"""Every text ``kubik sim`` shows exists in English and Russian."""

from __future__ import annotations

import re
from pathlib import Path

from kubik.engine.requests import msg
from kubik.text.i18n import catalogue, missing_messages, render

SOURCE = Path(__file__).resolve().parents[2] / "src" / "kubik"
UNIT_COLUMNS = ("unit", "side", "models", "kills", "lost", "routed", "wiped_out")


def used_message_ids() -> set[str]:
    ids: set[str] = set()
    for path in [
        *sorted((SOURCE / "cli" / "sim").glob("*.py")),
        *sorted((SOURCE / "sim").glob("*.py")),
    ]:
        ids |= set(re.findall(r'"(sim\.[a-z_.]+[a-z_])"', path.read_text(encoding="utf-8")))
    return ids | {f"sim.column.{key}" for key in UNIT_COLUMNS}


def test_every_sim_message_has_english_and_russian() -> None:
    ids = used_message_ids()
    assert {"sim.header", "sim.exact.agrees", "sim.backend.local", "sim.plot.heatmap"} <= ids
    assert missing_messages(ids) == {"en": set(), "ru": set()}


def test_both_catalogues_hold_the_same_sim_messages() -> None:
    en = {m for m in catalogue("en") if m.startswith("sim.")}
    ru = {m for m in catalogue("ru") if m.startswith("sim.")}
    assert en == ru == used_message_ids()


def test_russian_counts_agree_with_their_numbers() -> None:
    backend = [render(msg("sim.backend.local", n=n), "ru") for n in (1, 2, 5)]
    assert backend == ["1 локальный процесс", "2 локальных процесса", "5 локальных процессов"]
    header = render(msg("sim.header", scenario="x", runs=21, seed=1, bots=""), "ru")
    assert "21 партия" in header
    assert render(msg("sim.backend.local", n=1), "en") == "1 local process"
