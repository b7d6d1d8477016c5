"""Legends of the Old West battles: hooks on the shared battle layer (:mod:`kubik.game.battle`).

:mod:`.spec` checks scenarios; :mod:`.figures` holds the models (states as enums);
:mod:`.game` is the battle (the layer's hooks, the steps every phase shares);
:mod:`.ground` finds where models can go, through the one tape and the contact rule;
:mod:`.moves`, :mod:`.shots`, :mod:`.melee` (with :mod:`.fights`), :mod:`.heroes`
and :mod:`.nerve` are its phases, heroic actions and Pluck tests; :mod:`.objective` a
scenario's loot; :mod:`.table` what people at a real table type; :mod:`.judge` weighs
options for the bots with the tastes of ``[bot]``. Rules are never written here: the
phases ask the permission functions and call the rule procedures of
:mod:`kubik.rulesets.old_west` on situations (:mod:`.situations`) the tape measured.
"""
