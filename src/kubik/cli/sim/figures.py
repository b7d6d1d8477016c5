"""How the reports of ``kubik sim`` write their numbers: rates as percents, 95% intervals,
means with their intervals, paired differences in points, and the decimal comma of
Russian text where a report asks for it.

Every report (battles, bots, a search, a procedure) writes a figure the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def percent_text(p: float) -> str:
    """A rate as a percent with one decimal: ``12.5%``."""
    return f"{p:.1%}"


def interval_text(pair: Sequence[float] | None, percent: bool = True) -> str:
    """A 95% interval in brackets, of rates as percents (``percent``) or of plain numbers;
    a dash when there is none."""
    if pair is None:
        return "—"
    low, high = pair
    return f"[{low:.1%}, {high:.1%}]" if percent else f"[{low:.2f}, {high:.2f}]"


def mean_text(stat: Mapping[str, Any]) -> str:
    """A mean with its 95% interval; a dash when nothing was counted."""
    if stat.get("mean") is None:
        return "—"
    return f"{stat['mean']:.2f} {interval_text(stat['interval'], percent=False)}"


def decimal_text(text: str, lang: str) -> str:
    """A number as the language writes it (a decimal comma in Russian)."""
    return text.replace(".", ",") if lang == "ru" else text


def points_text(pair: Mapping[str, Any], lang: str, scale: float = 100.0, digits: int = 1) -> str:
    """A paired difference with its interval: ``+3.2 [−0.5, +6.9]`` (points of a rate)."""
    if pair.get("difference") is None:
        return "—"
    low, high = pair["interval"]
    shown = (
        f"{pair['difference'] * scale:+.{digits}f} "
        f"[{low * scale:+.{digits}f}, {high * scale:+.{digits}f}]"
    )
    return decimal_text(shown, lang)


__all__ = ["decimal_text", "interval_text", "mean_text", "percent_text", "points_text"]
