"""Challenges (FB-CHAL-01..03): who may issue one, refusing it, and one round of
the duel with Overkill.

As the seed words it (and unlike published WFB) the challenger strikes first
(FB-CHAL-03); a duel cannot be drawn and goes on round after round until one of
the two dies; the wounds beyond those that kill count +1 each to the winner's
combat result, at most +5.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.engine import Call, Procedure, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.rulesets.fantasy.attacks import AttacksOutcome, attacks
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.profiles import Fighter


@decides()
def may_challenge(
    *, first_round: bool, has_duelist: bool, enemy_has_duelist: bool, already: bool
) -> Verdict:
    """A challenge is issued at the start of a combat's first round, once per combat,
    by a unit with a character or champion against one that has one (FB-CHAL-01)."""
    if already:
        return Verdict.forbid(msg("fantasy.permission.one_challenge"), "FB-CHAL-01")
    if not first_round:
        return Verdict.forbid(msg("fantasy.permission.challenge_first_round"), "FB-CHAL-01")
    if not (has_duelist and enemy_has_duelist):
        return Verdict.forbid(msg("fantasy.permission.no_duelist"), "FB-CHAL-01")
    return Verdict.allow("FB-CHAL-01")


def challenger_side(a_charging: bool, b_charging: bool, a_challenges: bool) -> str | None:
    """The charging side has the first right to challenge; if it does not, the
    defender may (FB-CHAL-01). ``a_challenges``: whether the side with the right uses it."""
    first = "a" if a_charging or not b_charging else "b"
    other = "b" if first == "a" else "a"
    return first if a_challenges else other


@decides()
def may_accept() -> Verdict:
    """The challenged side may accept a challenge (FB-CHAL-02)."""
    return Verdict.allow("FB-CHAL-02")


@decides()
def may_refuse(surrounded: bool) -> Verdict:
    """A unit surrounded on all sides may not refuse a challenge (FB-CHAL-02)."""
    if surrounded:
        return Verdict.forbid(msg("fantasy.permission.surrounded"), "FB-CHAL-02")
    return Verdict.allow("FB-CHAL-02")


def overkill(wounds: int, wounds_left: int) -> int:
    """Overkill: each wound beyond those needed to kill, at most +5 (FB-CHAL-03).

    >>> overkill(3, 1)
    2
    >>> overkill(9, 1)
    5
    """
    top = int(data()["combat_resolution"]["overkill_max"])
    return max(0, min(top, wounds - wounds_left))


@dataclass(frozen=True, slots=True)
class Duel:
    """One round of a duel: the challenger, the challenged, their Wounds left."""

    challenger: Fighter
    challenged: Fighter
    challenger_wounds: int
    challenged_wounds: int
    round_number: int = 1
    challenger_charging: bool = True


@dataclass(frozen=True, slots=True)
class DuelOutcome:
    """Wounds each took this round (at most what they had), who died, and the
    Overkill scored by the survivor."""

    challenger_took: int
    challenged_took: int
    dead: str | None  # "challenger" / "challenged" / None
    overkill: int


def _strike(striker: Fighter, victim: Fighter, round_number: int, charging: bool) -> Procedure[int]:
    """The wounds a duellist (and his mount) deal this round."""
    blows = striker.blows_at(victim, round_number=round_number, charging=charging, models=1)
    result: AttacksOutcome = yield Call(attacks, (blows,))
    wounds = result.wounds
    if striker.mount is not None:
        mount_blows = striker.mount.blows_at(
            victim, round_number=round_number, charging=charging, models=1
        )
        more: AttacksOutcome = yield Call(attacks, (mount_blows,))
        wounds += more.wounds
    return wounds


@dataclass(frozen=True, slots=True)
class _Felled:
    """The wounds a strike deals as the duel reads them: those that kill and the
    Overkill's most beyond them (more change nothing)."""

    most: int

    def __call__(self, wounds: int) -> int:
        return min(wounds, self.most)


def _strike_at(
    striker: Fighter, victim: Fighter, victim_wounds: int, round_number: int, charging: bool
) -> Call[int, Fighter, Fighter, int, bool]:
    """A duellist's strike as a step of the duel (logged as the duel's own), its
    wounds as the duel reads them (:class:`_Felled`): the exact odds then branch on
    those few, not on every wound a Killing blow's many Wounds could add."""
    most = victim_wounds + int(data()["combat_resolution"]["overkill_max"])
    return Call(
        _strike, (striker, victim, round_number, charging), reduce=_Felled(most), inline=True
    )


def duel_round(d: Duel) -> Procedure[DuelOutcome]:
    """The challenger strikes first, then the challenged if still alive (FB-CHAL-03);
    a mount strikes with its rider and takes none of his excess wounds (FB-SR-16)."""
    dealt: int = yield _strike_at(
        d.challenger, d.challenged, d.challenged_wounds, d.round_number, d.challenger_charging
    )
    if dealt >= d.challenged_wounds:
        extra = overkill(dealt, d.challenged_wounds)
        yield emit(
            "fantasy.duel.challenged_slain",
            rules=("FB-CHAL-03",) + (("FB-SR-16",) if d.challenged.mount else ()),
            overkill=extra,
        )
        return DuelOutcome(0, d.challenged_wounds, "challenged", extra)
    taken: int = yield _strike_at(
        d.challenged, d.challenger, d.challenger_wounds, d.round_number, False
    )
    if taken >= d.challenger_wounds:
        extra = overkill(taken, d.challenger_wounds)
        yield emit(
            "fantasy.duel.challenger_slain",
            rules=("FB-CHAL-03",) + (("FB-SR-16",) if d.challenger.mount else ()),
            overkill=extra,
        )
        return DuelOutcome(d.challenger_wounds, dealt, "challenger", extra)
    yield emit("fantasy.duel.goes_on", rules=("FB-CHAL-03",), dealt=dealt, taken=taken)
    return DuelOutcome(taken, dealt, None, 0)
