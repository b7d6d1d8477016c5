"""``kubik sim --plot FILE``: the report drawn as a PNG (matplotlib, Agg backend).

matplotlib is imported only here and only when a plot is asked for, so ``kubik sim``
starts as fast without it. What is drawn depends on the job:

* one scenario: the win and draw rates with their 95% intervals, the turns played,
  the models each side lost, and per unit the mean kills and losses (or, for a
  ruleset without per-unit results, each side's mean summary counts);
* ``--vary``: every side's win rate (with intervals) against each cell of the grid;
* ``--vs``: the heatmap of the first list's side's win probability for every pair of
  rosters, each square with its interval (one heatmap per cell of ``--vary``, if any).

Every text is in the report's language (``lang``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubik.core.errors import InputError
from kubik.engine.requests import msg
from kubik.text.i18n import render


def _say(message_id: str, lang: str, **params: Any) -> str:
    return render(msg(message_id, **params), lang)


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise InputError(
            "--plot: needs matplotlib; install it with: pip install matplotlib"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@dataclass(frozen=True, slots=True)
class Words:
    """How the plot names things: the language, side names and summary-count names."""

    lang: str = "en"
    sides: Mapping[str, str] = field(default_factory=dict)
    count: Callable[[str], str] = str

    def side(self, side: str) -> str:
        return self.sides.get(side, side)


def _rates_panel(ax: Any, cell: Mapping[str, Any], sides: Sequence[str], words: Words) -> None:
    lang = words.lang
    names = [*sides, "draw"]
    labels = [*(words.side(s) for s in sides), _say("sim.draws", lang)]
    values = [cell["p"][n] for n in names]
    intervals = [*(cell["win_rate"][s] for s in sides), cell["draw_rate"]]
    below = [v - i[0] for v, i in zip(values, intervals, strict=True)]
    above = [i[1] - v for v, i in zip(values, intervals, strict=True)]
    ax.bar(labels, values, yerr=[below, above], capsize=6, color=["C0", "C3", "C7"][: len(names)])
    ax.set_ylim(0, 1)
    ax.set_title(_say("sim.plot.rates", lang, runs=cell["runs"]))
    for x, value in enumerate(values):
        ax.text(x, min(0.95, value + 0.03), f"{value:.0%}", ha="center")


def _histogram_panel(
    ax: Any, series: Mapping[str, Mapping[str, int]], title: str, xlabel: str
) -> None:
    width = 0.8 / max(1, len(series))
    for index, (name, counts) in enumerate(series.items()):
        xs = [int(k) + (index - (len(series) - 1) / 2) * width for k in counts]
        ax.bar(xs, list(counts.values()), width=width, label=name)
    values = [int(k) for counts in series.values() for k in counts]
    if values:
        ax.set_xlim(min(values) - 1, max(values) + 1)
        ax.xaxis.set_major_locator(_integer_locator())
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    if len(series) > 1:
        ax.legend()


def _integer_locator() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _units_panel(ax: Any, cell: Mapping[str, Any], words: Words) -> None:
    lang = words.lang
    units = cell.get("units")
    if units:
        names = list(units)
        kills = [units[u]["kills"]["mean"] for u in names]
        lost = [units[u]["lost"]["mean"] for u in names]
        xs = range(len(names))
        ax.bar([x - 0.2 for x in xs], kills, width=0.4, label=_say("sim.column.kills", lang))
        ax.bar([x + 0.2 for x in xs], lost, width=0.4, label=_say("sim.column.lost", lang))
        ax.set_xticks(list(xs), names, rotation=45, ha="right")
        ax.set_title(_say("sim.plot.units", lang))
        ax.legend()
        return
    counts = cell.get("counts", {})
    rows = [
        (f"{words.side(side)}: {words.count(name)}", v["mean"])
        for side, c in counts.items()
        for name, v in c.items()
    ]
    ax.barh([r[0] for r in rows], [r[1] or 0 for r in rows])
    ax.set_title(_say("sim.plot.counts", lang))


def _single(plt: Any, report: Mapping[str, Any], sides: Sequence[str], words: Words) -> Any:
    lang = words.lang
    figure, axes = plt.subplots(2, 2, figsize=(12, 9))
    _rates_panel(axes[0][0], report, sides, words)
    _histogram_panel(
        axes[0][1],
        {_say("sim.plot.games", lang): report["turns"]["counts"]},
        _say("sim.plot.turns", lang),
        _say("sim.column.turns", lang),
    )
    losses = {words.side(side): d["counts"] for side, d in report.get("losses", {}).items()}
    _histogram_panel(
        axes[1][0], losses, _say("sim.plot.losses", lang), _say("sim.plot.models_lost", lang)
    )
    _units_panel(axes[1][1], report, words)
    return figure


def _cell_name(label: Mapping[str, str], skip: Sequence[str] = ()) -> str:
    return ", ".join(
        f"{k.removeprefix('vs.')}={v}" if not k.startswith("vs.") else v
        for k, v in label.items()
        if k not in skip
    )


def _vary(plt: Any, report: Mapping[str, Any], sides: Sequence[str], words: Words) -> Any:
    lang = words.lang
    cells = report["cells"]
    figure, ax = plt.subplots(figsize=(max(8, 1.2 * len(cells)), 6))
    xs = list(range(len(cells)))
    for offset, name in enumerate([*sides, "draw"]):
        shift = (offset - len(sides) / 2) * 0.08
        values = [c["p"][name] for c in cells]
        bounds = [c["win_rate"][name] if name != "draw" else c["draw_rate"] for c in cells]
        ax.errorbar(
            [x + shift for x in xs],
            values,
            yerr=[
                [v - b[0] for v, b in zip(values, bounds, strict=True)],
                [b[1] - v for v, b in zip(values, bounds, strict=True)],
            ],
            fmt="o-" if name != "draw" else "s--",
            capsize=4,
            label=words.side(name) if name != "draw" else _say("sim.draws", lang),
        )
    ax.set_xticks(xs, [_cell_name(c["label"]) for c in cells], rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel(_say("sim.plot.win_rate", lang))
    ax.set_title(_say("sim.plot.sweep", lang, scenario=report["scenario"], runs=report["runs"]))
    ax.legend()
    ax.grid(alpha=0.3)
    return figure


def _heatmaps(plt: Any, report: Mapping[str, Any], words: Words) -> Any:
    lang = words.lang
    vs: dict[str, list[str]] = report["sweep"]["vs"]
    row_side = next(iter(vs))
    col_side = next((s for s in vs if s != row_side), None)
    rows = vs[row_side]
    cols = vs[col_side] if col_side else [_say("sim.plot.as_written", lang)]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for cell in report["cells"]:
        rest = _cell_name(cell["label"], skip=[f"vs.{s}" for s in vs])
        groups.setdefault(rest, []).append(cell)
    figure, axes = plt.subplots(
        1,
        len(groups),
        figsize=(2 + 2.2 * len(cols) * len(groups), 1.5 + 1.1 * len(rows)),
        squeeze=False,
    )
    for ax, (rest, cells) in zip(axes[0], groups.items(), strict=True):
        grid = [[0.0 for _ in cols] for _ in rows]
        text = [["" for _ in cols] for _ in rows]
        for cell in cells:
            r = rows.index(cell["label"][f"vs.{row_side}"])
            c = cols.index(cell["label"][f"vs.{col_side}"]) if col_side else 0
            low, high = cell["win_rate"][row_side]
            grid[r][c] = cell["p"][row_side]
            text[r][c] = f"{cell['p'][row_side]:.0%}\n[{low:.0%}–{high:.0%}]"
        image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
        for r in range(len(rows)):
            for c in range(len(cols)):
                ax.text(c, r, text[r][c], ha="center", va="center", fontsize=9)
        ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
        ax.set_yticks(range(len(rows)), rows)
        ax.set_ylabel(words.side(row_side))
        ax.set_xlabel(words.side(col_side) if col_side else "")
        title = _say("sim.plot.heatmap", lang, side=words.side(row_side), runs=report["runs"])
        ax.set_title(f"{title}\n{rest}" if rest else title)
        figure.colorbar(image, ax=ax, fraction=0.046)
    return figure


def write_plot(path: Path | str, report: Mapping[str, Any], words: Words | None = None) -> Path:
    """Draw ``report`` (as :func:`kubik.sim.report.sim_report` made it) into a PNG."""
    words = words or Words()
    plt = _pyplot()
    sides = list(report["wins"])
    if "cells" not in report:
        figure = _single(plt, report, sides, words)
    elif report["sweep"]["vs"]:
        figure = _heatmaps(plt, report, words)
    else:
        figure = _vary(plt, report, sides, words)
    title = _say("sim.plot.title", words.lang, scenario=report["scenario"], seed=report["seed"])
    figure.suptitle(title)
    figure.tight_layout()
    out = Path(path)
    try:
        figure.savefig(out, dpi=100)
    except OSError as error:
        raise InputError(f"--plot: cannot write '{out}' ({error.strerror})") from None
    finally:
        plt.close(figure)
    return out


__all__ = ["Words", "write_plot"]
