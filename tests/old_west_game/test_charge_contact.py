"""A charge whose way crosses its target (OW-ABSENT-02: charging is moving into base
contact): a charge made for a place on the target's far side meets the target on the
way. The contact rule stops it where it first touches him, and there it has reached:
the two are in a fight, and no spot of its way overlaps him."""

from __future__ import annotations

import math

from kubik.engine.log import EventEntry
from kubik.engine.run import run
from kubik.game.battle import overlapping, touching
from kubik.rulesets.old_west.battle.moves import walk_to
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from tests.game.ways import overlaps, up_to
from tests.old_west_game.helpers import battle, game_of, unit


def test_ow_absent_02_a_charge_through_its_target_stops_touching_him_and_fights() -> None:
    game = game_of(
        battle(unit("sam", "law", "deputy", 6, 12), unit("joe", "gang", "outlaw", 10, 12))
    )
    sam, joe = game.figure("sam"), game.figure("joe")
    start = sam.base.centre
    reach = sam.base.radius + joe.base.radius + 0.02
    far = (round(joe.base.x + reach, 1), joe.base.y)  # touching him, on his far side
    assert touching(sam.base.moved_to(far), joe.base)
    chosen = MoveTo("sam", MoveKind.CHARGE, far[0], far[1], math.dist(start, far), "joe")

    def alone(p: tuple[float, float]) -> list[object]:
        return [sam.base.moved_to(p)]

    assert overlaps([start, far], alone, [joe.base])  # type: ignore[arg-type]
    log = run(lambda: walk_to(game, sam, chosen, joe), (), dice=_NoDice()).log
    end = sam.base.centre
    assert end[0] < joe.base.x  # on the near side: it never passed through him
    assert not overlaps(up_to([start, far], end), alone, [joe.base])  # type: ignore[arg-type]
    assert touching(sam.base, joe.base) and not overlapping(sam.base, joe.base)
    charged = [
        e for e in log if isinstance(e, EventEntry) and e.event.id == "old_west.game.charges"
    ]
    assert charged and "OW-ABSENT-02" in charged[0].rules
    assert game.contacts.engaged("sam", "joe")
    assert not game.contact_violations()


class _NoDice:
    """No die is rolled on open ground."""

    def roll(self, request: object) -> tuple[int, ...]:
        raise AssertionError(f"unexpected roll {request}")
