"""What every phase opens with: its heading in the log, last phase's marks cleared, and
the Heroes who declare the phase's heroic action (OW-HERO-06/07, OW-PLK-05)."""

from __future__ import annotations

from kubik.engine import Procedure, emit
from kubik.rulesets.old_west.battle.figures import Figure, Nerve
from kubik.rulesets.old_west.battle.heroes import Best, declare
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.heroics import HeroicAction, Phase, PhaseLedger


def phase_heading(phase: Phase) -> Procedure[None]:
    """The phase heading of the log."""
    yield emit("old_west.game.phase", phase=phase)


def new_phase(game: OldWestState) -> None:
    """Scared and tested against a Fearsome Reputation last for one phase (OW-PLK-05)."""
    for figure in game.figures:
        figure.tested_fearsome = ()
        if figure.nerve is Nerve.SCARED:
            figure.nerve = Nerve.STEADY


def open_phase(
    game: OldWestState, phase: Phase, action: HeroicAction, best: Best
) -> Procedure[tuple[tuple[Figure, ...], PhaseLedger]]:
    """A phase's start: its heading, last phase's marks cleared, and the Heroes who
    declare the phase's heroic ``action`` (``best``: what it would bring forward), in
    acting order, with the phase's ledger."""
    yield from phase_heading(phase)
    new_phase(game)
    return (yield from declare(game, action, PhaseLedger(phase), best))


__all__ = ["new_phase", "open_phase", "phase_heading"]
