"""``python -m tests.bots.toy_cli ARGS``: the ``kubik`` command with the toy rulesets.

For tests that drive the command in a child process (a pseudo-terminal): the toy
duel and its forecast variant are registered, then ``kubik.cli.app.main`` runs.
"""

from __future__ import annotations

import sys


def main() -> None:
    from kubik.cli.app import main as kubik_main
    from kubik.game import register_ruleset
    from tests.bots.forecast_toy import FORECAST_GAME
    from tests.game.toy import GAME

    register_ruleset(GAME, replace=True)
    register_ruleset(FORECAST_GAME, replace=True)
    kubik_main(sys.argv[1:])


if __name__ == "__main__":
    main()
