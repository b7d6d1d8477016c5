"""The errors of the game layer: every one is a user's mistake, told in one line.

They derive from :class:`kubik.errors.KubikError`, so the CLI and the web layer
print them as one line and never a traceback.
"""

from __future__ import annotations

from kubik.errors import KubikError


class ScenarioError(KubikError, ValueError):
    """A scenario that cannot be read or played: names the file and the field."""


class UnknownRulesetError(KubikError, LookupError):
    """A ruleset with no game adapter (no ``kubik.rulesets.<id>.turns``)."""


class RecordError(KubikError, ValueError):
    """A save that cannot be read: malformed, or of a format this kubik does not know."""


class GameInputError(KubikError, ValueError):
    """An answer that does not fit what the game is waiting for (names what is allowed)."""


class StoreError(KubikError, LookupError):
    """A saved-game name that is malformed or not in the store."""


__all__ = ["GameInputError", "RecordError", "ScenarioError", "StoreError", "UnknownRulesetError"]
