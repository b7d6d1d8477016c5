"""``python -m kubik.agents export``: saved games as trajectories, one ``.npz`` per game and side.

    python -m kubik.agents export --out data/            every saved game of the store
    python -m kubik.agents export duel-1 duel-2 --out data/ --store games.db

Each file ``<game>.<side>.npz`` holds the side's observations (``planes``,
``pieces``, ``globals``, ``actions``, each with a leading axis of decisions), ``mask``,
``action``, ``origin`` and ``reward`` (:class:`~kubik.agents.export.Trajectory`).
A wrong name or store is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kubik.agents.export import saved_trajectories
from kubik.game import GameInputError, GameStore, RecordError, ScenarioError, StoreError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m kubik.agents", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="saved games as (observation, mask, action)")
    export.add_argument("names", nargs="*", help="saved games (default: every one)")
    export.add_argument("--out", required=True, type=Path, help="folder for the .npz files")
    export.add_argument("--store", type=Path, default=None, help="the saves (default: kubik's)")
    export.add_argument("--max-actions", type=int, default=None, help="action space size")
    arguments = parser.parse_args(argv)
    try:
        with GameStore(arguments.store) as store:
            arguments.out.mkdir(parents=True, exist_ok=True)
            written = 0
            for name, sides in saved_trajectories(
                store, arguments.names, max_actions=arguments.max_actions
            ):
                for side, trajectory in sides.items():
                    path = trajectory.save(arguments.out / f"{name}.{side}.npz")
                    print(f"{path}: {len(trajectory.steps)} decisions, reward {trajectory.reward}")
                    written += 1
    except (StoreError, RecordError, ScenarioError, GameInputError, OSError) as error:
        print(f"kubik.agents export: {error}", file=sys.stderr)
        return 2
    if not written:
        print("kubik.agents export: no saved games to export", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
