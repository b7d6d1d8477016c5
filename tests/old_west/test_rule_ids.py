"""Every Old West procedure names the catalogue's rules it applies, on each roll, decision
and event (what ``kubik coverage`` counts): every named ID is a real OW catalogue ID (of
the ruleset's shipped ``rules.toml``, and of the project's ``rules.md`` when it is beside
the checkout), and every run of every registered example names at least one.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kubik.engine import play
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.registry import ProcedureSpec, all_specs
from kubik.game.rule_catalogue import load_rule_catalogue
from kubik.rulesets.old_west.fame import policies

from .helpers import ByPolicy

SPECS = [spec for spec in all_specs() if spec.ruleset == "old_west"]
CASES = [
    pytest.param(spec, example, id=f"{spec.name}[{i}]")
    for spec in SPECS
    for i, example in enumerate(spec.examples)
]
SEEDS = range(12)


def catalogue_path() -> Path | None:
    """The rules catalogue: ``$KUBIK_RULES_MD``, else ``shared/spec/rules.md`` beside the
    repository (or beside the directory of worktrees holding it)."""
    given = os.environ.get("KUBIK_RULES_MD")
    if given:
        return Path(given)
    root = Path(__file__).resolve().parents[2]
    for base in (root.parent, root.parent.parent):
        candidate = base / "shared" / "spec" / "rules.md"
        if candidate.is_file():
            return candidate
    return None


@cache
def catalogue_ids() -> frozenset[str]:
    """Every OW rule ID the catalogue has a heading for."""
    path = catalogue_path()
    if path is None:
        pytest.skip("the rules catalogue (shared/spec/rules.md) is not beside this checkout")
    text = path.read_text("utf-8")
    return frozenset(re.findall(r"^### (OW-[A-Z]+-\d+) ", text, flags=re.MULTILINE))


def named_rules(spec: ProcedureSpec, example: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The rule IDs each run of the example names (runs under every Fame policy, so the
    Fame decisions are taken too), one tuple per run."""
    inp = spec.input_model.model_validate(example)
    runs: list[tuple[str, ...]] = []
    for policy in policies().values():
        for seed in SEEDS:
            result = play(spec.function, (inp,), random.Random(seed), chooser=ByPolicy(policy))
            rules = [
                rule
                for entry in result.log
                if isinstance(entry, RollEntry | ChoiceEntry | EventEntry)
                for rule in entry.rules
            ]
            runs.append(tuple(rules))
    return runs


def test_every_old_west_procedure_is_checked() -> None:
    assert len(SPECS) >= 14, [s.name for s in SPECS]


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_every_run_names_rules_and_every_name_is_in_the_catalogue(
    spec: ProcedureSpec, example: Mapping[str, Any]
) -> None:
    runs = named_rules(spec, example)
    assert all(runs), f"{spec.name}: a run named no rule"
    named = {rule for run in runs for rule in run}
    assert all(rule.startswith("OW-") for rule in named), named
    shipped = set(load_rule_catalogue("old_west").ids)
    assert not sorted(named - shipped), f"{spec.name}: not in rules.toml: {named - shipped}"
    unknown = sorted(named - catalogue_ids())
    assert not unknown, f"{spec.name} names rules the catalogue lacks: {unknown}"


def test_the_procedures_name_what_they_register() -> None:
    """What a procedure says it implements (``kubik procedures``) is named by its runs,
    except the rules that only shape its input or are never reached by the examples."""
    for spec in SPECS:
        named = {
            rule for example in spec.examples for run in named_rules(spec, example) for rule in run
        }
        assert named & set(spec.rules), spec.name


def test_the_shipped_catalogue_and_the_project_catalogue_agree() -> None:
    assert set(load_rule_catalogue("old_west").ids) == catalogue_ids()
