"""Each built-in ruleset's index of procedures (``PROCEDURES``) is what its modules register.

The registry imports only the module the index names for a procedure asked for; the
index must therefore name every procedure the ruleset's ``procedures`` modules
register, each with the module that registers it, and nothing else. A fresh process
asking for one procedure imports that module alone, and the optimal policy still finds
the goals of a ruleset whose package did not load them.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from kubik.engine import registry
from kubik.rulesets.registry import ruleset_ids

RULESETS = ruleset_ids()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_index_names_every_procedure_with_the_module_registering_it(ruleset: str) -> None:
    registry.load_ruleset(ruleset)
    registered = {
        spec.name: spec.function.__module__
        for spec in registry.all_specs()
        if spec.ruleset == ruleset
    }
    assert registered, ruleset
    assert registry.procedure_index(ruleset) == registered
    assert set(registered.values()) <= set(registry.procedure_modules(ruleset))


def _modules_after(code: str) -> set[str]:
    script = f"import sys; {code}; print(sorted(m for m in sys.modules if m.startswith('kubik.')))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


def test_asking_for_one_procedure_imports_its_module_alone() -> None:
    loaded = _modules_after("from kubik.engine.registry import get; get('old_west.wound')")
    assert {m for m in loaded if ".procedures." in m} == {
        "kubik.rulesets.old_west.procedures.wound"
    }
    assert "kubik.rulesets.old_west.objectives" not in loaded


def test_the_optimal_policy_loads_the_goals_it_needs() -> None:
    code = (
        "import kubik.api as api; "
        "out = api.odds('old_west.wound', {'strength': 3, 'toughness': 8, 'fame': 2}, "
        "policy='optimal'); "
        "assert out['objectives']['striker']['goal'] == 'wounding', out"
    )
    assert "kubik.rulesets.old_west.objectives" in _modules_after(code)


def test_an_unknown_name_in_a_known_ruleset_still_names_the_close_ones() -> None:
    from kubik.core.errors import UnknownProcedureError

    with pytest.raises(UnknownProcedureError) as error:
        registry.get("steel_war.fir")
    assert "steel_war.fire" in error.value.text("en")
