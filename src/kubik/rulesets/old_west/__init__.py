"""Legends of the Old West (Russian translation): seed 002.

Importing this package registers its public procedures with the engine.
:func:`policies` names the Fame policies (``default``: spend nothing;
``best_response``: spend just enough to succeed) for showing odds side by side.
"""

from kubik.rulesets.old_west import procedures as _procedures  # noqa: F401
from kubik.rulesets.old_west.fame import policies

__all__ = ["policies"]
