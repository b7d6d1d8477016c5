"""Warhammer Fantasy Battle special rules (seed 004) on a core of the public charts.

Seed 004 lists the special rules only; the core (to-hit, to-wound, saves,
Leadership, combat resolution, break tests) follows the catalogue's FB-ABSENT
entries and is marked in ``data.toml`` as absent from the seeds. Importing the
package imports nothing else: the engine imports the module that registers the
procedure asked for (:data:`PROCEDURES`), or every module of :mod:`.procedures`
when the whole ruleset is wanted.
"""

#: Each public procedure → the module that registers it (under this package), so a
#: question about one procedure imports that module alone. A test checks it against
#: what every module of :mod:`.procedures` registers.
PROCEDURES: dict[str, str] = {
    "attacks": "procedures.attacks",
    "challenge": "procedures.challenge",
    "close_combat": "procedures.close_combat",
    "magic_resistance": "procedures.magic",
    "shooting": "procedures.shooting",
}
