"""Real rosters: BattleScribe / New Recruit ``.ros`` and ``.rosz`` army lists read into a side
of an Old West or Warhammer Fantasy battle, for ``kubik play``, ``kubik sim --vs`` and the
API. The roster files under ``tests/sim/rosters/`` are written for these tests in the
roster format (``roster`` → ``forces/force`` → ``selections/selection`` with
``profiles/profile/characteristics``)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from kubik import api
from kubik.api.battlescribe import load_roster, read_roster, roster_units, scenario_with_roster
from kubik.bots.registry import bot_for
from kubik.core.errors import InputError
from kubik.game.scenario import load_scenario
from kubik.game.session import play_game

ROSTERS = Path(__file__).parent / "rosters"
POSSE = ROSTERS / "earp_posse.ros"
GUARD = ROSTERS / "riverside_guard.ros"


def _zipped(source: Path, folder: Path) -> Path:
    target = folder / f"{source.stem}.rosz"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(source, source.name)
    return target


def test_an_old_west_posse_becomes_the_side_s_models() -> None:
    scenario = scenario_with_roster(load_scenario("old_west.demo"), f"law={POSSE}")
    law = [u for u in scenario.units if u.side == "law"]
    assert [(u.data["profile"], u.data["weapons"]) for u in law] == [
        ("marshal", ["pistol", "rifle"]),
        ("deputy", ["shotgun"]),
        ("deputy", ["shotgun"]),  # number="2": two deputies
        ("gunfighter", ["pistol"]),
    ]
    # the side's own ids and places, so the scenario's options still find their units
    assert law[0].id == "wyatt" and law[0].data["position"] == [18, 33]
    assert [u.id for u in scenario.units if u.side == "outlaws"] == [
        u.id for u in load_scenario("old_west.demo").units if u.side == "outlaws"
    ]
    session = play_game(
        scenario, 5, controllers={s: bot_for("heuristic", 5, s) for s in scenario.side_ids}
    )
    assert session.result is not None


def test_a_fantasy_army_becomes_regiments_with_their_profiles() -> None:
    scenario = scenario_with_roster(load_scenario("fantasy.demo"), f"empire={GUARD}")
    empire = {u.id: u.data for u in scenario.units if u.side == "empire"}
    halberdiers = empire["halberdiers"]
    assert halberdiers["models"] == 16 and halberdiers["weapon"] == "halberd"
    assert halberdiers["champion"] and halberdiers["standard"] and halberdiers["musician"]
    assert halberdiers["special_rules"] == ["stubborn"]
    assert halberdiers["profile"]["ws"] == 3 and halberdiers["profile"]["armour_save"] == 6
    assert empire["swordsmen"]["models"] == 12 and empire["swordsmen"]["profile"]["i"] == 4
    session = play_game(
        scenario, 5, controllers={s: bot_for("heuristic", 5, s) for s in scenario.side_ids}
    )
    assert session.result is not None


def test_a_zipped_roster_reads_as_the_xml(tmp_path: Path) -> None:
    assert load_roster(_zipped(POSSE, tmp_path)).selections == load_roster(POSSE).selections


def test_every_unknown_entry_is_named_on_its_own_line() -> None:
    text = POSSE.read_text(encoding="utf-8")
    text = text.replace('name="Gunfighter"', 'name="Sheriff\'s Cat"').replace(
        'name="Shotgun"', 'name="Gatling Gun"'
    )
    roster = read_roster(text.encode("utf-8"), "posse.ros")
    with pytest.raises(InputError) as caught:
        roster_units("old_west", roster, "law", [])
    lines = str(caught.value).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(
        "posse.ros: forces/force[1]/selections/selection[2]/selections/selection[1]/"
        "selections/selection[1] 'Gatling Gun': no such Old West weapon in kubik; known: "
    )
    assert lines[1].startswith(
        "posse.ros: forces/force[1]/selections/selection[3] 'Sheriff's Cat': "
        "no such Old West profile in kubik; known: "
    )
    assert "deputy" in lines[1] and "pistol" in lines[0]


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"<roster", "r.ros: not a BattleScribe roster (XML:"),
        (b"<catalogue/>", "r.ros: not a BattleScribe roster (the root is <catalogue>"),
        (b"<roster><forces/></roster>", "r.ros: the roster has no selections"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><roster/>', "r.ros: a roster has no DOCTYPE"),
        (b"PK\x03\x04junk", "r.ros: not a .rosz (a zipped roster)"),
    ],
)
def test_a_file_that_is_not_a_roster_is_one_line(data: bytes, line: str) -> None:
    with pytest.raises(InputError) as caught:
        read_roster(data, "r.ros")
    assert str(caught.value).startswith(line) and "\n" not in str(caught.value)


def test_kubik_sim_vs_plays_battlescribe_rosters(tmp_path: Path) -> None:
    other = tmp_path / "second_posse.ros"
    other.write_bytes(POSSE.read_bytes())
    zipped = _zipped(other, tmp_path)
    result = api.sim_battles(
        "old_west.demo", 1, 3, workers=1, vs=[f"law={POSSE},{zipped}"], store=False
    )
    assert [c["label"] for c in result.report["cells"]] == [
        {"vs.law": "earp_posse"},
        {"vs.law": "second_posse"},
    ]
    # the same models, the same seed: the zipped copy plays the same game
    first, second = sorted(result.outcomes, key=lambda o: o.cell)
    assert (first.winner, first.turns) == (second.winner, second.turns)


def test_kubik_play_roster(capsys: pytest.CaptureFixture[str]) -> None:
    from kubik.cli.app import main

    main(["play", "old_west.demo", "--roster", f"law={POSSE}", "--seed", "3", "--json"])
    assert '"scenario"' in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["play", "old_west.demo", "--roster", f"sheriffs={POSSE}"])
    assert "--roster sheriffs=" in capsys.readouterr().err
