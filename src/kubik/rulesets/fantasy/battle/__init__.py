"""Warhammer Fantasy battles on the shared battle layer: regiments in ranks and files.

One concept per module, imported in this order (no module imports one after it):
:mod:`.spec` (a scenario's units, checked), :mod:`.formation` (a regiment's ranks, files
and wheel), :mod:`.units` (a regiment's state, a fight's lasting state), :mod:`.board`
(the layer's board: the hooks), :mod:`.ground` (the ground a regiment's files sweep),
:mod:`.state` (the battle's state and what every phase reads of it), :mod:`.table` (a
move typed at a real table), :mod:`.moves` (wheeling, advancing, fleeing), :mod:`.panic`,
:mod:`.shots` (the Shooting phase), :mod:`.charges` (charges and their reactions),
:mod:`.melee` (the close-combat phase, challenges), :mod:`.deploy` (Scouts, Vanguard) and
:mod:`.game` (a player turn in its phases). Every permission is a rule module's verdict.
"""
