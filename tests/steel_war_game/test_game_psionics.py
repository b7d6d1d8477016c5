"""Psionics in battle (SW-PSI-*): which psi actions a psionic is offered, the situation
measured on the table, each outcome applied with typed-in dice, bad ``psionic`` fields,
and the convoy battle whose Barf-jat wanderer uses them."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from kubik.engine import Choose, OddsCache, PolicyChooser, TableSession, expected_value
from kubik.engine.dice import Die
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.game import GameSession, ScenarioError, load_scenario
from kubik.game.battle import Posture
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import psionics, spotting
from kubik.rulesets.steel_war.battle.game import SteelWarGame
from kubik.rulesets.steel_war.battle.menu import build
from kubik.rulesets.steel_war.battle.options import Observe, Psi
from kubik.rulesets.steel_war.battle.state import Panic, Status, Turn
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.psionics_actions import BlastChoice, PsiAction

from .builders import new_game, play, rules_in, scenario, unit

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


def battle(*extra_units: str, terrain: str = "") -> SteelWarGame:
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


def psi_options(
    game: SteelWarGame, squad_id: str = "p", done: tuple[ActionType, ...] = ()
) -> list[Psi]:
    return [o for o in build(game, game.squad(squad_id), done).menu.options if isinstance(o, Psi)]


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
    assert not isinstance(build(game, game.squad("p"), ()).default, Psi)


def test_SW_PSI_08_SW_PSI_09_support_offered_when_it_helps() -> None:
    game = battle()
    friend = game.squad("f")
    friend.markers = 2
    friend.level = MoraleLevel.SHAKEN
    assert offered(psi_options(game), "f") == {
        PsiAction.REMOVE_SUPPRESSION,
        PsiAction.INSPIRATION,
        PsiAction.NO_STEP_BACK,
    }


def test_SW_PSI_05_no_psi_while_suppressed_nor_beyond_two_actions_nor_without_psionic() -> None:
    game = battle()
    assert psi_options(game, "p", (ActionType.PSI, ActionType.PSI)) == []
    assert psi_options(game, "f") == []  # an ordinary squad has no psionic
    game.squad("p").markers = 1
    assert psi_options(game) == []
    game.squad("p").markers = 0
    game.squad("p").models[0].status = Status.KILLED  # the psionic is down
    assert game.squad("p").psi is None


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
    p = game.squad("p")
    near = psionics.measure(game, p, game.squad("near"))
    hid = psionics.measure(game, p, game.squad("hid"))
    assert near is not None and hid is not None
    assert (near.distance, near.line_of_sight) == (7.8, False)
    assert (hid.distance, hid.line_of_sight) == (15.4, False)
    options = psi_options(game)
    assert PsiAction.STRIKE in offered(options, "near")
    assert offered(options, "hid") == set()
    e = psionics.measure(game, p, game.squad("e"))
    far = psionics.measure(game, p, game.squad("far"))
    assert e is not None and far is not None
    assert (e.distance, e.psi) == (7.0, Die(8))  # sqrt(0.75² + 8²) − 1 = 7.0
    assert far.distance == 27.0  # sqrt(0.75² + 28²) − 1 = 27.0: zone 3
    # Nothing in sight to fire at: the default is a strike at the nearest enemy.
    default = build(game, p, ()).default
    assert isinstance(default, Psi) and default.act is PsiAction.STRIKE and default.target == "e"


def test_SW_PSI_13_strike_applies_the_morale_drop() -> None:
    """d8 psi roll 4 ≥ 4 succeeds; target regulars d8, L 2, T 0 + 3 = 5: roll 2 ≤ 5/2
    loses two levels (Steady → Broken)."""
    game = battle()
    p, e = game.squad("p"), game.squad("e")
    option = Psi(PsiAction.STRIKE, "e", 7.0)
    TableSession(psionics.use_psi, (game, p, option)).supply([4, 2])
    assert e.level is MoraleLevel.BROKEN
    TableSession(psionics.use_psi, (game, p, option)).supply([3])  # 3 < 4: fails
    assert e.level is MoraleLevel.BROKEN


def test_SW_PSI_08_remove_suppression_clears_every_marker() -> None:
    game = battle()
    friend = game.squad("f")
    friend.markers = 3
    option = Psi(PsiAction.REMOVE_SUPPRESSION, "f", 6.0)
    TableSession(psionics.use_psi, (game, game.squad("p"), option)).supply([1])
    assert friend.markers == 3
    TableSession(psionics.use_psi, (game, game.squad("p"), option)).supply([2])
    assert friend.markers == 0


def test_SW_PSI_09_inspiration_raises_a_level_as_if_its_commander() -> None:
    """Psi 4 succeeds; no communication test; N = 2 (psionic) + 2 (squad) + 0 = 4:
    the squad's d8 rolls 5 > 4, Shaken → Steady (its start)."""
    game = battle()
    friend = game.squad("f")
    friend.level = MoraleLevel.SHAKEN
    option = Psi(PsiAction.INSPIRATION, "f", 6.0)
    TableSession(psionics.use_psi, (game, game.squad("p"), option)).supply([4, 5])
    assert friend.level is MoraleLevel.STEADY


