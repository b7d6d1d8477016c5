"""Steel War psionic actions: exact odds against an independent brute force, the seed's
worked example through the table driver, and every message rendered in en and ru.

The brute force below knows the seed's numbers itself (thresholds, 12" zones, +3
threat, d6 for androids, the morale test's 1-or-2 levels) and walks every face
with itertools.product; it never calls the engine or the rule modules.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from kubik.engine import (
    ChoiceEntry,
    EventEntry,
    Message,
    OddsDriver,
    PolicyChooser,
    RollEntry,
    TableSession,
    play,
    simulate,
)
from kubik.engine.dice import D4, D6, D8, D10
from kubik.engine.registry import get
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war import psionics
from kubik.rulesets.steel_war.procedures import psionics as procs
from kubik.rulesets.steel_war.psionics_actions import (
    BlastChoice,
    PsiEffect,
    PsiOutcome,
    PsiResult,
)
from kubik.text.i18n import LANGS, missing_messages, render

# --- the independent brute force ---------------------------------------------------------

CHAIN = (4, 6, 8, 10, 12)
THRESHOLD = {
    "remove_suppression": 2,
    "inspiration": 4,
    "no_step_back": 6,
    "detection": 1,
    "avert_eyes": 1,
    "strike": 4,
    "panic": 4,
    "confusion": 4,
    "blast": 7,
    "murder": 8,
}
PLAIN_EFFECT = {
    "remove_suppression": "remove_suppression",
    "inspiration": "inspiration_test",
    "no_step_back": "no_step_back",
    "detection": "psi_detection",
    "avert_eyes": "avert_eyes",
    "confusion": "lose_activation",
}
Key = tuple[str, str, int, int, str | None]


def faces_of(name: str) -> int:
    return int(name[1:])


def psi_faces_at(psi: int, distance: float) -> int | None:
    """Seed: 12" zones, one step down per zone beyond the first; below d4 impossible."""
    zone = max(1, math.ceil(distance / 12))
    index = CHAIN.index(psi) - (zone - 1)
    return CHAIN[index] if index >= 0 else None


def morale_levels_lost(roll: int, target: int) -> int:
    """Seed's morale test: pass if roll > target, two levels if roll ≤ half of it."""
    if roll > target:
        return 0
    return 2 if roll <= target / 2 else 1


def brute(action: str, inp: dict[str, Any], more_than: bool = False) -> dict[Key, Fraction]:
    """Every face of every die rolled, counted; returns outcome key → probability."""
    none: Key = ("impossible", "none", 0, 0, None)
    psi = faces_of(inp["psi"])
    distance = float(inp.get("distance", 0))
    if inp.get("target_machine", False):
        return {none: Fraction(1)}
    if action == "murder" and inp.get("target_models", 10) < 2:
        return {none: Fraction(1)}
    die = psi_faces_at(psi, distance)
    if die is None or (distance > 12 and not inp.get("line_of_sight", True)):
        return {none: Fraction(1)}
    android = inp.get("target_android", False)
    target_die = 6 if android else faces_of(inp.get("target_quality", "d4"))
    threshold = THRESHOLD[action]
    counts: Counter[Key] = Counter()
    if action in ("strike", "murder"):
        rolls: Any = product(range(1, die + 1), range(1, target_die + 1))
    else:
        rolls = ((r,) for r in range(1, die + 1))
    total = 0
    for faces in rolls:
        total += 1
        roll = faces[0]
        ok = roll > threshold if more_than else roll >= threshold
        if not ok:
            counts[("failed", "none", 0, 0, None)] += 1
        elif action in PLAIN_EFFECT:
            counts[("succeeded", PLAIN_EFFECT[action], 0, 0, None)] += 1
        elif action == "panic":
            counts[("succeeded", "panic_test", 0, 0, f"d{target_die}")] += 1
        elif action == "blast":
            if inp.get("choice", "lose_morale") == "panic":
                counts[("succeeded", "panicked", 0, 0, None)] += 1
            else:
                counts[("succeeded", "lose_morale", 2, 0, None)] += 1
        elif action == "strike":
            target = inp["target_leadership"] + inp.get("threat", 0) + 3
            counts[("succeeded", "morale_test", morale_levels_lost(faces[1], target), 0, None)] += 1
        else:  # murder
            target = inp["target_leadership"] + inp["threat"]
            counts[("succeeded", "murder", morale_levels_lost(faces[1], target), 1, None)] += 1
    return {k: Fraction(c, total) for k, c in counts.items()}


