"""Where kubik keeps a user's things, light enough for the command's first moment.

The platform's user data directory (``platformdirs``) unless the environment
variable ``KUBIK_HOME`` names another directory (tests and portable installs).
:mod:`kubik.game.paths` names the files in it.
"""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "KUBIK_HOME"


def data_dir() -> Path:
    """The user's kubik directory (not created here)."""
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs  # only when no KUBIK_HOME names the place

    return Path(platformdirs.user_data_dir("kubik", appauthor=False))


__all__ = ["HOME_ENV", "data_dir"]
