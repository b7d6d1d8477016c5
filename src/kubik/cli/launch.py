"""The ``kubik`` command's entry point: a repeated odds question answered from the cache.

``kubik odds ... --json`` asked before is answered from :mod:`kubik.cli.answers` before
anything heavy is imported; every other command line (and a new question, whose
answer is then kept) goes to :func:`run` (a plain ``kubik odds``
without typer, :mod:`kubik.cli.odds`; anything else to :func:`kubik.cli.app.main`).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from kubik.cli import answers, language, plugins, quick


class _Tee(io.TextIOBase):
    """Writes through to the real stdout and remembers what was written."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``kubik`` with ``argv`` (the command line's arguments by default)."""
    args = list(sys.argv[1:] if argv is None else argv)
    # kubik uses no pydantic plugins; looking for them scans every installed package
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    plugins.skip_plugin_search()
    if quick.version(args) or quick.complete():
        return
    args = language.with_language(args)
    if quick.top_help(args):
        return
    if not answers.enabled(args):
        run(args)
        return
    kept = answers.lookup(args)
    if kept is not None:
        sys.stdout.write(kept)
        sys.stdout.flush()
        return
    real = sys.stdout
    tee = _Tee(real)
    sys.stdout = tee
    try:
        run(args)
    except SystemExit as done:
        if done.code not in (0, None):
            raise
    finally:
        sys.stdout = real
    answers.keep(args, "".join(tee.parts))


def run(args: Sequence[str]) -> None:
    """Run a command line: a plain ``kubik odds`` without typer (:mod:`kubik.cli.odds`),
    anything else by typer (:func:`kubik.cli.app.main`)."""
    from kubik.cli.scenario_list import answer_plain as list_plain

    if list_plain(args):  # a plain list of scenarios: read from their files alone
        return
    from kubik.cli.odds import answer_plain

    if not answer_plain(args):
        from kubik.cli.app import main as typer_main

        typer_main(list(args))


if __name__ == "__main__":
    main()
