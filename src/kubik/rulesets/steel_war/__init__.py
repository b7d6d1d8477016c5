"""Стальная война (Steel War): seed 001.

Importing this package registers its public procedures with the engine.
"""

from kubik.rulesets.steel_war import procedures as _procedures  # noqa: F401  (registers)
