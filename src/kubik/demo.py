"""``make demo``: the seed's worked examples refereed from their dice, then their exact odds.

Until the game layer plays whole battles, the demo shows what a player at the
table gets from kubik today: a narrated, refereed resolution of real rulebook
situations (the dice are the seed's own) and the exact odds of the same situation.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.rule import Rule

from kubik import api
from kubik.cli import _print_log, _print_odds
from kubik.engine.registry import all_specs


@dataclass(frozen=True)
class Showcase:
    """One situation from a rulebook, with the dice the rulebook rolled."""

    title: str
    procedure: str
    input: dict[str, Any]
    dice: tuple[int, ...]


SHOWCASES: tuple[Showcase, ...] = (
    Showcase(
        "Стальная война — a Keno Guard squad (regulars d8, leadership 2) loses 4 of 7 men to "
        "machine-gun fire, two of them wounded: threat 4 + 2, the morale test needs more than 8",
        "steel_war.morale_test",
        {"quality": "d8", "leadership": 2, "threat": 6},
        (6,),
    ),
    Showcase(
        'Стальная война — recruits (d6) fire an LMG at partisans 10" away in a flimsy house, '
        "gone to ground",
        "steel_war.fire",
        {
            "quality": "d6",
            "weapons": [{"weapon": "lmg", "count": 1}],
            "distance": 10,
            "cover": "light",
            "prone": True,
            "armour": "d4",
            "target_models": 10,
        },
        (3, 6, 2, 5, 4),
    ),
    Showcase(
        "Legends of the Old West — Strength 3 strikes Toughness 8: a 6, then a 4 on the second die",
        "old_west.wound",
        {"strength": 3, "toughness": 8},
        (6, 4),
    ),
    Showcase(
        "Legends of the Old West — three Outlaws (Fight 3) gang up on a Cowboy (Fight 4)",
        "old_west.fight",
        {
            "a": [{"fight": 3, "attacks": 1}] * 3,
            "b": [{"fight": 4, "attacks": 1}],
        },
        (2, 5, 3, 5),
    ),
)


def main(lang: str = "en") -> None:
    """Referee each showcase from the seed's dice, then show its exact odds."""
    console = Console(highlight=False, soft_wrap=True)
    registered = {spec.name for spec in all_specs()}
    for show in SHOWCASES:
        if show.procedure not in registered:
            continue
        console.print(Rule(show.title))
        console.print(
            f"[bold]kubik resolve {show.procedure}[/bold] (dice typed in: "
            f"{', '.join(map(str, show.dice))})"
        )
        _print_log(api.resolve(show.procedure, show.input, dice=list(show.dice), lang=lang), lang)
        console.print()
        _print_odds(api.odds(show.procedure, show.input), lang)
        console.print()
    console.print(f"{len(registered)} procedures registered; `kubik procedures` lists them.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
