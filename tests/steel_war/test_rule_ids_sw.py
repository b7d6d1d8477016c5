"""Every Steel War request names the catalogue rules it applies.

Each Roll, Choose and Emit of a Steel War rule module carries ``rules=`` (the log and
``kubik coverage`` count them); every procedure's examples, played with many seeds, name
at least one rule, only rules the procedure declares, and only IDs that exist in the
catalogue (``rules.md`` beside the repository, else the ruleset's own ``rules.toml`` when it
has one; skipped when neither is there).
"""

from __future__ import annotations

import ast
import os
import random
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest

from kubik.engine import play
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.engine.registry import ProcedureSpec, all_specs

ROOT = Path(__file__).resolve().parents[2]
RULE_MODULES = sorted((ROOT / "src" / "kubik" / "rulesets" / "steel_war").glob("*.py"))
SPECS = [spec for spec in all_specs() if spec.ruleset == "steel_war"]
SEEDS = range(40)
CATALOGUE_ENV = "KUBIK_RULES_CATALOGUE"


@cache
def catalogue_ids() -> frozenset[str] | None:
    """The SW-… IDs of the rules catalogue, or None when there is none to read.

    ``$KUBIK_RULES_CATALOGUE`` names ``rules.md``; else ``shared/spec/rules.md`` is looked
    for in the folders above the repository (``../shared`` for a checkout next to it);
    else the ruleset's own catalogue ``rulesets/steel_war/rules.toml``, when present.
    """
    candidates = [Path(os.environ[CATALOGUE_ENV])] if CATALOGUE_ENV in os.environ else []
    candidates += [parent / "shared" / "spec" / "rules.md" for parent in ROOT.parents]
    for path in candidates:
        if path.is_file():
            text = path.read_text("utf-8")
            return frozenset(re.findall(r"^### (SW-[A-Z]+-\d+) ·", text, re.MULTILINE))
    own = ROOT / "src" / "kubik" / "rulesets" / "steel_war" / "rules.toml"
    if own.is_file():
        with own.open("rb") as handle:
            return frozenset(str(rule["id"]) for rule in tomllib.load(handle).get("rule", []))
    return None


def logged_rules(spec: ProcedureSpec) -> tuple[frozenset[str], ...]:
    """For each example of ``spec``: every rule ID its log names, over many seeds."""
    return _logged_rules(spec.name)


@cache
def _logged_rules(name: str) -> tuple[frozenset[str], ...]:
    spec = next(s for s in SPECS if s.name == name)
    found: list[frozenset[str]] = []
    for example in spec.examples:
        inp = spec.input_model.model_validate(example)
        ids: set[str] = set()
        for seed in SEEDS:
            for entry in play(spec.function, (inp,), random.Random(seed)).log:
                assert isinstance(entry, RollEntry | ChoiceEntry | EventEntry)
                ids.update(entry.rules)
        found.append(frozenset(ids))
    return tuple(found)


def test_every_request_of_a_steel_war_rule_module_names_its_rules() -> None:
    """Statically: no ``Roll``, ``Choose``, ``emit`` or quality-die test without ``rules=``."""
    bare: list[str] = []
    for path in RULE_MODULES:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("Roll", "Choose", "emit", "Emit", "leadership_test") and not any(
                k.arg == "rules" for k in node.keywords
            ):
                bare.append(f"{path.name}:{node.lineno} {name}")
    assert RULE_MODULES and not bare, bare


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_every_steel_war_procedure_names_the_rules_it_applies(spec: ProcedureSpec) -> None:
    """Each example's log names at least one rule, all of them among the declared ones."""
    for example, ids in zip(spec.examples, logged_rules(spec), strict=True):
        assert ids, f"{spec.name} {example}: the log names no rule"
        undeclared = sorted(ids - set(spec.rules))
        assert not undeclared, f"{spec.name} logs {undeclared} but does not declare them"


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_every_named_rule_is_a_steel_war_catalogue_id(spec: ProcedureSpec) -> None:
    known = catalogue_ids()
    if known is None:
        pytest.skip(f"rules.md not found beside the repository (set ${CATALOGUE_ENV})")
    named = set(spec.rules).union(*logged_rules(spec))
    assert named <= known, sorted(named - known)


def test_the_catalogue_is_read_when_present() -> None:
    known = catalogue_ids()
    if known is None:
        pytest.skip(f"rules.md not found beside the repository (set ${CATALOGUE_ENV})")
    assert {"SW-CORE-01", "SW-FIRE-07", "SW-PSI-18", "SW-ABSENT-09"} <= known
    assert all(rule.startswith("SW-") for rule in known)
