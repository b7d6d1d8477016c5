"""The pages in headless Chromium: a Steel War fire with its odds, dice and log; typed dice;
undo with consent and taking back a decision alone; two sides in two browser contexts, each
refused for the other."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from kubik.bots import bot_for
from kubik.engine import Choose
from kubik.game import GameSession, list_scenarios, load_scenario
from kubik.game.battle.battle import BattleGame

from .browser import Server, browser, server, wait_until

__all__ = ["browser", "server"]  # fixtures, used by name below

TIMEOUT = 45_000  # ms: a loaded CI machine answers slowly, a hung page still fails


def post(server: Server, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), headers=headers
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def get(server: Server, path: str, token: str) -> Any:
    request = urllib.request.Request(
        server.url + path, headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def page_of(browser: Any, server: Server, game: dict[str, Any], side: str) -> Any:
    """A page in its own browser context (a device of its own) with ``side``'s link."""
    page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    page.set_default_timeout(TIMEOUT)
    token = game["sides"][side] if side != "spectator" else game["spectator"]
    page.goto(f"{server.url}/play/{game['game']}#{token}")
    page.wait_for_selector("#log div")
    return page


def advance_to_fire(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    """Answer through the API, closing in on the enemy, until a squad may fire."""
    state = get(server, f"/api/games/{game['game']}", game["spectator"])
    for _ in range(40):
        side = state["waiting_for"]
        state = get(server, f"/api/games/{game['game']}", game["sides"][side])
        labels = [o["label"] for o in state["pending"]["options"]]
        if any(label.startswith("fire at") for label in labels):
            return state
        closing = [i for i, text in enumerate(labels) if "combat move" in text and "enemy" in text]
        closing += [i for i, text in enumerate(labels) if "toward the enemy" in text]
        pick = closing[0] if closing else 0
        body = {"seq": state["seq"], "answer": pick}
        state = post(server, f"/api/games/{game['game']}/answers", body, game["sides"][side])
    raise AssertionError("no squad could fire")


def test_a_steel_war_squad_fires_with_its_odds_shown_and_the_dice_in_the_log(
    server: Server, browser: Any
) -> None:
    game = post(server, "/api/games", {"scenario": "steel_war.demo", "seed": 3})
    state = advance_to_fire(server, game)
    page = page_of(browser, server, game, state["waiting_for"])
    fire = page.locator(".option", has_text="fire at").first
    fire.wait_for()
    figure = fire.locator(".figure").inner_text()  # one labelled headline figure
    assert re.fullmatch(r"(killed|wounded|hits) ≥ 1: \d+\.\d%", figure), figure
    assert "worth" not in page.locator("#request").inner_text()  # no figure without a unit
    rolls_before = page.locator("#log .roll").count()
    fire.click()
    wait_until(page, f"document.querySelectorAll('#log .roll').length > {rolls_before}")
    assert page.locator("#log .roll .dice .face").count() > 0  # the dice drawn as dice
    assert page.locator("#board circle.piece").count() > 10
    assert page.locator("#board text.piece-label").count() >= 4  # every unit labelled
    page.locator("#board circle.piece").first.dispatch_event("pointerdown")
    assert "models:" in page.locator("#card").inner_text()  # its unit's card
    assert page.locator("#legend .key").count() >= 5  # the terrain and sides explained
    page.context.close()


def test_dice_rolled_at_the_table_are_typed_into_the_page(server: Server, browser: Any) -> None:
    game = post(server, "/api/games", {"scenario": "old_west.demo", "seed": 5, "dice": "typed"})
    state = get(server, f"/api/games/{game['game']}", game["spectator"])
    while state["pending"]["kind"] != "roll":
        token = game["sides"][state["waiting_for"]]
        body = {"seq": state["seq"], "answer": 0}
        state = post(server, f"/api/games/{game['game']}/answers", body, token)
    side = state["waiting_for"] or next(iter(game["sides"]))
    page = page_of(browser, server, game, side)
    dice = page.locator("input.die")
    dice.first.wait_for()
    seq = state["seq"]
    dice.first.fill("4")
    page.select_option("#lang", "ru")  # the page is drawn again: what was typed stays
    page.wait_for_selector("text=Ввести кубики")
    assert dice.first.input_value() == "4"
    if dice.count() > 1:  # an empty box is never sent as 0
        page.click("#send-dice")
        assert page.locator("#error").inner_text() and page.locator(f"body[data-seq='{seq}']")
        assert get(server, f"/api/games/{game['game']}", game["spectator"])["seq"] == seq
    for index in range(dice.count()):
        dice.nth(index).fill("4")
    page.click("#send-dice")
    wait_until(page, "document.querySelector('#log').innerText.includes('✍')")
    page.context.close()


def test_two_sides_on_two_devices_each_refused_for_the_other_and_undo_needs_consent(
    server: Server, browser: Any
) -> None:
    game = post(server, "/api/games", {"scenario": "steel_war.demo", "seed": 3})
    steel = page_of(browser, server, game, "steel")
    lianra = page_of(browser, server, game, "lianra")
    assert steel.locator(".option").count() > 1
    assert lianra.locator(".option").count() == 0  # not its turn: nothing to click
    assert "steel" in lianra.locator("#turn").inner_text().lower()

    def refused(page: Any) -> int:
        status: int = page.evaluate(
            """async () => {
                const game = location.pathname.split('/').pop();
                const headers = {'Content-Type': 'application/json',
                                 Authorization: 'Bearer ' + location.hash.slice(1)};
                const seen = await (await fetch('/api/games/' + game, {headers})).json();
                const body = JSON.stringify({seq: seen.seq, answer: 0});
                const answer = await fetch('/api/games/' + game + '/answers',
                                           {method: 'POST', headers, body});
                return answer.status;
            }"""
        )
        return status

    assert refused(lianra) == 403
    steel.locator(".option").first.click()  # steel activates a squad ...
    steel.wait_for_selector(".option >> text=move")
    before = steel.evaluate("document.body.dataset.seq")
    steel.locator(".option").first.click()  # ... and takes its first action
    # the action and the dice it sets off are one request: once both pages show where
    # it left the game, nothing more happens until a person answers
    steel.wait_for_selector(f"body:not([data-seq='{before}'])")
    now = steel.evaluate("document.body.dataset.seq")
    lianra.wait_for_selector(f"body[data-seq='{now}']")
    wait_until(lianra, "!document.querySelector('#turn').innerText.includes('your turn')")
    seq = get(server, f"/api/games/{game['game']}", game["spectator"])["seq"]
    assert str(seq) == now
    if get(server, f"/api/games/{game['game']}", game["spectator"])["waiting_for"] == "steel":
        assert refused(lianra) == 403
    steel.click("#undo")
    steel.wait_for_selector("#undo-state:has-text('Waiting for the other side')")
    lianra.wait_for_selector("#undo:has-text('Agree to undo')")  # told live, through SSE
    assert get(server, f"/api/games/{game['game']}", game["spectator"])["seq"] == seq
    lianra.click("#undo")
    wait_until(lianra, "!document.querySelector('#undo').innerText.includes('Agree')")
    assert get(server, f"/api/games/{game['game']}", game["spectator"])["seq"] < seq
    steel.context.close()
    lianra.context.close()


def test_a_side_takes_back_its_last_decision_alone_and_the_other_browser_follows(
    server: Server, browser: Any
) -> None:
    game = post(server, "/api/games", {"scenario": "steel_war.demo", "seed": 3})
    steel = page_of(browser, server, game, "steel")
    lianra = page_of(browser, server, game, "lianra")
    seq = int(steel.evaluate("document.body.dataset.seq"))
    assert steel.locator("#take-back").is_disabled()  # nothing decided yet
    steel.locator(".option").first.click()  # steel activates a squad: no die is rolled
    steel.wait_for_selector(f"body:not([data-seq='{seq}']) #take-back:enabled")
    now = steel.evaluate("document.body.dataset.seq")
    lianra.wait_for_selector(f"body[data-seq='{now}']")
    assert lianra.locator("#take-back").is_disabled()  # not lianra's decision
    steel.click("#take-back")  # no consent asked: nothing random was revealed
    steel.wait_for_selector(f"body[data-seq='{seq}'] .option")
    lianra.wait_for_selector(f"body[data-seq='{seq}']")  # told through its events
    assert steel.locator("#take-back").is_disabled()
    steel.context.close()
    lianra.context.close()


def test_the_odds_page_draws_the_exact_distribution_and_shares_it_by_url(
    server: Server, browser: Any
) -> None:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT)
    shared = '{"strength": 3, "toughness": 8}'
    page.goto(f"{server.url}/odds?procedure=old_west.wound&policy=default&input={shared}")
    page.wait_for_selector(".bars rect.bar")
    assert page.locator(".bars rect.bar").count() == 2
    assert "8.3%" in page.locator("#result").inner_text()  # 1/12 wounded
    page.select_option("#lang", "ru")
    page.wait_for_selector("text=Рассчитать")
    page.select_option("#lang", "en")
    fight = '{"a": [{"fight": 4, "attacks": 1, "fame": 1}], "b": [{"fight": 4, "attacks": 1}]}'
    page.goto(f"{server.url}/odds?procedure=old_west.fight&policy=optimal&input={fight}")
    page.wait_for_selector("text=Optimal play")
    assert (
        "spend 1 Fame" in page.locator("#result").inner_text()
    )  # the policy, situation by situation
    page.context.close()


