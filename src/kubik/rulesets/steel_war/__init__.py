"""Стальная война (Steel War): seed 001.

Importing this package imports nothing else. The engine imports the module that
registers the procedure asked for (:data:`PROCEDURES`), every module of
:mod:`.procedures` when the whole ruleset is wanted, and the goals of the rules with
decisions (:mod:`.objectives`) when the optimal policy asks for them.
"""

#: Each public procedure → the module that registers it (under this package), so a
#: question about one procedure imports that module alone. A test checks it against
#: what every module of :mod:`.procedures` registers.
PROCEDURES: dict[str, str] = {
    "armour_test": "procedures.fire",
    "charge": "procedures.melee",
    "close_combat": "procedures.melee",
    "communication_test": "procedures.inspiration",
    "defender_morale": "procedures.melee",
    "fire": "procedures.fire",
    "inspiration": "procedures.inspiration",
    "melee_casualties": "procedures.melee",
    "morale_event": "procedures.morale",
    "morale_test": "procedures.morale",
    "no_step_back_test": "procedures.no_step_back",
    "observe": "procedures.observation",
    "panic_test": "procedures.panic",
    "psi_avert_eyes": "procedures.psionics",
    "psi_blast": "procedures.psionics",
    "psi_confusion": "procedures.psionics",
    "psi_detection": "procedures.psionics",
    "psi_inspiration": "procedures.psionics",
    "psi_murder": "procedures.psionics",
    "psi_no_step_back": "procedures.psionics",
    "psi_panic": "procedures.psionics",
    "psi_remove_suppression": "procedures.psionics",
    "psi_strike": "procedures.psionics",
    "reaction_test": "procedures.reaction",
    "reorganise": "procedures.reorganisation",
    "unsuppress": "procedures.unsuppress",
}