def test_SW_PSI_10_no_step_back_without_a_test() -> None:
    game = battle()
    friend = game.squad("f")
    friend.markers = 1
    option = Psi(PsiAction.NO_STEP_BACK, "f", 6.0)
    TableSession(psionics.use_psi, (game, game.squad("p"), option)).supply([6])
    assert friend.berserk and friend.markers == 0


def test_SW_PSI_14_panic_forces_a_test_even_on_veterans() -> None:
    """Veterans never panic by the normal rules; the psi panic tests them: d10 1 ≤ L 2 fails."""
    game = battle(unit("v", "lianra", (20, 12), quality="veterans"))
    vets = game.squad("v")
    vets.panic = Panic.OVER
    option = Psi(PsiAction.PANIC, "v", 8.0)
    TableSession(psionics.use_psi, (game, game.squad("p"), option)).supply([4, 1])
    assert vets.panicked and vets.level is MoraleLevel.SHAKEN


def test_SW_PSI_15_confusion_costs_this_or_the_next_activation() -> None:
    game = battle()
    p, e, far = game.squad("p"), game.squad("e"), game.squad("far")
    TableSession(psionics.use_psi, (game, p, Psi(PsiAction.CONFUSION, "e", 7.0))).supply([4])
    assert e.turn is Turn.DONE
    far.turn = Turn.DONE
    TableSession(psionics.use_psi, (game, p, Psi(PsiAction.CONFUSION, "far", 27.0))).supply([4])
    assert far.turn is Turn.DONE_LOSES_NEXT
    far.new_turn()
    assert far.activated  # the next turn's activation is lost
    far.new_turn()
    assert not far.activated


def test_SW_PSI_16_blast_morale_or_panic_at_the_psionics_choice() -> None:
    """d8 needs 7: two levels lost (Steady → Broken), or panicked with no level lost."""
    game = battle()
    p, e, far = game.squad("p"), game.squad("e"), game.squad("far")
    lose = Psi(PsiAction.BLAST, "e", 7.0, BlastChoice.LOSE_MORALE)
    TableSession(psionics.use_psi, (game, p, lose)).supply([7])
    assert e.level is MoraleLevel.BROKEN and not e.panicked
    far.place_models((12, 16))
    panic = Psi(PsiAction.BLAST, "far", 13.0, BlastChoice.PANIC)
    beyond = TableSession(psionics.use_psi, (game, p, panic))
    beyond.supply([])  # zone 2: d6 cannot reach 7, no roll is asked
    assert beyond.finished and not far.panicked
    far.place_models((12, 12))
    TableSession(psionics.use_psi, (game, p, panic)).supply([8])
    assert far.panicked and far.level is MoraleLevel.STEADY


