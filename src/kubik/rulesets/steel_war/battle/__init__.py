"""Whole battles of Steel War: hooks on the shared battle layer (:mod:`kubik.game.battle`).

One concept per module: :mod:`.spec` (scenario fields and their one-line errors),
:mod:`.terrain` (the seed's terrain table on the battlefield), :mod:`.setup` (checks
and the units at the start), :mod:`.state` (units, models, markers, as enums),
:mod:`.formation` (how a unit stands), :mod:`.board` (the layer's board filled with
squads: its hooks), :mod:`.field` (the battle's state and what it measures through the
board), :mod:`.options` (what a player may choose), :mod:`.menu`
(options with the rules' verdicts and forecasts), :mod:`.actions` (carrying an
action out), :mod:`.moves`, :mod:`.shooting`, :mod:`.assault`, :mod:`.carry`,
:mod:`.psionics`, :mod:`.spotting`, :mod:`.command`, :mod:`.effects` (each act: measure,
Call the rule, apply the outcome), :mod:`.typed` (typed moves and measurements at a
real table, in the layer's grammar), :mod:`.forecast` (how good each option looks),
:mod:`.game` (turns, the out-of-turn interrupts and the end). Rules are never written
here: every roll comes from a rule procedure, every question of legality from a rule
module, every number from the data through a rule module.
"""
