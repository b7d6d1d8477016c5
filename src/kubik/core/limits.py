"""Engine limits: kubik's own bounds on work, so no input can take unbounded time or memory.

These are not rulebook numbers: they live here, in code, and a ``KUBIK_DATA_DIR``
override cannot change them (a ruleset's own engine limits in its data files carry
the provenance ``engine`` and refuse overrides too, see :mod:`kubik.rulesets.data`). Every
input past a limit is refused up front with one line that names the limit. The
README's "Reliability" section lists them (a test keeps the two in step).

>>> LIMITS["simulate_runs"].value, LIMITS["simulate_runs"].what
(1000000, 'runs of `kubik odds --simulate N`')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """One bound: its value and what it bounds (as the README and errors name it)."""

    value: int
    what: str


#: Runs of one Monte Carlo estimate (a batch form makes them cheap; a generator ~20-200 µs each).
SIMULATE_RUNS = 1_000_000
#: Bytes of ``--input`` JSON (inline or ``@FILE``).
INPUT_BYTES = 1_000_000
#: How deeply ``--input`` JSON may nest (no procedure needs more than 4).
INPUT_DEPTH = 32
#: Bytes of a scenario file (the built-in ones are 4-7 KB).
SCENARIO_BYTES = 1_000_000
#: Units (squads, models, vehicles) in one scenario.
UNITS = 100
#: Models in one scenario (a ruleset whose units hold several models counts them).
MODELS = 1_000
#: Terrain features in one scenario.
TERRAIN_FEATURES = 200
#: Corner points of one terrain feature.
TERRAIN_POINTS = 1_000
#: Corner points of all terrain features together.
TERRAIN_POINTS_TOTAL = 20_000
#: Width or depth of the table, in inches.
TABLE_INCHES = 1_000
#: Turns of one game: a scenario's ``end.turn_limit`` is at most this, and a game
#: without one ends (as at a turn limit) after this many.
TURNS = 100
#: Answers (rolls and decisions) in one saved game.
SAVE_ANSWERS = 1_000_000
#: Milliseconds to wait for a save store another process holds locked, per write.
STORE_LOCK_WAIT_MS = 5_000

#: Positions the heuristic bot looks at to solve one decision inside a rule exactly;
#: past it the bot judges that decision by its options' forecasts instead.
BOT_SOLVE_POSITIONS = 2_000
#: The same for the fast bot (``--bot fast``), for large sweeps.
FAST_BOT_SOLVE_POSITIONS = 200

#: Steps of exact work one odds question may take (:mod:`kubik.engine.work`: a step is
#: a third to half a microsecond of CPU, counted from the question, not from a clock), so
#: every question answers exactly within a second or is refused as soon as it is known
#: to be too large, naming this limit; ``--simulate N`` estimates it instead.
ODDS_STEPS = 1_600_000

#: Seconds of CPU one exact odds question may take (`kubik odds`; the web's odds process
#: gives each request as long). Questions inside the documented input ranges are meant to
#: answer within a second; the few corners that do not are stopped here with one line
#: rather than left to run for minutes.
ODDS_SECONDS = 20

#: The root seed of bot games when none is given (``kubik play``, ``coverage``, ``sim``).
#: Not a limit: it lives here because this module is light (the command line and the
#: API name it without loading the game layer).
DEFAULT_SEED = 1

LIMITS: dict[str, Limit] = {
    "simulate_runs": Limit(SIMULATE_RUNS, "runs of `kubik odds --simulate N`"),
    "input_bytes": Limit(INPUT_BYTES, "bytes of `--input` JSON, inline or @FILE"),
    "input_depth": Limit(INPUT_DEPTH, "levels of nesting in `--input` JSON"),
    "scenario_bytes": Limit(SCENARIO_BYTES, "bytes of a scenario file"),
    "units": Limit(UNITS, "units (squads, models, vehicles) in a scenario"),
    "models": Limit(MODELS, "models in a scenario"),
    "terrain_features": Limit(TERRAIN_FEATURES, "terrain features in a scenario"),
    "terrain_points": Limit(TERRAIN_POINTS, "corner points of one terrain feature"),
    "terrain_points_total": Limit(TERRAIN_POINTS_TOTAL, "corner points of all terrain"),
    "table_inches": Limit(TABLE_INCHES, "inches of table width or depth"),
    "turns": Limit(TURNS, "turns of a game (with or without a turn limit)"),
    "save_answers": Limit(SAVE_ANSWERS, "answers in a saved game"),
    "bot_solve_positions": Limit(
        BOT_SOLVE_POSITIONS, "positions a heuristic bot solves exactly for one decision"
    ),
    "fast_bot_solve_positions": Limit(
        FAST_BOT_SOLVE_POSITIONS, "positions the fast bot solves exactly for one decision"
    ),
    "odds_steps": Limit(
        ODDS_STEPS, "steps of exact work one odds question may take (about 0.8 s of CPU)"
    ),
    "odds_seconds": Limit(
        ODDS_SECONDS, "seconds of CPU one exact odds question may take (terminal and web)"
    ),
    "store_lock_wait_ms": Limit(
        STORE_LOCK_WAIT_MS, "milliseconds a write waits for a save store locked by another process"
    ),
}


def too_deep(data: object, limit: int) -> bool:
    """Whether JSON- or TOML-like ``data`` nests lists and tables deeper than ``limit``.

    >>> too_deep({"a": [[1]]}, 3), too_deep({"a": [[1]]}, 2)
    (False, True)
    """
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list | tuple):
            if depth >= limit:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return False


__all__ = [
    "BOT_SOLVE_POSITIONS",
    "FAST_BOT_SOLVE_POSITIONS",
    "INPUT_BYTES",
    "INPUT_DEPTH",
    "LIMITS",
    "MODELS",
    "SAVE_ANSWERS",
    "SCENARIO_BYTES",
    "SIMULATE_RUNS",
    "STORE_LOCK_WAIT_MS",
    "TABLE_INCHES",
    "TERRAIN_FEATURES",
    "TERRAIN_POINTS",
    "TERRAIN_POINTS_TOTAL",
    "TURNS",
    "UNITS",
    "Limit",
    "too_deep",
]
