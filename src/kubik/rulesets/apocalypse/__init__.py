"""Дороги Апокалипсиса (Roads of the Apocalypse): seeds 000 (activation edition) and 003
(turn edition).

Importing this package imports nothing else. The engine imports the module that
registers the procedure asked for (:data:`PROCEDURES`: ``apocalypse.melee``,
``apocalypse.melody``, ``apocalypse.jam``), every module of :mod:`.procedures` when
the whole ruleset is wanted, and the goals of every rule with decisions
(:mod:`.objectives`) when the optimal policy asks for them.
"""

#: Each public procedure → the module that registers it (under this package), so a
#: question about one procedure imports that module alone. A test checks it against
#: what every module of :mod:`.procedures` registers.
PROCEDURES: dict[str, str] = {
    "jam": "procedures.melody",
    "melee": "procedures.melee",
    "melody": "procedures.melody",
}
