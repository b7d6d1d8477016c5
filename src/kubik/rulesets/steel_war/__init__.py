"""Стальная война (Steel War): seed 001.

Importing this package registers its public procedures with the engine, and the
goals of the rules with decisions (:mod:`.objectives`, for the optimal policy).
"""

from kubik.rulesets.steel_war import objectives as _objectives  # noqa: F401  (registers)
from kubik.rulesets.steel_war import procedures as _procedures  # noqa: F401  (registers)
