"""The errors of the game layer, re-exported from :mod:`kubik.core.errors`.

Every one is a user's mistake told in one line; they live with the other
:class:`~kubik.core.errors.KubikError` kinds so the CLI and the web layer catch them
in one place and print them without a traceback.
"""

from kubik.core.errors import (
    GameInputError,
    RecordError,
    ScenarioError,
    StoreError,
    UnknownRulesetError,
)

__all__ = ["GameInputError", "RecordError", "ScenarioError", "StoreError", "UnknownRulesetError"]