def key(outcome: PsiOutcome) -> Key:
    return (
        outcome.result.value,
        outcome.effect.value,
        outcome.morale_drop,
        outcome.suppression,
        outcome.test_die,
    )


def odds(action: str, inp: dict[str, Any]) -> dict[Key, Fraction]:
    spec = get(f"steel_war.psi_{action}")
    dist = OddsDriver().distribution(spec.function, (spec.input_model.model_validate(inp),))
    out: dict[Key, Fraction] = {}
    for outcome, p in dist.items():
        out[key(outcome)] = out.get(key(outcome), Fraction(0)) + p
    return out


DICE = ("d4", "d6", "d8", "d10", "d12")
DISTANCES = (0, 12, 12.5, 30, 48, 60.5)


# --- exact odds ------------------------------------------------------------------------


@pytest.mark.parametrize("action", sorted(PLAIN_EFFECT))
def test_SW_PSI_07_plain_actions_exact_odds_match_brute_force(action: str) -> None:
    """SW-PSI-08, SW-PSI-09, SW-PSI-10, SW-PSI-11, SW-PSI-12, SW-PSI-15 over dice × zones."""
    for psi, distance, sight, machine in product(DICE, DISTANCES, (True, False), (False, True)):
        inp = {
            "psi": psi,
            "distance": distance,
            "line_of_sight": sight,
            "target_machine": machine,
        }
        assert odds(action, inp) == brute(action, inp), inp


def test_SW_PSI_13_psi_strike_exact_odds_match_brute_force() -> None:
    """Psi strike: morale test at threat + 3, on d6 for androids (SW-PSI-18)."""
    for psi, distance, android, quality, leadership, threat in product(
        DICE, (0, 18, 30), (False, True), ("d4", "d8", "d12"), (1, 3), (0, 2)
    ):
        inp = {
            "psi": psi,
            "distance": distance,
            "target_android": android,
            "target_quality": quality,
            "target_leadership": leadership,
            "threat": threat,
        }
        assert odds("strike", inp) == brute("strike", inp), inp


def test_SW_PSI_14_psi_panic_exact_odds_match_brute_force() -> None:
    for psi, distance, android, quality in product(DICE, (0, 18, 40), (False, True), DICE):
        inp = {
            "psi": psi,
            "distance": distance,
            "target_android": android,
            "target_quality": quality,
        }
        assert odds("panic", inp) == brute("panic", inp), inp


def test_SW_PSI_16_psi_blast_exact_odds_match_brute_force() -> None:
    for psi, distance, choice in product(DICE, (0, 13, 25), ("lose_morale", "panic")):
        inp = {"psi": psi, "distance": distance, "choice": choice}
        assert odds("blast", inp) == brute("blast", inp), inp


def test_SW_PSI_17_psi_murder_exact_odds_match_brute_force() -> None:
    for psi, distance, android, quality, leadership, threat, models in product(
        ("d8", "d10", "d12"), (0, 13), (False, True), ("d6", "d10"), (1, 2), (2, 4), (1, 2, 10)
    ):
        inp = {
            "psi": psi,
            "distance": distance,
            "target_android": android,
            "target_quality": quality,
            "target_leadership": leadership,
            "threat": threat,
            "target_models": models,
        }
        assert odds("murder", inp) == brute("murder", inp), inp


