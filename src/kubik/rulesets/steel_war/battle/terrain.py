"""The seed's terrain table on the battlefield (SW-MOVE-03): what each feature is, and
so how hard it is for each kind of unit.

A Steel War ``[[terrain]]`` entry may name what the feature is in the seed's terms::

    [[terrain]]
    id = "wood"
    terrain = "light_wood"     # open, road, bushes, dense_bushes, hills, ploughland, marsh,
                               # stony_waste, light_wood, thicket, ford, water, sheer_slope,
                               # rails
    cover = "light"
    blocks_los = true
    points = [[4, 14], [16, 13], [18, 24], [5, 25]]

Its class for every kind of unit then comes from the seed's table
(:func:`~kubik.rulesets.steel_war.movement.terrain_class`): the wood is difficult for
infantry, very difficult for a tank, impassable for a БТР — so a scenario cannot
contradict the table. Features the table does not list (houses, ruins) keep the
``kind`` and ``kinds`` the scenario gives them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.game.errors import ScenarioError
from kubik.rulesets.steel_war.movement import Terrain, TerrainClass, terrain_class
from kubik.rulesets.steel_war.movers import MoverType
from kubik.table import TerrainKind

#: The table's terrain kind for each of the rule's terrain classes (the names match).
TABLE_KIND = {
    TerrainClass.EASY: TerrainKind.OPEN,
    TerrainClass.DIFFICULT: TerrainKind.DIFFICULT,
    TerrainClass.VERY_DIFFICULT: TerrainKind.VERY_DIFFICULT,
    TerrainClass.IMPASSABLE: TerrainKind.IMPASSABLE,
}
#: The rule's terrain class of each table terrain kind.
RULE_CLASS = {kind: cls for cls, kind in TABLE_KIND.items()}


def read_terrain(index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """``[[terrain]]`` entry ``index`` in the table's fields: a feature naming its seed
    terrain type gets its class for every kind of unit from the seed's table (SW-MOVE-03).

    >>> wood = read_terrain(0, {"id": "w", "terrain": "light_wood", "points": []})
    >>> wood["kind"], wood["kinds"]["tracked"], wood["kinds"]["high_mobility_wheeled"]
    ('difficult', 'very_difficult', 'impassable')
    """
    named = entry.get("terrain")
    if named is None:
        return entry
    types = ", ".join(t.value for t in Terrain)
    try:
        terrain = Terrain(named)
    except ValueError:
        raise ScenarioError(
            f"terrain[{index}].terrain: no terrain type {named!r}; types: {types}"
        ) from None
    for given in ("kind", "kinds"):
        if given in entry:
            raise ScenarioError(
                f"terrain[{index}].{given}: set by its terrain type '{terrain.value}' from "
                "the seed's table (SW-MOVE-03); remove it"
            )
    out = {k: v for k, v in entry.items() if k != "terrain"}
    out["kind"] = TABLE_KIND[terrain_class(MoverType.INFANTRY, terrain)].value
    out["kinds"] = {
        mover.value: TABLE_KIND[terrain_class(mover, terrain)].value
        for mover in MoverType
        if mover is not MoverType.INFANTRY
    }
    if terrain is Terrain.WATER:
        out.setdefault("water", True)
    return out


__all__ = ["RULE_CLASS", "TABLE_KIND", "read_terrain"]
