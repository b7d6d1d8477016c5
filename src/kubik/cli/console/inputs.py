"""Reading ``--input``: inline JSON, or ``@FILE`` holding JSON, within the input limits.

Every problem is one line naming ``--input`` (and the file): a file that is not
there, a directory, an empty file (``@/dev/null``), a file past the size limit,
text that is not UTF-8 or not JSON, JSON nested past the depth limit, or JSON
that is not an object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kubik.api import parse_json
from kubik.core.errors import InputError
from kubik.core.limits import INPUT_BYTES
from kubik.engine.requests import msg


def read_file_text(path: Path, option: str = "--input") -> str:
    """The text of ``path``, or one line saying why it cannot be read."""
    if not path.exists():
        raise InputError(msg("cli.input.missing", option=option, path=str(path)))
    if path.is_dir():
        raise InputError(msg("cli.input.directory", option=option, path=str(path)))
    try:
        with path.open("rb") as handle:
            raw = handle.read(INPUT_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(
            msg("cli.input.unreadable", option=option, path=str(path), error=reason)
        ) from None
    if len(raw) > INPUT_BYTES:
        raise InputError(msg("cli.input.too_big", option=option, path=str(path), limit=INPUT_BYTES))
    if not raw.strip():
        raise InputError(msg("cli.input.empty", option=option, path=str(path)))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(msg("cli.input.not_utf8", option=option, path=str(path))) from None


def read_input(text: str) -> dict[str, Any]:
    """Parse ``--input``: inline JSON, or ``@path`` to a JSON file; a JSON object."""
    source = "--input"
    if text.startswith("@"):
        path = Path(text[1:])
        source = f"--input @{path}"
        text = read_file_text(path)
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise InputError(msg("cli.input.not_object", source=source))
    return data


__all__ = ["read_file_text", "read_input"]
