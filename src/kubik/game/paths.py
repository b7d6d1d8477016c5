"""Where kubik keeps a user's things: scenarios and saved games.

The platform's user data directory (``platformdirs``) unless the environment
variable ``KUBIK_HOME`` names another directory (tests and portable installs).
"""

from __future__ import annotations

from pathlib import Path

from kubik.core.errors import StoreError
from kubik.core.paths import HOME_ENV, data_dir
from kubik.text.message import msg


def ensure_dir(path: Path, what: str) -> Path:
    """Create the directory ``path`` (and its parents) for kubik to write in; one
    :class:`~kubik.core.errors.StoreError` line, naming ``path`` and what it is for (the
    message id ``what``), when it cannot be: a file in the way (``KUBIK_HOME`` naming a
    file), no permission, a read-only disk."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(msg("game.paths.not_a_dir", what=msg(what), path=str(path))) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise StoreError(
            msg("game.paths.cannot_create", what=msg(what), path=str(path), error=reason)
        ) from None
    if not path.is_dir():
        raise StoreError(msg("game.paths.not_a_dir", what=msg(what), path=str(path)))
    return path


def user_scenarios_dir() -> Path:
    """Where a user's own scenarios live: ``<data dir>/scenarios/*.toml``."""
    return data_dir() / "scenarios"


def store_path() -> Path:
    """The SQLite file of saved games: ``<data dir>/games.sqlite3``."""
    return data_dir() / "games.sqlite3"


__all__ = ["HOME_ENV", "data_dir", "ensure_dir", "store_path", "user_scenarios_dir"]
