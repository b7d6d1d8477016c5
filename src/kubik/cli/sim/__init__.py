"""``kubik sim``: Monte Carlo battles and sweeps, or one procedure checked against its odds.

``kubik sim SCENARIO --runs N`` plays N bot-against-bot games (:mod:`kubik.sim`) on
local processes (``--workers``, every core by default) or Ray (``--ray``), with a
progress bar showing the rate and the time left, and reports win and draw rates
with 95% intervals, the turns, the losses, and per-unit kills, losses and routs.
``--vary`` and ``--vs`` make a sweep; ``--plot`` draws it; ``--csv`` and
``--parquet`` export every game. Games are stored in SQLite as they finish, so the
same command after an interrupt plays only the rest.

``kubik sim PROC --input JSON --runs N`` simulates one procedure and checks the
estimate against its exact distribution.

One concept per module: :mod:`.command` (the command, its options and checks),
:mod:`.progress` (the progress bar), :mod:`.battles_report` (a simulation or sweep),
:mod:`.bots_report` (one job under several bots), :mod:`.solve_report` (a search for a
cost), :mod:`.procedure_report` (a procedure against its odds) and :mod:`.figures` (how
every report writes its numbers).
"""

from kubik.cli.sim.battles_report import print_sim
from kubik.cli.sim.bots_report import print_bots
from kubik.cli.sim.command import register_sim_command, sim_command
from kubik.cli.sim.procedure_report import print_procedure
from kubik.cli.sim.solve_report import print_solve

__all__ = [
    "print_bots",
    "print_procedure",
    "print_sim",
    "print_solve",
    "register_sim_command",
    "sim_command",
]
