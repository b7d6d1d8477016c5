"""``kubik scenarios``: the scenarios from their files, without loading any ruleset's battle.

A listing reads each scenario file (id, title, sides, ruleset, description) and checks
its structure — a file that cannot be read, or whose units name a side it has not, is
listed with that one line — but does not ask the ruleset whether it can play it: that
imports the ruleset's battle code, most of a second for the four rulesets. A scenario
the ruleset refuses says why when it is played (``kubik play NAME``: its one line), and
``kubik scenarios --check`` asks every ruleset of every scenario now.

The launcher answers a plain ``kubik scenarios [--json] [--lang L]`` here without the
rest of the command line (:func:`answer_plain`); typer's ``scenarios`` command calls
:func:`print_scenarios` too, so there is one listing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from kubik.cli.language import split_lang
from kubik.core.errors import KubikError

#: The options of a plain listing (``--check`` and help go to the full command line).
_PLAIN_FLAGS = frozenset({"--json"})


def unplayable(info: Any, *, check: bool = False) -> KubikError | None:
    """Why a listed scenario cannot be played, if it cannot: its file's problem; with
    ``check``, also what its ruleset says of it (a full load asks it)."""
    from kubik.game.errors import ScenarioError
    from kubik.game.scenario import ScenarioSource, load_scenario, load_scenario_file

    if info.problem is not None:
        return ScenarioError(info.problem)
    if not check:
        return None
    try:
        if info.source is ScenarioSource.USER:
            load_scenario_file(info.path, ScenarioSource.USER)
        else:
            load_scenario(info.id)
    except KubikError as error:
        return error
    return None


def scenario_json(info: Any, error: KubikError | None = None) -> dict[str, Any]:
    """A line of ``kubik scenarios --json``: the listing plus description and playability
    (``error``: what :func:`unplayable` found)."""
    data: dict[str, Any] = info.to_json()
    data["error"] = None if error is None else str(error)
    data["playable"] = error is None
    return data


def print_scenarios(lang: str, *, as_json: bool = False, check: bool = False) -> None:
    """The listing: JSON, or a table for people (``check``: each ruleset asked too)."""
    from kubik.game.scenario import list_scenarios

    checked = [(info, unplayable(info, check=check)) for info in list_scenarios()]
    if as_json:
        sys.stdout.write(
            json.dumps([scenario_json(i, e) for i, e in checked], ensure_ascii=False, indent=2)
            + "\n"
        )
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from kubik.api.words import say

    table = Table(title=say("console.scenarios.title", lang), show_lines=True)
    table.add_column(say("console.scenarios.id", lang), no_wrap=True, style="bold")
    table.add_column(say("console.scenarios.name", lang), ratio=1)
    for info, error in checked:
        row = scenario_json(info, error)
        name = row["name_ru"] if lang == "ru" else row["name"]
        description = row.get("description_ru") if lang == "ru" else None
        note = (description or row["description"]) if error is None else f"⚠ {error.text(lang)}"
        where = f"{row['ruleset']}, {say('console.scenarios.' + row['source'], lang)}"
        cell = Text(name, style="bold")
        cell.append(f"  ({where})", style="dim")
        if note:
            cell.append(f"\n{note}")
        if row["sides"]:
            sides = ", ".join(
                f"{side['id']} ({side['name_ru'] if lang == 'ru' else side['name']})"
                for side in row["sides"]
            )
            cell.append("\n" + say("cli.scenarios.sides", lang, sides=sides), style="cyan")
        table.add_row(row["id"], cell)
    console = Console(highlight=False, soft_wrap=False)
    console.print(table)
    console.print(say("cli.scenarios.hint", lang), style="dim")


def answer_plain(args: Sequence[str]) -> bool:
    """Answer ``kubik scenarios [--json] [--lang en|ru]`` without typer; ``False`` for any
    other command line (typer answers it, its errors and its help)."""
    words = list(args)
    if words[:1] != ["scenarios"]:
        return False
    split = split_lang(words[1:])
    if split is None:
        return False
    lang, rest = split[0] or "en", split[1]
    if not set(rest) <= _PLAIN_FLAGS or len(rest) != len(set(rest)):
        return False
    try:
        print_scenarios(lang, as_json="--json" in rest)
    except KubikError:  # (found before anything is printed) typer says it, in one line
        return False
    return True


__all__ = ["answer_plain", "print_scenarios", "scenario_json", "unplayable"]
