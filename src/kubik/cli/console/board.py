"""The table in the terminal: a map of characters and a legend, from a drawing's scene.

Each character stands for a patch of the table (twice as tall as wide, as terminal
cells are); terrain is a glyph and a colour by kind, a model the number of its unit
in its side's colour (``A1``'s models are red ``1``s, ``B2``'s blue ``2``s), and the
legend names the units with their markers. North (far from the first side) is up.
"""

from __future__ import annotations

import math

from rich.console import Console, Group
from rich.text import Text
from shapely import Point, prepared
from shapely.geometry import LineString, Polygon

from kubik.api.drawing import KIND_COLOURS, RING_COLOURS, Scene
from kubik.api.words import say

#: Each kind's glyph (so the map reads without colour too).
GLYPHS = {"open": "·", "difficult": '"', "very_difficult": "♣", "impassable": "≈"}
#: The glyph of a selected unit's reach: the edge of its move, of a weapon's range.
RING_GLYPHS = {"move": "∘", "weapon": "×"}
#: Option spots up to this number are marked (① … ⑳: Unicode has circled numbers to 20).
CIRCLED = 20
#: The widest map, in characters.
MOST_COLUMNS = 72


def board_text(scene: Scene, width: int, lang: str) -> Group:
    """The map and its legend, at most ``width`` characters wide."""
    columns = max(24, min(width - 4, MOST_COLUMNS))
    inch = scene.width / columns  # inches per character across
    rows = max(8, math.ceil(scene.height / (2 * inch)))
    step_y = scene.height / rows
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * columns for _ in range(rows)]

    def cell(x: float, y: float) -> tuple[int, int] | None:
        col, row = int(x / inch), rows - 1 - int(y / step_y)
        return (row, col) if 0 <= col < columns and 0 <= row < rows else None

    for feature in scene.features:
        glyph, colour = GLYPHS.get(feature.kind, "?"), KIND_COLOURS.get(feature.kind, "")
        style = f"{colour}"
        if feature.line:
            line = LineString(feature.points)
            for i in range(int(line.length / (inch / 2)) + 1):
                spot = line.interpolate(i * inch / 2)
                at = cell(spot.x, spot.y)
                if at is not None:
                    grid[at[0]][at[1]] = ("#", f"bold {colour}")
            continue
        area = prepared.prep(Polygon(feature.points))
        for row in range(rows):
            y = scene.height - (row + 0.5) * step_y
            for col in range(columns):
                if area.contains(Point((col + 0.5) * inch, y)):
                    grid[row][col] = (glyph, style)
    for ring in scene.rings:  # the selected unit's reach, under the models
        glyph, style = RING_GLYPHS.get(ring.kind, "∘"), f"bold {RING_COLOURS.get(ring.kind, '')}"
        steps = max(24, int(2 * math.pi * ring.radius / (inch / 2)))
        for step in range(steps):
            angle = 2 * math.pi * step / steps
            at = cell(
                ring.x + ring.radius * math.cos(angle), ring.y + ring.radius * math.sin(angle)
            )
            if at is not None and grid[at[0]][at[1]][0] in (" ", GLYPHS["open"]):
                grid[at[0]][at[1]] = (glyph, style)
    for base in scene.bases:
        at = cell(base.x, base.y)
        if at is None:
            continue
        label = scene.label_of(base.unit)[1:]
        mark = label if len(label) == 1 else "●"
        colour = scene.side_colour(base.side)
        grid[at[0]][at[1]] = (mark, f"bold {colour}" + (" reverse" if not base.down else ""))
    for number, x, y in scene.spots:  # where a pending move's options go: ① ② ③ …
        at = cell(x, y)
        if at is not None and number.isdigit() and 1 <= int(number) <= CIRCLED:
            grid[at[0]][at[1]] = (chr(0x2460 + int(number) - 1), "bold black on yellow")
    lines: list[Text] = [Text(scene.title, style="bold"), _ruler(scene.width, columns, inch)]
    for cells in grid:
        text = Text("│")
        for glyph, style in cells:
            text.append(glyph, style=style)
        text.append("│")
        lines.append(text)
    lines.append(_ruler(scene.width, columns, inch))
    lines.extend(_legend(scene, lang))
    return Group(*lines)


def _ruler(width: float, columns: int, inch: float) -> Text:
    """Inches along the edge, every 6"."""
    marks = [" "] * (columns + 2)
    for inches in range(0, int(width) + 1, 6):
        text = str(inches)
        at = 1 + min(int(inches / inch), columns - len(text))
        for i, char in enumerate(text):
            marks[at + i] = char
    return Text("".join(marks), style="dim")


def _legend(scene: Scene, lang: str) -> list[Text]:
    terrain = Text()
    for kind, word in scene.kinds.items():
        terrain.append(f"{GLYPHS[kind]} ", style=KIND_COLOURS[kind])
        terrain.append(f"{word}   ")
    terrain.append("# ", style="bold")
    terrain.append(say("cli.board.kind.line", lang))
    out = [terrain]
    for ring in scene.rings:
        line = Text(f"{RING_GLYPHS.get(ring.kind, '∘')} ", style=RING_COLOURS.get(ring.kind, ""))
        line.append(ring.label)
        out.append(line)
    if scene.spots:
        out.append(Text(say("console.board.spots", lang), style="black on yellow"))
    for ident, name in scene.sides:
        line = Text(f"{name}:", style=f"bold {scene.side_colour(ident)}")
        out.append(line)
        for key in scene.units:
            if key.side != ident:
                continue
            entry = Text(f"  {key.label} ", style=f"bold {scene.side_colour(ident)}")
            entry.append(key.name)
            if key.markers:
                entry.append(f" — {', '.join(key.markers)}", style="dim")
            out.append(entry)
    return out


def print_board(console: Console, scene: Scene, lang: str) -> None:
    """Draw ``scene`` on ``console`` (north up), then how to read it."""
    console.print(board_text(scene, console.width, lang))
    console.print(say("console.board.hint", lang), style="dim")


__all__ = ["GLYPHS", "board_text", "print_board"]
