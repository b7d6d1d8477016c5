"""Limited ammunition (SW-FIRE-15) and each weapon firing once per activation (SW-FIRE-05).

Pure bookkeeping on frozen state: the game layer keeps an :class:`Ammo` per
limited weapon and a :class:`FiredThisActivation` per squad.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.core.errors import InputError
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.fire_weapons import Special, weapon


@dataclass(frozen=True, slots=True)
class Ammo:
    """Shots left for one limited weapon; ``None`` = unlimited."""

    weapon_id: str
    shots_left: int | None

    @classmethod
    def full(cls, weapon_id: str) -> Ammo:
        """A weapon at the start of a battle (grenade launcher 3, ОПКа-13 4).

        >>> Ammo.full("grenade_launcher").shots_left, Ammo.full("rifle").shots_left
        (3, None)
        """
        return cls(weapon_id, weapon(weapon_id).shots)

    @property
    def can_fire(self) -> bool:
        """Whether a shot is left."""
        return self.shots_left is None or self.shots_left > 0

    def fire(self) -> Ammo:
        """After one fire action that includes it, on its own or in support (default).

        >>> Ammo.full("flamethrower_lianra").fire().shots_left
        3
        """
        if self.shots_left is None:
            return self
        if self.shots_left <= 0:
            raise InputError(f"weapons: {self.weapon_id} has no shots left")
        return Ammo(self.weapon_id, self.shots_left - 1)


@cache  # the data is read once per process, as every rule module does
def shots_per_activation(weapon_id: str, ground_mounted: bool) -> int:
    """Each weapon fires once per activation; ground-mounted heavy weapons twice (SW-FIRE-05).

    >>> [shots_per_activation("hmg", g) for g in (True, False)], shots_per_activation("rifle", True)
    ([2, 1], 1)
    """
    table = load_ruleset_data("steel_war")["fire_per_activation"]
    heavy = weapon(weapon_id).has(Special.GROUND_HEAVY)
    return int(table["ground_heavy_shots"] if heavy and ground_mounted else table["shots"])


@dataclass(frozen=True, slots=True)
class FiredThisActivation:
    """How many times each of a squad's weapons (by model id) has fired this activation."""

    shots: tuple[tuple[str, int], ...] = ()

    def times(self, model: str) -> int:
        """Times the weapon carried by ``model`` has fired."""
        for fired, times in self.shots:  # (one entry a model: no dict made per question)
            if fired == model:
                return times
        return 0

    def may_fire(self, model: str, weapon_id: str, ground_mounted: bool = False) -> bool:
        """Whether that weapon may join another fire action now."""
        return self.times(model) < shots_per_activation(weapon_id, ground_mounted)

    def fired(self, model: str) -> FiredThisActivation:
        """After the weapon fired once more.

        >>> FiredThisActivation().fired("mg").fired("mg").times("mg")
        2
        """
        counts = dict(self.shots)
        counts[model] = counts.get(model, 0) + 1
        return FiredThisActivation(tuple(sorted(counts.items())))
