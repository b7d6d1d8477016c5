"""A tiny ruleset package for :mod:`tests.engine.test_applied`: its rule module
:mod:`~tests.engine.applied_toy.rules`, and battle code in
:mod:`~tests.engine.applied_toy.battle` that asks it in every way a battle can."""
