"""The ``kubik`` command and its terminal faces (:mod:`.console`).

Importing the package imports nothing: :mod:`kubik.cli.launch` is the console script,
and it loads typer and the rest only for the command line that needs them.
"""
