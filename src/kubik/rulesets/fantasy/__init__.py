"""Warhammer Fantasy Battle special rules (seed 004) on a core of the public charts.

Seed 004 lists the special rules only; the core (to-hit, to-wound, saves,
Leadership, combat resolution, break tests) follows the catalogue's FB-ABSENT
entries and is marked in ``data.toml`` as absent from the seeds. Importing the
package registers its public procedures with the engine.
"""

from kubik.rulesets.fantasy import procedures as _procedures  # noqa: F401
