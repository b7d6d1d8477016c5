"""A whole close-combat round (OW-CC-01..16): back off, trapped, prone, strikes, wounds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.engine.log import EventEntry, RollEntry
from kubik.rulesets.old_west.combat import CombatOutcome, Model, combat
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import JustEnough, policies
from kubik.rulesets.old_west.procedures.combat import CombatInput, combat_procedure

from .helpers import ByPolicy, Scripted, replay_oracle, table
from .test_chart_and_wound import closed_form
from .test_fight import brute_fight

LAWMAN: dict[str, Any] = {"fight": 3, "attacks": 1, "strength": 3, "toughness": 3}


def p_wound(strength: int, toughness: int) -> Fraction:
    first, second = closed_form(strength, toughness)
    if first is None:
        return Fraction(0)
    p = Fraction(7 - first, 6)
    return p * Fraction(7 - second, 6) if second else p


def independent_combat(
    a: list[dict[str, Any]], b: list[dict[str, Any]], advantage: str
) -> dict[Any, Fraction]:
    """The round computed without the engine: winner odds by brute force, then every
    strike as an independent success (reach × wound), first standing target by default."""

    def spec(side: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
        return [(m["fight"], m["attacks"], 0) for m in side]

    winner_p = brute_fight(spec(a), spec(b), advantage, spend=False)
    result: dict[Any, Fraction] = {}
    for winner, pw in winner_p.items():
        if not pw:
            continue
        winners, losers = (a, b) if winner == "a" else (b, a)
        trapped = [bool(m.get("trapped") or m.get("prone")) for m in losers]
        states: dict[tuple[int, ...], Fraction] = {tuple(0 for _ in losers): Fraction(1)}
        for striker in winners:
            if striker.get("prone"):
                continue
            for _ in range(striker["attacks"]):
                nxt: dict[tuple[int, ...], Fraction] = {}
                for state, ps in states.items():
                    standing = [i for i, m in enumerate(losers) if state[i] < m.get("wounds", 1)]
                    if len(losers) == 1:
                        target = 0
                    elif standing:
                        target = standing[0]
                    else:
                        nxt[state] = nxt.get(state, Fraction(0)) + ps
                        continue
                    victim = losers[target]
                    reach = striker.get("across_obstacle") or victim.get("across_obstacle")
                    p = p_wound(striker["strength"], victim["toughness"])
                    if reach:
                        p *= Fraction(1, 2)
                    branch = {state: ps}
                    for _ in range(2 if trapped[target] else 1):
                        grown: dict[tuple[int, ...], Fraction] = {}
                        for st, q in branch.items():
                            hit = tuple(w + (i == target) for i, w in enumerate(st))
                            grown[hit] = grown.get(hit, Fraction(0)) + q * p
                            grown[st] = grown.get(st, Fraction(0)) + q * (1 - p)
                        branch = grown
                    for st, q in branch.items():
                        nxt[st] = nxt.get(st, Fraction(0)) + q
                states = nxt
        for state, ps in states.items():
            capped = tuple(min(w, m.get("wounds", 1)) for w, m in zip(state, losers, strict=True))
            lost = sum(1 for w, m in zip(capped, losers, strict=True) if w >= m.get("wounds", 1))
            prone = [int(bool(m.get("prone"))) for m in winners]
            stood = tuple(prone) if any(prone) else ()  # a prone winner stands (OW-CC-10)
            outcome = CombatOutcome(Side(winner), capped, lost, stood=stood)
            result[outcome] = result.get(outcome, Fraction(0)) + pw * ps
    return result


CASES: list[tuple[list[dict[str, Any]], list[dict[str, Any]], str]] = [
    ([LAWMAN], [LAWMAN], "a"),
    ([{**LAWMAN, "attacks": 2, "strength": 4, "fight": 5}], [{**LAWMAN, "wounds": 2}], "a"),
    ([LAWMAN, LAWMAN], [{**LAWMAN, "trapped": True, "wounds": 2}], "b"),
    ([{**LAWMAN, "attacks": 2}], [LAWMAN, {**LAWMAN, "toughness": 4, "trapped": True}], "a"),
    ([{**LAWMAN, "prone": True}], [{**LAWMAN, "across_obstacle": True}], "a"),
    ([LAWMAN], [{**LAWMAN, "mounted": True}], "b"),
]


@pytest.mark.parametrize(("a", "b", "advantage"), CASES)
def test_OW_CC_05_combat_odds_match_an_independent_calculation(
    a: list[dict[str, Any]], b: list[dict[str, Any]], advantage: str
) -> None:
    inp = CombatInput.model_validate({"a": a, "b": b, "advantage": advantage})
    got = OddsDriver().distribution(combat_procedure, (inp,))
    assert dict(got) == {k: v for k, v in independent_combat(a, b, advantage).items() if v}


@pytest.mark.parametrize(
    "example",
    [
        {"a": [{**LAWMAN, "fame": 1}], "b": [{**LAWMAN, "trapped": True, "wounds": 2}]},
        {"a": [{**LAWMAN, "fame": 2, "strength": 2}], "b": [{**LAWMAN, "toughness": 8}]},
        {"a": [LAWMAN], "b": [{**LAWMAN, "mounted": True, "fame": 1}]},
    ],
)
def test_OW_HERO_05_combat_with_fame_matches_replayed_brute_force(example: dict[str, Any]) -> None:
    inp = CombatInput.model_validate(example)
    for policy in policies().values():
        assert dict(OddsDriver(policy).distribution(combat_procedure, (inp,))) == replay_oracle(
            combat_procedure, (inp,), policy
        )


def _inp(a: list[dict[str, Any]], b: list[dict[str, Any]], advantage: str = "a") -> CombatInput:
    return CombatInput.model_validate({"a": a, "b": b, "advantage": advantage})


def _wound_rolls(session: Any) -> list[tuple[int, ...]]:
    return [
        e.values
        for e in session.result.log
        if isinstance(e, RollEntry) and e.reason.id.startswith("old_west.wound.")
    ]


def test_OW_CC_11_marshal_with_two_attacks_rolls_two_wound_dice_and_may_inflict_two_wounds() -> (
    None
):
    """Seed: a Marshal with 2 Attacks rolls 2 dice to wound; both count, so 2 wounds."""
    marshal = {"fight": 5, "attacks": 2, "strength": 3, "toughness": 3}
    outlaw = {**LAWMAN, "wounds": 2}
    session = table(combat_procedure, (_inp([marshal], [outlaw]),), [2, 6, 3, 5, 4])
    assert _wound_rolls(session) == [(5,), (4,)]
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 1)  # type: ignore[union-attr]


def test_OW_CC_01_a_fight_has_three_stages_in_order() -> None:
    session = table(combat_procedure, (_inp([LAWMAN], [LAWMAN]),), [5, 2, 4])
    ids = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]  # type: ignore[union-attr]
    assert ids.index("old_west.fight.result") < ids.index("old_west.combat.back_off")
    assert ids.index("old_west.combat.back_off") < ids.index("old_west.wound.result")
    assert session.result.outcome == CombatOutcome(Side.A, (1,), 1)  # type: ignore[union-attr]


def test_OW_CC_04_loser_backs_off_and_takes_normal_strikes() -> None:
    session = table(combat_procedure, (_inp([LAWMAN], [LAWMAN]),), [5, 2, 3])
    assert len(_wound_rolls(session)) == 1
    assert session.result.outcome == CombatOutcome(Side.A, (0,), 0)  # type: ignore[union-attr]


def test_OW_CC_09_trapped_one_attack_two_strikes_two_attacks_four_strikes() -> None:
    """Seed: a fighter with 1 Attack strikes a trapped one twice, with 2 Attacks four times."""
    trapped = {**LAWMAN, "trapped": True, "wounds": 3}
    one = table(combat_procedure, (_inp([LAWMAN], [trapped]),), [6, 1, 4, 4])
    assert len(_wound_rolls(one)) == 2
    assert one.result.outcome == CombatOutcome(Side.A, (2,), 0)  # type: ignore[union-attr]
    two = {**LAWMAN, "attacks": 2}
    session = table(combat_procedure, (_inp([two], [trapped]),), [6, 1, 1, 4, 4, 1, 2])
    assert len(_wound_rolls(session)) == 4
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 0)  # type: ignore[union-attr]


def test_OW_CC_09_cliff_edge_normal_strikes_then_falls() -> None:
    at_edge = {**LAWMAN, "trapped": True, "cliff_drop": 4, "wounds": 3}
    # one strike only (not doubled), then a fall of 4": two Strength 3 hits
    session = table(combat_procedure, (_inp([LAWMAN], [at_edge]),), [6, 1, 5, 4, 1])
    assert len(_wound_rolls(session)) == 3
    # a fall of more than 2" leaves him on the ground (OW-ABSENT-05 default)
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 0, fell=(1,))  # type: ignore[union-attr]


def test_OW_CC_10_prone_winner_stands_up_and_cannot_strike() -> None:
    session = table(combat_procedure, (_inp([{**LAWMAN, "prone": True}], [LAWMAN]),), [6, 1])
    assert _wound_rolls(session) == []
    outcome = session.result.outcome  # type: ignore[union-attr]
    assert outcome == CombatOutcome(Side.A, (0,), 0, stood=(1,))
    assert outcome.stood_up(0)  # the round's outcome says he stood up


def test_OW_CC_10_prone_loser_stays_down_and_counts_as_trapped() -> None:
    session = table(
        combat_procedure, (_inp([LAWMAN], [{**LAWMAN, "prone": True, "wounds": 2}]),), [6, 1, 4, 5]
    )
    assert len(_wound_rolls(session)) == 2
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 1)  # type: ignore[union-attr]


def test_OW_CC_12_a_model_with_several_wounds_stays_until_the_last() -> None:
    tough = {**LAWMAN, "wounds": 3}
    marshal = {**LAWMAN, "attacks": 2, "fight": 5}
    session = table(combat_procedure, (_inp([marshal], [tough]),), [6, 1, 1, 4, 4])
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 0)  # type: ignore[union-attr]


def test_OW_CC_13_several_winners_each_strike_whatever_their_own_die() -> None:
    session = table(
        combat_procedure, (_inp([LAWMAN, LAWMAN], [{**LAWMAN, "wounds": 2}]),), [1, 6, 2, 4, 4]
    )
    assert len(_wound_rolls(session)) == 2
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 1)  # type: ignore[union-attr]


def test_OW_CC_13_single_winner_splits_attacks_one_target_at_a_time() -> None:
    marshal = {**LAWMAN, "attacks": 2, "fight": 5}
    chooser = Scripted([2, 1])
    session = table(
        combat_procedure, (_inp([marshal], [LAWMAN, LAWMAN]),), [6, 1, 1, 1, 2, 4], chooser
    )
    assert [r.options for r in chooser.requests] == [(1, 2), (1, 2)]
    assert session.result.outcome == CombatOutcome(Side.A, (1, 0), 1)  # type: ignore[union-attr]
    # once a target is out of action only the others are offered
    chooser = Scripted([1])
    session = table(
        combat_procedure, (_inp([marshal], [LAWMAN, LAWMAN]),), [6, 1, 1, 1, 5, 5], chooser
    )
    assert [r.options for r in chooser.requests] == [(1, 2), (2,)]
    assert session.result.outcome == CombatOutcome(Side.A, (1, 1), 2)  # type: ignore[union-attr]


def test_OW_CC_13_losers_back_off_each_trapped_or_not() -> None:
    session = table(
        combat_procedure,
        (_inp([{**LAWMAN, "attacks": 2, "fight": 5}], [LAWMAN, {**LAWMAN, "trapped": True}]),),
        [6, 1, 1, 1, 1, 1],
    )
    ids = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]  # type: ignore[union-attr]
    assert ids.count("old_west.combat.back_off") == 1 and ids.count("old_west.combat.trapped") == 1


def test_OW_CC_14_obstacle_each_strike_needs_four_plus_to_reach() -> None:
    across = {**LAWMAN, "across_obstacle": True}
    missed = table(combat_procedure, (_inp([LAWMAN], [across]),), [6, 1, 3])
    assert _wound_rolls(missed) == []
    assert missed.result.outcome == CombatOutcome(Side.A, (0,), 0)  # type: ignore[union-attr]
    reached = table(combat_procedure, (_inp([LAWMAN], [across]),), [6, 1, 4, 4])
    assert reached.result.outcome == CombatOutcome(Side.A, (1,), 1)  # type: ignore[union-attr]


def test_OW_CC_15_enemies_on_both_sides_only_the_strike_across_needs_the_reach_roll() -> None:
    marshal = {**LAWMAN, "attacks": 2, "fight": 5}
    contact, across = LAWMAN, {**LAWMAN, "across_obstacle": True}
    # target 1 (contact): wound die only; target 2 (across): reach die then wound die
    session = table(
        combat_procedure,
        (_inp([marshal], [contact, across]),),
        [6, 1, 1, 1, 4, 5, 2],
        Scripted([1, 2]),
    )
    assert session.result is not None
    reasons = [e.reason.id for e in session.result.log if isinstance(e, RollEntry)]
    assert reasons[2:] == ["old_west.wound.roll", "old_west.combat.reach", "old_west.wound.roll"]
    assert session.result.outcome == CombatOutcome(Side.A, (1, 0), 1)
    # the single model loses: trapped behind the obstacle, each enemy strikes it
    lone = table(
        combat_procedure,
        (_inp([{**LAWMAN, "trapped": True, "wounds": 3}], [contact, across]),),
        [1, 6, 1, 3, 3, 1, 1],
    )
    assert lone.result.outcome == CombatOutcome(Side.B, (0,), 0)  # type: ignore[union-attr]


def test_OW_CC_16_striker_chooses_rider_or_mount_and_a_killed_mount_throws_the_rider() -> None:
    rider = {**LAWMAN, "mounted": True, "wounds": 2}
    marshal = {**LAWMAN, "attacks": 2, "fight": 5}
    chooser = Scripted([1])  # one of the two strikes at the mount
    # fight 6 / 1; rider strike 2 (no wound); mount strike 5 (T3 mount: wounded, killed);
    # fall from horse d6 = 1: a Strength 3 hit on the rider, 4 wounds him
    session = table(combat_procedure, (_inp([marshal], [rider]),), [6, 1, 1, 2, 5, 1, 4], chooser)
    assert chooser.requests[0].options == (0, 1, 2)
    outcome = session.result.outcome  # type: ignore[union-attr]
    assert outcome == CombatOutcome(Side.A, (1,), 0, mounts=(1,), fell=(1,))
    assert outcome.mount_killed(0) and outcome.on_the_ground(0)
    # default: every strike at the rider; the mount is no obstacle in melee
    session = table(combat_procedure, (_inp([marshal], [rider]),), [6, 1, 1, 4, 4])
    assert session.result.outcome == CombatOutcome(Side.A, (2,), 1)  # type: ignore[union-attr]


def test_OW_HERO_05_hero_spends_fame_on_strikes_from_one_pool() -> None:
    hero = {**LAWMAN, "fame": 1, "attacks": 2, "fight": 5}
    session = table(
        combat_procedure,
        (_inp([hero], [{**LAWMAN, "wounds": 2}]),),
        [6, 1, 1, 3, 3],
        Scripted([1, 1]),  # second offer never comes: the pool is spent
    )
    outcome = session.result.outcome  # type: ignore[union-attr]
    assert outcome == CombatOutcome(Side.A, (1,), 0, fame_a=(1,))
    assert outcome.fame(Side.A, 0) == 1 and outcome.fame(Side.B, 0) == 0
    best = table(
        combat_procedure,
        (_inp([hero], [{**LAWMAN, "wounds": 2}]),),
        [6, 1, 1, 3, 4],
        ByPolicy(JustEnough()),
    )
    assert best.result.outcome == CombatOutcome(Side.A, (2,), 1, fame_a=(1,))  # type: ignore[union-attr]


def test_OW_CC_13_one_side_must_be_a_single_model() -> None:
    with pytest.raises(ValidationError):
        _inp([LAWMAN, LAWMAN], [LAWMAN, LAWMAN])
    model = Model(3, 1, 3, 3)
    with pytest.raises(InputError):
        next(combat((model, model), (model, model)))


def test_OW_CC_12_fortune_may_save_a_hero_from_wounds_default() -> None:
    """OW-ABSENT-07 default (not from the seed): 4+ per Fortune point ignores a wound."""
    hero = {**LAWMAN, "fortune": 1}
    saved = table(combat_procedure, (_inp([LAWMAN], [hero]),), [6, 1, 5, 4])
    assert saved.result is not None
    assert saved.result.outcome == CombatOutcome(Side.A, (0,), 0, fortune=(1,))
    assert saved.result.outcome.fortune_spent(0) == 1
    unlucky = table(combat_procedure, (_inp([LAWMAN], [hero]),), [6, 1, 5, 3])
    assert unlucky.result is not None
    assert unlucky.result.outcome == CombatOutcome(Side.A, (1,), 1, fortune=(1,))
    inp = _inp([LAWMAN], [hero])
    exact = OddsDriver().distribution(combat_procedure, (inp,))
    assert dict(exact) == replay_oracle(combat_procedure, (inp,), policies()["default"])
    unsaved = CombatOutcome(Side.A, (1,), 1, fortune=(1,))
    assert exact[unsaved] == Fraction(1, 2) * Fraction(1, 2) * Fraction(1, 2)


def test_OW_CC_12_strikes_stop_once_the_target_is_out_of_action() -> None:
    """Trapped, a 1-Wound loser takes two strikes for the winner's one Attack (OW-CC-09);
    the first (4, S3 v T3 needs 4) takes him out, so the second is not rolled."""
    trapped = {**LAWMAN, "trapped": True}
    session = table(combat_procedure, (_inp([LAWMAN], [trapped]),), [6, 1, 4])
    assert _wound_rolls(session) == [(4,)]
    assert session.result.outcome == CombatOutcome(Side.A, (1,), 1)  # type: ignore[union-attr]
    overkill = [
        e
        for e in session.result.log  # type: ignore[union-attr]
        if isinstance(e, EventEntry) and e.event.id == "old_west.combat.overkill"
    ]
    assert [(e.event.kwargs["strikes"], e.rules) for e in overkill] == [(1, ("OW-CC-12",))]
    # a miss first: the second strike is rolled
    missed = table(combat_procedure, (_inp([LAWMAN], [trapped]),), [6, 1, 3, 4])
    assert _wound_rolls(missed) == [(3,), (4,)]


def test_OW_CC_09_each_step_of_a_trapped_round_names_its_rules() -> None:
    session = table(combat_procedure, (_inp([LAWMAN], [{**LAWMAN, "prone": True}]),), [6, 1, 3, 3])
    log = session.result.log  # type: ignore[union-attr]
    rules = {e.event.id: e.rules for e in log if isinstance(e, EventEntry)}
    assert rules["old_west.combat.trapped"] == ("OW-CC-10", "OW-CC-09")
    assert rules["old_west.fight.result"] == ("OW-CC-03",)
    assert rules["old_west.combat.result"][:2] == ("OW-CC-01", "OW-CC-05")
    rolls = [e.rules for e in log if isinstance(e, RollEntry)]
    assert rolls == [
        ("OW-CC-03",),
        ("OW-CC-03",),
        ("OW-CC-05", "OW-CC-06"),
        ("OW-CC-05", "OW-CC-06"),
    ]


def test_OW_ABSENT_07_fortune_is_rolled_as_each_wound_is_suffered() -> None:
    """A Hero with 1 Wound and 1 Fortune, trapped: the first strike wounds (4), Fortune 5
    saves it; the second strike (5) wounds and no Fortune is left: out of action."""
    hero = {**LAWMAN, "fortune": 1, "trapped": True}
    session = table(combat_procedure, (_inp([LAWMAN], [hero]),), [6, 1, 4, 5, 5])
    assert session.result.outcome == CombatOutcome(Side.A, (1,), 1, fortune=(1,))  # type: ignore[union-attr]


def test_OW_CC_16_strikes_left_at_a_killed_mount_go_at_the_rider() -> None:
    """Both strikes at the mount: the first (5) kills it, the rider is thrown (d6 3: on the
    ground, unhurt), and the strike left goes at him (4 wounds T3)."""
    rider = {**LAWMAN, "mounted": True, "wounds": 2}
    marshal = {**LAWMAN, "attacks": 2, "fight": 5}
    session = table(
        combat_procedure, (_inp([marshal], [rider]),), [6, 1, 1, 5, 3, 4], Scripted([2])
    )
    outcome = session.result.outcome  # type: ignore[union-attr]
    assert outcome == CombatOutcome(Side.A, (1,), 0, mounts=(1,), fell=(1,))
    ids = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]  # type: ignore[union-attr]
    assert ids.index("old_west.combat.mount_killed") < ids.index("old_west.combat.at_rider_instead")
    assert "old_west.combat.overkill" not in ids
