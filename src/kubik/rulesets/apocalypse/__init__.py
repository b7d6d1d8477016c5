"""Дороги Апокалипсиса (Roads of the Apocalypse): seeds 000 (activation edition) and 003
(turn edition).

Importing this package registers its public procedures with the engine:
``apocalypse.melee``, ``apocalypse.melody``, ``apocalypse.jam`` and the smaller rules
(shots, tests, manoeuvres) a referee may want to resolve alone.
"""

from kubik.rulesets.apocalypse import procedures as _procedures  # noqa: F401
