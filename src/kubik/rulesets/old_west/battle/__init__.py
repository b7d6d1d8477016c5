"""Legends of the Old West battles: hooks on the shared battle layer (:mod:`kubik.game.battle`).

:mod:`.spec` checks scenarios; :mod:`.figures` holds the models (states as enums);
:mod:`.board` is the layer's board over them (enemies, gaps, sight, walked ways,
charges' contact, backing away and making way are the layer's); :mod:`.state` is the
battle's state and the steps every phase shares, :mod:`.game` its turn. The phases are
:mod:`.moves`, :mod:`.shots` and :mod:`.melee` (with :mod:`.fights`), opened by
:mod:`.phases` with the heroic actions of :mod:`.heroes`; :mod:`.nerve` holds the Pluck
tests, :mod:`.harm` wounds outside a fight, :mod:`.backing` a loser's way out of
contact, :mod:`.line_of_fire` what stands in a shot's way, :mod:`.objective` a
scenario's loot, :mod:`.table` what people at a real table type, and :mod:`.judge`
weighs options for the bots with the tastes of ``[bot]``. Rules are never written here:
the phases ask the permission functions and call the rule procedures of
:mod:`kubik.rulesets.old_west` on situations (:mod:`.situations`) the board measured.
Every module imports only modules listed before the one importing it (no cycles).
"""
