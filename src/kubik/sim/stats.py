"""The statistics a simulation reports: rates with Wilson intervals, means with normal
intervals, distributions, and the chi-square test against exact odds.

Every interval is 95%: a rate's is Wilson's score interval (right near 0 and 1, where
the normal one is not), a mean's is the normal one over the games (the games are
independent, and there are many). The chi-square survival function is the regularised
upper incomplete gamma function, computed here so that the runtime needs no SciPy
(the tests check it against SciPy).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kubik.engine.simulate import Z95, wilson_interval


def rate(successes: int, n: int) -> dict[str, Any]:
    """``{"n", "p", "interval": [low, high]}`` of a proportion (rounded for JSON).

    >>> rate(50, 100)
    {'n': 50, 'p': 0.5, 'interval': [0.403832, 0.596168]}
    """
    low, high = wilson_interval(successes, n)
    return {
        "n": successes,
        "p": round(successes / n, 6) if n else 0.0,
        "interval": [round(low, 6), round(high, 6)],
    }


def interval_of_rate(successes: int, n: int) -> list[float]:
    """The 95% Wilson interval as ``[low, high]``, rounded for JSON."""
    low, high = wilson_interval(successes, n)
    return [round(low, 6), round(high, 6)]


#: The percentiles a distribution reports (the mean hides a long tail).
PERCENTILES = (10, 25, 50, 75, 90)


def percentiles(values: Sequence[int]) -> dict[str, float]:
    """``{"p10", "p25", "p50", "p75", "p90"}``: the values below which that share of the
    games fall (linear interpolation between the games' values, as numpy's default).

    >>> percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    {'p10': 2.0, 'p25': 3.5, 'p50': 6.0, 'p75': 8.5, 'p90': 10.0}
    """
    ordered = sorted(values)
    out: dict[str, float] = {}
    for q in PERCENTILES:
        position = (len(ordered) - 1) * q / 100
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        value = ordered[low] + (ordered[high] - ordered[low]) * (position - low)
        out[f"p{q}"] = round(value, 6)
    return out


def paired_difference(cell: Sequence[float], baseline: Sequence[float]) -> dict[str, Any]:
    """The mean of ``cell[j] - baseline[j]`` over games played with the same seeds, with
    its 95% interval (normal, from the spread of the paired differences).

    Common random numbers make the two games of a pair share their dice as far as the
    change lets them, so the differences spread far less than two independent samples
    would: the interval is much narrower than the two rates' intervals side by side. It
    is kept within the widest difference the values seen allow (a rate's within ±1), as a
    few games' normal interval can reach past it.

    >>> paired_difference([1, 1, 0, 1], [0, 1, 0, 1])
    {'difference': 0.25, 'interval': [-0.239991, 0.739991], 'pairs': 4}
    >>> paired_difference([0, 0, 0, 1], [1, 1, 1, 0])["interval"]
    [-1.0, 0.479982]
    """
    diffs = [a - b for a, b in zip(cell, baseline, strict=True)]
    if not diffs:
        return {"difference": None, "interval": None, "pairs": 0}
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(diffs))
    lowest = float(min(cell)) - float(max(baseline))
    highest = float(max(cell)) - float(min(baseline))
    return {
        "difference": round(mean, 6),
        "interval": [round(max(mean - half, lowest), 6), round(min(mean + half, highest), 6)],
        "pairs": len(diffs),
    }


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """Mean (with its 95% interval, kept within the values seen), standard deviation,
    min, median, max, percentiles and the count of each value, of a whole-number
    quantity over the games.

    >>> d = distribution([1, 2, 2, 3])
    >>> d["mean"], d["interval"], d["median"], d["counts"]
    (2.0, [1.199848, 2.800152], 2.0, {'1': 1, '2': 2, '3': 1})
    >>> d["percentiles"]
    {'p10': 1.3, 'p25': 1.75, 'p50': 2.0, 'p75': 2.25, 'p90': 2.7}
    """
    if not values:
        return {
            "mean": None,
            "interval": None,
            "sd": None,
            "min": None,
            "median": None,
            "max": None,
            "percentiles": None,
            "counts": {},
        }
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(values))
    counts = Counter(values)
    low, high = max(min(values), mean - half), min(max(values), mean + half)
    return {
        "mean": round(mean, 6),
        "interval": [round(low, 6), round(high, 6)],
        "sd": round(sd, 6),
        "min": min(values),
        "median": float(statistics.median(values)),
        "max": max(values),
        "percentiles": percentiles(values),
        "counts": {str(v): counts[v] for v in sorted(counts)},
    }


def _lower_gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (Lentz; converges fast for x ≥ a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(statistic: float, dof: int) -> float:
    """P(χ² with ``dof`` degrees of freedom ≥ ``statistic``).

    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(0.0, 3), 6)
    (0.05, 1.0)
    """
    if dof < 1:
        raise ValueError("dof must be at least 1")
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_gamma_series(a, x))
    return min(1.0, _upper_gamma_fraction(a, x))


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's goodness of fit: (statistic, degrees of freedom, p-value).

    Categories expected fewer than 5 times are pooled (from the rarest up) so the
    chi-square approximation holds; with a single category left the fit is perfect.
    """
    pairs = sorted(zip(expected, observed, strict=True))
    pooled: list[tuple[float, int]] = []
    carry_e, carry_o = 0.0, 0
    for e, o in pairs:
        carry_e += e
        carry_o += o
        if carry_e >= 5.0:
            pooled.append((carry_e, carry_o))
            carry_e, carry_o = 0.0, 0
    if carry_e > 0 or carry_o:
        if pooled:
            e, o = pooled.pop()
            pooled.append((e + carry_e, o + carry_o))
        else:
            pooled.append((carry_e, carry_o))
    if len(pooled) < 2:
        return 0.0, 0, 1.0
    statistic = sum((o - e) ** 2 / e for e, o in pooled if e > 0)
    dof = len(pooled) - 1
    return statistic, dof, chi2_sf(statistic, dof)


__all__ = [
    "PERCENTILES",
    "chi2_sf",
    "chi_square",
    "distribution",
    "interval_of_rate",
    "paired_difference",
    "percentiles",
    "rate",
]
