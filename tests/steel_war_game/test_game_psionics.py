"""Psionics in battle (SW-PSI-*): which psi actions a psionic is offered, the situation
measured on the table, each outcome applied with typed-in dice, bad ``psionic`` fields,
and the convoy battle whose Barf-jat wanderer uses them."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from kubik.dice import Die
from kubik.engine import OddsCache, TableSession, expected_value
from kubik.engine.log import EventEntry
from kubik.game import GameSession, ScenarioError, load_scenario
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import psionics
from kubik.rulesets.steel_war.battle.menu import menu
from kubik.rulesets.steel_war.battle.options import Psi
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.psionics_actions import BlastChoice, PsiAction

from .builders import new_game, scenario, unit

MASTER = 'psionic = { psi = "master", faction = "barf_jat" }\n'

#: A sight-blocking wall across the table between y = 5 and y = 7.
WALL = """
[[terrain]]
id = "wall"
kind = "difficult"
cover = "hard"
blocks_los = true
points = [[0, 5], [24, 5], [24, 7], [0, 7]]
"""


def battle(*extra_units: str, terrain: str = "") -> object:
    """A Barf-jat master (d8) at (12, 2), a friendly squad at (4, 4), an enemy squad at
    (12, 10) (7.0" away, zone 1) and one at (12, 30) (27.0" away, zone 3)."""
    units = [
        unit("p", "steel", (12, 2), (("pistol", 1),), quality="veterans") + MASTER,
        unit("f", "steel", (3, 2)),
        unit("e", "lianra", (12, 10)),
        unit("far", "lianra", (12, 30)),
        *extra_units,
    ]
    return new_game(scenario(units, terrain=terrain, width=24, height=48))


def psi_options(game: object, squad_id: str = "p", done: tuple[ActionType, ...] = ()) -> list[Psi]:
    world = game.world  # type: ignore[attr-defined]
    return [o for o in menu(world, world.squad(squad_id), done).options if isinstance(o, Psi)]


def offered(options: list[Psi], target: str) -> set[PsiAction]:
    return {o.act for o in options if o.target == target}


def test_SW_PSI_05_SW_PSI_07_actions_offered_by_target_side_and_range() -> None:
    game = battle()
    options = psi_options(game)
    # Attacks on enemies; support only where it changes something (no markers, at start level).
    assert offered(options, "e") == {
        PsiAction.STRIKE,
        PsiAction.PANIC,
        PsiAction.CONFUSION,
        PsiAction.BLAST,
        PsiAction.MURDER,
    }
    assert offered(options, "f") == {PsiAction.NO_STEP_BACK}
    assert offered(options, "p") == {PsiAction.NO_STEP_BACK}
    # Zone 3: d8 falls to d4, which cannot reach 7 (blast) or 8 (murder).
    assert offered(options, "far") == {PsiAction.STRIKE, PsiAction.PANIC, PsiAction.CONFUSION}
    blasts = [o.choice for o in options if o.act is PsiAction.BLAST]
    assert blasts == [BlastChoice.LOSE_MORALE, BlastChoice.PANIC]
    # With a target for his pistol, the default stays firing.
    world = game.world  # type: ignore[attr-defined]
    assert not isinstance(menu(world, world.squad("p"), ()).default, Psi)


def test_SW_PSI_08_SW_PSI_09_support_offered_when_it_helps() -> None:
    game = battle()
    friend = game.world.squad("f")  # type: ignore[attr-defined]
    friend.markers = 2
    friend.level = MoraleLevel.SHAKEN
    assert offered(psi_options(game), "f") == {
        PsiAction.REMOVE_SUPPRESSION,
        PsiAction.INSPIRATION,
        PsiAction.NO_STEP_BACK,
    }


def test_SW_PSI_05_no_psi_while_suppressed_nor_beyond_two_actions_nor_without_psionic() -> None:
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    assert psi_options(game, "p", (ActionType.PSI, ActionType.PSI)) == []
    assert psi_options(game, "f") == []  # an ordinary squad has no psionic
    world.squad("p").markers = 1
    assert psi_options(game) == []
    world.squad("p").markers = 0
    world.squad("p").models[0].status = Status.KILLED  # the psionic is down
    assert world.squad("p").psi is None


def test_SW_PSI_05_SW_PSI_06_zone_from_the_measured_distance_and_sight() -> None:
    """Beyond the first zone the target must be in sight; in zone 1 it need not be.

    Behind the wall: squad "near" at (6, 10), nearest model (8.25, 10): sqrt(3.75² + 8²)
    − 1 = 7.8" (zone 1); squad "hid" at (18, 18), nearest model (15.75, 18):
    sqrt(3.75² + 16²) − 1 = 15.4" (zone 2, d6)."""
    game = battle(
        unit("near", "lianra", (6, 10)),
        unit("hid", "lianra", (18, 18)),
        terrain=WALL,
    )
    world = game.world  # type: ignore[attr-defined]
    p = world.squad("p")
    near = psionics.measure(world, p, world.squad("near"))
    hid = psionics.measure(world, p, world.squad("hid"))
    assert near is not None and hid is not None
    assert (near.distance, near.line_of_sight) == (7.8, False)
    assert (hid.distance, hid.line_of_sight) == (15.4, False)
    options = psi_options(game)
    assert PsiAction.STRIKE in offered(options, "near")
    assert offered(options, "hid") == set()
    e = psionics.measure(world, p, world.squad("e"))
    far = psionics.measure(world, p, world.squad("far"))
    assert e is not None and far is not None
    assert (e.distance, e.psi) == (7.0, Die(8))  # sqrt(0.75² + 8²) − 1 = 7.0
    assert far.distance == 27.0  # sqrt(0.75² + 28²) − 1 = 27.0: zone 3
    # Nothing in sight to fire at: the default is a strike at the nearest enemy.
    default = menu(world, p, ()).default
    assert isinstance(default, Psi) and default.act is PsiAction.STRIKE and default.target == "e"


