"""Legends of the Old West (Russian translation): seed 002.

Importing this package registers its public procedures with the engine.
"""

from kubik.rulesets.old_west import procedures as _procedures  # noqa: F401
