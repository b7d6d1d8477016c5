"""Variants of one question side by side (``--vs``) and one input swept (``--over``):
the numbers are the exact odds of each variant, the difference is exact, the
terminal shows them in English and Russian, ``--plot`` draws the sweep."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from kubik import api
from kubik.api.variants import compare_inputs, sweep, variant
from kubik.cli.odds_variants import BAR
from kubik.core.errors import InputError
from tests.cli.processes import kubik_process as kubik

WOUND = {"strength": 3, "toughness": 4}
FIGHT = {"a": [{"fight": 4, "attacks": 1}], "b": [{"fight": 4, "attacks": 1}]}


def _expected(name: str, question: dict[str, object], field: str) -> Fraction:
    found = api.odds(name, question)["fields"][field]["expected"]
    return Fraction(found)


def test_a_variant_replaces_a_field_named_whole_and_changes_a_field_named_by_parts() -> None:
    fire = {"quality": "d6", "weapons": [{"weapon": "lmg", "count": 1}], "distance": 10}
    assert variant("steel_war.fire", fire, ["weapons=hmg,smg*2"])["weapons"] == [
        {"weapon": "hmg", "count": 1},
        {"weapon": "smg", "count": 2},
    ]
    assert variant("old_west.fight", FIGHT, ["b.2.fight=5", "b.2.attacks=2"])["b"] == [
        {"fight": 4, "attacks": 1},
        {"fight": 5, "attacks": 2},
    ]
    assert variant("old_west.fight", FIGHT, ["a.fame=2"])["a"] == [
        {"fight": 4, "attacks": 1, "fame": 2}
    ]


def test_variants_side_by_side_are_each_ones_exact_odds_and_their_difference() -> None:
    found = compare_inputs("old_west.wound", WOUND, [["strength=5"], ["toughness=3"]])
    labels = [v["label"] for v in found["variants"]]
    assert labels == ["", "strength=5", "toughness=3"]
    base = _expected("old_west.wound", WOUND, "wounded")
    stronger = _expected("old_west.wound", {"strength": 5, "toughness": 4}, "wounded")
    weaker = _expected("old_west.wound", {"strength": 3, "toughness": 3}, "wounded")
    assert found["difference"]["wounded"] == [str(stronger - base), str(weaker - base)]
    assert (
        found["variants"][1]["fields"]
        == api.odds("old_west.wound", {"strength": 5, "toughness": 4})["fields"]
    )


def test_a_field_that_is_not_a_number_is_compared_by_its_values() -> None:
    found = compare_inputs("old_west.fight", FIGHT, [["a.attacks=3"]])
    winner = [v["fields"]["winner"] for v in found["variants"]]
    assert all(w["choice"] for w in winner)
    chances = [{row["value"]: Fraction(row["probability"]) for row in w["values"]} for w in winner]
    assert chances[0] == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    assert chances[1]["a"] > Fraction(1, 2) and sum(chances[1].values()) == 1


def test_a_sweep_is_the_question_at_every_value() -> None:
    found = sweep("old_west.wound", {"strength": 3}, "toughness=1..10/3")
    assert [p["value"] for p in found["points"]] == [1, 4, 7, 10]
    for point in found["points"]:
        question = {"strength": 3, "toughness": point["value"]}
        assert point["fields"] == api.odds("old_west.wound", question)["fields"]


def test_a_value_the_rules_refuse_is_a_point_without_odds() -> None:
    fire = {"quality": "d6", "weapons": [{"weapon": "smg", "count": 1}], "distance": 1}
    found = sweep("steel_war.fire", fire, "distance=4..10/6")
    assert "error" not in found["points"][0]
    assert found["points"][1]["fields"] == {} and "smg" in found["points"][1]["error"]
    with pytest.raises(InputError):
        sweep("steel_war.fire", fire, "distance=20..30")


@pytest.mark.parametrize(
    ("over", "said"),
    [
        ("toughness", "is not FIELD=FROM..TO"),
        ("toughness=5..1", "is not FIELD=FROM..TO"),
        ("toughness=1..1000", "more than 100 values"),
        ("fame=x..y", "is not FIELD=FROM..TO"),
        ("height=1..3", "height is not a numeric field"),
    ],
)
def test_a_sweep_that_cannot_be_made_is_one_line(over: str, said: str) -> None:
    with pytest.raises(InputError) as error:
        sweep("old_west.wound", WOUND, over)
    assert said in error.value.text("en")


def test_the_terminal_shows_variants_and_their_difference_in_english_and_russian() -> None:
    words = ["quality=d6", "weapons=lmg,smg*4", "distance=10", "cover=light"]
    english = kubik("odds", "steel_war.fire", *words, "--vs", "weapons=hmg")
    assert english.returncode == 0, english.stderr
    for needle in ("side by side", "as asked", "weapons=hmg", "difference", "hits: mean", "pp"):
        assert needle in english.stdout
    russian = kubik("odds", "steel_war.fire", *words, "--vs", "weapons=hmg", "--lang", "ru")
    for needle in ("варианты рядом", "как задано", "разница", "попадания: в среднем"):
        assert needle in russian.stdout


def test_the_terminal_draws_a_sweep_and_plot_saves_a_chart(tmp_path: Path) -> None:
    chart = tmp_path / "wound.svg"
    done = kubik(
        "odds", "old_west.wound", "strength=3", "--over", "toughness=1..10", "--plot", str(chart)
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if re.match(r"\s+\d+ │", line)]
    assert len(rows) == 10  # a row a value, with a bar: the terminal chart of the mean
    assert rows[0].count("█") == BAR and "█" not in rows[-1] and "0.03 ▎" in rows[-1]
    assert chart.read_text().lstrip().startswith("<?xml") and "<svg" in chart.read_text()
    russian = kubik("odds", "old_west.wound", "strength=3", "--over", "toughness=1..4", "--lang=ru")
    assert "toughness от 1 до" in russian.stdout and "ранено" in russian.stdout


def test_variants_and_sweeps_in_json() -> None:
    done = kubik("odds", "old_west.wound", "strength=3", "--over", "toughness=2..3", "--json")
    found = json.loads(done.stdout)
    assert found["field"] == "toughness" and len(found["points"]) == 2
    both = kubik(
        "odds",
        "old_west.wound",
        "strength=3",
        "toughness=3",
        "--vs",
        "strength=4",
        "--over",
        "fame=0..1",
        "--json",
    )
    assert set(json.loads(both.stdout)) == {"compare", "sweep"}


def test_plot_needs_a_sweep_and_a_known_kind_of_file() -> None:
    done = kubik("odds", "old_west.wound", "strength=3", "toughness=3", "--plot", "x.png")
    assert done.returncode == 2 and "--plot draws a sweep" in done.stderr
    done = kubik("odds", "old_west.wound", "strength=3", "--over", "toughness=1..2", "--plot", "x")
    assert done.returncode == 2 and "must end in .png or .svg" in done.stderr
