"""A ruleset's packaged data reads each TOML file only when one of its tables is read,
and reads the same as every file parsed and merged in order."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

import kubik.rulesets.data as data
from kubik.rulesets import registry as rulesets
from kubik.rulesets.data import DataError, RulesetData, top_level_names
from kubik.rulesets.registry import ruleset_ids

RULESETS = ruleset_ids()

RULESETS_DIR = Path(data.__file__).resolve().parent


def _files(ruleset: str) -> list[Path]:
    root = RULESETS_DIR / ruleset
    main = [root / "data.toml"] if (root / "data.toml").is_file() else []
    return main + sorted((root / "data").glob("*.toml"))


def _merged(ruleset: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in _files(ruleset):
        merged.update(tomllib.loads(path.read_text(encoding="utf-8")))
    return merged


@pytest.mark.parametrize(
    "path", sorted(RULESETS_DIR.rglob("*.toml")), ids=lambda p: str(p.relative_to(RULESETS_DIR))
)
def test_the_scan_finds_the_top_level_names_the_parser_finds(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert top_level_names(text) == set(tomllib.loads(text))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_table_reads_as_every_file_merged_in_order(ruleset: str) -> None:
    expected = _merged(ruleset)
    assert list(RulesetData(ruleset)) == list(expected)
    assert dict(RulesetData(ruleset)) == expected
    for name, table in expected.items():
        assert RulesetData(ruleset)[name] == table


def _ruleset_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder of a ruleset ``game`` whose package is made here (its data only)."""
    package = f"data_of_{tmp_path.name}"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(rulesets._REGISTERED, "game", package)  # forgotten after the test
    return folder


def test_one_table_parses_its_file_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _ruleset_folder(tmp_path, monkeypatch)
    folder = root / "data"
    folder.mkdir(parents=True)
    (root / "data.toml").write_text('[dice]\nprovenance = {source = "p. 1"}\n')
    (folder / "a.toml").write_text('[fire]\nrange = 12\nprovenance = {source = "p. 2"}\n')
    (folder / "b.toml").write_text("this is not TOML\n")
    tables = RulesetData("game")
    assert tables["fire"]["range"] == 12
    assert "dice" in tables
    with pytest.raises(DataError, match=r"b\.toml"):
        dict(tables)


def test_a_table_defined_twice_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _ruleset_folder(tmp_path, monkeypatch) / "data"
    folder.mkdir(parents=True)
    for name in ("a", "b"):
        (folder / f"{name}.toml").write_text('[fire]\nprovenance = {source = "p. 2"}\n')
    with pytest.raises(DataError, match="defined twice"):
        len(RulesetData("game"))


def test_a_table_without_provenance_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _ruleset_folder(tmp_path, monkeypatch)
    (root / "data.toml").write_text("[fire]\nrange = 12\n")
    with pytest.raises(DataError, match="provenance"):
        RulesetData("game")["fire"]


def test_without_an_override_dir_the_packaged_numbers_are_one_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(data.OVERRIDE_DIR_ENV, raising=False)
    assert data.override_dir_setting() is None
    assert data.load_ruleset_data("old_west") is data.load_ruleset_data("old_west")


def test_an_override_dir_set_or_unset_later_in_the_process_is_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(data.OVERRIDE_DIR_ENV, raising=False)
    packaged = data.load_ruleset_data("old_west")
    (tmp_path / "old_west.toml").write_text("[pluck]\npass_total = 12\n", encoding="utf-8")
    monkeypatch.setenv(data.OVERRIDE_DIR_ENV, str(tmp_path))
    assert data.override_dir_setting() == str(tmp_path)
    overridden = data.load_ruleset_data("old_west")
    assert overridden["pluck"]["pass_total"] == 12 != packaged["pluck"]["pass_total"]
    monkeypatch.setenv(data.OVERRIDE_DIR_ENV, "")  # empty: as if unset
    assert data.load_ruleset_data("old_west") is packaged
    monkeypatch.delenv(data.OVERRIDE_DIR_ENV)
    assert data.override_dir_setting() is None
    assert data.load_ruleset_data("old_west") is packaged


def test_an_override_dir_that_is_not_a_directory_is_still_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.OVERRIDE_DIR_ENV, str(tmp_path / "missing"))
    with pytest.raises(DataError, match="not a directory"):
        data.load_ruleset_data("old_west")
