"""What procedures there are, and one resolved: with dice typed in at a real table or
virtual dice from a seed, as the ``resolve`` JSON of the contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kubik.api.inputs import InputLike, parse_input
from kubik.core.errors import DiceAnswerError
from kubik.engine import registry
from kubik.engine.jsonify import outcome_json
from kubik.engine.registry import ProcedureSpec

# Games, bots, simulations of battles, text for people and the drivers other than the
# odds load only when a call needs them: a question of odds (`kubik odds`) does not pay
# for numpy, the game layer, Babel, the optimal policy or the simulator.
if TYPE_CHECKING:
    from kubik.engine.log import LogEntry, RollEntry
    from kubik.engine.run import RunResult


def procedures() -> list[dict[str, Any]]:
    """Every procedure: name, ruleset, rule ids, summary, input JSON schema, examples."""
    return [
        {
            "name": spec.name,
            "ruleset": spec.ruleset,
            "rules": list(spec.rules),
            "summary": spec.summary,
            "input_schema": spec.input_schema(),
            "examples": [dict(e) for e in spec.examples],
        }
        for spec in registry.all_specs()
    ]


_ROLL_FIELDS = ("dice", "values", "reason", "reason_id", "origin")


def _roll_json(entry: RollEntry, lang: str) -> dict[str, Any]:
    """A roll as the contract's ``rolls`` list shows it."""
    from kubik.engine.narration import entry_json

    full = entry_json(entry, lang)
    return {key: full[key] for key in _ROLL_FIELDS}


def log_entry_json(entry: LogEntry, lang: str) -> dict[str, Any]:
    """A log entry as JSON: its structure and its text in ``lang``."""
    from kubik.engine.narration import entry_json

    return entry_json(entry, lang)


def _resolution_json(
    spec: ProcedureSpec, result: RunResult, lang: str, seed: int | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "procedure": spec.name,
        "outcome": outcome_json(result.outcome),
        "rolls": [_roll_json(e, lang) for e in result.rolls],
        "log": [log_entry_json(e, lang) for e in result.log],
    }
    if seed is not None:
        out["seed"] = seed
    return out


def resolve(
    name: str,
    input: InputLike,
    dice: Sequence[int | str] | None = None,
    seed: int | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """Resolve one procedure: with typed-in ``dice`` (table) or virtual dice from ``seed``.

    Without dice or seed a fresh seed is drawn and reported, so any resolution
    can be replayed.
    """
    return resolve_with_outcome(name, input, dice, seed, lang)[0]


def resolve_with_outcome(
    name: str,
    input: InputLike,
    dice: Sequence[int | str] | None = None,
    seed: int | None = None,
    lang: str = "en",
) -> tuple[dict[str, Any], Any]:
    """:func:`resolve`, and the outcome itself (its named values say themselves in any
    language; the JSON keeps only their ids)."""
    import random
    import secrets

    from kubik.engine.run import TableSession, describe_roll, play

    spec = registry.get(name)
    inp = parse_input(spec, input)
    if dice is not None:
        session = TableSession(spec.function, (inp,))
        session.supply(dice)
        if session.pending is not None:
            raise DiceAnswerError(
                f"too few dice: {session.dice_used} given, the next roll needs "
                f"{describe_roll(session.pending)}"
            )
        assert session.result is not None
        return _resolution_json(spec, session.result, lang, None), session.result.outcome
    if seed is None:
        seed = secrets.randbits(32)
    result = play(spec.function, (inp,), random.Random(seed))
    return _resolution_json(spec, result, lang, seed), result.outcome
