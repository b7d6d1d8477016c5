"""The board of the battle layer: one definition of enemies, gaps, sight, walked ways,
charges' contact spots, backing away and typed places, for every ruleset.

Checked on the toy skirmish (tests/game/skirmish.py), which fills the board's hooks
as a ruleset does, with its fighters placed by hand for each situation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from kubik.engine import Choose, EntryError, Message, msg
from kubik.game import parse_scenario
from kubik.game.battle import (
    COMPASS,
    GAP,
    bearing,
    confirm_inches,
    move_entry,
    overlapping,
    read_count,
    read_inches,
    read_position,
    read_yes_no,
    touching,
)
from kubik.game.registry import register_ruleset, unregister_ruleset
from kubik.table import Base, TerrainKind
from tests.game.skirmish import GAME, SCENARIO, SKIRMISH_ID, Fighter, SkirmishGame


@pytest.fixture(autouse=True)
def _skirmish() -> Iterator[None]:
    """The toy skirmish is playable for these tests only."""
    register_ruleset(GAME, replace=True)
    yield
    unregister_ruleset(SKIRMISH_ID)


def _game(**places: tuple[float, float]) -> SkirmishGame:
    """The toy battle with the named fighters standing where given (the barn is the
    impassable block 10–14 × 10–14)."""
    game = SkirmishGame(parse_scenario(SCENARIO, "skirmish.toml"), {})
    for fighter in game.fighters:
        if fighter.id in places:
            fighter.base = fighter.base.moved_to(places[fighter.id])
    return game


def _f(game: SkirmishGame, unit: str) -> Fighter:
    return game.fighter(unit)


def test_who_is_who_is_answered_once_for_every_ruleset() -> None:
    game = _game()
    board = game.board
    r1, r2, b1, b2 = (_f(game, u) for u in ("r1", "r2", "b1", "b2"))
    assert board.enemies(r1) == [b1, b2] and board.friends(r1) == [r2]
    assert board.engaged(r1) == [] and not board.is_engaged(r1)
    game.contacts.engage("r1", "b1", ("TS-CHARGE-01",))
    assert board.engaged(r1) == [b1] and board.engaged(b1) == [r1]
    from kubik.game.battle import Presence

    b1.presence = Presence.REMOVED  # a fallen enemy fights no more
    assert board.enemies(r1) == [b2] and board.engaged(r1) == []


def test_gaps_are_edge_to_edge_and_the_nearest_is_by_gap() -> None:
    game = _game(r1=(2.0, 2.0), b1=(7.0, 2.0), b2=(2.0, 8.5))
    board = game.board
    r1, b1, b2 = (_f(game, u) for u in ("r1", "b1", "b2"))
    assert board.gap(r1, b1) == pytest.approx(4.0)  # 5" centre to centre, 0.5" radii
    assert board.gap(r1, b2) == pytest.approx(5.5)
    assert board.nearest(r1) is b1
    assert board.within(r1, 4.0) == [b1] and board.within(r1, 3.9) == []
    # a bigger base is nearer at the same centre distance: the board measures edges
    b2.base = Base(2.0, 8.5, 5.0, "b2")
    assert board.gap(r1, b2) == pytest.approx(3.5) and board.nearest(r1) is b2


def test_sight_and_cover_come_from_the_battle_tape() -> None:
    game = _game(r1=(8.0, 12.0), b1=(16.0, 12.0), b2=(8.0, 16.0))
    board = game.board
    r1, b1, b2 = (_f(game, u) for u in ("r1", "b1", "b2"))
    assert not board.sees(r1, b1)  # the barn stands between them
    assert board.sees(r1, b2)
    assert board.sees(r1, b1) == game.tape.sees(r1.base, b1.base)
    assert board.cover(r1, b2) is game.tape.cover(r1.base, b2.base)


def test_a_walk_goes_round_impassable_ground_and_never_through_a_model() -> None:
    game = _game(r1=(8.0, 12.0), b1=(16.0, 12.0), r2=(2.0, 2.0), b2=(22.0, 2.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    walk = board.walk(r1, b1.base.centre, 30.0)
    assert walk is not None
    barn = game.table.feature("barn")
    from shapely.geometry import LineString

    # the way bends round the barn (never through it) and stops short of b1's base
    assert len(walk.way) > 2 and not LineString(walk.path).crosses(barn.shape.buffer(-0.4))
    end = r1.base.moved_to(walk.end)
    assert not touching(end, b1.base) and not overlapping(end, b1.base)
    # an allowance ends it earlier, at the walked distance
    short = board.walk(r1, b1.base.centre, 3.0)
    assert short is not None and short.walked == pytest.approx(3.0, abs=0.11)


def test_a_charge_reaches_only_by_a_walked_way() -> None:
    # 7" apart in a straight line, but the barn is between them: the way round is longer
    game = _game(r1=(8.0, 12.0), b1=(16.0, 12.0), r2=(2.0, 2.0), b2=(22.0, 2.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    assert board.gap(r1, b1) == pytest.approx(7.0)
    assert board.charge_way(r1, b1, 7.5) is None  # straight-line reach is not enough
    walk = board.charge_way(r1, b1, 20.0)
    assert walk is not None and walk.cost > 7.5
    end = r1.base.moved_to(walk.end)
    assert touching(end, b1.base) and not overlapping(end, b1.base)


def test_contact_spots_touch_their_target_and_face_the_charger_first() -> None:
    game = _game(r1=(3.0, 3.0), b1=(8.0, 3.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    spots = board.contact_spots(r1, b1)
    assert spots[0] == (7.0, 3.0)  # the side facing the charger
    for spot in spots:
        gap = math.dist(spot, b1.base.centre) - 1.0
        assert -1e-6 <= gap <= GAP and spot == (round(spot[0], 1), round(spot[1], 1))


def test_backing_away_steps_straight_away_or_finds_no_room() -> None:
    game = _game(r1=(5.0, 5.0), b1=(6.0, 5.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    spot = board.back_away(r1, [b1], 1.0)
    assert spot is not None and spot[0] < 5.0 and abs(spot[1] - 5.0) < 1e-9
    # against the table's edge with the enemy in front: no room straight back
    game = _game(r1=(0.5, 5.0), b1=(1.5, 5.0))
    board = game.board
    assert board.back_away(_f(game, "r1"), [_f(game, "b1")], 1.0) is None
    # turned aside, it finds room
    aside = board.back_away(_f(game, "r1"), [_f(game, "b1")], 1.0, turns=(0.0, 90.0, -90.0))
    assert aside is not None


def test_a_fit_needs_passable_ground_and_no_contact() -> None:
    game = _game(r1=(3.0, 3.0), b1=(8.0, 3.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    assert board.fits(r1, (5.0, 5.0))
    assert not board.fits(r1, (12.0, 12.0))  # inside the barn
    assert not board.fits(r1, (0.2, 5.0))  # off the table's edge
    assert not board.fits(r1, (7.0, 3.0))  # touching an enemy without charging
    assert board.fits(r1, (7.0, 3.0), touch=b1)  # a charge may touch its target
    assert not board.fits(r1, (7.5, 3.0), touch=b1)  # never overlap it
    assert game.tape.kind_at((12.0, 12.0)) is TerrainKind.IMPASSABLE


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("12.5, 30", (12.5, 30.0)),
        ("12,5; 30", (12.5, 30.0)),
        ("(3 4)", (3.0, 4.0)),
        ("12.5,30", (12.5, 30.0)),
        ("12,5, 30", (12.5, 30.0)),
        ("12, 5", (12.0, 5.0)),
        ("6 n", (10.0, 16.0)),
        ("6 north", (10.0, 16.0)),
        ('6" с', (10.0, 16.0)),
        ("6 дюймов на север", (10.0, 16.0)),
        ("4 e", (14.0, 10.0)),
        ("4 восток", (14.0, 10.0)),
        ("2 @90", (12.0, 10.0)),
        ("2 90°", (12.0, 10.0)),
        ("4,5 ю", (10.0, 5.5)),
        ("4 north-east", (12.8, 12.8)),
        ("4 северо-восток", (12.8, 12.8)),
        ("4 св", (12.8, 12.8)),
        ("3 шага на юго-запад", (7.9, 7.9)),
        ("5 wnw", (5.4, 11.9)),
        ("5 зсз", (5.4, 11.9)),
    ],
)
def test_one_grammar_of_typed_places_in_english_and_russian(
    typed: str, expected: tuple[float, float]
) -> None:
    assert read_position(typed, (10.0, 10.0)) == expected


def test_the_sixteen_points_of_the_compass_in_both_languages() -> None:
    english = ["n", "nne", "ne", "ene", "e", "ese", "se", "sse"]
    english += ["s", "ssw", "sw", "wsw", "w", "wnw", "nw", "nnw"]
    russian = ["с", "ссв", "св", "всв", "в", "вюв", "юв", "ююв"]
    russian += ["ю", "ююз", "юз", "зюз", "з", "зсз", "сз", "ссз"]
    for index, (en, ru) in enumerate(zip(english, russian, strict=True)):
        assert COMPASS[en] == COMPASS[ru] == 22.5 * index
    assert bearing("Юго-Восток") == bearing("south-east") == 135.0


@pytest.mark.parametrize("typed", ["here", "12", "4 up", "", "6 n 7", "1,2,3", "12.5 30 4"])
def test_a_typed_place_that_is_not_one_says_what_to_type(typed: str) -> None:
    with pytest.raises(EntryError) as raised:
        read_position(typed, (0.0, 0.0))
    assert raised.value.message is not None
    assert raised.value.message.id in ("game.entry.position", "game.entry.direction")


@given(
    st.floats(0, 48, allow_nan=False).map(lambda v: round(v, 1)),
    st.floats(0, 48, allow_nan=False).map(lambda v: round(v, 1)),
)
@settings(max_examples=200, deadline=None)
def test_a_typed_place_reads_back_exactly(x: float, y: float) -> None:
    assert read_position(f"{x}, {y}", (1.0, 1.0)) == (x, y)
    assert read_position(f"{x}; {y}".replace(".", ","), (1.0, 1.0)) == (x, y)


def test_measurements_people_type() -> None:
    assert read_inches('6,5"') == 6.5 and read_inches("12 дюймов") == 12.0
    assert read_yes_no("Да") is True and read_yes_no("no") is False
    assert read_count("3", 5) == 3
    for bad, reader in (("far", read_inches), ("maybe", read_yes_no)):
        with pytest.raises(EntryError):
            reader(bad)
    with pytest.raises(EntryError):
        read_count("6", 5)


def test_a_typed_move_is_checked_by_the_board_and_the_rules() -> None:
    game = _game(r1=(3.0, 3.0), b1=(20.0, 20.0))
    r1 = _f(game, "r1")
    refused: Message = msg("toy.too_far")

    def check(spot: tuple[float, float]) -> Message | None:
        return refused if math.dist(spot, r1.base.centre) > 4.0 else None

    entry = move_entry(game.board, r1, lambda spot: ("moved", spot), check)
    assert entry.read("4 e") == ("moved", (7.0, 3.0))
    assert entry.read("5, 5") == ("moved", (5.0, 5.0))
    with pytest.raises(EntryError) as raised:
        entry.read("5 e")
    assert raised.value.message == refused
    with pytest.raises(EntryError) as raised:
        entry.read("12, 12")  # the barn
    assert raised.value.message is not None and raised.value.message.id == "game.entry.off_ground"


def test_a_measured_fact_is_confirmed_or_typed_and_the_log_says_so() -> None:
    procedure = confirm_inches("red", msg("toy.fact"), 7.04, ("TS-SHOOT-02",))
    asked = next(procedure)
    assert isinstance(asked, Choose) and asked.options == (7.0,) and asked.entry is not None
    typed = asked.entry.read('7,5"')
    said = procedure.send(typed)
    assert said.event.id == "game.entry.differs"
    with pytest.raises(StopIteration) as done:
        procedure.send(None)
    assert done.value.value == 7.5


def test_a_settled_move_stops_before_the_first_model_in_its_way() -> None:
    game = _game(r1=(2.0, 5.0), b1=(8.0, 5.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    end = board.settled(r1, ((2.0, 5.0), (12.0, 5.0)))
    assert end is not None and end[0] < 7.0  # stopped short of b1's base, not touching it
    assert not touching(r1.base.moved_to(end), b1.base)
    charge = board.settled(r1, ((2.0, 5.0), (12.0, 5.0)), target=b1)
    assert charge is not None and touching(r1.base.moved_to(charge), b1.base)
    assert not overlapping(r1.base.moved_to(charge), b1.base)


def test_the_nearest_gap_from_a_place_is_edge_to_edge_to_the_nearest_enemy() -> None:
    game = _game(r1=(2.0, 2.0), b1=(7.0, 2.0), b2=(2.0, 20.0))
    board = game.board
    r1, b2 = _f(game, "r1"), _f(game, "b2")
    assert board.nearest_gap(r1, (4.0, 2.0)) == pytest.approx(2.0)  # to b1: 3" less the radii
    assert board.nearest_gap(r1, (2.0, 17.0), among=[b2]) == pytest.approx(2.0)
    assert board.nearest_gap(r1, (4.0, 2.0), among=[]) == math.inf


def test_sight_and_cover_at_a_place_a_move_is_weighed_at() -> None:
    game = _game(r1=(2.0, 2.0), b1=(16.0, 12.0), b2=(22.0, 22.0))
    board = game.board
    r1, b1 = _f(game, "r1"), _f(game, "b1")
    behind_barn = r1.base.moved_to((8.0, 12.0))
    assert not board.sees_from((behind_barn,), b1)
    assert board.sees_from((r1.base.moved_to((16.0, 6.0)),), b1)
    assert board.cover_at((r1.base.moved_to((9.3, 12.0)),), b1) is game.tape.cover(
        b1.base, r1.base.moved_to((9.3, 12.0))
    )


def test_cover_spots_lie_beside_the_features_that_give_cover_and_fit() -> None:
    game = _game()
    board = game.board
    r1 = _f(game, "r1")
    spots = board.cover_spots(r1, 0.2)
    assert spots and spots == board.cover_spots(r1, 0.2)  # kept with the table
    barn = game.table.feature("barn").shape
    for spot in spots:
        assert board.on_ground(r1, spot)
        # the base's radius (0.5") and the gap (0.2") off the barn's wall, to the grid
        assert 0.6 <= barn.distance(ShapelyPoint(spot)) <= 0.8


def test_a_trapped_unit_ends_out_of_contact_and_a_friend_shuffles_aside() -> None:
    # r1 fights b1 on its east; r2 stands right behind it on the west
    game = _game(r1=(5.0, 5.0), b1=(6.0, 5.0), r2=(4.0, 5.0), b2=(22.0, 22.0))
    board = game.board
    r1, r2, b1 = _f(game, "r1"), _f(game, "r2"), _f(game, "b1")
    game.contacts.engage("r1", "b1", ("TS-CHARGE-01",))
    made = board.make_way(r1, [b1], start=1.05, limit=3.0)
    assert made is not None
    assert made.spot[0] < 5.0 and made.spot[1] == 5.0  # straight away from b1
    new = r1.base.moved_to(made.spot)
    assert not touching(new, b1.base)
    ((shuffled, aside),) = made.shuffles
    assert shuffled is r2 and not touching(r2.base.moved_to(aside), new)
    assert math.dist(aside, r2.base.centre) <= 2.0  # only a little way
    # an enemy in the way never shuffles: the way out goes round him
    game = _game(r1=(5.0, 5.0), b1=(6.0, 5.0), b2=(3.9, 5.0), r2=(22.0, 22.0))
    board = game.board
    made = board.make_way(_f(game, "r1"), [_f(game, "b1")], start=1.05, limit=3.0)
    assert made is not None and made.shuffles == ()
    assert not touching(_f(game, "r1").base.moved_to(made.spot), _f(game, "b2").base)
    # penned in a corner by both enemies with nowhere within reach: no way
    game = _game(r1=(0.5, 0.5), b1=(1.5, 0.5), b2=(0.5, 1.5), r2=(22.0, 22.0))
    board = game.board
    trapped = board.make_way(
        _f(game, "r1"), [_f(game, "b1"), _f(game, "b2")], start=1.05, limit=1.05
    )
    assert trapped is None


def test_a_model_shuffling_aside_ignores_the_models_on_their_way_elsewhere() -> None:
    game = _game(r1=(5.0, 5.0), r2=(5.6, 5.0))
    board = game.board
    r1, r2 = _f(game, "r1"), _f(game, "r2")
    # r2 stands where r1 would go; once r2 is on its way elsewhere, r1 may go next to it
    blocked = board.clear_spot(r1, (5.0, 5.0), radii=(0.5,))
    moving = board.clear_spot(r1, (5.0, 5.0), radii=(0.5,), moving=[r2])
    assert moving == (5.5, 5.0) and blocked != moving
