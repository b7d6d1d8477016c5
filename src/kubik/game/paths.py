"""Where kubik keeps a user's things: scenarios and saved games.

The platform's user data directory (``platformdirs``) unless the environment
variable ``KUBIK_HOME`` names another directory (tests and portable installs).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_ENV = "KUBIK_HOME"


def data_dir() -> Path:
    """The user's kubik directory (not created here)."""
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("kubik", appauthor=False))


def user_scenarios_dir() -> Path:
    """Where a user's own scenarios live: ``<data dir>/scenarios/*.toml``."""
    return data_dir() / "scenarios"


def store_path() -> Path:
    """The SQLite file of saved games: ``<data dir>/games.sqlite3``."""
    return data_dir() / "games.sqlite3"


__all__ = ["HOME_ENV", "data_dir", "store_path", "user_scenarios_dir"]
