"""A move's way walked as a referee would check it: every 0.1" spot (where the tape's
``along`` ends, rounded to the table's 0.1" grid), then its end; the spots where the
moving models would overlap another model."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from kubik.game.battle import overlapping
from kubik.game.battle.contact import STEP
from kubik.table import Base, Point
from kubik.table.tape import along


def spots(path: Sequence[Point]) -> list[Point]:
    """Every 0.1" spot of the way, then its end."""
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
    points = [along(list(path), i * STEP)[-1] for i in range(int(length / STEP + 1e-9) + 1)]
    return [(round(x, 1), round(y, 1)) for x, y in [*points, path[-1]]]


def overlaps(
    path: Sequence[Point], bases_at: Callable[[Point], Sequence[Base]], others: Sequence[Base]
) -> list[Point]:
    """The spots of the way where a moving model overlaps one of ``others``."""
    return [s for s in spots(path) if any(overlapping(a, b) for a in bases_at(s) for b in others)]


def up_to(path: Sequence[Point], end: Point) -> list[Point]:
    """The way's spots from its start up to ``end`` (a spot of it)."""
    walked = spots(path)
    return walked[: walked.index(end) + 1]