def test_SW_PSI_06_more_than_reading_differs_by_the_threshold_face(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chosen reading ≥ (list header) against the paragraph's ">": the data switch changes
    every procedure to the other brute force, and the success chance drops by exactly one
    face — the face equal to the threshold — whenever that face is on the die."""
    cases: list[tuple[str, dict[str, Any]]] = [
        (a, {"psi": p, "distance": d})
        for a in PLAIN_EFFECT
        for p in DICE
        for d in (0, 20)
        if psi_faces_at(faces_of(p), d) is not None
    ]
    cases += [("blast", {"psi": p}) for p in DICE]
    at_least = {i: odds(a, inp) for i, (a, inp) in enumerate(cases)}
    data = load_ruleset_data("steel_war", {"psi_success": {"reading": "more_than"}})
    monkeypatch.setattr(psionics, "psi_data", lambda: data)
    for i, (action, inp) in enumerate(cases):
        more_than = odds(action, inp)
        assert more_than == brute(action, inp, more_than=True), inp
        die = psi_faces_at(faces_of(inp["psi"]), inp.get("distance", 0))
        assert die is not None
        failed: Key = ("failed", "none", 0, 0, None)
        difference = more_than.get(failed, Fraction(0)) - at_least[i].get(failed, Fraction(0))
        on_die = THRESHOLD[action] <= die
        assert difference == (Fraction(1, die) if on_die else 0), inp


def test_SW_PSI_06_more_than_reading_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Concrete differences: remove suppression on d8 is 7/8 against 6/8; detection on d4 is
    certain against 3/4; murder on d8 is 1/8 against impossible to succeed."""
    d8 = {"psi": "d8"}
    d4 = {"psi": "d4"}
    success_rs = ("succeeded", "remove_suppression", 0, 0, None)
    success_det = ("succeeded", "psi_detection", 0, 0, None)
    assert odds("remove_suppression", d8)[success_rs] == Fraction(7, 8)
    assert odds("detection", d4)[success_det] == 1
    murder_in = {**d8, "target_quality": "d8", "target_leadership": 2, "threat": 3}
    assert sum(p for k, p in odds("murder", murder_in).items() if k[0] == "succeeded") == Fraction(
        1, 8
    )
    data = load_ruleset_data("steel_war", {"psi_success": {"reading": "more_than"}})
    monkeypatch.setattr(psionics, "psi_data", lambda: data)
    assert odds("remove_suppression", d8)[success_rs] == Fraction(6, 8)
    assert odds("detection", d4)[success_det] == Fraction(3, 4)
    assert odds("murder", murder_in) == {("failed", "none", 0, 0, None): 1}


# --- the seed's worked example through the table driver -----------------------------------


def test_SW_PSI_06_table_master_rolls_d8_d6_d4_by_zone() -> None:
    """«в первой зоне "мастер" бросает к8, во второй — к6, в третьей — к4»: at the table the
    referee asks a master for exactly those dice (psi strike, needs 4)."""
    for distance, die, roll in ((6, D8, 4), (18, D6, 4), (30, D4, 4)):
        inp = procs.PsiStrikeInput(
            psi="master",
            distance=distance,
            target_quality="d8",
            target_leadership=2,
        )
        session = TableSession(procs.psi_strike_procedure, (inp,))
        session.supply([])
        assert session.pending is not None and session.pending.dice == (die,)
        session.supply([roll])  # a 4 reaches the threshold on each die
        assert session.pending is not None and session.pending.dice == (D8,)  # target's d8
        session.supply([6])  # 6 > 2 + 3 → morale holds
        assert session.result is not None
        assert session.result.outcome == PsiOutcome(PsiResult.SUCCEEDED, PsiEffect.MORALE_TEST)


def test_SW_PSI_06_table_master_fails_on_a_3_and_cannot_reach_zone_4() -> None:
    inp = procs.PsiInput(psi="master", distance=30)
    session = TableSession(procs.psi_inspiration_procedure, (inp,))
    session.supply([3])
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(PsiResult.FAILED)
    far = TableSession(procs.psi_inspiration_procedure, (procs.PsiInput(psi="d8", distance=40),))
    far.supply([])
    assert far.result is not None and far.result.rolls == []
    assert far.result.outcome == PsiOutcome(PsiResult.IMPOSSIBLE)


def test_SW_PSI_13_table_psi_strike_two_levels_on_android() -> None:
    """An android squad (elite d12 — still rolls d6) struck at threat 0: N = 1 + 3 = 4;
    a 2 is half or less → two levels."""
    inp = procs.PsiStrikeInput(
        psi="d10", target_quality="d12", target_leadership=1, target_android=True
    )
    session = TableSession(procs.psi_strike_procedure, (inp,))
    session.supply([9, 2])
    assert session.result is not None
    assert [r.dice for r in session.result.rolls] == [(D10,), (D6,)]
    assert session.result.outcome.morale_drop == 2


def test_SW_PSI_17_table_murder_suppresses_and_tests_morale() -> None:
    inp = procs.PsiMurderInput(psi="legend", target_quality="d8", target_leadership=2, threat=3)
    session = TableSession(procs.psi_murder_procedure, (inp,))
    session.supply([8, 4])  # 8 ≥ 8; 4 ≤ 5 but > 5/2 → one level
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(
        PsiResult.SUCCEEDED, PsiEffect.MURDER, morale_drop=1, suppression=1
    )


def test_SW_PSI_17_murder_needs_two_men() -> None:
    """«не действует на отряды из одного человека» — a squad with a man-sized weapon counts 2."""
    base = {"psi": "d12", "target_quality": "d8", "target_leadership": 2, "threat": 3}
    one = TableSession(procs.psi_murder_procedure, (procs.PsiMurderInput(**base, target_models=1),))
    one.supply([])
    assert one.result is not None and one.result.outcome.result is PsiResult.IMPOSSIBLE
    two = TableSession(procs.psi_murder_procedure, (procs.PsiMurderInput(**base, target_models=2),))
    two.supply([1])
    assert two.result is not None and two.result.outcome.result is PsiResult.FAILED


def test_SW_PSI_16_blast_choice_is_the_psionics() -> None:
    inp = procs.PsiBlastInput(psi="d12")
    session = TableSession(procs.psi_blast_procedure, (inp,))
    session.supply([7])
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(
        PsiResult.SUCCEEDED, PsiEffect.LOSE_MORALE, morale_drop=2
    )
    chooser = PolicyChooser(lambda request: BlastChoice.PANIC)
    panicked = TableSession(procs.psi_blast_procedure, (inp,), chooser=chooser)
    panicked.supply([12])
    assert panicked.result is not None
    assert panicked.result.outcome == PsiOutcome(PsiResult.SUCCEEDED, PsiEffect.PANICKED)
    choices = [e for e in panicked.result.log if isinstance(e, ChoiceEntry)]
    assert choices[0].side == "psionic" and choices[0].answer is BlastChoice.PANIC


def test_SW_PSI_16_blast_hopeless_below_d8_without_a_roll() -> None:
    """Threshold 7 cannot be reached on d6: nothing is rolled, the attempt fails."""
    session = TableSession(procs.psi_blast_procedure, (procs.PsiBlastInput(psi="student"),))
    session.supply([])
    assert session.result is not None and session.result.rolls == []
    assert session.result.outcome == PsiOutcome(PsiResult.FAILED)


def test_SW_PSI_11_SW_PSI_12_threshold_one_needs_no_roll() -> None:
    """Under ≥ a threshold of 1 always succeeds: the table is not asked for a die."""
    for fn, effect in (
        (procs.psi_detection_procedure, PsiEffect.PSI_DETECTION),
        (procs.psi_avert_eyes_procedure, PsiEffect.AVERT_EYES),
    ):
        session = TableSession(fn, (procs.PsiInput(psi="deprived", distance=12),))
        session.supply([])
        assert session.result is not None and session.result.rolls == []
        assert session.result.outcome == PsiOutcome(PsiResult.SUCCEEDED, effect)


def test_SW_PSI_14_panic_names_the_test_die() -> None:
    """Veterans never panic by the normal rules, but a psionic forces the test (SW-PSI-01);
    androids take it on d6 (SW-PSI-18)."""
    veterans = procs.PsiPanicInput(psi="d8", target_quality="d10")
    session = TableSession(procs.psi_panic_procedure, (veterans,))
    session.supply([4])
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(
        PsiResult.SUCCEEDED, PsiEffect.PANIC_TEST, test_die="d10"
    )
    androids = procs.PsiPanicInput(psi="d8", target_quality="d10", target_android=True)
    session = TableSession(procs.psi_panic_procedure, (androids,))
    session.supply([8])
    assert session.result is not None and session.result.outcome.test_die == "d6"


def test_SW_PSI_01_psionics_override_normal_morale_restrictions() -> None:
    """Panic on elite troops and «Ни шагу назад!» with no preconditions: only the psi roll
    decides (needs 4 and 6)."""
    panic = odds("panic", {"psi": "d12", "target_quality": "d12"})
    assert panic[("succeeded", "panic_test", 0, 0, "d12")] == Fraction(9, 12)
    nsn = odds("no_step_back", {"psi": "d6"})
    assert nsn[("succeeded", "no_step_back", 0, 0, None)] == Fraction(1, 6)


def test_SW_PSI_05_targets_people_in_sight() -> None:
    """Vehicles and robots are immune; beyond 12" the target must be in line of sight."""
    machine = TableSession(
        procs.psi_confusion_procedure, (procs.PsiInput(psi="d12", target_machine=True),)
    )
    machine.supply([])
    assert machine.result is not None and machine.result.outcome.result is PsiResult.IMPOSSIBLE
    hidden_near = TableSession(
        procs.psi_confusion_procedure,
        (procs.PsiInput(psi="d12", distance=12, line_of_sight=False),),
    )
    hidden_near.supply([4])
    assert hidden_near.result is not None
    assert hidden_near.result.outcome.result is PsiResult.SUCCEEDED
    hidden_far = TableSession(
        procs.psi_confusion_procedure,
        (procs.PsiInput(psi="d12", distance=13, line_of_sight=False),),
    )
    hidden_far.supply([])
    assert hidden_far.result is not None
    assert hidden_far.result.outcome.result is PsiResult.IMPOSSIBLE


def test_SW_PSI_08_remove_suppression_table() -> None:
    session = TableSession(procs.psi_remove_suppression_procedure, (procs.PsiInput(psi="d4"),))
    session.supply([2])
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(PsiResult.SUCCEEDED, PsiEffect.REMOVE_SUPPRESSION)


def test_SW_PSI_10_SW_PSI_15_effects_table() -> None:
    nsn = TableSession(procs.psi_no_step_back_procedure, (procs.PsiInput(psi="d6"),))
    nsn.supply([6])
    assert nsn.result is not None and nsn.result.outcome.effect is PsiEffect.NO_STEP_BACK
    confusion = TableSession(procs.psi_confusion_procedure, (procs.PsiInput(psi="d6"),))
    confusion.supply([4])
    assert confusion.result is not None
    assert confusion.result.outcome.effect is PsiEffect.LOSE_ACTIVATION


def test_SW_PSI_02_input_accepts_level_names() -> None:
    assert procs.PsiInput(psi="master").psi == "d8"
    assert procs.PsiInput(psi="к10").psi == "d10"
    assert procs.PsiInput(psi="Legend").psi == "d12"
    with pytest.raises(ValueError):
        procs.PsiInput(psi="grandmaster")
    with pytest.raises(ValueError):
        procs.PsiInput(psi="d8", distance=-1)


# --- messages -------------------------------------------------------------------------------


def _messages(value: Any) -> list[Message]:
    found: list[Message] = []
    if isinstance(value, Message):
        found.append(value)
        for _, param in value.params:
            found += _messages(param)
    elif hasattr(value, "msgid"):
        found.append(Message(value.msgid))
    return found


def test_SW_PSI_07_every_message_has_en_and_ru_text() -> None:
    """Run every example of every psi procedure many times; render every message."""
    names = [f"steel_war.psi_{a}" for a in THRESHOLD]
    seen: dict[str, Message] = {}
    rng = random.Random(7)
    for name in names:
        spec = get(name)
        for example in spec.examples:
            inp = spec.input_model.model_validate(example)
            for _ in range(30):
                for entry in play(spec.function, (inp,), rng).log:
                    if isinstance(entry, RollEntry | ChoiceEntry):
                        messages = _messages(entry.reason)
                    elif isinstance(entry, EventEntry):
                        messages = _messages(entry.event)
                    else:
                        messages = []
                    if isinstance(entry, ChoiceEntry):
                        for option in entry.options:
                            messages += _messages(option)
                    for message in messages:
                        seen.setdefault(message.id, message)
    psi_ids = {m for m in seen if ".psi" in m}
    assert len(psi_ids) >= 30
    assert missing_messages(set(seen)) == {lang: set() for lang in LANGS}
    for message in seen.values():
        for lang in LANGS:
            text = render(message, lang)
            assert not text.startswith(message.id), (lang, text)


def test_SW_PSI_09_inspiration_table() -> None:
    """A student (d6) rolls 4 in zone 1: the target takes an inspiration test, the psionic
    acting as its direct commander nearby (the game layer rolls it)."""
    session = TableSession(procs.psi_inspiration_procedure, (procs.PsiInput(psi="student"),))
    session.supply([4])
    assert session.result is not None
    assert session.result.outcome == PsiOutcome(PsiResult.SUCCEEDED, PsiEffect.INSPIRATION_TEST)
    miss = TableSession(procs.psi_inspiration_procedure, (procs.PsiInput(psi="student"),))
    miss.supply([3])
    assert miss.result is not None and miss.result.outcome == PsiOutcome(PsiResult.FAILED)


def test_SW_PSI_13_simulation_agrees_with_exact_odds() -> None:
    """Play-driver samples of the psi strike fall within 4 standard errors of the exact odds."""
    spec = get("steel_war.psi_strike")
    inp = spec.input_model.model_validate(spec.examples[1])
    exact = OddsDriver().distribution(spec.function, (inp,))
    runs = 4000
    sample = simulate(spec.function, (inp,), runs=runs, seed=11)
    assert set(sample.counts) <= set(exact)
    for outcome, p in exact.items():
        frequency = sample.counts.get(outcome, 0) / runs
        spread = 4 * math.sqrt(float(p) * (1 - float(p)) / runs) + 1 / runs
        assert abs(frequency - float(p)) <= spread, outcome


def test_SW_PSI_16_blast_choice_names_each_option_in_both_languages() -> None:
    """The psionic is asked in words: each option carries its label, as a person at the
    table or on the web reads it (the same words the log gives the answer)."""
    seen: list[Any] = []

    def ask(request: Any) -> Any:
        seen.append(request)
        return request.default

    session = TableSession(
        procs.psi_blast_procedure, (procs.PsiBlastInput(psi="d12"),), chooser=PolicyChooser(ask)
    )
    session.supply([7])
    (request,) = seen
    labels = {option: request.label(option) for option in request.options}
    assert all(label is not None for label in labels.values())
    assert render(labels[BlastChoice.LOSE_MORALE], "en") == "lose two morale levels"
    assert render(labels[BlastChoice.LOSE_MORALE], "ru") == "потерять две единицы боевого духа"
    assert render(labels[BlastChoice.PANIC], "ru") == "впасть в панику"
    assert missing_messages({label.id for label in labels.values()}) == {"en": set(), "ru": set()}