def test_SW_PSI_13_strike_applies_the_morale_drop() -> None:
    """d8 psi roll 4 ≥ 4 succeeds; target regulars d8, L 2, T 0 + 3 = 5: roll 2 ≤ 5/2
    loses two levels (Steady → Broken)."""
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    p, e = world.squad("p"), world.squad("e")
    option = Psi(PsiAction.STRIKE, "e", "e", "e", 7.0)
    TableSession(psionics.use_psi, (world, p, option)).supply([4, 2])
    assert e.level is MoraleLevel.BROKEN
    TableSession(psionics.use_psi, (world, p, option)).supply([3])  # 3 < 4: fails
    assert e.level is MoraleLevel.BROKEN


def test_SW_PSI_08_remove_suppression_clears_every_marker() -> None:
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    friend = world.squad("f")
    friend.markers = 3
    option = Psi(PsiAction.REMOVE_SUPPRESSION, "f", "f", "f", 6.0)
    TableSession(psionics.use_psi, (world, world.squad("p"), option)).supply([1])
    assert friend.markers == 3
    TableSession(psionics.use_psi, (world, world.squad("p"), option)).supply([2])
    assert friend.markers == 0


def test_SW_PSI_09_inspiration_raises_a_level_as_if_its_commander() -> None:
    """Psi 4 succeeds; no communication test; N = 2 (psionic) + 2 (squad) + 0 = 4:
    the squad's d8 rolls 5 > 4, Shaken → Steady (its start)."""
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    friend = world.squad("f")
    friend.level = MoraleLevel.SHAKEN
    option = Psi(PsiAction.INSPIRATION, "f", "f", "f", 6.0)
    TableSession(psionics.use_psi, (world, world.squad("p"), option)).supply([4, 5])
    assert friend.level is MoraleLevel.STEADY


def test_SW_PSI_10_no_step_back_without_a_test() -> None:
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    friend = world.squad("f")
    friend.markers = 1
    option = Psi(PsiAction.NO_STEP_BACK, "f", "f", "f", 6.0)
    TableSession(psionics.use_psi, (world, world.squad("p"), option)).supply([6])
    assert friend.berserk and friend.markers == 0


def test_SW_PSI_14_panic_forces_a_test_even_on_veterans() -> None:
    """Veterans never panic by the normal rules; the psi panic tests them: d10 1 ≤ L 2 fails."""
    game = battle(unit("v", "lianra", (20, 12), quality="veterans"))
    world = game.world  # type: ignore[attr-defined]
    vets = world.squad("v")
    vets.panic_over = True
    option = Psi(PsiAction.PANIC, "v", "v", "v", 8.0)
    TableSession(psionics.use_psi, (world, world.squad("p"), option)).supply([4, 1])
    assert vets.panicked and vets.level is MoraleLevel.SHAKEN


def test_SW_PSI_15_confusion_costs_this_or_the_next_activation() -> None:
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    p, e, far = world.squad("p"), world.squad("e"), world.squad("far")
    TableSession(psionics.use_psi, (world, p, Psi(PsiAction.CONFUSION, "e", "e", "e", 7.0))).supply(
        [4]
    )
    assert e.activated and not e.confused
    far.activated = True
    TableSession(
        psionics.use_psi, (world, p, Psi(PsiAction.CONFUSION, "far", "f", "f", 27.0))
    ).supply([4])
    assert far.confused
    far.new_turn()
    assert far.activated and not far.confused  # the next turn's activation is lost
    far.new_turn()
    assert not far.activated


