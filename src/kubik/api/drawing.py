"""A picture of the table: terrain by kind, bases with short labels, facing and markers.

:func:`board_scene` turns a game on the battle layer into a :class:`Scene` — plain
data in table inches, as a side (or the referee) may see it; :func:`scene_svg` writes
it as SVG, :func:`write_scene` as an SVG or PNG file. The terminal's board
(:mod:`kubik.cli.console.board`) draws the same scene in characters. Nothing here
knows a screen: the scene is the battle's own view (:meth:`BattleGame.view`) and
table, nothing is worked out twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from kubik.api.words import unit_labels
from kubik.core.errors import InputError
from kubik.engine.requests import msg
from kubik.game.battle.battle import BattleGame
from kubik.game.session import GameSession
from kubik.text.i18n import catalogue, render

#: Fill colours of terrain by kind (how hard it is to cross), and of the sides in order.
KIND_COLOURS = {
    "open": "#d8cfa8",
    "difficult": "#7fa36b",
    "very_difficult": "#4f7a45",
    "impassable": "#5b7fa8",
}
SIDE_COLOURS = ("#c0392b", "#2c5aa0", "#8e44ad", "#d68910")
#: Colours of a selected unit's reach: its move, its weapons' ranges.
RING_COLOURS = {"move": "#1e8449", "weapon": "#b03a2e"}
#: The table's own colour.
GROUND = "#efe9d2"


@dataclass(frozen=True, slots=True)
class Feature:
    """A terrain feature: its kind, name and outline (a line for a hedge or a wall)."""

    kind: str
    name: str
    points: tuple[tuple[float, float], ...]
    line: bool


@dataclass(frozen=True, slots=True)
class Base:
    """A model on the table: where, how big, which unit, facing (degrees) if it has one."""

    unit: str
    side: str
    x: float
    y: float
    diameter: float
    facing: float | None = None
    down: bool = False


@dataclass(frozen=True, slots=True)
class UnitKey:
    """A line of the legend: the unit's short label, its name, side and markers."""

    label: str
    unit: str
    name: str
    side: str
    markers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ring:
    """A selected unit's reach, drawn as a circle round where it stands: a move's
    allowance or a weapon's range (``kind``: ``move`` or ``weapon``), named by ``label``."""

    kind: str
    x: float
    y: float
    radius: float
    label: str


@dataclass(frozen=True, slots=True)
class Scene:
    """The table to draw, in inches (``y`` grows away from the first side's edge)."""

    title: str
    width: float
    height: float
    features: tuple[Feature, ...]
    bases: tuple[Base, ...]
    units: tuple[UnitKey, ...]
    sides: tuple[tuple[str, str], ...]  # side id, name
    kinds: dict[str, str] = field(default_factory=dict)  # terrain kind → its word
    #: Places a pending decision offers (a move's destinations): its option number, x, y.
    spots: tuple[tuple[str, float, float], ...] = ()
    #: The selected unit's reach (its move, its weapons' ranges), as circles.
    rings: tuple[Ring, ...] = ()

    def label_of(self, unit: str) -> str:
        """The short label of ``unit`` (``?`` for a unit not in the legend)."""
        return next((key.label for key in self.units if key.unit == unit), "?")

    def side_colour(self, side: str) -> str:
        """The colour of ``side``: the sides in scenario order take the colours in order."""
        ids = [ident for ident, _ in self.sides]
        index = ids.index(side) if side in ids else len(ids)
        return SIDE_COLOURS[index % len(SIDE_COLOURS)]


#: The view's per-unit fields that are not markers: who it is, and where it looks (a
#: regiment's facing and the unit vector of its front, drawn as its block, not written).
_GEOMETRY = frozenset({"id", "side", "facing", "ahead"})

#: The view's per-unit fields that are markers, and what a value of "nothing" is.
_QUIET = {None, False, "", "none", "steady", "normal", "no", "standing", "ready"}


