"""Hits and what they do to a warrior: saves and injuries (RA-CC-16, RA-ABSENT-05/06),
his condition after them, a guard hurt leaving guard (RA-GUARD-03), a singer taken
out ending his lasting Melody (RA-MEL-08), and a hidden warrior seen again.
"""

from __future__ import annotations

from kubik.engine import Call, Procedure, emit, msg
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Condition, Sight, Warrior, Watch
from kubik.rulesets.apocalypse.guard import guard_ends
from kubik.rulesets.apocalypse.injuries import Harm, Hits, Injury, save_needed, take_hits


def harm(
    game: ApocalypseState,
    w: Warrior,
    hits: int,
    by: Warrior | None,
    save: int | None = None,
    *,
    in_hand: bool = False,
) -> Procedure[Harm]:
    """Hits on ``w``: saves and injuries (RA-CC-16), then what they do to him; a guard
    who is hurt leaves guard (RA-GUARD-03). ``in_hand``: blows in a fight, where his
    shield helps his save only when he holds it (RA-CC-07, RA-ABSENT-05)."""
    shield = w.shield_in_hand if in_hand else w.shield
    needed = save_needed(w.armour, shield) if save is None else save
    knocked = w.condition is not Condition.STANDING
    result: Harm = yield Call(take_hits, (Hits(hits, needed, w.current_toughness, knocked),))
    w.wounds += result.wounds
    harmed = bool(result.wounds) or result.injury is not Injury.STANDING
    if w.watch is Watch.ON_GUARD and guard_ends(False, False, harmed, False):
        w.watch = Watch.NONE
        yield emit(game.post_msg("game.post_ends"), rules=("RA-GUARD-03",), unit=game.name(w.id))
    yield from apply_injury(game, w, result.injury, by)
    return result


def apply_injury(
    game: ApocalypseState, w: Warrior, injury: Injury, by: Warrior | None
) -> Procedure[None]:
    """Set his condition after an injury roll (RA-ABSENT-06)."""
    if injury is Injury.OUT_OF_ACTION:
        game.take_out(w, Condition.OUT_OF_ACTION, by)
        yield emit("apocalypse.game.out", rules=("RA-ABSENT-06",), unit=game.name(w.id))
        yield from singer_gone(game, w)
    elif injury is Injury.KNOCKED_DOWN and w.condition is Condition.STANDING:
        w.condition = Condition.KNOCKED_DOWN
        w.frenzied = False  # a knocked-down frenzied warrior is frenzied no more (RA-PSY-10)
    elif injury is Injury.STUNNED:
        w.condition = Condition.STUNNED
        w.frenzied = False
    if injury is not Injury.STANDING and w.sight is not Sight.SEEN and w.in_battle:
        w.sight = Sight.SEEN  # struck down, he is hidden no more
        yield from revealed_note(game, w, ("RA-HIDE-03", "RA-ABSENT-06"))


def revealed_note(game: ApocalypseState, w: Warrior, rules: tuple[str, ...]) -> Procedure[None]:
    """Narrate that a hidden warrior has been seen."""
    yield emit("apocalypse.game.revealed", rules=rules, unit=game.name(w.id))


def singer_gone(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """A lasting Melody ends when its singer is out of action or flees (RA-MEL-08)."""
    if not w.lasting:
        return
    w.lasting = ""
    why = "singer_down" if not w.in_battle else "singer_fled"
    yield emit(
        "apocalypse.game.lasting_ends",
        rules=("RA-MEL-08",),
        unit=game.name(w.id),
        why=msg(f"apocalypse.melody.lasting_end.{why}"),
    )


__all__ = ["apply_injury", "harm", "revealed_note", "singer_gone"]
