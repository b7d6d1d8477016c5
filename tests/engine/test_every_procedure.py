"""Checks every registered procedure must pass, on each of its registered examples.

- the odds driver's distribution sums to exactly 1 and equals an independent
  brute-force enumeration (every die of every roll, through the table driver);
- Monte Carlo (the generator form, and the batch form if registered) agrees with
  the exact odds by a chi-square test at a fixed seed;
- every message a run can show has an English and a Russian template.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from scipy.stats import chisquare

from kubik.engine import OddsDriver, play, simulate
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.registry import ProcedureSpec, all_specs
from kubik.text.i18n import catalogue
from tests.conftest import brute_force

SPECS = all_specs()
CASES = [
    pytest.param(spec, example, id=f"{spec.name}[{i}]")
    for spec in SPECS
    for i, example in enumerate(spec.examples)
]


def test_every_procedure_has_rules_examples_and_a_schema() -> None:
    assert SPECS, "no procedures registered"
    for spec in SPECS:
        assert spec.rules, spec.name
        assert spec.examples, f"{spec.name} has no examples"
        assert spec.input_schema()["type"] == "object"
        assert re.fullmatch(r"[a-z_]+\.[a-z_0-9]+", spec.name)


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_odds_are_exact_and_match_brute_force(spec: ProcedureSpec, example: dict) -> None:
    inp = spec.input_model.model_validate(example)
    exact = OddsDriver().distribution(spec.function, (inp,))
    assert sum(exact.values()) == 1
    assert dict(exact) == brute_force(spec.function, (inp,))


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_simulate_agrees_with_odds(spec: ProcedureSpec, example: dict) -> None:
    inp = spec.input_model.model_validate(example)
    exact = OddsDriver().distribution(spec.function, (inp,))
    forms = [None, spec.batch] if spec.batch is not None else [None]
    for batch in forms:
        sim = simulate(spec.function, (inp,), runs=3000, seed=11, batch=batch)
        assert set(sim.counts) <= set(exact), "simulation produced an impossible outcome"
        if len(exact) < 2:
            assert sim.counts == {next(iter(exact)): 3000}
            continue
        outcomes = list(exact)
        observed = [sim.counts.get(o, 0) for o in outcomes]
        expected = [float(exact[o]) * sim.runs for o in outcomes]
        assert chisquare(observed, expected).pvalue > 1e-4, (batch, sim.counts, exact)


def _message_ids_from_runs(spec: ProcedureSpec, example: dict) -> set[str]:
    inp = spec.input_model.model_validate(example)
    ids: set[str] = set()
    for seed in range(60):
        for entry in play(spec.function, (inp,), random.Random(seed)).log:
            if isinstance(entry, RollEntry | ChoiceEntry):
                ids.add(entry.reason.id)
            elif isinstance(entry, EventEntry):
                ids.add(entry.event.id)
    return ids


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_every_message_a_run_shows_exists_in_english_and_russian(
    spec: ProcedureSpec, example: dict
) -> None:
    ids = _message_ids_from_runs(spec, example)
    for lang in ("en", "ru"):
        missing = sorted(i for i in ids if i not in catalogue(lang))
        assert not missing, f"{lang} lacks {missing}"


def test_every_message_id_in_the_source_exists_in_english_and_russian() -> None:
    root = Path(__file__).resolve().parents[2] / "src" / "kubik"
    pattern = re.compile(r"""\b(?:msg|emit|Message)\(\s*["']([a-z_]+\.[a-z_0-9.]+)["']""")
    ids: set[str] = set()
    for path in root.rglob("*.py"):
        lines = path.read_text("utf-8").splitlines()
        # doctest examples are not text people see
        shown = "\n".join(x for x in lines if not x.lstrip().startswith((">>>", "...")))
        ids |= set(pattern.findall(shown))
    assert ids
    for lang in ("en", "ru"):
        missing = sorted(i for i in ids if i not in catalogue(lang))
        assert not missing, f"{lang} lacks {missing}"


def test_probabilities_are_fractions() -> None:
    spec = SPECS[0]
    inp = spec.input_model.model_validate(spec.examples[0])
    assert all(
        isinstance(p, Fraction) for p in OddsDriver().distribution(spec.function, (inp,)).values()
    )
