"""The battle layer: contact rule, menus from verdicts, interrupts, hooks (on a toy ruleset).

The toy skirmish (tests/game/skirmish.py) fills the layer's hooks the way a real
ruleset does; these tests play it and check what the layer promises every ruleset.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator
from pathlib import Path

import pytest

from kubik.engine import Choose, Entry, Verdict, msg
from kubik.engine.log import Answer
from kubik.game import GameSession, parse_scenario, register_ruleset, unregister_ruleset
from kubik.game.battle import (
    BattleGame,
    Engagements,
    Menu,
    Piece,
    Presence,
    clear_of,
    settle,
    touching,
    violations,
)
from kubik.table import Base
from tests.game.skirmish import GAME, SCENARIO, SKIRMISH_ID, SkirmishGame


@pytest.fixture(autouse=True)
def skirmish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    register_ruleset(GAME, replace=True)
    yield
    unregister_ruleset(SKIRMISH_ID)


def test_a_move_stops_short_of_other_models() -> None:
    others = [Base(10.0, 0.0, 1.0), Base(0.0, 5.0, 1.0)]
    end = settle([(0.0, 0.0), (12.0, 0.0)], lambda p: [Base(p[0], p[1], 1.0)], others)
    assert end is not None and clear_of([Base(end[0], end[1], 1.0)], others)
    # it stops just short of the model in the way, past it would be beyond
    assert 8.9 <= end[0] < 9.0
    # a charge may touch its target, never overlap it
    charge = settle(
        [(0.0, 0.0), (10.0, 0.0)], lambda p: [Base(p[0], p[1], 1.0)], [], may_touch=[others[0]]
    )
    assert charge is not None and touching(Base(charge[0], 0.0, 1.0), others[0])
    assert charge[0] == pytest.approx(9.0)


def test_nothing_clear_means_no_move() -> None:
    blocker = [Base(0.5, 0.0, 1.0)]
    assert settle([(0.0, 0.0), (0.2, 0.0)], lambda p: [Base(p[0], p[1], 1.0)], blocker) is None


def test_violations_name_overlaps_and_contact_without_a_fight() -> None:
    pieces = [
        Piece("a1", "a", "red", Base(0, 0, 1)),
        Piece("b1", "b", "blue", Base(1.0, 0, 1)),  # touching a1
        Piece("c1", "c", "blue", Base(5.0, 0, 1)),
        Piece("c2", "c", "blue", Base(5.5, 0, 1)),  # overlaps c1
        Piece("d1", "d", "blue", Base(0, 0.2, 1), Presence.DOWN),  # a marker takes no room
    ]
    fights = Engagements()
    found = violations(pieces, fights)
    assert [(v.a, v.b, v.overlap) for v in found] == [("a1", "b1", False), ("c1", "c2", True)]
    fights.engage("b", "a", ("TS-CHARGE-01",))
    assert [(v.a, v.b) for v in violations(pieces, fights)] == [("c1", "c2")]
    fights.release("a")
    assert fights.of("b") == ()


def test_a_menu_offers_only_what_the_verdicts_allow() -> None:
    menu: Menu[str] = Menu()
    assert menu.offer("move", msg("x.move"), Verdict.need("get_up", msg("x.test"), "OW-ABSENT-10"))
    assert not menu.offer("shoot", msg("x.shoot"), Verdict.forbid(msg("x.engaged"), "OW-CC-01"))
    assert menu.offer("wait", msg("x.wait"), Verdict.allow())
    request = menu.choose("red", msg("x.reason"), default="wait", rules=("OW-ABSENT-02",))
    assert request.options == ("move", "wait") and request.default == "wait"
    assert request.labels == (msg("x.move"), msg("x.wait")) and request.rules == ("OW-ABSENT-02",)
    (refused,) = menu.refused
    assert refused.option == "shoot" and refused.verdict.rules == ("OW-CC-01",)
    assert menu.offer_of("move").verdict.test == "get_up"


def _play(seed: int, answers: tuple[Answer, ...] = ()) -> GameSession:
    scenario = parse_scenario(SCENARIO, "skirmish.toml")
    checked: list[Choose] = []

    def bot(request: Choose) -> Hashable:
        checked.append(request)
        assert len(request.labels) == len(request.options)
        return request.default

    session = GameSession(scenario, seed, controllers={"red": bot, "blue": bot}, answers=answers)
    game = session.state
    assert isinstance(game, BattleGame)

    class Watch:
        def answered(self, index: int, answer: Answer) -> None:
            assert game.contact_violations() == (), index

        def truncated(self, length: int) -> None:
            pass

    session.subscribe(Watch())
    session.advance()
    assert session.finished
    return session


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_toy_battle_keeps_the_contact_rule_and_replays(seed: int) -> None:
    session = _play(seed)
    again = _play(seed, tuple(session.answers))
    assert again.to_json() == session.to_json()


def test_charges_engage_and_interrupts_answer_out_of_turn() -> None:
    engaged = interrupted = 0
    for seed in range(1, 12):
        log = _play(seed).to_json()["log"]
        engaged += any(e.get("id") == "toy.engaged_now" for e in log)
        choices = [e for e in log if e["type"] == "choice"]
        for before, after in itertools.pairwise(choices):
            if before["answer"].get("kind") == "charge" and after["side"] != before["side"]:
                interrupted += 1  # the target's side answered in the charger's turn
    assert engaged > 0 and interrupted > 0


def test_the_battle_base_serves_names_views_and_the_tape() -> None:
    scenario = parse_scenario(SCENARIO, "skirmish.toml")
    game = SkirmishGame(scenario, {})
    assert game.name("r1") == msg("game.name", en="Ann", ru="Анна")
    assert game.name("b9") == msg("game.name", en="b9", ru="b9")
    view = game.view("red")
    assert [p["id"] for p in view["pieces"]] == ["r1", "r2", "b1", "b2"]
    assert game.tape.sees(Base(3, 3, 1), Base(21, 21, 1)) is False  # the barn is between


def test_the_table_option_belongs_to_the_layer_and_a_typed_answer_is_always_asked() -> None:
    """``table = true`` (``kubik play --table``) is taken out of the options the ruleset
    reads; at a real table even a single option is asked, as people may type another."""
    scenario = parse_scenario(SCENARIO, "skirmish.toml")
    game = SkirmishGame(scenario, {"table": True})
    assert game.at_table and "table" not in game.options
    assert not SkirmishGame(scenario, {}).at_table
    menu: Menu[str] = Menu()
    menu.offer("wait", msg("toy.option.wait"), Verdict.allow())
    steps = game.choose(menu, "red", msg("toy.reason"))
    with pytest.raises(StopIteration) as taken:
        next(steps)
    assert taken.value.value == "wait"  # one option, nothing to type: not asked
    entry = Entry(msg("toy.hint"), lambda text: text.strip())
    asked = next(game.choose(menu, "red", msg("toy.reason"), entry=entry))
    assert isinstance(asked, Choose) and asked.entry is entry and asked.options == ("wait",)


def test_a_move_is_walked_in_the_tapes_steps() -> None:
    """:func:`settle` samples a path every 0.1" where the tape's ``along`` would (walked
    once, not cut again for every step)."""
    import random

    from kubik.game.battle.contact import STEP, _samples
    from kubik.table.tape import along

    rng = random.Random(3)
    for _ in range(30):
        path = [(rng.uniform(0, 20), rng.uniform(0, 20)) for _ in range(rng.randint(2, 5))]
        samples = _samples(path, STEP)
        for i, point in enumerate(samples):
            expected = along(path, i * STEP)[-1]
            assert abs(point[0] - expected[0]) < 1e-9 and abs(point[1] - expected[1]) < 1e-9


def test_lasting_measurements_are_kept_across_menus_only_while_measuring() -> None:
    game = SkirmishGame(parse_scenario(SCENARIO, "skirmish.toml"), {})
    made: list[str] = []

    def measure() -> int:
        made.append("x")
        return len(made)

    where = game.shape_id(("r1", 3.0, 3.0))
    assert game.shape_id(("r1", 3.0, 3.0)) == where  # the same positions, the same number
    assert game.shape_id(("r1", 4.0, 3.0)) != where
    assert not game.measuring
    assert game.lasting(("gap", where), measure) == 1  # outside a still stretch: measured
    assert game.lasting(("gap", where), measure) == 2
    with game.still():
        assert game.measuring
        assert game.lasting(("gap", where), measure) == 3
        assert game.lasting(("gap", where), measure) == 3
    with game.still():  # the next menu: nothing measured again for the same positions
        assert game.lasting(("gap", where), measure) == 3
        assert game.lasting(("gap", where + 1), measure) == 4
    assert made == ["x"] * 4
