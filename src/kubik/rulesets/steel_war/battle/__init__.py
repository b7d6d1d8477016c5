"""Whole battles of Steel War on the game layer: scenario checks, state, actions, turns.

One concept per module: :mod:`.spec` (scenario fields and their one-line errors),
:mod:`.state` (squads, models and markers), :mod:`.field` (measuring the table),
:mod:`.options` (what a player may choose), :mod:`.fire`, :mod:`.assault` and
:mod:`.actions` (actions: measure, Call the rule, apply the outcome),
:mod:`.forecast` (how good each option looks), :mod:`.game` (turns and the end).
Rules are never written here: every roll comes from a rule procedure.
"""
