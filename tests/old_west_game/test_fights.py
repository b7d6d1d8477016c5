"""The player with advantage splits a brawl into fights (OW-ABSENT-03) and orders the
fights (OW-CC-02, OW-CC-08); the default split is the deterministic one."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from kubik.engine import Choose
from kubik.engine.log import EventEntry
from kubik.game import GameSession
from kubik.rulesets.old_west import division
from kubik.rulesets.old_west.battle.fights import contacts_of, order_of
from kubik.rulesets.old_west.battle.options import Split
from kubik.rulesets.old_west.division import Fight, division_check
from kubik.text.i18n import render

from .helpers import Script, battle, game_of, play, unit

#: A chain of base contacts: Wyatt - Joe - Doc - Pete (two of each posse in one brawl).
CHAIN = (
    unit("wyatt", "law", "marshal", 8, 12),
    unit("joe", "gang", "outlaw", 9, 12),
    unit("doc", "law", "gunfighter", 10, 12),
    unit("pete", "gang", "outlaw", 11, 12),
)


def chooser(pick: Callable[[Choose], Hashable | None]) -> Script:
    """A Script that lets ``pick`` answer first (None: the Script answers)."""

    class Picking(Script):
        def __call__(self, request: Choose) -> Hashable:
            answer = pick(request)
            if answer is None:
                return super().__call__(request)
            self.asked.append(request)
            return answer

    return Picking()


def fights_fought(session: GameSession) -> list[tuple[str, ...]]:
    """The English names of side a of every fight, in the order fought."""
    out = []
    for entry in session.log:
        if isinstance(entry, EventEntry) and entry.event.id == "old_west.game.fight":
            names = dict(entry.event.params)["a"]
            out.append(tuple(dict(n.params)["en"] for n in names))
    return out


def test_OW_ABSENT_03_a_chain_pairs_off_the_only_lawful_way_so_nobody_sits_out() -> None:
    """Wyatt - Joe - Doc - Pete: every model in contact is in exactly one fight (OW-CC-01),
    so the only split is two pairs (ganging up on Joe would leave Pete out): no decision."""
    scenario = battle(*CHAIN)
    game = game_of(scenario)
    default = division.divide(contacts_of(game), order_of(game))
    assert [(f.a, f.b) for f in default] == [(("wyatt",), ("joe",)), (("doc",), ("pete",))]
    assert division_check(default, contacts_of(game)).allowed
    asked: list[Choose] = []

    def record(request: Choose) -> Hashable | None:
        if isinstance(request.options[0], Split):
            asked.append(request)
        return None

    # advantage 6-1 to the law; then the first fight's dice stop the script
    play(scenario, [6, 1], chooser(record))
    assert asked == []


#: Four models in a square: each touches both enemies (two lawful pairings).
SQUARE = (
    unit("wyatt", "law", "marshal", 10, 10, "base_mm = 25.4"),
    unit("joe", "gang", "outlaw", 11, 10, "base_mm = 25.4"),
    unit("doc", "law", "gunfighter", 11, 11, "base_mm = 25.4"),
    unit("pete", "gang", "outlaw", 10, 11, "base_mm = 25.4"),
)


def test_OW_ABSENT_03_the_advantage_posse_picks_among_the_lawful_splits() -> None:
    scenario = battle(*SQUARE)
    game = game_of(scenario)
    contacts = contacts_of(game)
    assert len(contacts) == 4
    asked: list[Choose] = []

    def second(request: Choose) -> Hashable | None:
        if not isinstance(request.options[0], Split):
            return None
        asked.append(request)
        return request.options[1]

    session = play(scenario, [6, 1], chooser(second))
    (request,) = asked
    assert request.side == "law" and request.default == request.options[0]
    splits = [o for o in request.options if isinstance(o, Split)]
    assert [[(f.a, f.b) for f in o.fights] for o in splits] == [
        [(("wyatt",), ("pete",)), (("doc",), ("joe",))],
        [(("wyatt",), ("joe",)), (("doc",), ("pete",))],
    ]
    for option in request.options:
        assert isinstance(option, Split) and division_check(option.fights, contacts).allowed
    label = request.label(request.options[1])
    assert label is not None
    assert render(label, "en") == "split the fights: [Wyatt against Joe], [Doc against Pete]"
    assert session.pending is not None


def test_OW_CC_02_the_advantage_posse_picks_which_fight_comes_first() -> None:
    asked: list[Choose] = []

    def doc_first(request: Choose) -> Hashable | None:
        if not isinstance(request.options[0], Fight):
            return None
        asked.append(request)
        return next(o for o in request.options if isinstance(o, Fight) and o.a == ("doc",))

    # advantage to the law; Doc's fight first: Doc 5, Pete 2 (then the dice run out)
    session = play(battle(*CHAIN), [6, 1, 5, 2], chooser(doc_first))
    (request,) = asked
    assert request.side == "law"
    assert [o.a for o in request.options if isinstance(o, Fight)] == [("wyatt",), ("doc",)]
    assert fights_fought(session) == [("Doc",)]
