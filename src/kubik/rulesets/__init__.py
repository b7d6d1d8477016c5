"""The rulesets kubik ships. The engine finds them by these names (see
:mod:`kubik.engine.registry`); third-party rulesets register the entry-point group
``kubik.rulesets``."""

RULESETS: tuple[str, ...] = ("steel_war", "old_west", "apocalypse", "fantasy")
