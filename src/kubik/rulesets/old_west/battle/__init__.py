"""Legends of the Old West whole battles on the game layer (the adapter's modules).

:mod:`.spec` checks scenarios, :mod:`.state` holds the models, :mod:`.places` finds
where they can go on the table, :mod:`.sides` runs rule procedures for the posses,
:mod:`.game` is the turn loop and :mod:`.movement`, :mod:`.shooting`, :mod:`.melee`,
:mod:`.morale` and :mod:`.heroes` are its phases and tests; :mod:`.judge` weighs
options for the bots. Rules are never written here: the phases call the rule
procedures of :mod:`kubik.rulesets.old_west` on situations measured on the table.
"""
