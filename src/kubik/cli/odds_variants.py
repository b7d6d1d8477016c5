"""``kubik odds ... --vs`` and ``--over``: variants side by side, one input swept.

The numbers come from :mod:`kubik.api.variants` (the web page shows the same); here
they become a table for people — each field's mean and "at least" odds per variant
with the difference, or per swept value with a bar chart of the mean drawn in the
terminal — and, with ``--plot``, a chart file drawn by matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kubik.api.odds_words import field_label, percent
from kubik.api.question_words import split_variant
from kubik.api.variants import compare_inputs, sweep
from kubik.api.words import say
from kubik.core.errors import InputError
from kubik.engine.requests import msg

#: "At least" rows per field at most (the likeliest thresholds).
THRESHOLDS = 6
#: Width of a bar of the terminal chart, in characters.
BAR = 6
#: Chances below this do not earn an "at least" row.
NEGLIGIBLE = 0.0005


def answer_variants(
    procedure: str,
    data: dict[str, Any],
    vs: Sequence[str],
    over: str | None,
    plot: str | None,
    policy: str,
    emit_json: Callable[[Any], None] | None,
    lang: str,
) -> None:
    """Answer ``--vs`` / ``--over`` (and ``--plot``) for the question ``data``; in JSON
    through ``emit_json`` when it is given."""
    if plot is not None and over is None:
        raise InputError(msg("cli.variants.plot_without_over"))
    if plot is not None and Path(plot).suffix.lower() not in (".png", ".svg"):
        raise InputError(msg("cli.variants.plot_kind", path=plot))
    result: dict[str, Any] = {}
    if vs:
        result["compare"] = compare_inputs(
            procedure, data, [split_variant(v) for v in vs], policy, lang
        )
    if over is not None:
        result["sweep"] = sweep(procedure, data, over, policy, lang)
    if plot is not None:
        draw_sweep(result["sweep"], Path(plot), lang)
    if emit_json is not None:
        emit_json(result if len(result) > 1 else next(iter(result.values())))
        return
    from kubik.cli.console.results import console_for_people

    console = console_for_people()
    if "compare" in result:
        console.print(compare_table(result["compare"], lang))
    if "sweep" in result:
        console.print(sweep_table(result["sweep"], lang))
    if plot is not None:
        console.print(say("cli.variants.plot_saved", lang, path=plot))


def thresholds(answers: Sequence[Mapping[str, Any]], field: str) -> list[int]:
    """The "at least" values worth a row for ``field``: above its lowest value, where
    some answer's chance is not negligible nor certain (at most :data:`THRESHOLDS`)."""
    values: set[int] = set()
    lowest = min(
        (row["value"] for a in answers if field in a for row in a[field]["values"]), default=0
    )
    for answer in answers:
        for row in answer.get(field, {}).get("values", ()):
            if row["value"] > lowest and NEGLIGIBLE <= row["p_at_least"] < 1:
                values.add(row["value"])
    return sorted(values)[:THRESHOLDS]


def _at_least(fields: Mapping[str, Any], field: str, value: int) -> float:
    """P(field ≥ value) in one answer's marginals."""
    rows = fields.get(field, {}).get("values", ())
    return float(sum(row["p"] for row in rows if row["value"] >= value))


def _chance(fields: Mapping[str, Any], field: str, value: Any) -> float:
    """P(field = value) in one answer's marginals."""
    rows = fields.get(field, {}).get("values", ())
    return float(sum(row["p"] for row in rows if row["value"] == value))


def _choices(answers: Sequence[Mapping[str, Any]], field: str) -> list[tuple[Any, str]]:
    """The values a non-numeric field takes in any answer (with their words for
    people), likeliest first."""
    seen: list[tuple[Any, str]] = []
    for answer in answers:
        for row in answer.get(field, {}).get("values", ()):
            if all(row["value"] != value for value, _ in seen):
                seen.append((row["value"], row.get("text", str(row["value"]))))
    return seen


def _is_choice(answers: Sequence[Mapping[str, Any]], field: str) -> bool:
    return any(a.get(field, {}).get("choice") for a in answers)


def _mean(fields: Mapping[str, Any], field: str) -> float:
    return float(fields.get(field, {}).get("e", 0.0))


def _decimal(text: str, lang: str) -> str:
    """A number written for people in ``lang``: a decimal comma in Russian (0,44; 57,1%)."""
    return text if lang == "en" else text.replace(".", ",")


def _share(p: float, lang: str) -> str:
    return _decimal(percent(p), lang)


def _signed(number: float, as_percent: bool, lang: str) -> str:
    """A difference with its sign; of chances in percentage points."""
    if as_percent:
        points = number * 100
        if abs(points) < 0.05:
            return "0"
        return say("cli.variants.points", lang, value=_decimal(f"{points:+.1f}", lang))
    return _decimal(f"{number:+.2f}", lang) if abs(number) >= 0.005 else "0"


