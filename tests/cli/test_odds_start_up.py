"""What a first ``kubik odds`` question leaves unloaded, and that what stands in for it
answers as the real thing would (bench/bench_process.py measures the time)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from babel import Locale

from kubik.rulesets import registry

FIRE = (
    '{"quality": "d8", "weapons": [{"weapon": "lmg", "count": 2}], "distance": 10, '
    '"target_models": 4}'
)


def test_a_first_odds_question_imports_no_importlib_metadata_and_no_other_ruleset(
    tmp_path: Path,
) -> None:
    script = (
        "import sys; from kubik.cli.launch import main; "
        f"main(['odds', 'steel_war.fire', '-i', {FIRE!r}, '--json']); "
        "print(sorted(sys.modules), file=sys.stderr)"
    )
    env = {**os.environ, "KUBIK_HOME": str(tmp_path), "KUBIK_ANSWER_CACHE": "on"}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert json.loads(done.stdout)["procedure"] == "steel_war.fire"
    loaded = set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))
    assert "importlib.metadata" not in loaded
    rulesets = {m.split(".")[2] for m in loaded if m.startswith("kubik.rulesets.")}
    assert rulesets - {"data", "registry"} == {"steel_war"}


def test_kubiks_own_rulesets_are_read_as_importlib_metadata_reads_them() -> None:
    from importlib.metadata import distribution

    declared = distribution("kubik").entry_points
    expected = {p.name: p.value for p in declared if p.group == registry.GROUP}
    assert registry._own_entry_points() is not None  # found without importlib.metadata
    assert registry._own.__wrapped__() == expected
    assert set(expected) >= {"steel_war", "old_west", "apocalypse", "fantasy"}


def test_entry_points_text_is_read_with_comments_sections_and_the_last_name_kept() -> None:
    text = (
        "# made by the build\n[console_scripts]\nkubik = kubik.cli.launch:main\n\n"
        "[kubik.rulesets]\n; a comment\n  skirmish =  skirmish_rules  \n"
        "skirmish = later_rules\nother=other.pkg\n"
    )
    assert registry._entry_points(text) == {
        "console_scripts": {"kubik": "kubik.cli.launch:main"},
        "kubik.rulesets": {"skirmish": "later_rules", "other": "other.pkg"},
    }


STAND_IN = """
import os, sys
from kubik.cli import plugins
plugins.skip_plugin_search()
from pydantic import BaseModel
class Question(BaseModel):
    dice: int
print(Question.model_validate({"dice": 3}).dice)
from pydantic.plugin._loader import get_plugins
print(list(get_plugins()), "importlib.metadata" in sys.modules)
os.environ.pop("PYDANTIC_DISABLE_PLUGINS")
print(list(get_plugins()), "importlib.metadata" in sys.modules)
from pydantic.plugin._loader import PYDANTIC_ENTRY_POINT_GROUP
print(PYDANTIC_ENTRY_POINT_GROUP, type(sys.modules["pydantic.plugin._loader"]).__name__)
"""


def test_pydantic_without_plugins_skips_their_search_and_with_them_searches() -> None:
    """While ``PYDANTIC_DISABLE_PLUGINS`` turns plugins off, pydantic validates without
    importing importlib.metadata; turned back on, pydantic's own loader answers."""
    env = {**os.environ, "PYDANTIC_DISABLE_PLUGINS": "__all__"}
    done = subprocess.run(
        [sys.executable, "-c", STAND_IN],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.splitlines() == [
        "3",
        "[] False",
        "[] True",  # pydantic searched (and this environment has no pydantic plugins)
        "pydantic module",
    ]


def test_with_plugins_on_nothing_stands_in() -> None:
    script = (
        "import sys; from kubik.cli import plugins; plugins.skip_plugin_search(); "
        "print('pydantic.plugin._loader' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.strip() == "False"


def _first_text_question(words: list[str], lang: str, home: Path) -> tuple[str, str]:
    """(stdout, what stayed unloaded) of a first question in words, answered in text."""
    script = (
        "import sys; from kubik.cli.launch import main; "
        f"main(['odds', *{words!r}, '--lang', {lang!r}]); "
        "from kubik.text import i18n; "
        "parts = [(c._whole is None, sorted(c._rulesets_read)) "
        "for c in (i18n.catalogue(l) for l in ('en', 'ru'))]; "
        "print(repr((sorted(sys.modules), parts)), file=sys.stderr)"
    )
    env = {**os.environ, "KUBIK_HOME": str(home), "KUBIK_ANSWER_CACHE": "on"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    return done.stdout, done.stderr.strip().splitlines()[-1]


def test_a_first_question_in_text_reads_only_its_rulesets_messages(tmp_path: Path) -> None:
    """Text for people: the asked ruleset's glossary and messages and kubik's own, no
    other ruleset's, no scan of the installed packages, no optimal policy where the
    question asks no decision, and Babel's catalogue reader not at all."""
    words = ["steel_war.fire", "quality=d8", "weapons=lmg*2", "distance=10", "target_models=4"]
    for lang, title in (("en", "exact odds"), ("ru", "точные шансы")):
        out, left = _first_text_question(words, lang, tmp_path / lang)
        assert out.startswith(f"steel_war.fire — {title}")
        modules, parts = ast.literal_eval(left)
        loaded = set(modules)
        for heavy in ("importlib.metadata", "kubik.engine.optimal", "babel.messages"):
            assert heavy not in loaded, heavy
        asked = parts[("en", "ru").index(lang)]
        assert asked == (True, ["steel_war"])


def test_a_first_question_in_text_loads_only_what_its_answer_draws(tmp_path: Path) -> None:
    """The answer without ``--full`` is lines of text: Rich's console, not its tables;
    an English answer asks no plural form, so Babel stays unloaded, and it declines no
    name, so the Russian grammar does too. The Russian answer takes Babel's plural form
    («68 исходов»)."""
    words = ["steel_war.fire", "quality=d8", "weapons=lmg*2", "distance=10", "target_models=4"]
    out, left = _first_text_question(words, "en", tmp_path / "en")
    loaded = set(ast.literal_eval(left)[0])
    assert "rich.console" in loaded
    for unused in ("rich.table", "babel", "kubik.text.russian"):
        assert unused not in loaded, unused
    hint = re.fullmatch(r"(\d+) outcomes in all: --full .*", out.splitlines()[-1])
    assert hint is not None
    outcomes = int(hint[1])
    ru, _ = _first_text_question(words, "ru", tmp_path / "ru")
    form = Locale.parse("ru").plural_form(outcomes)
    word = {"one": "исход", "few": "исхода", "many": "исходов"}.get(form, "исхода")
    assert ru.splitlines()[-1].startswith(f"Всего {outcomes} {word}: --full")
