"""Legends of the Old West (Russian translation): seed 002.

Importing this package registers its public procedures with the engine and the
goals of every rule with decisions (:mod:`.objectives`, for the optimal policy).
:func:`policies` names the Fame rules of thumb (``default``: spend nothing;
``just_enough``: spend just enough to succeed) for showing odds side by side.
"""

from kubik.rulesets.old_west import objectives as _objectives  # noqa: F401
from kubik.rulesets.old_west import procedures as _procedures  # noqa: F401
from kubik.rulesets.old_west.fame import policies

__all__ = ["policies"]
