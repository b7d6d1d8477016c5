"""``make demo``: a whole battle of bots, then rulebook situations refereed and weighed.

First ``steel_war.demo`` is played to its end by two heuristic bots and its result
shown (the summary; the line under it plays it again with the whole narrated log),
exactly as ``kubik play --quiet`` would with the same seed. If that scenario cannot be played yet,
the demo says so in one line and goes on: no battle is faked. Then the seed's
worked examples are refereed from the seed's own dice, each with its exact odds.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kubik import api
from kubik.api.words import say
from kubik.cli.console.results import console_for_people, print_exact_odds, print_resolution
from kubik.cli.play import controllers_for, run_session
from kubik.core.errors import KubikError
from kubik.engine.jsonify import outcome_order
from kubik.engine.registry import all_specs
from kubik.game import GameSession, load_scenario

#: The battle the demo plays, and the seed it plays it with.
DEMO_SCENARIO = "steel_war.demo"
DEMO_SEED = 1


@dataclass(frozen=True)
class Showcase:
    """One situation from a rulebook, with the dice the rulebook rolled."""

    title: str
    title_ru: str
    procedure: str
    input: dict[str, Any]
    dice: tuple[int, ...]


SHOWCASES: tuple[Showcase, ...] = (
    Showcase(
        "Стальная война — a Keno Guard squad (regulars d8, leadership 2) loses 4 of 7 men to "
        "machine-gun fire, two of them wounded: threat 4 + 2, the morale test needs more than 8",
        "Стальная война — отделение гвардии Кено (регуляры, к8, лидерство 2) теряет от пулемётного "
        "огня 4 бойца из 7, двое из них ранены: угроза 4 + 2, для теста на боевой дух нужно "
        "больше 8",
        "steel_war.morale_test",
        {"quality": "d8", "leadership": 2, "threat": 6},
        (6,),
    ),
    Showcase(
        'Стальная война — recruits (d6) fire an LMG at partisans 10" away in a flimsy house, '
        "gone to ground",
        "Стальная война — новобранцы (к6) стреляют из ручного пулемёта по залёгшим партизанам "
        'в хлипком доме в 10"',
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
        "Легенды Старого Запада — удар Силы 3 по Выносливости 8: выпало 6, затем 4 на втором "
        "кубике",
        "old_west.wound",
        {"strength": 3, "toughness": 8},
        (6, 4),
    ),
    Showcase(
        "Legends of the Old West — three Outlaws (Fight 3) gang up on a Cowboy (Fight 4)",
        "Легенды Старого Запада — трое Преступников (Ближний Бой 3) против одного Ковбоя "
        "(Ближний Бой 4)",
        "old_west.fight",
        {
            "a": [{"fight": 3, "attacks": 1}] * 3,
            "b": [{"fight": 4, "attacks": 1}],
        },
        (2, 5, 3, 5),
    ),
)


def play_battle(console: Console, lang: str, scenario_id: str = DEMO_SCENARIO) -> bool:
    """Play ``scenario_id`` with heuristic bots on both sides; False if it cannot be played."""
    console.print(Rule(say("console.demo.battle", lang, id=scenario_id, seed=DEMO_SEED)))
    try:
        scenario = load_scenario(scenario_id)
        kinds = {side: "heuristic" for side in scenario.side_ids}
        session = GameSession(
            scenario, DEMO_SEED, controllers=controllers_for(kinds, DEMO_SEED), lang=lang
        )
    except KubikError as error:
        console.print(say("console.demo.missing", lang, id=scenario_id, error=str(error)))
        return False
    # the battle's result on one screen; its whole narrated log is one command away
    run_session(session, kinds, as_json=False, quiet=True, save_name=None)
    console.print(say("console.demo.again", lang, id=scenario_id, seed=DEMO_SEED), style="dim")
    return True


def main(lang: str = "en") -> None:
    """Play the demo battle, then referee each showcase from the seed's dice, with its odds."""
    console = console_for_people()
    play_battle(console, lang)
    console.print()
    console.print(Rule(say("console.demo.showcases", lang), style="bold"))
    registered = {spec.name for spec in all_specs()}
    for show in SHOWCASES:
        if show.procedure not in registered:
            continue
        console.print(Rule())
        console.print(Text(show.title_ru if lang == "ru" else show.title, style="bold"))
        dice = ", ".join(map(str, show.dice))
        console.print(say("console.demo.resolve", lang, procedure=show.procedure, dice=dice))
        resolved, outcome = api.resolve_with_outcome(
            show.procedure, show.input, dice=list(show.dice), lang=lang
        )
        print_resolution(console, resolved, lang, outcome)
        console.print()
        distribution = api.exact_distribution(show.procedure, show.input)
        order = sorted(distribution, key=outcome_order)
        print_exact_odds(console, show.procedure, distribution, order, lang)
        console.print()
    console.print(say("console.demo.procedures", lang, n=len(registered)))
    console.print(how_to_reach_kubik(lang), style="bold", soft_wrap=True)


def how_to_reach_kubik(lang: str) -> str:
    """The demo's last line: how to type ``kubik`` in a shell from here.

    ``make demo`` installs the command into ``.venv/bin``, which a fresh shell does not
    search; activating the environment puts it on the ``PATH`` (or run it by its path).
    """
    bin_dir = Path(sys.executable).parent
    script = bin_dir / ("kubik.exe" if os.name == "nt" else "kubik")
    on_path = shutil.which("kubik")
    if on_path is not None and Path(on_path).resolve() == script.resolve():
        return say("console.demo.reach_path", lang)
    try:
        shown = bin_dir.relative_to(Path.cwd())
    except ValueError:
        shown = bin_dir
    activate = bin_dir / "activate"
    if activate.is_file():
        return say(
            "console.demo.reach_activate",
            lang,
            activate=f"source {shown / 'activate'}",
            script=str(shown / script.name),
        )
    return say("console.demo.reach_script", lang, script=str(shown / script.name))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
