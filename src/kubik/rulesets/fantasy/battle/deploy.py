"""Before the first turn of a fantasy battle: Scouts deploy after everyone else, not
within 12" of the enemy (FB-MOV-05), then light cavalry makes its Vanguard move
(FB-MOV-01); each a menu of the movement rules' own verdicts."""

from __future__ import annotations

from kubik.engine import Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, taste
from kubik.rulesets.fantasy.battle.formation import ahead, bearing, half_width, right
from kubik.rulesets.fantasy.battle.moves import advance
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Act, Unit
from kubik.rulesets.fantasy.movement import (
    may_deploy_scout,
    may_vanguard,
    scout_distance,
    vanguard_inches,
)


def deployment(game: FantasyState) -> Procedure[None]:
    """Scouts deploy after everyone else (FB-MOV-05), then light cavalry makes its
    Vanguard move (FB-MOV-01), side by side in the scenario's order."""
    for side in game.scenario.side_ids:
        for unit in game.units:
            if unit.side == side and "scouts" in unit.rules():
                yield from scout(game, unit)
    for side in game.scenario.side_ids:
        for unit in game.units:
            if unit.side == side:
                yield from vanguard(game, unit)


def scout_spots(
    game: FantasyState, unit: Unit, enemy: Unit
) -> list[tuple[str, tuple[float, float], int]]:
    """Places a scout may take facing ``enemy``: before its front, on its right
    and left flanks, just over the scouts' distance away."""
    keep = scout_distance() + 1.0
    (dx, dy), (rx, ry) = ahead(enemy.facing), right(enemy.facing)
    cx, cy = enemy.centre()
    spread = half_width(enemy.spec.files, enemy.figures(), enemy.spec.size) + 1.0
    deep = enemy.depth() / 2 + 1.0
    out = []
    for where, (vx, vy), extent in (
        ("front", (dx, dy), deep),
        ("right", (rx, ry), spread),
        ("left", (-rx, -ry), spread),
    ):
        front = (cx + vx * (keep + extent), cy + vy * (keep + extent))
        facing = bearing(front, (cx, cy))
        out.append((where, game.on_table(unit, front, facing), facing))
    return out


def scout(game: FantasyState, unit: Unit) -> Procedure[None]:
    enemy = game.board.nearest(unit)
    if enemy is None:
        return
    menu: Menu[Act] = Menu()
    spots = {}
    for where, front, facing in scout_spots(game, unit, enemy):
        placed = unit.bases(front, facing)
        if not game.board.clear(unit, placed):
            continue
        nearest = min(game.board.gap_from(placed, e) for e in game.board.enemies(unit))
        spots[where] = (front, facing)
        menu.offer(
            Act("scout", where),
            msg(f"fantasy.option.scout_{where}", target=game.name(enemy.id)),
            may_deploy_scout(unit.rules(), nearest),
            Forecast(score=taste("fantasy", f"scout_{where}")),
        )
    menu.offer(
        Act("hold"),
        msg("fantasy.option.deploy_stay"),
        Verdict.neutral(),
        Forecast(score=taste("fantasy", "hold")),
    )
    act = yield from game.choose(
        menu,
        unit.side,
        msg("fantasy.game.scouts", unit=game.name(unit.id)),
        rules=("FB-MOV-05",),
    )
    if act.kind == "scout":
        unit.front, unit.facing = spots[act.target]
        yield emit("fantasy.game.scouted", rules=("FB-MOV-05",), unit=game.name(unit.id))


def vanguard(game: FantasyState, unit: Unit) -> Procedure[None]:
    joined = unit.spec.character is not None
    verdict = may_vanguard(unit.rules(), joined)
    if not verdict.allowed:
        return
    target = game.board.nearest(unit)
    menu: Menu[Act] = Menu()
    menu.offer(
        Act("vanguard"),
        msg("fantasy.option.vanguard"),
        verdict,
        Forecast(score=taste("fantasy", "vanguard")),
    )
    menu.offer(Act("hold"), msg("fantasy.option.hold"), Verdict.neutral())
    act = yield from game.choose(
        menu,
        unit.side,
        msg("fantasy.game.vanguard", unit=game.name(unit.id)),
        rules=("FB-MOV-01",),
    )
    if act.kind == "vanguard":
        inches, rules = vanguard_inches(unit.rules(), joined)
        yield from advance(game, unit, target, float(inches), rules=rules)