def test_SW_PSI_16_blast_morale_or_panic_at_the_psionics_choice() -> None:
    """d8 needs 7: two levels lost (Steady → Broken), or panicked with no level lost."""
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    p, e, far = world.squad("p"), world.squad("e"), world.squad("far")
    lose = Psi(PsiAction.BLAST, "e", "e", "e", 7.0, BlastChoice.LOSE_MORALE)
    TableSession(psionics.use_psi, (world, p, lose)).supply([7])
    assert e.level is MoraleLevel.BROKEN and not e.panicked
    far.move_to((12, 16))
    panic = Psi(PsiAction.BLAST, "far", "f", "f", 13.0, BlastChoice.PANIC)
    beyond = TableSession(psionics.use_psi, (world, p, panic))
    beyond.supply([])  # zone 2: d6 cannot reach 7, no roll is asked
    assert beyond.finished and not far.panicked
    far.move_to((12, 12))
    TableSession(psionics.use_psi, (world, p, panic)).supply([8])
    assert far.panicked and far.level is MoraleLevel.STEADY


def test_SW_PSI_17_murder_hits_the_commander_suppresses_and_tests_morale() -> None:
    """Psi 8 ≥ 8; morale test "commander lost" at medium motivation: d8 roll 8 passes;
    then e.2's assault rifle (power d8) rolls 8 against e.1's armour d4 rolling 2:
    8 ≥ 3 × 2, killed; a new commander (d6 roll 3), one suppression marker."""
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    e = world.squad("e")
    assert psionics.murder_pair(e) == ("e.1", "e.2")
    option = Psi(PsiAction.MURDER, "e", "e", "e", 7.0)
    session = TableSession(psionics.use_psi, (world, world.squad("p"), option))
    session.supply([8, 8, 8, 2, 3])
    assert session.finished
    assert e.model("e.1").status is Status.KILLED
    assert e.commander == "e.2"
    assert e.markers == 1 and e.level is MoraleLevel.STEADY


def test_SW_PSI_11_SW_PSI_12_detection_and_avert_eyes_never_offered() -> None:
    """The game has no observation action (SW-ABSENT-03), which both would modify."""
    acts = {o.act for o in psi_options(battle())}
    assert PsiAction.DETECTION not in acts and PsiAction.AVERT_EYES not in acts


def test_SW_PSI_06_forecast_is_the_rule_on_the_measured_situation() -> None:
    """Confusion at zone 1 on d8 needs 4: 5/8 × the confusion weight 0.6; at zone 3 on
    d4: 1/4 × 0.6. Blast (7) on d8: 2/8 × two levels × 0.8."""
    game = battle()
    world = game.world  # type: ignore[attr-defined]
    items = psionics.psi_options(world, world.squad("p"))
    found = {(o.act, o.target, o.choice): f for o, f in items}
    cache = OddsCache()
    weight = Fraction(0.6)
    near = found[(PsiAction.CONFUSION, "e", None)]
    assert expected_value(near, cache) == Fraction(5, 8) * weight
    assert (
        expected_value(found[(PsiAction.CONFUSION, "far", None)], cache) == Fraction(1, 4) * weight
    )
    blast = found[(PsiAction.BLAST, "e", BlastChoice.LOSE_MORALE)]
    assert expected_value(blast, cache) == Fraction(2, 8) * 2 * Fraction(0.8)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            'psionic = { psi = "d20", faction = "keno" }\n',
            "units[0].psionic.psi: 'd20' is not a psi die; allowed: d4, d6, d8, d10, d12",
        ),
        (
            'psionic = { psi = "famous", faction = "otlok" }\n',
            "units[0].psionic: psi d10 is above the best otlok psionic (d8)",
        ),
        (
            'psionic = { psi = "d6", faction = "lianra" }\n',
            "units[0].psionic.faction:",
        ),
        ('psionic = { psi = "d6" }\n', "units[0].psionic.faction: missing"),
    ],
)
def test_SW_PSI_02_bad_psionic_field_is_one_line(line: str, expected: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        scenario([unit("p", "steel", (6, 4)) + line, unit("e", "lianra", (6, 18))])
    message = str(caught.value)
    assert "\n" not in message and f": {expected}" in message


def test_SW_PSI_05_a_vehicle_cannot_be_a_psionic() -> None:
    units = [
        unit("v", "steel", (6, 4), (("hmg", 1),), vehicle="apc") + MASTER,
        unit("e", "lianra", (6, 30)),
    ]
    with pytest.raises(ScenarioError, match=r": units\[0\]\.psionic: a vehicle cannot be"):
        scenario(units, height=48)


def test_the_convoy_psionic_plays_reproducibly_in_both_languages() -> None:
    convoy = load_scenario("steel_war.convoy")
    session = GameSession(convoy, 4)
    session.advance()
    assert session.finished
    ids = [e.event.id for e in session.log if isinstance(e, EventEntry)]
    assert "steel_war.game.psi" in ids
    again = GameSession(convoy, 4)
    again.advance()
    assert json.dumps(again.to_json()) == json.dumps(session.to_json())
    rebuilt = GameSession.from_record(session.record)
    assert json.dumps(rebuilt.to_json()) == json.dumps(session.to_json())
    russian = session.narrate("ru")
    assert not [x for x in russian if re.search(r"(steel_war|game)\.[a-z_]+\.[a-z_.]+", x)]
    assert any("Псионик" in x for x in russian)
