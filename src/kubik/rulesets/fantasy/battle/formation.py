"""Regiments on the table: ranks and files of round bases behind a front, facing
north (+y) or south (−y). Models of a regiment keep a gap, so they never touch."""

from __future__ import annotations

from kubik.rulesets.fantasy.charts import data
from kubik.table import Base, Point


def spacing() -> float:
    """Distance between neighbouring models' centres (inches)."""
    return float(data()["game_formation"]["spacing"])


def contact() -> float:
    """Distance between the centres of two models in base contact (inches)."""
    return float(data()["game_formation"]["contact"])


def slots(front: Point, facing: int, files: int, models: int, size: float) -> list[Point]:
    """Centres of ``models`` models in ``files`` files behind ``front`` (the centre of
    the front rank), the front rank filled first, a short last rank centred."""
    step = max(spacing(), size + 0.1)
    out: list[Point] = []
    for k in range(models):
        rank, file = divmod(k, files)
        in_rank = min(files, models - rank * files)
        x = front[0] + (file - (in_rank - 1) / 2) * step
        y = front[1] - facing * rank * step
        out.append((round(x, 3), round(y, 3)))
    return out


def depth(files: int, models: int, size: float) -> float:
    """From the front rank's centres to the last rank's (inches)."""
    ranks = max(1, -(-models // max(1, files)))
    return (ranks - 1) * max(spacing(), size + 0.1)


def bases(front: Point, facing: int, files: int, models: int, size: float, unit: str) -> list[Base]:
    """The regiment's bases at ``front``."""
    return [
        Base(x, y, size, f"{unit}.{k}")
        for k, (x, y) in enumerate(slots(front, facing, files, models, size))
    ]