def test_SW_PSI_17_murder_hits_the_commander_suppresses_and_tests_morale() -> None:
    """Psi 8 ≥ 8; morale test "commander lost" at medium motivation: d8 roll 8 passes;
    then e.2's assault rifle (power d8) rolls 8 against e.1's armour d4 rolling 2:
    8 ≥ 3 × 2, killed; a new commander (d6 roll 3), one suppression marker."""
    game = battle()
    e = game.squad("e")
    assert psionics.murder_pair(e) == ("e.1", "e.2")
    option = Psi(PsiAction.MURDER, "e", 7.0)
    session = TableSession(psionics.use_psi, (game, game.squad("p"), option))
    session.supply([8, 8, 8, 2, 3])
    assert session.finished
    assert e.model("e.1").status is Status.KILLED
    assert e.commander == "e.2"
    assert e.markers == 1 and e.level is MoraleLevel.STEADY


def test_SW_PSI_12_avert_eyes_while_the_psionic_s_squad_hides() -> None:
    """Offered only to a hiding squad (in cover or gone to ground) on itself; it lasts the
    turn, and an observer then meets the psi die instead of the range die."""
    game = battle()
    p = game.squad("p")
    assert PsiAction.AVERT_EYES not in offered(psi_options(game), "p")
    p.posture = Posture.PRONE
    assert PsiAction.AVERT_EYES in offered(psi_options(game), "p")
    play(psionics.use_psi, (game, p, Psi(PsiAction.AVERT_EYES, "p", 0.0)))
    assert p.averting
    _, hiding, rules = spotting.dice(game, game.squad("e"), p, False)
    assert hiding == Die(8) and "SW-PSI-12" in rules[1]
    p.new_turn()
    assert not p.averting


def test_SW_PSI_11_a_psionic_observes_with_his_psi_die() -> None:
    """Psi-detection (threshold 1) lets the observing psionic roll his psi die — a master's
    d8 — instead of his squad's quality die (recruits, d6)."""
    game = battle()
    p, e = game.squad("p"), game.squad("e")
    p.spec = p.spec.model_copy(update={"quality": "recruits"})
    e.posture = Posture.PRONE
    assert Observe("e", True) in build(game, p, ()).menu
    run = play(spotting.observation, (game, p, Observe("e", True)), 8, 1)
    assert run.result is not None and "SW-PSI-11" in rules_in(run.result.log)
    assert p.side in e.spotted_by


def test_SW_PSI_18_androids_resist_psionics_on_a_d6() -> None:
    """A psi strike on veteran androids (d10): their morale test is rolled on d6."""
    game = battle(unit("a", "lianra", (20, 12), quality="veterans", android=True))
    run = play(psionics.use_psi, (game, game.squad("p"), Psi(PsiAction.STRIKE, "a", 8.0)), 4, 6)
    assert run.result is not None
    tests = [
        e
        for e in run.result.log
        if isinstance(e, RollEntry) and e.reason.id == "steel_war.morale_test.roll"
    ]
    assert tests and tests[0].dice == (Die(6),)
    assert "SW-PSI-18" in rules_in(run.result.log)


def test_SW_PSI_06_forecast_is_the_rule_on_the_measured_situation() -> None:
    """Confusion at zone 1 on d8 needs 4: 5/8 × the confusion weight 0.6; at zone 3 on
    d4: 1/4 × 0.6. Blast (7) on d8: 2/8 × two levels × 0.8."""
    game = battle()
    items = psionics.psi_offers(game, game.squad("p"))
    found = {(o.act, o.target, o.choice): f for o, _, f in items}
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


def test_SW_PSI_16_a_blast_s_effect_is_decided_by_the_psionic_s_side() -> None:
    """«На выбор псионика»: once the blast has worked, the psionic's side picks the
    effect — the decision is that side's (its player or bot), not a side nobody plays
    (before, it was asked of "psionic" and always answered by the default)."""
    game = battle()
    p, e = game.squad("p"), game.squad("e")
    asked: list[str] = []

    def psionic_player(request: Choose) -> BlastChoice:
        asked.append(request.side)
        return BlastChoice.PANIC

    option = Psi(PsiAction.BLAST, "e", 7.0, BlastChoice.LOSE_MORALE)
    session = TableSession(
        psionics.use_psi, (game, p, option), chooser=PolicyChooser(psionic_player)
    )
    session.supply([7])
    assert session.result is not None
    choices = [c for c in session.result.log if isinstance(c, ChoiceEntry)]
    assert [c.side for c in choices] == asked == [p.side]
    assert e.panicked and e.level is MoraleLevel.STEADY
