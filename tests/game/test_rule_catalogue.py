"""Rule catalogues (``rules.toml``): loading, their one-line errors, and the shipped
ones against the project's rules catalogue and the README."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from kubik.game import register_ruleset, unregister_ruleset
from kubik.game.rule_catalogue import (
    RuleCatalogue,
    RuleCatalogueError,
    catalogue_package,
    load_rule_catalogue,
    parse_rule_catalogue,
)
from kubik.rulesets.registry import package_of
from tests.game.rules_toy import GAME, TOY_RULES_ID

#: The rulesets kubik ships, in the order the README presents them.
RULESETS = ("steel_war", "old_west", "apocalypse", "fantasy")

ROOT = Path(__file__).resolve().parents[2]
HEAD = 'ruleset = "x"\nname = "X"\nname_ru = "Икс"\nprefix = "XX"\n'
RULE = '[[rule]]\nid = "XX-A-01"\ntitle = "A"\ntitle_ru = "А"\nbattle = true\n'


def rules_md() -> Path | None:
    """The project's rules catalogue, ``../shared/spec/rules.md`` beside the clone (or
    beside the folder of git worktrees); None on a clone without it (CI)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "spec" / "rules.md"
        if candidate.is_file():
            return candidate
    return None


def shipped() -> list[RuleCatalogue]:
    return [load_rule_catalogue(ruleset) for ruleset in RULESETS]


def test_a_catalogue_loads_as_immutable_entries_in_file_order() -> None:
    catalogue = parse_rule_catalogue(
        HEAD
        + RULE
        + '[[rule]]\nid = "XX-B-02"\ntitle = "B"\ntitle_ru = "Б"\nbattle = false\n'
        + 'why = "set up before play"\nwhy_ru = "задаётся до игры"\n',
        "x",
        "x/rules.toml",
    )
    assert catalogue.ids == ("XX-A-01", "XX-B-02")
    assert (catalogue.name_in("ru"), catalogue.prefix) == ("Икс", "XX")
    entry = catalogue.get("XX-B-02")
    assert entry is not None and not entry.battle
    assert (entry.title_in("ru"), entry.why_in("en"), entry.why_in("ru")) == (
        "Б",
        "set up before play",
        "задаётся до игры",
    )
    assert "XX-A-01" in catalogue and "XX-C-03" not in catalogue
    assert catalogue.get("XX-C-03") is None
    assert catalogue.not_in_battle == (entry,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.battle = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalogue.rules = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ruleset = ", r"^x/rules.toml: not valid TOML \("),
        (HEAD + "colour = 1\n" + RULE, r"^x/rules.toml: colour: unknown key; keys: ruleset, "),
        (HEAD.replace('"x"', '"y"') + RULE, r"^x/rules.toml: ruleset: 'y'; this file is"),
        (HEAD.replace('name_ru = "Икс"\n', "") + RULE, r"^x/rules.toml: name_ru: required"),
        (HEAD.replace('"XX"', '"x1"') + RULE, r"^x/rules.toml: prefix: 'x1'; capital letters"),
        (HEAD, r"^x/rules.toml: rule: required, one \[\[rule\]\] table per rule ID$"),
        (HEAD + "rule = [1]\n", r"^x/rules.toml: rule\[0\]: must be a table"),
        (HEAD + RULE.replace("XX-A-01", "YY-A-01"), r"rule\[0\].id: 'YY-A-01'; a rule ID is XX-"),
        (HEAD + RULE.replace("XX-A-01", "XX-A"), r"rule\[0\].id: 'XX-A'; a rule ID is"),
        (HEAD + RULE.replace('title = "A"', 'title = ""'), r"rule\[0\] \(XX-A-01\).title: "),
        (HEAD + RULE.replace("battle = true", 'battle = "yes"'), r"battle: 'yes'; allowed: true"),
        (HEAD + RULE.replace("battle = true\n", ""), r"\(XX-A-01\).battle: missing; allowed"),
        (HEAD + RULE.replace("true", "false"), r"\(XX-A-01\).why: required \(a non-empty"),
        (
            HEAD + RULE.replace("true", 'false\nwhy = "w"'),
            r"\(XX-A-01\).why_ru: required \(a non-empty string\)$",
        ),
        (HEAD + RULE + 'why = "w"\n', r"\(XX-A-01\).why: only for a rule with battle = false"),
        (HEAD + RULE + "page = 3\n", r"rule\[0\].page: unknown key; keys: id, title"),
        (HEAD + RULE + RULE, r"rule\[1\].id: XX-A-01 again \(first at rule\[0\]\)$"),
    ],
)
def test_a_malformed_catalogue_is_one_line_naming_the_file_and_field(
    text: str, message: str
) -> None:
    with pytest.raises(RuleCatalogueError, match=message) as error:
        parse_rule_catalogue(text, "x", "x/rules.toml")
    assert "\n" not in str(error.value)


