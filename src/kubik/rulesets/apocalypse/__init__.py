"""Дороги Апокалипсиса (Roads of the Apocalypse): seeds 000 (activation edition) and 003
(turn edition).

Importing this package registers its public procedures with the engine
(``apocalypse.melee``, ``apocalypse.melody``, ``apocalypse.jam``) and the goals of every
rule with decisions (:mod:`.objectives`, for the optimal policy).
"""

from kubik.rulesets.apocalypse import objectives as _objectives  # noqa: F401
from kubik.rulesets.apocalypse import procedures as _procedures  # noqa: F401
