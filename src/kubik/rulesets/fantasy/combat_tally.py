"""A round of close combat's running tally: the wounds each side took and caused,
who is out of the fight, and what of each regiment is left to strike and be struck
(FB-CMD-05: the command group dies last, the champion first of it)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from kubik.rulesets.fantasy.combat_sides import Regiment, Round
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import CommandGroup, ModelKind


def other_side(side: str) -> str:
    """The other side of the round (``a`` or ``b``)."""
    return "b" if side == "a" else "a"


class Tally(NamedTuple):
    """A :class:`RoundState` frozen between the steps of a round (a tuple: hashed in C),
    the afraid flags resolved (a side's own test, else its regiment's)."""

    troop_wounds: tuple[int, int]
    character_wounds: tuple[int, int]
    caused: tuple[int, int]
    overkill: tuple[int, int]
    champion_lost: tuple[bool, bool]
    out_of_fight: frozenset[str]
    refused: frozenset[str]
    afraid: tuple[bool, bool]
    dueling: bool = False


@dataclass(slots=True)
class RoundState:
    """The round's running tally (private to one run of the procedure)."""

    r: Round
    troop_wounds: dict[str, int]
    character_wounds: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    caused: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    overkill: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    champion_lost: dict[str, bool] = field(default_factory=lambda: {"a": False, "b": False})
    out_of_fight: set[str] = field(default_factory=set)  # "a:character", "b:champion"
    refused: set[str] = field(default_factory=set)
    afraid: dict[str, bool] = field(default_factory=dict)
    dueling: bool = False

    @classmethod
    def starting(cls, r: Round) -> RoundState:
        """The tally as the round begins: the wounds each side's troops and character
        lost before it, and what lasts from the combat's earlier rounds — a refused
        challenge (the refuser in the rear rank, FB-CHAL-02), Fear (FB-PSY-01)."""
        st = cls(
            r,
            {"a": r.a.wounds_taken, "b": r.b.wounds_taken},
            {"a": r.a.character_wounds_taken, "b": r.b.character_wounds_taken},
        )
        for side in ("a", "b"):
            reg = st.regiment(side)
            if reg.refused:
                st.refused.add(side)
                who = "character" if st.character_alive(side) else "champion"
                st.out_of_fight.add(f"{side}:{who}")
        return st

    def regiment(self, side: str) -> Regiment:
        return self.r.a if side == "a" else self.r.b

    def models(self, side: str) -> int:
        reg = self.r.a if side == "a" else self.r.b
        lost = self.troop_wounds[side] // reg.troops.w
        return max(0, reg.models - int(self.champion_lost[side]) - lost)

    def troop_wounds_left(self, side: str) -> int:
        reg = self.regiment(side)
        return (reg.models - int(self.champion_lost[side])) * reg.troops.w - self.troop_wounds[side]

    def character_alive(self, side: str) -> bool:
        reg = self.r.a if side == "a" else self.r.b
        return reg.character is not None and self.character_wounds[side] < reg.character.w

    def champion_alive(self, side: str) -> bool:
        reg = self.regiment(side)
        return "champion" in command_left(reg, self.champion_lost[side]).alive(self.models(side))

    def character_fights(self, side: str) -> bool:
        """Whether the character strikes at the enemy's unit: alive, in base contact
        with it, and neither in a duel nor in the rear rank after refusing one."""
        return (
            self.character_alive(side)
            and self.regiment(side).character_in_contact
            and f"{side}:character" not in self.out_of_fight
        )

    def afraid_now(self, side: str) -> bool:
        """Whether ``side`` fights with WS 1 (FB-PSY-01): afraid since a test of this
        round or an earlier one of the combat."""
        return self.afraid.get(side, self.regiment(side).afraid)

    def frozen(self) -> Tally:
        """The tally as a value, for the round's next step."""
        return Tally(
            (self.troop_wounds["a"], self.troop_wounds["b"]),
            (self.character_wounds["a"], self.character_wounds["b"]),
            (self.caused["a"], self.caused["b"]),
            (self.overkill["a"], self.overkill["b"]),
            (self.champion_lost["a"], self.champion_lost["b"]),
            frozenset(self.out_of_fight),
            frozenset(self.refused),
            (self.afraid.get("a", self.r.a.afraid), self.afraid.get("b", self.r.b.afraid)),
            self.dueling,
        )

    @classmethod
    def thawed(cls, r: Round, tally: Tally) -> RoundState:
        """The running tally of a round's step from its frozen value."""
        troops, characters, caused, overkill, champions, out, refused, afraid, dueling = tally
        return cls(
            r,
            {"a": troops[0], "b": troops[1]},
            {"a": characters[0], "b": characters[1]},
            {"a": caused[0], "b": caused[1]},
            {"a": overkill[0], "b": overkill[1]},
            {"a": champions[0], "b": champions[1]},
            set(out),
            set(refused),
            {"a": afraid[0], "b": afraid[1]},
            dueling,
        )


def command_left(reg: Regiment, champion_lost: bool) -> CommandGroup:
    if champion_lost:
        return replace(reg.command, champion=False)
    return reg.command


def champion_profile(reg: Regiment) -> Fighter:
    """A champion fights with his unit's profile and one more Attack."""
    return replace(reg.troops, a=reg.troops.a + 1)


def target_of(st: RoundState, side: str) -> tuple[str, Fighter, int] | None:
    """What blows at ``side`` strike: its rank and file, or its character once they
    are gone: (what, profile, wounds left)."""
    reg = st.regiment(side)
    rider = (
        reg.character is not None
        and st.character_alive(side)
        and f"{side}:character" not in st.out_of_fight
    )
    at_rider = (
        rider
        and reg.kind is ModelKind.RIDDEN_MONSTER
        and st.regiment(other_side(side)).strike_rider
    )
    if st.models(side) > 0 and not at_rider:
        return "troops", reg.troops, st.troop_wounds_left(side)
    if rider and reg.character is not None:
        return "character", reg.character, reg.character.w - st.character_wounds[side]
    return None


def deal_wounds(st: RoundState, side: str, what: str, wounds: int) -> int:
    """Wounds ``side`` takes on ``what``, capped at what it has left; returns them."""
    target = target_of(st, side)
    if target is None or target[0] != what:
        return 0
    taken = min(wounds, target[2])
    if what == "troops":
        st.troop_wounds[side] += taken
    else:
        st.character_wounds[side] += taken
    return taken
