"""Brawl: two gangs brawl on a small table; a ruleset installed from a package of its own.

kubik finds it through its ``kubik.rulesets`` entry point (``brawl = brawl_rules``), as
docs/adding-a-ruleset.md says; importing the package imports nothing else.
"""

#: Each public procedure → the module that registers it.
PROCEDURES: dict[str, str] = {"strike": "procedures.strike"}
