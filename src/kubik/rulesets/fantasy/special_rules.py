"""The special rules of seed 004 by their snake_case ids (design.md: the English
names of the rules in the catalogue), and the catalogue rule each one is.

Inputs name special rules by these ids; an id outside this table is a one-line
input error naming the allowed ones.
"""

from __future__ import annotations

from typing import Literal

#: Every special rule of the seed a model or unit may carry, and its catalogue ID.
SPECIAL_RULES: dict[str, str] = {
    "breath_weapon": "FB-SR-01",
    "always_strikes_first": "FB-SR-02",
    "always_strikes_last": "FB-SR-03",
    "armour_piercing": "FB-SR-04",
    "devastating_charge": "FB-SR-05",
    "ethereal": "FB-SR-06",
    "extra_attack": "FB-SR-07",
    "fight_in_extra_rank": "FB-SR-08",
    "flaming_attacks": "FB-SR-09",
    "flammable": "FB-SR-10",
    "poisoned_attacks": "FB-SR-11",
    "regeneration": "FB-SR-12",
    "killing_blow": "FB-SR-13",
    "impact_hits": "FB-SR-14",
    "large_target": "FB-SR-15",
    "fear": "FB-PSY-01",
    "terror": "FB-PSY-02",
    "immune_to_psychology": "FB-PSY-04",
    "frenzy": "FB-PSY-05",
    "hatred": "FB-PSY-06",
    "stupidity": "FB-PSY-07",
    "stubborn": "FB-PSY-08",
    "unbreakable": "FB-PSY-09",
    "horde": "FB-PSY-10",
    "magic_resistance": "FB-MAG-01",
    "loremaster": "FB-MAG-02",
    "light_cavalry": "FB-MOV-01",
    "fly": "FB-MOV-02",
    "hover": "FB-MOV-03",
    "aquatic": "FB-MOV-04",
    "scouts": "FB-MOV-05",
    "quick_to_fire": "FB-SHOOT-01",
    "slow_to_fire": "FB-SHOOT-02",
    "sniper": "FB-SHOOT-03",
    "volley_fire": "FB-SHOOT-04",
    "multiple_shots": "FB-SHOOT-05",
    "magical_attacks": "FB-ABSENT-20",
}

#: A special rule id, as inputs name it.
SpecialRule = Literal[
    "breath_weapon",
    "always_strikes_first",
    "always_strikes_last",
    "armour_piercing",
    "devastating_charge",
    "ethereal",
    "extra_attack",
    "fight_in_extra_rank",
    "flaming_attacks",
    "flammable",
    "poisoned_attacks",
    "regeneration",
    "killing_blow",
    "impact_hits",
    "large_target",
    "fear",
    "terror",
    "immune_to_psychology",
    "frenzy",
    "hatred",
    "stupidity",
    "stubborn",
    "unbreakable",
    "horde",
    "magic_resistance",
    "loremaster",
    "light_cavalry",
    "fly",
    "hover",
    "aquatic",
    "scouts",
    "quick_to_fire",
    "slow_to_fire",
    "sniper",
    "volley_fire",
    "multiple_shots",
    "magical_attacks",
]

#: Weapons of FB-ABSENT-18, as inputs name them.
WeaponId = Literal[
    "hand_weapon",
    "additional_hand_weapon",
    "great_weapon",
    "halberd",
    "spear",
    "lance",
    "flail",
    "morning_star",
]
