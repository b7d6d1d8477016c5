"""Files a command will write, checked before it does any work.

A simulation of thousands of games, or a web table, must not find out at the end (or
after printing its address) that ``--plot out.txt`` is a format nothing draws, that a
directory is missing or read-only, or that the port is taken: each is one line naming
the option, before the first game is played.
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from kubik.core.errors import InputError
from kubik.engine.requests import msg

#: The formats ``--plot`` draws (matplotlib picks the format by the file's suffix).
PLOT_FORMATS = (".png", ".svg", ".pdf")


def check_writable(option: str, path: Path, suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` can be written by this process (it is opened for appending, and removed
    again if it did not exist): else an :class:`InputError` naming ``option``."""
    if suffixes and path.suffix.lower() not in suffixes:
        raise InputError(
            msg("cli.output.format", option=option, path=str(path), allowed=", ".join(suffixes))
        )
    if path.is_dir():
        raise InputError(msg("cli.output.is_dir", option=option, path=str(path)))
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(
            msg("cli.output.cannot_write", option=option, path=str(path), error=reason)
        ) from None
    if not existed:
        path.unlink(missing_ok=True)
    return path


def check_listen(host: str, port: int) -> None:
    """``host:port`` can be listened on: the host is an address of this computer and
    nothing else listens on the port (the server binds the same way right after)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(msg("cli.serve.bad_host", host=host, error=reason)) from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        if os.name != "nt":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise InputError(msg("cli.serve.port_taken", host=host, port=port)) from None
            reason = error.strerror or str(error)
            raise InputError(msg("cli.serve.bad_host", host=host, error=reason)) from None


__all__ = ["PLOT_FORMATS", "check_listen", "check_writable"]
