"""``kubik serve``: the web table on this computer (or, when told, on a network).

It says where it listens when it starts, and whether other computers can reach it.
"""

from __future__ import annotations

import socket
from contextlib import suppress
from pathlib import Path
from typing import Annotated

import typer

from kubik.api.words import say
from kubik.cli.console.parse import Lang
from kubik.cli.outputs import check_listen
from kubik.cli.play import open_store_at

#: Seconds an idle connection is kept open: longer than a busy table keeps a player
#: waiting, so a browser never reuses a connection the server has just closed.
KEEP_ALIVE = 75

#: The addresses that keep the table on this computer.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def serve_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (127.0.0.1: this computer only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8000,
    store: Annotated[
        Path | None, typer.Option("--store", help="The SQLite file of games (default: saves).")
    ] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of these lines.")] = Lang.en,
    name: Annotated[
        list[str] | None,
        typer.Option(
            "--name",
            help="A name or address players reach the table by (repeat for more); "
            "requests naming another host are refused (DNS rebinding).",
        ),
    ] = None,
    allow_local_webhooks: Annotated[
        bool,
        typer.Option(
            "--allow-local-webhooks",
            help="Let players' webhooks reach this computer and its private network "
            "(refused by default: a player could make the server call a service behind "
            "the firewall).",
        ),
    ] = False,
) -> None:
    """Serve the web table: two players on two devices, the referee enforcing every rule."""
    check_listen(host, port)
    if store is not None:  # the store is opened (and made) now, not at the first request
        open_store_at(store).close()
    import uvicorn

    from kubik.web.app import create_app

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    where = "web.serve.local" if host in LOOPBACK else "web.serve.network"
    typer.echo(say("web.serve.listening", lang.value, url=url))
    typer.echo(say(where, lang.value))
    typer.echo(say("web.serve.docs", lang.value, url=url))
    uvicorn.run(
        create_app(
            store,
            hosts=served_names(host, name or []),
            allow_local_webhooks=allow_local_webhooks,
        ),
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=2,  # open event streams do not hold the server up
        timeout_keep_alive=KEEP_ALIVE,
    )


def served_names(host: str, names: list[str]) -> set[str]:
    """The names a request's Host header may give: this computer's loopback names, the
    address listened on, and, on a network, this computer's names and addresses and
    the ``--name``s given."""
    served = set(LOOPBACK) | {host, *names}
    if host not in LOOPBACK:
        for own in {socket.gethostname(), socket.getfqdn()}:
            served.add(own)
            with suppress(OSError):
                served |= {str(info[4][0]) for info in socket.getaddrinfo(own, None)}
    return served - {"0.0.0.0", "::"}  # a wildcard is no name to be reached by


def register_serve_command(app: typer.Typer) -> None:
    """Add ``kubik serve`` to the ``kubik`` app."""
    app.command("serve")(serve_command)


__all__ = ["register_serve_command", "serve_command"]