def unit_markers(row: dict[str, Any], ruleset: str, lang: str) -> tuple[str, ...]:
    """A unit's markers from the battle's view, each field that says something, in
    ``lang``: the field's name (``cli.board.marker.<field>``) and its value — a number
    as it is, a word by the catalogue (``cli.board.marker.<field>.<value>``, else the
    ruleset's own ``<ruleset>.<field>.<value>``: a morale level, a nerve), a yes alone."""
    known = catalogue("en")
    out = []
    for key, value in row.items():
        if key in _GEOMETRY or isinstance(value, list | dict) or value in _QUIET:
            continue
        label = f"cli.board.marker.{key}"
        name = render(msg(label), lang) if label in known else key.replace("_", " ")
        if isinstance(value, bool):
            out.append(name)
            continue
        if isinstance(value, str):
            for said in (f"{label}.{value}", f"{ruleset}.{key}.{value}"):
                if said in known:
                    value = render(msg(said), lang)
                    break
        out.append(render(msg("cli.board.marker", name=name, value=value), lang))
    return tuple(out)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unit_names(session: GameSession, lang: str) -> dict[str, str]:
    names = {}
    for unit in session.scenario.units:
        data = unit.data
        name = data.get("name_ru") if lang == "ru" else None
        names[unit.id] = str(name or data.get("name") or unit.id)
    return names


def option_spots(options: Sequence[Any]) -> tuple[tuple[str, float, float], ...]:
    """The places among a decision's options (an option with an ``x`` and a ``y``: where
    a move ends or heads), each with its option number, for the map to mark."""
    found = []
    for number, option in enumerate(options, start=1):
        x, y = getattr(option, "x", None), getattr(option, "y", None)
        if isinstance(x, int | float) and isinstance(y, int | float):
            found.append((str(number), float(x), float(y)))
    return tuple(found)


def board_scene(
    session: GameSession,
    lang: str,
    side: str | None = None,
    spots: tuple[tuple[str, float, float], ...] = (),
    selected: str | None = None,
) -> Scene:
    """The table of ``session`` as ``side`` sees it (``None``: the referee, everything),
    with ``spots`` (:func:`option_spots`) marked and the reach of ``selected`` — its label
    (``A2``) or id: how far it moves and shoots, as its battle's rules say
    (:meth:`~kubik.game.battle.BattleGame.reach`) — drawn round it; an error naming the
    game when its ruleset does not play on a table, or ``selected`` when it names none."""
    battle = session.state
    if not isinstance(battle, BattleGame):
        raise InputError(msg("cli.board.no_table", scenario=session.scenario.id))
    table = battle.table
    view = battle.view(side)
    kind_words = {kind: render(msg(f"cli.board.kind.{kind}"), lang) for kind in KIND_COLOURS}
    features = tuple(
        Feature(
            f.kind.value,
            str((f.name_ru if lang == "ru" else None) or f.name),
            tuple(
                (float(x), float(y))
                for x, y in (f.shape.exterior.coords if f.is_area else f.shape.coords)
            ),
            not f.is_area,
        )
        for f in table.features
    )
    bases = tuple(
        Base(
            str(p["unit"]),
            str(p["side"]),
            float(p["x"]),
            float(p["y"]),
            float(p.get("diameter") or 1.0),
            float(p["facing"]) if p.get("facing") is not None else None,
            p.get("posture") not in (None, "standing"),
        )
        for p in view["pieces"]
    )
    names = _unit_names(session, lang)
    rows = {str(row["id"]): row for row in view.get("units", ())}
    side_ids = list(session.scenario.side_ids)
    units: list[UnitKey] = []
    on_table = {b.unit for b in bases}
    labels = unit_labels([(u.id, u.side) for u in session.scenario.units], side_ids)
    for unit in session.scenario.units:
        if unit.id not in on_table:
            continue
        marks = unit_markers(rows.get(unit.id, {}), session.scenario.ruleset, lang)
        units.append(UnitKey(labels[unit.id], unit.id, _capital(names[unit.id]), unit.side, marks))
    sides = tuple(  # (each side's name begins the legend's line)
        (ident, _capital(render(session.side_names[ident], lang)))
        for ident in session.scenario.side_ids
    )
    scenario = session.scenario
    name = scenario.name_ru if lang == "ru" and scenario.name_ru else scenario.name
    title = render(msg("cli.board.title", name=name, turn=session.turn or 0), lang)
    rings = () if selected is None else _rings(battle, units, bases, selected, lang)
    return Scene(
        title, float(table.width), float(table.height), features, bases,
        tuple(units), sides, kind_words, spots, rings,
    )  # fmt: skip


