"""Bot robustness: the same job under each bot, and the conclusions that change with it.

A balance conclusion drawn from bot games is only as good as the bots: a change that
helps a side under a weak bot may hurt it under a strong one (a bot that never uses a
rule cannot show what the rule is worth). ``kubik sim --bots heuristic,random`` plays
the same job (the same cells, the same seeds) once per bot, every side played by that
bot, and compares what each run concludes:

* in a sweep, for every cell but the baseline and every side: does the change raise
  the side's win rate (``up``: the paired 95% interval of the difference from the
  baseline lies above 0), lower it (``down``), or is it ``unclear``;
* without a sweep, for every side: does it win more than half the games (``above``),
  fewer (``below``), or is it ``unclear``.

A conclusion ``flips`` when one bot says up (above) and another down (below); it
``depends`` on the bot when one bot is sure and another is not; it ``holds`` when
every bot agrees on a definite answer, and stays ``unclear`` when none is sure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from kubik.core.errors import InputError

Conclusion = Literal["up", "down", "above", "below", "unclear"]
Flag = Literal["flips", "depends", "holds", "unclear"]

_OPPOSITE = {"up": "down", "down": "up", "above": "below", "below": "above"}


def parse_bots(text: str, known: Sequence[str]) -> tuple[str, ...]:
    """``heuristic,random`` → the bots, in order (two or more, each known, none twice).

    >>> parse_bots("heuristic, random", ("heuristic", "random", "default"))
    ('heuristic', 'random')
    """
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    allowed = ", ".join(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(f"--bots: unknown bot '{unknown[0]}'; bots: {allowed}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise InputError(
            f"--bots: give two or more different bots, e.g. heuristic,random; bots: {allowed}"
        )
    return names


def _direction(interval: Sequence[float] | None, middle: float, up: str, down: str) -> str:
    if interval is None:
        return "unclear"
    low, high = interval
    if low > middle:
        return up
    if high < middle:
        return down
    return "unclear"


def flag(conclusions: Sequence[str]) -> Flag:
    """What the bots' conclusions on one question say together.

    >>> flag(["up", "down"]), flag(["up", "unclear"]), flag(["up", "up"]), flag(["unclear"] * 2)
    ('flips', 'depends', 'holds', 'unclear')
    """
    sure = [c for c in conclusions if c != "unclear"]
    if any(_OPPOSITE[c] in sure for c in sure):
        return "flips"
    if not sure:
        return "unclear"
    return "holds" if len(sure) == len(conclusions) else "depends"


def compare_bots(reports: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every question each bot's report answers, each bot's answer, and the flag.

    ``reports``: bot → the report of the same job played by that bot (:func:`sim_report`).
    """
    bots = list(reports)
    first = reports[bots[0]]
    sides = list(first["wins"])
    rows: list[dict[str, Any]] = []
    if "cells" not in first:
        for side in sides:
            by_bot = {
                bot: {
                    "conclusion": _direction(reports[bot]["win_rate"][side], 0.5, "above", "below"),
                    "p": reports[bot]["p"][side] if "p" in reports[bot] else None,
                    "interval": reports[bot]["win_rate"][side],
                }
                for bot in bots
            }
            rows.append(_row(None, {}, side, by_bot))
        return rows
    for index, cell in enumerate(first["cells"]):
        if cell["paired"] is None:
            continue
        for side in sides:
            by_bot = {}
            for bot in bots:
                paired = reports[bot]["cells"][index]["paired"]["win_rate"][side]
                by_bot[bot] = {
                    "conclusion": _direction(paired["interval"], 0.0, "up", "down"),
                    "difference": paired["difference"],
                    "interval": paired["interval"],
                }
            rows.append(_row(index, cell["label"], side, by_bot))
    return rows


def _row(
    cell: int | None, label: Mapping[str, str], side: str, by_bot: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        "cell": cell,
        "label": dict(label),
        "side": side,
        "bots": dict(by_bot),
        "flag": flag([answer["conclusion"] for answer in by_bot.values()]),
    }


__all__ = ["compare_bots", "flag", "parse_bots"]