def test_a_ruleset_registered_from_code_ships_its_catalogue_in_its_package() -> None:
    register_ruleset(GAME, replace=True)
    try:
        assert catalogue_package(TOY_RULES_ID) == "tests.game.rules_toy"
        catalogue = load_rule_catalogue(TOY_RULES_ID)
        assert catalogue.prefix == "TR" and "TR-SHOT-01" in catalogue
    finally:
        unregister_ruleset(TOY_RULES_ID)
    with pytest.raises(RuleCatalogueError, match=r"^unknown ruleset 'toy_rules'; rulesets: "):
        load_rule_catalogue(TOY_RULES_ID)


def test_every_shipped_ruleset_ships_a_catalogue_in_its_package() -> None:
    for ruleset, catalogue in zip(RULESETS, shipped(), strict=True):
        assert catalogue_package(ruleset) == package_of(ruleset) == f"kubik.rulesets.{ruleset}"
        assert catalogue.ruleset == ruleset and catalogue.rules


def test_every_rule_has_a_russian_title_and_outside_battle_says_why_in_both() -> None:
    for catalogue in shipped():
        for entry in catalogue.not_in_battle:
            assert entry.why.strip() and entry.why_ru.strip(), entry.id
            assert re.search("[а-яё]", entry.why_ru, re.IGNORECASE), entry.id
        for entry in catalogue.rules:
            assert re.search("[а-яё]", entry.title_ru, re.IGNORECASE), entry.id


def test_shipped_catalogues_hold_exactly_the_ids_of_the_rules_catalogue() -> None:
    spec = rules_md()
    if spec is None:
        pytest.skip("../shared/spec/rules.md is not beside this clone (CI runs without it)")
    text = spec.read_text(encoding="utf-8")
    for catalogue in shipped():
        prefix = catalogue.prefix
        expected = re.findall(rf"^### ({prefix}-[A-Z0-9]+-[0-9]+) · (.+)$", text, re.MULTILINE)
        assert [rule_id for rule_id, _ in expected] == list(catalogue.ids), catalogue.ruleset
        titles = {rule_id: title.strip() for rule_id, title in expected}
        assert {r.id: r.title for r in catalogue.rules} == titles, catalogue.ruleset


def readme_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(
        r"<!-- not-in-battle: start -->\n(.*?)<!-- not-in-battle: end -->", text, re.DOTALL
    )
    assert match, "README.md: the 'Rules exercised' list between its not-in-battle markers"
    return [line for line in match.group(1).splitlines() if line.strip()]


def test_readme_lists_exactly_the_rules_the_catalogues_keep_out_of_battle() -> None:
    expected = [
        f"- `{entry.id}` {entry.title}: {entry.why}"
        for catalogue in shipped()
        for entry in catalogue.not_in_battle
    ]
    assert readme_block() == expected, "README should list:\n" + "\n".join(expected)