def _rings(
    battle: BattleGame, units: list[UnitKey], bases: tuple[Base, ...], unit: str, lang: str
) -> tuple[Ring, ...]:
    """The reach of the unit ``unit`` names (a label or an id), round its models' middle."""
    key = next((k for k in units if unit.casefold() in (k.label.casefold(), k.unit)), None)
    if key is None:
        known = ", ".join(k.label for k in units)
        raise InputError(msg("cli.board.bad_unit", unit=unit, known=known))
    own = [b for b in bases if b.unit == key.unit]
    x, y = sum(b.x for b in own) / len(own), sum(b.y for b in own) / len(own)
    return tuple(
        Ring(reach.kind, x, y, reach.inches, render(reach.label, lang))
        for reach in battle.reach(key.unit)
        if reach.inches > 0
    )


# -- SVG --------------------------------------------------------------------------

#: Pixels per inch of the drawing, and room for the legend beside the table.
SCALE = 14.0
LEGEND = 260.0


def scene_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document: the table to scale, then the legend."""
    width = scene.width * SCALE
    height = scene.height * SCALE

    def xy(x: float, y: float) -> str:
        return f"{x * SCALE:.1f},{height - y * SCALE:.1f}"

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + LEGEND:.0f}" '
        f'height="{height + 40:.0f}" font-family="sans-serif" font-size="11">',
        f'<text x="4" y="16" font-size="14" font-weight="bold">{escape(scene.title)}</text>',
        '<g transform="translate(0,30)">',
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="{GROUND}" stroke="#333"/>',
    ]
    for feature in scene.features:
        colour = KIND_COLOURS.get(feature.kind, "#999")
        points = " ".join(xy(x, y) for x, y in feature.points)
        name = escape(feature.name)
        if feature.line:
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{colour}" '
                f'stroke-width="4"><title>{name}</title></polyline>'
            )
        else:
            out.append(
                f'<polygon points="{points}" fill="{colour}" fill-opacity="0.8" '
                f'stroke="#555"><title>{name}</title></polygon>'
            )
    for base in scene.bases:
        cx, cy = base.x * SCALE, height - base.y * SCALE
        radius = max(base.diameter * SCALE / 2, 3.0)
        colour = scene.side_colour(base.side)
        fill = "white" if base.down else colour
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{fill}" '
            f'stroke="{colour}" stroke-width="1.5"/>'
        )
        if base.facing is not None:
            angle = math.radians(base.facing)
            tip_x, tip_y = cx + math.cos(angle) * radius * 1.6, cy - math.sin(angle) * radius * 1.6
            out.append(
                f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{tip_x:.1f}" y2="{tip_y:.1f}" '
                'stroke="black" stroke-width="1.5"/>'
            )
    for ring in scene.rings:  # the selected unit's reach
        colour = RING_COLOURS.get(ring.kind, "#333")
        out.append(
            f'<circle cx="{ring.x * SCALE:.1f}" cy="{height - ring.y * SCALE:.1f}" '
            f'r="{ring.radius * SCALE:.1f}" fill="none" stroke="{colour}" stroke-width="1.5" '
            f'stroke-dasharray="6,4"><title>{escape(ring.label)}</title></circle>'
        )
    for number, x, y in scene.spots:
        out.append(
            f'<circle cx="{x * SCALE:.1f}" cy="{height - y * SCALE:.1f}" r="6" fill="gold" '
            f'stroke="black"/><text x="{x * SCALE:.1f}" y="{height - y * SCALE + 4:.1f}" '
            f'text-anchor="middle" font-size="9">{escape(number)}</text>'
        )
    for key in scene.units:
        spots = [b for b in scene.bases if b.unit == key.unit]
        x = sum(b.x for b in spots) / len(spots)
        y = max(b.y for b in spots) + max(b.diameter for b in spots) / 2 + 0.3
        out.append(
            f'<text x="{x * SCALE:.1f}" y="{height - y * SCALE:.1f}" text-anchor="middle" '
            f'font-weight="bold" fill="{scene.side_colour(key.side)}">{escape(key.label)}</text>'
        )
    out.append("</g>")
    out.extend(_svg_legend(scene, width + 12))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_legend(scene: Scene, left: float) -> list[str]:
    out: list[str] = []
    y = 44.0
    for kind, word in scene.kinds.items():
        out.append(
            f'<rect x="{left:.0f}" y="{y - 9:.0f}" width="12" height="10" '
            f'fill="{KIND_COLOURS[kind]}"/><text x="{left + 18:.0f}" y="{y:.0f}">'
            f"{escape(word)}</text>"
        )
        y += 15
    for ring in scene.rings:
        colour = RING_COLOURS.get(ring.kind, "#333")
        out.append(
            f'<circle cx="{left + 6:.0f}" cy="{y - 4:.0f}" r="5" fill="none" stroke="{colour}" '
            f'stroke-dasharray="3,2"/><text x="{left + 18:.0f}" y="{y:.0f}">'
            f"{escape(ring.label)}</text>"
        )
        y += 15
    y += 6
    for key in scene.units:
        colour = scene.side_colour(key.side)
        out.append(
            f'<text x="{left:.0f}" y="{y:.0f}" fill="{colour}"><tspan font-weight="bold">'
            f"{escape(key.label)}</tspan> {escape(key.name)}</text>"
        )
        y += 14
        if key.markers:
            out.append(
                f'<text x="{left + 22:.0f}" y="{y:.0f}" fill="#555">'
                f"{escape(', '.join(key.markers))}</text>"
            )
            y += 14
    return out


def write_scene(scene: Scene, path: Path, option: str) -> Path:
    """Write ``scene`` to ``path``: SVG for ``.svg``, PNG (drawn by matplotlib from the
    same scene) for ``.png``; ``option`` names the command-line option in an error."""
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(
            msg("cli.output.format", option=option, path=str(path), allowed=".svg, .png")
        )
    try:
        if suffix == ".svg":
            path.write_text(scene_svg(scene), encoding="utf-8")
        else:
            _write_png(scene, path)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(
            msg("cli.output.cannot_write", option=option, path=str(path), error=reason)
        ) from None
    return path


def _write_png(scene: Scene, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Circle, Patch, Polygon

    figure, axes = plt.subplots(figsize=(10, 10 * scene.height / scene.width + 0.5))
    axes.set_xlim(0, scene.width)
    axes.set_ylim(0, scene.height)
    axes.set_aspect("equal")
    axes.set_facecolor(GROUND)
    axes.set_title(scene.title)
    for feature in scene.features:
        colour = KIND_COLOURS.get(feature.kind, "#999")
        xs, ys = zip(*feature.points, strict=True)
        if feature.line:
            axes.plot(xs, ys, color=colour, linewidth=3)
        else:
            axes.add_patch(Polygon(feature.points, closed=True, facecolor=colour, alpha=0.8))
    for base in scene.bases:
        colour = scene.side_colour(base.side)
        fill = "white" if base.down else colour
        radius = base.diameter / 2
        axes.add_patch(Circle((base.x, base.y), radius, facecolor=fill, edgecolor=colour))
        if base.facing is not None:
            angle = math.radians(base.facing)
            axes.plot(
                [base.x, base.x + math.cos(angle) * radius * 1.6],
                [base.y, base.y + math.sin(angle) * radius * 1.6],
                color="black",
                linewidth=1,
            )
    handles: list[Any] = [
        Patch(color=KIND_COLOURS[kind], label=word) for kind, word in scene.kinds.items()
    ]
    for ring in scene.rings:  # the selected unit's reach
        colour = RING_COLOURS.get(ring.kind, "#333")
        axes.add_patch(
            Circle((ring.x, ring.y), ring.radius, fill=False, edgecolor=colour, linestyle="--")
        )
        handles.append(Patch(facecolor="none", edgecolor=colour, label=ring.label))
    for key in scene.units:
        spots = [b for b in scene.bases if b.unit == key.unit]
        x = sum(b.x for b in spots) / len(spots)
        y = max(b.y for b in spots) + max(b.diameter for b in spots) / 2 + 0.3
        colour = scene.side_colour(key.side)
        axes.text(x, y, key.label, ha="center", fontweight="bold", color=colour)
        marks = f" ({', '.join(key.markers)})" if key.markers else ""
        handles.append(Patch(color=colour, label=f"{key.label} {key.name}{marks}"))
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=100)
    finally:
        plt.close(figure)


__all__ = [
    "Base",
    "Feature",
    "Scene",
    "UnitKey",
    "board_scene",
    "option_spots",
    "scene_svg",
    "unit_markers",
    "write_scene",
]
