"""Games that wait days, in two browsers: the sleeping side leaves a webhook on its page
and is told when the game waits for it; the other side makes a decision of one kind a
standing order on its page, and it is taken at once from then on; the sleeping side's
clock runs out and the rules' default is taken for it, both pages following."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .browser import Server, browser, wait_until
from .test_pages import TIMEOUT, get, post
from .test_waiting import Receiver

__all__ = ["browser"]  # a fixture, used by name below

#: Seconds a side may take over a decision in this game.
CLOCK = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    store = tmp_path_factory.mktemp("waiting") / "games.sqlite3"
    with Server(Path(store), clock_min=1, clock_tick=0.2, allow_local_webhooks=True) as running:
        yield running


def open_page(browser: Any, server: Server, game: dict[str, Any], side: str, lang: str) -> Any:
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    context.add_init_script(f"localStorage.setItem('kubik.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{server.url}/play/{game['game']}#{game['sides'][side]}")
    page.wait_for_selector("body[data-seq]")
    return page


def test_a_game_that_waits_tells_the_sleeper_takes_standing_orders_and_runs_its_clock(
    server: Server, browser: Any
) -> None:
    receiver = Receiver()
    clock = {"per_answer": CLOCK, "then": "default"}
    game = post(server, "/api/games", {"scenario": "steel_war.demo", "seed": 3, "clock": clock})
    steel = open_page(browser, server, game, "steel", "en")
    lianra = open_page(browser, server, game, "lianra", "ru")

    lianra.fill("#webhook", receiver.url)  # the sleeper leaves word where to find him
    lianra.click("#save-webhook")
    lianra.wait_for_selector("#webhook-state:has-text('Сохранено')")

    seq = int(steel.evaluate("() => document.body.dataset.seq"))
    steel.click("#request details.standing summary")
    steel.click("#order-default")  # which squad acts next: always the default
    steel.wait_for_selector("#orders .order[data-kind='steel_war.game.choose_squad']")
    wait_until(steel, f"Number(document.body.dataset.seq) > {seq}")  # taken at once

    state = get(server, f"/api/games/{game['game']}", game["spectator"])
    for _ in range(40):  # steel plays on its page until the game waits for lianra
        if state["waiting_for"] != "steel":
            break
        steel.wait_for_selector(f"body[data-seq='{state['seq']}'] .option >> visible=true")
        pending = get(server, f"/api/games/{game['game']}", game["sides"]["steel"])["pending"]
        assert pending["order_key"] != "steel_war.game.choose_squad"  # the order took those
        steel.locator(".option.default >> visible=true").first.click()
        wait_until(steel, f"Number(document.body.dataset.seq) > {state['seq']}")
        state = get(server, f"/api/games/{game['game']}", game["spectator"])
    assert state["waiting_for"] == "lianra"
    told = receiver.wait_for(1)[0]
    assert told["event"] == "your_turn" and told["side"] == "lianra"

    waiting_at = state["seq"]
    lianra.wait_for_selector(f"body[data-seq='{waiting_at}']")
    assert "Лианра" in lianra.locator("#clock").inner_text()  # whose clock runs, in Russian
    assert "left" in steel.locator("#clock").inner_text()
    began = time.monotonic()
    for page in (lianra, steel):  # nobody answers: the clock takes the default for lianra
        wait_until(page, f"Number(document.body.dataset.seq) > {waiting_at}", timeout=CLOCK + 30)
    assert time.monotonic() - began >= CLOCK - 2
    receiver.server.shutdown()
    for page in (steel, lianra):
        page.context.close()
