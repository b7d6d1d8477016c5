"""The battlefield: sizes in inches, terrain polygons, bases, distances, contact,
line of sight, cover, templates and movement (on shapely).

This is the layer a ruleset's ``turns.py`` uses to turn geometry into plain
situations ("distance 10 inches, light cover, in line of sight") for rule
procedures, which never touch geometry themselves. Everything is measured in
inches and returned as exact floats; game rounding is the ruleset's business.

Modules, one concept each: :mod:`~kubik.table.units`, :mod:`~kubik.table.geometry`
(bases, distances), :mod:`~kubik.table.terrain`, :mod:`~kubik.table.table`,
:mod:`~kubik.table.schema` (scenario sections), :mod:`~kubik.table.los`,
:mod:`~kubik.table.cover`, :mod:`~kubik.table.templates`,
:mod:`~kubik.table.movement`, :mod:`~kubik.table.pathfinding`.
"""

from kubik.table.cover import NEAR_TARGET, CoverHow, CoverSource, cover_between, cover_sources
from kubik.table.errors import TableError
from kubik.table.geometry import (
    CONTACT_TOLERANCE,
    Base,
    Placement,
    Point,
    centre_distance,
    distance_to,
    edge_distance,
    in_base_contact,
    placement,
    within,
)
from kubik.table.los import DEFAULT_LOS, LosMode, LosRules, OwnFeatures, Sight, line_of_sight, sight
from kubik.table.movement import (
    Leg,
    Move,
    Stop,
    kind_at,
    legs,
    max_move_along,
    obstacles_crossed,
    path_cost,
    path_length,
    worst_kind_along,
)
from kubik.table.pathfinding import Route, can_reach, shortest_path
from kubik.table.schema import TableScenario, TableSection, TerrainSection, table_from_dict
from kubik.table.table import Table
from kubik.table.templates import (
    Blast,
    Cone,
    Teardrop,
    Template,
    TemplateHits,
    heading_to,
    models_under,
)
from kubik.table.terrain import Cover, MoverKinds, TerrainFeature, TerrainKind, worst_kind
from kubik.table.units import INCHES, PACES, Unit, Units, inches_to_mm, mm_to_inches

__all__ = [
    "CONTACT_TOLERANCE",
    "DEFAULT_LOS",
    "INCHES",
    "NEAR_TARGET",
    "PACES",
    "Base",
    "Blast",
    "Cone",
    "Cover",
    "CoverHow",
    "CoverSource",
    "Leg",
    "LosMode",
    "LosRules",
    "Move",
    "MoverKinds",
    "OwnFeatures",
    "Placement",
    "Point",
    "Route",
    "Sight",
    "Stop",
    "Table",
    "TableError",
    "TableScenario",
    "TableSection",
    "Teardrop",
    "Template",
    "TemplateHits",
    "TerrainFeature",
    "TerrainKind",
    "TerrainSection",
    "Unit",
    "Units",
    "can_reach",
    "centre_distance",
    "cover_between",
    "cover_sources",
    "distance_to",
    "edge_distance",
    "heading_to",
    "in_base_contact",
    "inches_to_mm",
    "kind_at",
    "legs",
    "line_of_sight",
    "max_move_along",
    "mm_to_inches",
    "models_under",
    "obstacles_crossed",
    "path_cost",
    "path_length",
    "placement",
    "shortest_path",
    "sight",
    "table_from_dict",
    "within",
    "worst_kind",
    "worst_kind_along",
]
