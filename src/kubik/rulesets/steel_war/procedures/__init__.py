"""Public procedures of this ruleset, one module per concept.

Importing the package imports none of them: the engine imports the module of the
procedure asked for (the ruleset's ``PROCEDURES``), or every module here when the
whole ruleset is wanted; a new concept is a new module here and its procedures'
entries in ``PROCEDURES``.
"""
