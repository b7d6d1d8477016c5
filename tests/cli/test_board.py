"""The table in the terminal and in files: ``kubik board SAVE`` and ``map`` at the prompt."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kubik.api.drawing import board_scene, scene_svg
from kubik.cli.play import find_scenario
from kubik.game import GameSession
from tests.cli.processes import kubik_process


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    place = tmp_path_factory.mktemp("board") / "home"
    done = kubik_process(
        "play",
        "old_west.demo",
        "--seed",
        "2",
        "--save",
        "duel",
        "-q",
        env={"KUBIK_HOME": str(place)},
    )
    assert done.returncode == 0, done.stderr
    return place


def test_board_draws_terrain_units_and_a_legend(home: Path) -> None:
    done = kubik_process("board", "duel", env={"KUBIK_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Showdown on Main Street, turn ")
    assert lines[1].split()[:3] == ["0", "6", "12"]  # the ruler, in inches
    assert sum(line.startswith("│") for line in lines) >= 20  # the map itself
    text = " ".join(done.stdout.split())
    assert "open ground, roads" in text and "The Marshal's posse:" in text
    assert "A1 Marshal Wyatt" in text
    russian = kubik_process("board", "duel", "--lang", "ru", env={"KUBIK_HOME": str(home)}).stdout
    assert "A1 Маршал Уайетт" in russian and "Север сверху" in russian


def test_board_writes_svg_and_png(home: Path, tmp_path: Path) -> None:
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    done = kubik_process(
        "board", "duel", "--svg", str(svg), "--png", str(png), env={"KUBIK_HOME": str(home)}
    )
    assert done.returncode == 0, done.stderr
    root = ET.parse(svg).getroot()
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "A1" in texts and any("open ground" in t for t in texts)
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) >= 2
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_board_refuses_a_bad_side_and_a_bad_file_before_drawing(home: Path, tmp_path: Path) -> None:
    env = {"KUBIK_HOME": str(home)}
    side = kubik_process("board", "duel", "--side", "nobody", env=env)
    assert side.returncode == 2 and "--side: 'nobody' is not a side of this game" in side.stderr
    bad = kubik_process("board", "duel", "--svg", str(tmp_path / "t.png"), env=env)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --svg: cannot write")


def test_a_scene_is_the_battles_own_view() -> None:
    scenario = find_scenario("apocalypse.demo")
    session = GameSession(scenario, 1)
    scene = board_scene(session, "en")
    view = session.state.view(None)  # type: ignore[union-attr]
    assert len(scene.bases) == len(view["pieces"])
    assert all(base.facing is not None for base in scene.bases)  # warriors face a way
    assert scene_svg(scene).count("<line ") == len(scene.bases)  # facing drawn


def test_map_at_the_prompt_marks_where_a_move_can_go(tmp_path: Path) -> None:
    # two heroic-action decisions (Enter), then Marshal Wyatt's move: its map
    done = kubik_process(
        "play", "old_west.demo", "--seed", "5", "--side", "law=human",
        stdin="\n\nmap\nquit\n", env={"KUBIK_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = done.stdout.split("where does Marshal Wyatt move?")[1]
    assert "Showdown on Main Street, turn 1" in shown and "A1 Marshal Wyatt" in shown
    options = shown.split("Type a number 1–")[1].split()[0]  # "4" of "1–4 (Enter ..."
    for number in range(1, int(options) + 1):
        assert chr(0x2460 + number - 1) in shown  # ① ② ③ ④: each option's destination


def test_the_board_in_russian_has_no_english_and_names_its_markers(home: Path) -> None:
    from tests.cli.test_russian_everywhere import english_words, known_ids

    done = kubik_process("board", "duel", "--lang", "ru", env={"KUBIK_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert "Слава: " in done.stdout and "Удача: " in done.stdout  # Fame, Fortune: OW's terms
    assert "Отряд маршала:" in done.stdout  # a side's name begins its line
    assert not english_words(done.stdout, known_ids()), done.stdout
    english = kubik_process("board", "duel", "--lang", "en", env={"KUBIK_HOME": str(home)})
    assert "Fame: " in english.stdout and "fame: " not in english.stdout


def test_a_steel_war_squads_markers_read_in_words(tmp_path: Path) -> None:
    env = {"KUBIK_HOME": str(tmp_path)}
    played = kubik_process("play", "steel_war.convoy", "--seed", "2", "--save", "c", "-q", env=env)
    assert played.returncode == 0, played.stderr
    ru = " ".join(kubik_process("board", "c", "--lang", "ru", env=env).stdout.split())
    en = " ".join(kubik_process("board", "c", "--lang", "en", env=env).stdout.split())
    assert "маркеры подавления: 3, боевой дух: Разбитый (Ра), паника: в панике" in ru
    assert "suppression markers: 3, morale: Broken (Ра), panic: panicking" in en


def test_the_selected_units_reach_is_drawn_in_text_svg_and_png(home: Path, tmp_path: Path) -> None:
    from kubik.rulesets.old_west.movement import Mover, allowance

    env = {"KUBIK_HOME": str(home)}
    move = float(allowance(Mover()))  # the movement rule's own number: 6" on foot
    done = kubik_process("board", "duel", "--unit", "A1", "--lang", "en", env=env)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert f'∘ Marshal Wyatt moves up to {move}"' in text
    assert '× Pistol: 12" (edge to edge)' in text and '× Rifle: 24"' in text  # the data's ranges
    assert sum(line.count("∘") for line in done.stdout.splitlines() if line.startswith("│")) > 20
    svg, png = tmp_path / "r.svg", tmp_path / "r.png"
    kubik_process("board", "duel", "--unit", "a1", "--svg", str(svg), "--png", str(png), env=env)
    rings = [c for c in ET.parse(svg).getroot().iter() if c.get("stroke-dasharray") == "6,4"]
    assert f"{move * 14:.1f}" in {ring.get("r") for ring in rings} and len(rings) >= 2
    assert png.stat().st_size > 1000
    russian = kubik_process("board", "duel", "--unit", "A1", "--lang", "ru", env=env)
    assert 'Маршал Уайетт: ход до 6,0"' in " ".join(russian.stdout.split())
    wrong = kubik_process("board", "duel", "--unit", "Z9", env=env)
    assert wrong.returncode != 0 and wrong.stderr.count("\n") == 1 and "A1, A2" in wrong.stderr


@pytest.mark.parametrize(
    ("scenario", "unit", "shown"),
    [
        ("steel_war.demo", "steel_1", ['moves 6", on easy ground', 'marches 12", on easy ground']),
        ("apocalypse.demo", "grif", ["walks 4 paces", "runs 8 paces"]),
        ("fantasy.demo", "halberdiers", ['advances 4"', 'marches 8"']),
    ],
)
def test_every_rulesets_reach_comes_from_its_rules(
    scenario: str, unit: str, shown: list[str]
) -> None:
    """Infantry of Стальная война move 6" and march twice it (SW-ABSENT-02, SW-MOVE-01); a
    warrior of Подвижность 4 walks 4 paces and runs 8 (RA-ABSENT-08); Halberdiers of M4
    advance 4" and march 8" (FB-ABSENT-14)."""
    session = GameSession(find_scenario(scenario), 1)
    scene = board_scene(session, "en", selected=unit)
    labels = [ring.label for ring in scene.rings]
    assert all(any(word in label for label in labels) for word in shown), labels


def test_map_with_a_unit_at_the_prompt_draws_its_reach(tmp_path: Path) -> None:
    done = kubik_process(
        "play", "old_west.demo", "--seed", "5", "--side", "law=human",
        stdin="\n\nmap A1\nquit\n", env={"KUBIK_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '∘ Marshal Wyatt moves up to 6.0"' in " ".join(done.stdout.split())
