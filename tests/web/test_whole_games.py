"""A whole game of every ruleset played to its end in two browsers, one per side.

The game is each ruleset's demo, every turn of it to its very end, loaded from a saved
record through the start page as a player would. Each side's page answers every decision
of its side by clicking the option the rules mark as the default; the other page follows
through its event stream. The first side's player reads English, the second's Russian.
The pages say whose turn it is and how many answers the game has had
(``body[data-seq]``, ``body[data-waiting]``), so the test waits on the game's state,
never on time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kubik.game import GameSession, known_rulesets, load_scenario
from kubik.game.session import HUMAN

from .browser import Server, browser, server, wait_until
from .test_pages import TIMEOUT

__all__ = ["browser", "server"]  # fixtures, used by name below

#: More decisions than any whole demo takes (they take 40 to 200).
MOST_DECISIONS = 400


def whole_demo(ruleset: str, seed: int) -> dict[str, Any]:
    """A saved game, not yet begun, of ``ruleset``'s demo, every side a person."""
    scenario = load_scenario(f"{ruleset}.demo")
    controllers = dict.fromkeys(scenario.side_ids, HUMAN)
    return GameSession(scenario, seed, controllers=controllers).record.to_json()


def load_through_the_start_page(browser: Any, server: Server, record: dict[str, Any]) -> list[str]:
    """Load ``record`` on the start page; the links it gives (each side's, then the
    spectators')."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server.url)
    page.wait_for_selector("#scenario option", state="attached")
    upload = {"name": "game.json", "mimeType": "application/json"}
    page.set_input_files("#record", files=[{**upload, "buffer": json.dumps(record).encode()}])
    page.click("#load")
    page.wait_for_selector("#links:not([hidden]) input")
    links: list[str] = page.eval_on_selector_all(
        "#link-list input", "(all) => all.map((i) => i.value)"
    )
    context.close()
    return links


def open_link(browser: Any, link: str, lang: str) -> Any:
    """A page of its own browser context (a device of its own) on ``link``, in ``lang``."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    context.add_init_script(f"localStorage.setItem('kubik.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.problems = []  # script errors and anything the page's security policy refused
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.on(
        "console",
        lambda message: page.problems.append(message.text) if message.type == "error" else None,
    )
    page.goto(link)
    page.wait_for_selector("body[data-seq]")
    return page


def shown(page: Any) -> tuple[int, str, bool]:
    """What ``page`` shows: answers so far, the side awaited, whether the game is over."""
    data: dict[str, str] = page.evaluate("() => ({...document.body.dataset})")
    return int(data["seq"]), data["waiting"], data["finished"] == "yes"


@pytest.mark.parametrize("ruleset", known_rulesets())
def test_a_whole_game_is_played_to_the_end_in_two_browsers(
    server: Server, browser: Any, ruleset: str
) -> None:
    record = whole_demo(ruleset, seed=2)
    sides = list(record["controllers"])
    links = load_through_the_start_page(browser, server, record)
    langs = dict(zip(sides, ("en", "ru"), strict=True))  # the second player reads Russian
    pages = {side: open_link(browser, links[i], langs[side]) for i, side in enumerate(sides)}
    seq, waiting, finished = shown(pages[sides[0]])
    decisions = {side: 0 for side in sides}
    while not finished:
        assert sum(decisions.values()) < MOST_DECISIONS, "the game did not end"
        page = pages[waiting]
        # told through its events; options are grouped, the group of the default open
        page.wait_for_selector(f"body[data-seq='{seq}'] .option >> visible=true")
        other = next(s for s in sides if s != waiting)
        assert pages[other].locator(".option").count() == 0  # nothing to click out of turn
        default = page.locator(".option.default")
        (default if default.count() else page.locator(".option >> visible=true")).first.click()
        wait_until(page, f"Number(document.body.dataset.seq) > {seq}")
        decisions[waiting] += 1
        seq, waiting, finished = shown(page)
    assert all(decisions.values()), decisions  # both sides played, each in its own browser
    for side, page in pages.items():
        page.wait_for_selector(f"body[data-finished='yes'][data-seq='{seq}']")
        over = {"en": r" won$|a draw$", "ru": r"победа: |ничья$"}[langs[side]]
        assert re.search(over, page.locator("#turn").inner_text())
        page.wait_for_selector("#replay:not([hidden])")
        assert page.locator("#undo").is_disabled()  # a finished game is not reopened
    assert re.search("[а-яё]", pages[sides[1]].locator("#log").inner_text())  # narrated in Russian
    page = pages[sides[1]]
    entries = page.locator("#log div").count()
    page.click("#step-back")  # the replay steps back through the log
    page.wait_for_selector(f"body[data-seq='{seq - 1}']")
    assert page.locator("#log div").count() <= entries
    with page.expect_download() as saving:
        page.click("#save")
    saved = json.loads(Path(saving.value.path()).read_text())
    assert len(saved["answers"]) == seq
    for page in pages.values():
        assert not page.problems, page.problems
        page.context.close()
