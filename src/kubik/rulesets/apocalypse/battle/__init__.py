"""Дороги Апокалипсиса's battles: the hooks on :mod:`kubik.game.battle` (see
:mod:`.game`)."""
