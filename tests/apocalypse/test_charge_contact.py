"""A charge whose way passes its target (RA-ABSENT-08, RA-CC-02): a walk toward a place
round the enemy's side stops where it first touches him (the contact rule), and a
charge takes the board's walked way into contact, which never crosses the target and
ends touching him, so the fight starts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kubik.game.battle import overlapping, touching
from kubik.rulesets.apocalypse.battle import charges
from kubik.rulesets.apocalypse.battle.game import ApocalypseGame
from kubik.rulesets.apocalypse.battle.warriors import Warrior
from kubik.table import Base
from tests.apocalypse.test_battle import game, unit
from tests.apocalypse.test_moves import events, play
from tests.game.ways import overlaps, up_to

#: Grif's way to the place touching Fang round his side (from the demo's second game
#: with heuristic bots, turn 5: drawn into Fang's fight, RA-CC-02).
GRIF, FANG, ROUND_HIS_SIDE = (10.1, 15.1), (9.1, 14.7), (9.6, 15.6)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield


def _battle() -> ApocalypseGame:
    return game("turn", unit("grif", "a", *GRIF), unit("fang", "b", *FANG))


def _alone(w: Warrior) -> Callable[[tuple[float, float]], list[Base]]:
    """Where ``w``'s base would stand at a place."""
    return lambda p: [w.base.moved_to(p)]


def test_RA_ABSENT_08_the_way_round_the_target_stops_where_it_first_touches_him() -> None:
    battle = _battle()
    grif, fang = battle.warrior("grif"), battle.warrior("fang")
    alone = _alone(grif)

    assert touching(grif.base.moved_to(ROUND_HIS_SIDE), fang.base)
    assert overlaps([GRIF, ROUND_HIS_SIDE], alone, [fang.base])  # the straight way grazes him
    walked = battle.walk(grif, ROUND_HIS_SIDE, 2.0, target=fang)
    assert walked is not None
    path, end = walked.path, walked.end
    assert end != ROUND_HIS_SIDE
    assert not overlaps(up_to(path, end), alone, [fang.base])
    assert touching(alone(end)[0], fang.base) and not overlapping(alone(end)[0], fang.base)


def test_RA_ABSENT_08_a_charge_ends_where_its_walked_way_touches_the_target() -> None:
    battle = _battle()
    grif, fang = battle.warrior("grif"), battle.warrior("fang")
    # the board's cheapest walked way into contact, never through the target
    way = charges.charge_way(battle, grif, fang)
    assert way is not None and not overlaps(up_to(way.path, way.end), _alone(grif), [fang.base])
    log = play(charges.charge(battle, grif, fang), [4] * 12)
    assert grif.base.centre == way.end
    assert battle.board.gap(grif, fang) <= 0.05
    assert not overlapping(grif.base, fang.base)
    assert battle.contacts.engaged("grif", "fang")
    assert not events(log, "apocalypse.game.charge_short")
    assert "RA-ABSENT-08" in events(log, "apocalypse.game.charges")[0].rules
    assert not battle.contact_violations()
