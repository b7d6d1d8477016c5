"""Arms and hands in close combat (seed 003, «Парное (и более) оружие», «Оружие»,
«Схватка и замена оружия», «Блок»), on the arsenal of our data (RA-ABSENT-14).

A fighter has two hands (the seed reasons in hands: «Боец с пистолетом в одной и с
оружием для рукопашной в другой руке»). A weapon bigger than a pistol («громоздкое или
тяжелое оружие») keeps one of them: he fights «только одной рукой» (RA-CC-07). A shield
is held too — «модель со щитом» blocks (RA-CC-13) — so it takes a hand from his weapons:
with axe, pistol and shield he fights with axe and shield, or axe and pistol, not with
all three. Only melee weapons and pistols (and a grenade, for a daredevil) fight
(RA-CC-15); each one beyond the first in hand adds an attack die (RA-CC-07). Before a
fight he declares what he holds and keeps it until the fight is over (RA-CC-07: «Игрок
должен объявить об этом перед началом схватки»).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.apocalypse.core import data
from kubik.rulesets.apocalypse.shooting import WeaponKind

#: Hands a fighter has for weapons (and a shield) (RA-CC-07: «в одной ... в другой руке»).
HANDS = 2


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of the arsenal (RA-ABSENT-14): its kind (``melee`` or a
    :class:`~kubik.rulesets.apocalypse.shooting.WeaponKind` value), range in paces,
    whether it is bulky (it keeps a hand, RA-CC-07) and whether a ranged weapon also
    fights (a pistol, a grenade: RA-CC-15)."""

    id: str
    name: str
    name_ru: str
    kind: str
    range: int = 0
    bulky: bool = False
    melee: bool = False

    @property
    def ranged(self) -> WeaponKind | None:
        """Its kind as a ranged weapon (None for a melee weapon)."""
        return None if self.kind == "melee" else WeaponKind(self.kind)

    @property
    def fights(self) -> bool:
        """Usable in close combat: melee weapons and pistols (RA-CC-15)."""
        return self.kind == "melee" or self.melee


@decides("RA-ABSENT-14")
@cache
def arsenal() -> Mapping[str, Weapon]:
    """The weapons of the data, by id (RA-ABSENT-14)."""
    out = {}
    for key, row in data()["weapons"].items():
        if key == "provenance":
            continue
        out[key] = Weapon(
            key,
            str(row["name"]),
            str(row["name_ru"]),
            str(row["kind"]),
            int(row.get("range", 0)),
            bool(row.get("bulky", False)),
            bool(row.get("melee", False)),
        )
    return out


@decides("RA-CC-07")
def hands_free(weapons: Sequence[Weapon]) -> int:
    """Hands left to fight with: one when he carries a bulky weapon (RA-CC-07).

    >>> hands_free([arsenal()["rifle"], arsenal()["knife"]]), hands_free([arsenal()["axe"]])
    (1, 2)
    """
    return HANDS - (1 if any(w.bulky for w in weapons) else 0)


@dataclass(frozen=True, slots=True)
class Loadout:
    """What a fighter holds in a fight: his weapons (indexes into his kit; none: fists)
    and whether a shield takes a hand (RA-CC-07, RA-CC-13)."""

    weapons: tuple[int, ...] = ()
    shield: bool = False


@decides("RA-CC-07", "RA-CC-15")
def loadouts(
    weapons: Sequence[Weapon], shield: bool = False, jammed: Sequence[str] = ()
) -> tuple[Loadout, ...]:
    """What he may fight with (RA-CC-07, RA-CC-13, RA-CC-15): his melee weapons and
    pistols, as many as his hands hold — a bulky weapon keeps one hand, a shield another
    — in the kit's own order, the same weapons once; with a shield, holding it first. A
    loadout without the shield is offered only where the freed hand holds a weapon.

    >>> kit = [arsenal()[w] for w in ("axe", "pistol", "knife")]
    >>> [o.weapons for o in loadouts(kit)]
    [(0, 1), (0, 2), (1, 2)]
    >>> [(o.weapons, o.shield) for o in loadouts(kit[:2], shield=True)]
    [((0,), True), ((1,), True), ((0, 1), False)]
    >>> [(o.weapons, o.shield) for o in loadouts([arsenal()["sword"]], shield=True)]
    [((0,), True)]
    """
    return _loadouts(tuple(weapons), shield, tuple(jammed))


@cache
def _loadouts(
    weapons: tuple[Weapon, ...], shield: bool, jammed: tuple[str, ...]
) -> tuple[Loadout, ...]:
    """:func:`loadouts`, worked out once per kit (every bout reads a fighter's)."""
    kit = [i for i, w in enumerate(weapons) if w.fights and w.id not in jammed]
    free = hands_free(weapons)
    out: dict[tuple[tuple[str, ...], bool], Loadout] = {}
    for held in (True, False) if shield else (False,):
        hands = free - (1 if held else 0)
        for chosen in combinations(kit, max(0, min(hands, len(kit)))):
            names = tuple(weapons[i].id for i in chosen)
            if not held and shield and len(chosen) <= hands - 1:
                continue  # the shield's hand would hold nothing: keep the shield
            out.setdefault((names, held), Loadout(chosen, held))
    return tuple(out.values()) or (Loadout(),)


@decides()
def may_fight_with(loadout: Loadout, weapons: Sequence[Weapon], shield: bool = False) -> Verdict:
    """A loadout he may declare for the fight (RA-CC-07): one of :func:`loadouts`."""
    return Verdict.of(
        loadout in loadouts(weapons, shield),
        msg("apocalypse.permission.hands_full"),
        "RA-CC-07",
        "RA-CC-13",
    )


__all__ = ["HANDS", "Loadout", "Weapon", "arsenal", "hands_free", "loadouts", "may_fight_with"]