def test_the_odds_page_compares_variants_and_sweeps_an_input_from_a_shared_address(
    server: Server, browser: Any
) -> None:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT)
    query = "procedure=old_west.wound&words=strength%3D3%20toughness%3D4&vs=strength%3D5"
    page.goto(f"{server.url}/odds?{query}&over=toughness%3D1..6")
    page.wait_for_selector("table.compare")
    compared = page.locator("table.compare").inner_text()
    assert "strength=5" in compared and "difference" in compared and "pp" in compared
    page.wait_for_selector("svg.sweep polyline")
    rows = page.locator("table.sweep tr").count()
    assert rows == 7  # a heading and a row for each toughness 1..6
    assert "66.7%" in page.locator("table.sweep").inner_text()  # S3 against T1: 4+
    shared = page.locator("#share").get_attribute("href") or ""
    assert "vs=strength%3D5" in shared and "over=toughness%3D1..6" in shared
    page.select_option("#lang", "ru")
    page.wait_for_selector("text=Варианты рядом")
    page.context.close()


def hidden_from_a_side() -> tuple[dict[str, Any], str, list[str]] | None:
    """A saved game of a built-in scenario at the first moment some warrior on the table
    is hidden from a side (by the battle's own per-side view), that side, and those
    warriors; ``None`` if no scenario's battle hides anyone in its first 300 decisions.
    Both sides are people; their decisions are a random bot's."""
    for info in list_scenarios():
        if info.error is not None:
            continue
        scenario = load_scenario(info.id)
        session = GameSession(scenario, 1)
        battle = session.state
        if not isinstance(battle, BattleGame) or type(battle).view is BattleGame.view:
            continue
        bots = {side: bot_for("random", 1, side) for side in scenario.side_ids}
        session.advance()
        for _ in range(300):
            on_table = {p.id for p in battle.pieces() if p.presence.on_table}
            for side in scenario.side_ids:
                seen = {p["id"] for p in battle.view(side)["pieces"]}
                if on_table - seen:
                    return session.record.to_json(), side, sorted(on_table - seen)
            request = session.pending
            if session.finished or not isinstance(request, Choose):
                break
            session.answer(bots[request.side](request))
    return None


def test_a_hidden_warrior_is_absent_from_the_other_sides_page_source(
    server: Server, browser: Any
) -> None:
    found = hidden_from_a_side()
    assert found is not None, "Roads of the Apocalypse hides warriors: a game must show one"
    record, side, hidden = found
    game = post(server, "/api/games", {"record": record})
    page = page_of(browser, server, game, side)
    spectator = json.dumps(get(server, f"/api/games/{game['game']}", game["spectator"]))
    mine = json.dumps(get(server, f"/api/games/{game['game']}", game["sides"][side]))
    source = page.content()
    for piece in hidden:
        assert f'"{piece}"' not in mine and f'data-piece="{piece}"' not in source
        assert f'"{piece}"' not in spectator
    page.context.close()
    hider = next(s for s in game["sides"] if s != side)
    own = page_of(browser, server, game, hider)
    for piece in hidden:  # his own side sees him, marked hidden
        own.wait_for_selector(f'.piece.hidden[data-piece="{piece}"]', state="attached")
    own.context.close()