def compare_table(found: Mapping[str, Any], lang: str) -> Any:
    """Variants side by side: rows per field (mean, then "at least" odds), a column per
    variant and the difference of each from the question as asked."""
    from rich.table import Table

    variants = found["variants"]
    fields = [a["fields"] for a in variants]
    title = say("cli.variants.title", lang, name=found["procedure"], policy=found["policy"])
    table = Table(title=title)
    table.add_column("")
    for answer in variants:
        table.add_column(answer["label"] or say("cli.variants.question", lang), justify="right")
    for answer in variants[1:]:
        head = say("cli.variants.difference", lang)
        label = f"{head}: {answer['label']}" if len(variants) > 2 else head
        table.add_column(label, justify="right")
    names = list(dict.fromkeys(name for f in fields for name in f))
    for name in names:
        label = field_label(name, lang)
        if _is_choice(fields, name):
            for value, text in _choices(fields, name):
                odds = [_chance(f, name, value) for f in fields]
                table.add_row(
                    f"{label} = {text}",
                    *(_share(p, lang) for p in odds),
                    *(_signed(p - odds[0], True, lang) for p in odds[1:]),
                )
            continue
        means = [_mean(f, name) for f in fields]
        table.add_row(
            say("cli.variants.mean", lang, field=label),
            *(_decimal(f"{m:.2f}", lang) for m in means),
            *(_signed(m - means[0], False, lang) for m in means[1:]),
        )
        for value in thresholds(fields, name):
            odds = [_at_least(f, name, value) for f in fields]
            table.add_row(
                say("cli.variants.at_least", lang, field=label, v=value),
                *(_share(p, lang) for p in odds),
                *(_signed(p - odds[0], True, lang) for p in odds[1:]),
            )
    return table


def _bar(share: float) -> str:
    """A bar of ``share`` of :data:`BAR` characters, in eighths."""
    eighths = round(max(0.0, min(1.0, share)) * BAR * 8)
    whole, part = divmod(eighths, 8)
    return "█" * whole + ("▏▎▍▌▋▊▉"[part - 1] if part else "")


def sweep_table(found: Mapping[str, Any], lang: str) -> Any:
    """The sweep: a row per value, for each field its mean (with a bar: the terminal
    chart) and its "at least" odds."""
    from rich.table import Table

    points = found["points"]
    fields = [p["fields"] for p in points]
    low, high = points[0]["value"], points[-1]["value"]
    title = say(
        "cli.variants.sweep_title",
        lang,
        name=found["procedure"],
        field=found["field"],
        low=low,
        high=high,
        policy=found["policy"],
    )
    table = Table(title=title, caption=say("cli.variants.sweep_caption", lang), show_edge=False)
    table.add_column(found["field"], justify="right", no_wrap=True, min_width=len(str(high)))
    names = list(dict.fromkeys(name for f in fields for name in f))
    columns: list[tuple[str, Any]] = []
    numeric = [name for name in names if not _is_choice(fields, name)]
    for name in names:
        label = field_label(name, lang)
        if _is_choice(fields, name) and numeric:  # the numbers say it; a row stays short
            continue
        if _is_choice(fields, name):
            for choice, text in _choices(fields, name)[:1]:
                table.add_column(f"{label} = {text}", justify="right")
                columns.append((name, ("=", choice)))
            continue
        table.add_column(label, no_wrap=True, min_width=5 + BAR)
        columns.append((name, None))
        for value in thresholds(fields, name)[:1]:
            table.add_column(f"≥ {value}", justify="right", no_wrap=True, min_width=5)
            columns.append((name, value))
    tops = {name: max((_mean(f, name) for f in fields), default=0.0) or 1.0 for name in names}
    cells: list[str]
    for point, answer in zip(points, fields, strict=True):
        cells = [str(point["value"])]
        if "error" in point:
            table.add_row(*cells, *(["—"] * (len(table.columns) - 1)))
            continue
        for name, value in columns:
            if value is None:
                mean = _mean(answer, name)
                cells.append(_decimal(f"{mean:5.2f} {_bar(mean / tops[name])}", lang))
            elif isinstance(value, tuple):
                cells.append(_share(_chance(answer, name, value[1]), lang))
            else:
                cells.append(_share(_at_least(answer, name, value), lang))
        table.add_row(*cells)
    return table


def draw_sweep(found: Mapping[str, Any], path: Path, lang: str) -> None:
    """The sweep as a chart file: each field's mean (left axis) and its first "at least"
    odds (right axis, dashed) against the swept value."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = found["points"]
    xs = [p["value"] for p in points]
    fields = [p["fields"] for p in points]
    names = list(dict.fromkeys(name for f in fields for name in f))
    figure, left = plt.subplots(figsize=(8, 4.5))
    right = left.twinx()
    for name in names:
        label = field_label(name, lang)
        if _is_choice(fields, name):
            continue
        line = left.plot(xs, [_mean(f, name) for f in fields], marker="o", label=label)
        for value in thresholds(fields, name)[:1]:
            odds = [_at_least(f, name, value) for f in fields]
            right.plot(
                xs,
                odds,
                linestyle="--",
                color=line[0].get_color(),
                label=say("cli.variants.at_least", lang, field=label, v=value),
            )
    left.set_xlabel(found["field"])
    left.set_ylabel(say("cli.variants.mean", lang, field="").strip(": "))
    right.set_ylabel(say("cli.variants.chance", lang))
    right.set_ylim(0, 1)
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    labels = left.get_legend_handles_labels()[1] + right.get_legend_handles_labels()[1]
    left.legend(handles, labels, loc="best", fontsize="small")
    left.set_title(f"{found['procedure']} ({found['policy']})")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


__all__ = ["answer_variants", "compare_table", "draw_sweep", "sweep_table", "thresholds"]
