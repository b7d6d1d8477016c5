"""Steel War close combat (рукопашный бой): the melee die, the round, morale after it, casualties.

Fighters stand in bouts: one fighter facing one or more enemies, each of whom faces
only him (SW-CC-06). Every fighter rolls his own melee die once — his squad's quality
die stepped up for his own weapon, bayonet, horse (SW-CC-07); in each facing pair the
lower roll is a casualty at once, equal rolls nothing (SW-CC-08). Identical unnamed
bouts are independent, so a round Calls one bout's procedure ``times=n`` and the odds
driver convolves them instead of nesting every die.

The rules live one concept a module, and every name stays importable from here:
:mod:`.melee_fighters` (who fights, with which die: SW-CC-01, SW-CC-07),
:mod:`.melee_pairing` (bouts: SW-CC-06), :mod:`.melee_round` (the round: SW-CC-08),
:mod:`.melee_morale` (morale after it, falling back: SW-CC-05, SW-CC-09) and
:mod:`.melee_casualties` (the fate of the fallen: SW-CC-10).
"""

from __future__ import annotations

from kubik.rulesets.steel_war.melee_casualties import (
    CasualtiesOutcome,
    CasualtyFate,
    casualty_fate,
    casualty_fate_of,
    fate_table,
    melee_casualties,
    settle_casualties,
)
from kubik.rulesets.steel_war.melee_fighters import (
    Fighter,
    Side,
    can_fight_in_melee,
    cavalry_bonus_applies,
)
from kubik.rulesets.steel_war.melee_morale import (
    RoundMorale,
    SideMorale,
    fall_back_inches,
    morale_order,
    round_morale,
    round_threat,
)
from kubik.rulesets.steel_war.melee_pairing import (
    Bout,
    Group,
    bouts_of,
    check_pairing,
    default_pairing,
    pair_fighters,
)
from kubik.rulesets.steel_war.melee_round import (
    MELEE_ROLL_RULES,
    BoutOutcome,
    Comparison,
    Losses,
    RoundLosses,
    bout_against,
    bout_fight,
    fights_from,
    melee_round,
    opponent_roll,
)

__all__ = [
    "MELEE_ROLL_RULES",
    "Bout",
    "BoutOutcome",
    "CasualtiesOutcome",
    "CasualtyFate",
    "Comparison",
    "Fighter",
    "Group",
    "Losses",
    "RoundLosses",
    "RoundMorale",
    "Side",
    "SideMorale",
    "bout_against",
    "bout_fight",
    "bouts_of",
    "can_fight_in_melee",
    "casualty_fate",
    "casualty_fate_of",
    "cavalry_bonus_applies",
    "check_pairing",
    "default_pairing",
    "fall_back_inches",
    "fate_table",
    "fights_from",
    "melee_casualties",
    "melee_round",
    "morale_order",
    "opponent_roll",
    "pair_fighters",
    "round_morale",
    "round_threat",
    "settle_casualties",
]
