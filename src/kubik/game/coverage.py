"""Which catalogued rules bot battles apply: ``kubik coverage SCENARIO... --runs N``.

Every scenario is played ``runs`` times, bots on every side. Game ``j`` of each
scenario gets the seed :func:`game_seeds` derives from the root seed and ``j`` alone
(numpy's ``SeedSequence`` spawning), so a game's seed — and so the game — does not
depend on how many games are played or in what batches, and a game a report points
at is replayed with ``kubik play SCENARIO --seed S``. A game *applies* a rule when the
rule's own module decided something in it — a permission asked, a procedure run, a
rulebook number read by the rule — as the game session records it
(:attr:`~kubik.game.session.GameSession.applied`, :mod:`kubik.engine.applied`); a
log line naming the ID is not enough (battle code may narrate a rule it decided
itself, or one no battle asks). Each rule counts the games that apply it; the rules
logs name in games that did not apply them are reported apart (``named_only``), as
the rules whose battle code still decides them or never asks.

The game layer knows no bot: the caller says who plays each side
(``controllers_for(scenario, seed)``), as :mod:`kubik.api` does with the bots of
:mod:`kubik.bots`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kubik.core.limits import DEFAULT_SEED
from kubik.engine.log import LogEntry
from kubik.engine.requests import msg
from kubik.game.errors import GameInputError
from kubik.game.rule_catalogue import RuleCatalogue, load_rule_catalogue
from kubik.game.scenario import Scenario
from kubik.game.session import Controller, play_game

#: Most games one coverage run plays per scenario. A bot game takes a few tenths of
#: a second, so the limit is about an hour per scenario; a rule a battle can apply
#: shows up long before that, and the counts are kept exactly at any number of runs.
MAX_RUNS = 10_000
#: Game seeds stay below 2**53, exact in JSON for any reader (JavaScript too).
_SEED_BITS = 53

#: Who plays each side of one game: (scenario, game seed) → side → controller.
ControllersFor = Callable[[Scenario, int], Mapping[str, Controller]]
#: Told once every input is checked, then after each game: (games played, games in all).
ProgressCallback = Callable[[int, int], None]


def check_runs(runs: object, name: str = "runs") -> int:
    """``runs`` if it is a whole number 1..:data:`MAX_RUNS`; else one clear line."""
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise GameInputError(msg("coverage.error.runs", name=name, runs=repr(runs), limit=MAX_RUNS))
    return runs


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` if it is a whole number 0 or more (a ``SeedSequence`` root); else one line."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GameInputError(msg("coverage.error.seed", name=name, seed=repr(seed)))
    return seed


def game_seeds(root: int, runs: int) -> tuple[int, ...]:
    """The seeds of games 0..runs-1: game ``j``'s depends on ``root`` and ``j`` only.

    >>> game_seeds(1, 3) == game_seeds(1, 5)[:3]
    True
    >>> len(set(game_seeds(1, 1000)))
    1000
    """
    children = np.random.SeedSequence(check_seed(root)).spawn(runs)
    mask = (1 << _SEED_BITS) - 1
    return tuple(int(child.generate_state(1, np.uint64)[0]) & mask for child in children)


def rules_named(log: Iterable[LogEntry]) -> frozenset[str]:
    """Every rule ID the log's rolls, decisions and events name (what people read; not
    what the game applied: see :attr:`~kubik.game.session.GameSession.applied`)."""
    return frozenset(rule for entry in log for rule in entry.rules)


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game of a coverage run: its scenario, seed, the rule IDs it applied, and
    those its log names."""

    scenario: str
    ruleset: str
    seed: int
    rules: frozenset[str]
    named: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Coverage:
    """What a coverage run found; :meth:`to_json` is the contract's JSON."""

    scenarios: tuple[str, ...]
    runs: int
    seed: int
    catalogues: tuple[RuleCatalogue, ...]
    games: tuple[GameRules, ...]

    def _catalogue(self, ruleset: str) -> RuleCatalogue:
        return next(c for c in self.catalogues if c.ruleset == ruleset)

    def counts(self) -> dict[str, int]:
        """Every catalogued ID of the scenarios' rulesets → games that applied it."""
        applied = Counter(rule for game in self.games for rule in game.rules)
        return {rule: applied[rule] for c in self.catalogues for rule in c.ids}

    def never(self) -> list[str]:
        """The catalogued IDs no game applied (catalogue order)."""
        return [rule for rule, games in self.counts().items() if games == 0]

    def missing(self) -> list[str]:
        """The IDs no game applied although a battle can apply them (the goal: none)."""
        counts = self.counts()
        return [r.id for c in self.catalogues for r in c.rules if r.battle and not counts[r.id]]

    def named_only(self) -> dict[str, int]:
        """Catalogued IDs a game's log names although no rule module decided them in that
        game → how many such games (the battle decides them itself, or only narrates)."""
        found: Counter[str] = Counter()
        for game in self.games:
            found.update(game.named - game.rules)
        return {rule: found[rule] for c in self.catalogues for rule in c.ids if found[rule]}

    def unknown(self) -> dict[str, int]:
        """IDs logs name that their ruleset's catalogue lacks (a typo is a bug) → games."""
        found: Counter[str] = Counter()
        for game in self.games:
            catalogue = self._catalogue(game.ruleset)
            found.update(rule for rule in game.rules | game.named if rule not in catalogue)
        return dict(sorted(found.items()))

    def games_per_ruleset(self) -> dict[str, int]:
        """How many games each ruleset's rules had the chance to be applied in."""
        played = Counter(game.ruleset for game in self.games)
        return {c.ruleset: played[c.ruleset] for c in self.catalogues}

    def examples(self) -> dict[str, dict[str, Any]]:
        """Each applied ID → the first game that applied it (to replay with ``kubik play``)."""
        first: dict[str, dict[str, Any]] = {}
        for game in self.games:
            for rule in sorted(game.rules):
                first.setdefault(rule, {"scenario": game.scenario, "seed": game.seed})
        return {rule: first[rule] for rule in self.counts() if rule in first}

    def by_scenario(self) -> dict[str, dict[str, int]]:
        """Scenario → each catalogued ID its games applied → how many of them."""
        out: dict[str, dict[str, int]] = {}
        for scenario in self.scenarios:
            games = [g for g in self.games if g.scenario == scenario]
            applied = Counter(rule for game in games for rule in game.rules)
            ids = self._catalogue(games[0].ruleset).ids if games else ()
            out[scenario] = {rule: applied[rule] for rule in ids if applied[rule]}
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"scenarios", "runs", "rules": {id: games}, "never": [ids]}`` (the contract),
        plus the root seed, games per ruleset, the rules a battle cannot apply with the
        reason, unknown IDs, the never-applied battle rules, a first game per rule, the
        counts per scenario, and the rules logs name in games that did not apply them."""
        return {
            "scenarios": list(self.scenarios),
            "runs": self.runs,
            "rules": self.counts(),
            "never": self.never(),
            "seed": self.seed,
            "games": self.games_per_ruleset(),
            "missing": self.missing(),
            "not_in_battle": {r.id: r.why for c in self.catalogues for r in c.not_in_battle},
            "unknown": self.unknown(),
            "examples": self.examples(),
            "by_scenario": self.by_scenario(),
            "named_only": self.named_only(),
        }


def run_coverage(
    scenarios: Sequence[Scenario],
    runs: int,
    seed: int,
    controllers_for: ControllersFor,
    progress: ProgressCallback | None = None,
) -> Coverage:
    """Play ``runs`` games of each scenario with the controllers given, and count rules.

    Every argument is checked before the first game: runs, seed, that each scenario
    is named once, and that each scenario's ruleset ships a rule catalogue.
    """
    check_runs(runs)
    check_seed(seed)
    if not scenarios:
        raise GameInputError(msg("coverage.error.no_scenario"))
    ids = [scenario.id for scenario in scenarios]
    for scenario_id in ids:
        if ids.count(scenario_id) > 1:
            raise GameInputError(msg("coverage.error.twice", scenario=scenario_id))
    catalogues: dict[str, RuleCatalogue] = {}
    for scenario in scenarios:
        if scenario.ruleset not in catalogues:
            catalogues[scenario.ruleset] = load_rule_catalogue(scenario.ruleset)
    seeds = game_seeds(seed, runs)
    total = runs * len(scenarios)
    games: list[GameRules] = []
    if progress is not None:
        progress(0, total)
    for scenario in scenarios:
        for game_seed in seeds:
            session = play_game(
                scenario, game_seed, controllers=controllers_for(scenario, game_seed)
            )
            if not session.finished:
                raise GameInputError(
                    msg("coverage.error.person", scenario=scenario.id, seed=game_seed)
                )
            games.append(
                GameRules(
                    scenario.id,
                    scenario.ruleset,
                    game_seed,
                    frozenset(session.applied),
                    rules_named(session.log),
                )
            )
            if progress is not None:
                progress(len(games), total)
    return Coverage(tuple(ids), runs, seed, tuple(catalogues.values()), tuple(games))


__all__ = [
    "DEFAULT_SEED",
    "MAX_RUNS",
    "ControllersFor",
    "Coverage",
    "GameRules",
    "ProgressCallback",
    "check_runs",
    "check_seed",
    "game_seeds",
    "rules_named",
    "run_coverage",
]
