"""A model's profile and kit (M, WS, BS, S, T, W, I, A, Ld; saves, weapon, special
rules), and the blows it aims at another profile."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kubik.rulesets.fantasy.attacks import Blows, extra_attacks, weapon_bonus


@dataclass(frozen=True, slots=True)
class Fighter:
    """One kind of model: its characteristics and kit. ``mount``: the monster or
    steed a character rides, which strikes beside him (FB-CHAL-03)."""

    ws: int = 3
    s: int = 3
    t: int = 3
    w: int = 1
    i: int = 3
    a: int = 1
    ld: int = 7
    armour_save: int | None = None
    ward_save: int | None = None
    regeneration: int | None = None
    rules: frozenset[str] = field(default_factory=frozenset)
    weapon: str = "hand_weapon"
    mount: Fighter | None = None
    bs: int = 3
    m: int = 4

    def with_mount(self, mount: Fighter) -> Fighter:
        """The same model riding ``mount``."""
        return replace(self, mount=mount)

    def attacks_each(self, round_number: int, charging: bool) -> int:
        """Attacks per model: A, Extra attack (FB-SR-07) and the weapon's."""
        _, weapon_attacks = weapon_bonus(self.weapon, round_number=round_number, charging=charging)
        return self.a + extra_attacks(self.rules) + weapon_attacks

    def blows_at(
        self,
        target: Fighter,
        *,
        round_number: int,
        charging: bool,
        models: int,
        afraid: bool = False,
        hates: bool | None = None,
        bonus_attacks: int = 0,
        target_afraid: bool = False,
        target_wounds_left: int | None = None,
        target_rides: bool = False,
    ) -> Blows:
        """The blows ``models`` of these strike at ``target`` this round; ``afraid``:
        the unit failed its Fear test and fights with WS 1, ``target_afraid``: the
        target did, and is struck as WS 1 (FB-PSY-01); ``target_wounds_left``: what the
        target has left to lose (None: as many as the blows cause)."""
        return Blows(
            attacks=models * self.attacks_each(round_number, charging) + bonus_attacks,
            weapon_skill=1 if afraid else self.ws,
            strength=self.s,
            target_weapon_skill=1 if target_afraid else target.ws,
            target_toughness=target.t,
            target_armour_save=target.armour_save,
            target_ward_save=target.ward_save,
            rules=self.rules,
            target_rules=target.rules,
            round_number=round_number,
            charging=charging,
            initiative=self.i,
            target_initiative=target.i,
            target_regeneration=target.regeneration,
            target_wounds=target.w,
            weapon=self.weapon,
            hates_target=hates,
            target_wounds_left=target_wounds_left,
            target_rides=target_rides,
        )
