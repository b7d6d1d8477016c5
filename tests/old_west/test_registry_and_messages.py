"""Every public Old West procedure: examples' exact odds against a replayed brute force
under both Fame policies, and every message in English and Russian."""

from __future__ import annotations

import random
import tomllib
from enum import Enum
from importlib import resources
from typing import Any

import pytest

from kubik.engine import OddsDriver, run, simulate
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.registry import all_specs
from kubik.engine.requests import Message
from kubik.engine.run import RandomDice
from kubik.rulesets.old_west import absent, combat, fight, heroics, pluck
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import policies
from kubik.text.i18n import catalogue, render

from .helpers import ByPolicy, replay_oracle

SPECS = [s for s in all_specs() if s.ruleset == "old_west"]
REQUIRED = {
    "old_west.wound",
    "old_west.fight",
    "old_west.combat",
    "old_west.pluck_test",
    "old_west.head_for_the_hills",
}


def test_OW_CC_05_public_procedures_are_registered_with_rule_ids() -> None:
    names = {s.name for s in SPECS}
    assert names >= REQUIRED
    for spec in SPECS:
        assert spec.examples and spec.rules
        assert all(r.startswith("OW-") for r in spec.rules)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_OW_HERO_02_examples_odds_match_replayed_brute_force(spec: Any) -> None:
    for example in spec.examples:
        inp = spec.input_model.model_validate(example)
        for policy in policies().values():
            exact = OddsDriver(policy).distribution(spec.function, (inp,))
            assert dict(exact) == replay_oracle(spec.function, (inp,), policy), example


def _messages(entries: list[Any]) -> list[Message]:
    out: list[Message] = []
    for entry in entries:
        if isinstance(entry, RollEntry | ChoiceEntry):
            out.append(entry.reason)
        elif isinstance(entry, EventEntry):
            out.append(entry.event)
    return out


def test_OW_CC_01_every_message_has_english_and_russian_templates() -> None:
    seen: dict[str, Message] = {}
    rng = random.Random(7)
    for spec in SPECS:
        for example in spec.examples:
            inp = spec.input_model.model_validate(example)
            for policy in policies().values():
                for _ in range(60):
                    result = run(
                        spec.function, (inp,), dice=RandomDice(rng), chooser=ByPolicy(policy)
                    )
                    for message in _messages(result.log):
                        seen.setdefault(message.id, message)
    enum_ids = {
        member.msgid
        for module in (absent, combat, fight, heroics, pluck)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Enum) and hasattr(value, "msgid")
        for member in value
    }
    enum_ids |= {s.msgid for s in Side}
    for lang in ("en", "ru"):
        missing = {m for m in set(seen) | enum_ids if m not in catalogue(lang)}
        assert not missing, (lang, sorted(missing))
        for message in seen.values():
            text = render(message, lang)
            assert "[" not in text.split(":")[-1] or "]" not in text, text
            assert message.id not in text, text


def test_OW_HERO_01_glossary_pairs_russian_terms_with_english_ids() -> None:
    path = resources.files("kubik.rulesets.old_west") / "glossary.toml"
    with path.open("rb") as handle:
        terms = tomllib.load(handle)["term"]
    ids = [t["id"] for t in terms]
    assert len(ids) == len(set(ids))
    assert all(set(t) == {"ru", "en", "id"} for t in terms)
    by_en = {t["en"]: t["ru"] for t in terms}
    assert by_en["Pluck"] == "Смелость" and by_en["Fame"] == "Слава"


@pytest.mark.parametrize("name", ["old_west.fight", "old_west.combat", "old_west.wound"])
def test_OW_HERO_03_simulation_agrees_with_exact_odds_under_both_policies(name: str) -> None:
    spec = next(s for s in SPECS if s.name == name)
    for example in spec.examples:
        inp = spec.input_model.model_validate(example)
        for policy in policies().values():
            exact = OddsDriver(policy).distribution(spec.function, (inp,))
            sim = simulate(spec.function, (inp,), 400, seed=11, policy=policy)
            assert set(sim.counts) <= set(exact)
            for outcome, p in exact.items():
                sd = (float(p) * (1 - float(p)) / 400) ** 0.5
                assert abs(float(sim.frequency(outcome)) - float(p)) <= 5 * sd + 1e-9
