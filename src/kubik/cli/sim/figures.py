"""How the reports of ``kubik sim`` write their numbers: rates as percents, 95% intervals,
means with their intervals, paired differences in points, and the decimal comma of
Russian text where a report asks for it.

Every report (battles, bots, a search, a procedure) writes a figure the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def decimal_text(text: str, lang: str) -> str:
    """A number as the language writes it (a decimal comma in Russian)."""
    return text.replace(".", ",") if lang == "ru" else text


def bracket_text(low: str, high: str, lang: str) -> str:
    """Two ends of an interval in brackets. Russian numbers have a decimal comma, so
    their ends are parted by a semicolon: ``[20,1%; 30,2%]``."""
    return f"[{low}; {high}]" if lang == "ru" else f"[{low}, {high}]"


def percent_text(p: float, lang: str) -> str:
    """A rate as a percent with one decimal: ``12.5%`` (``12,5%`` in Russian)."""
    return decimal_text(f"{p:.1%}", lang)


def interval_text(pair: Sequence[float] | None, lang: str, percent: bool = True) -> str:
    """A 95% interval in brackets, of rates as percents (``percent``) or of plain numbers;
    a dash when there is none."""
    if pair is None:
        return "—"
    low, high = pair
    if percent:
        return bracket_text(percent_text(low, lang), percent_text(high, lang), lang)
    return bracket_text(decimal_text(f"{low:.2f}", lang), decimal_text(f"{high:.2f}", lang), lang)


def mean_text(stat: Mapping[str, Any], lang: str) -> str:
    """A mean with its 95% interval; a dash when nothing was counted."""
    if stat.get("mean") is None:
        return "—"
    mean = decimal_text(f"{stat['mean']:.2f}", lang)
    return f"{mean} {interval_text(stat['interval'], lang, percent=False)}"


def points_text(pair: Mapping[str, Any], lang: str, scale: float = 100.0, digits: int = 1) -> str:
    """A paired difference with its interval: ``+3.2 [−0.5, +6.9]`` (points of a rate)."""
    if pair.get("difference") is None:
        return "—"
    low, high = pair["interval"]

    def signed(value: float) -> str:
        return decimal_text(f"{value * scale:+.{digits}f}", lang)

    return f"{signed(pair['difference'])} {bracket_text(signed(low), signed(high), lang)}"


__all__ = [
    "bracket_text",
    "decimal_text",
    "interval_text",
    "mean_text",
    "percent_text",
    "points_text",
]
