"""The table page read at a glance, in headless Chromium: the selected unit's weapons'
reach drawn from its rule module's numbers, a Warhammer regiment's front arc along the
way the rules say it faces, and a fight's odds naming its sides, never "winner: a"."""

from __future__ import annotations

import re
from typing import Any

from kubik.game import GameSession, load_scenario
from kubik.game.battle.battle import BattleGame
from kubik.game.session import HUMAN
from kubik.text.i18n import render

from .browser import Server, browser, server, wait_until
from .test_pages import get, page_of, post

__all__ = ["browser", "server"]  # fixtures, used by name below


def battle_at_start(scenario: str, seed: int) -> BattleGame:
    """The scenario's battle as it starts, in this process (the rule modules' own view)."""
    loaded = load_scenario(scenario)
    session = GameSession(loaded, seed, controllers=dict.fromkeys(loaded.side_ids, HUMAN))
    session.advance()
    assert isinstance(session.state, BattleGame)
    return session.state


def test_the_selected_models_weapons_reach_is_drawn_from_its_rule_module(
    server: Server, browser: Any
) -> None:
    game = post(server, "/api/games", {"scenario": "old_west.demo", "seed": 5})
    battle = battle_at_start("old_west.demo", 5)
    page = page_of(browser, server, game, "law")
    page.locator("#board circle.piece[data-unit='wyatt']").first.dispatch_event("pointerdown")
    page.wait_for_selector("g.reaches[data-unit='wyatt'] circle.reach")
    rings = page.locator("g.reaches circle.reach")
    piece = page.locator("#board circle.piece[data-unit='wyatt']").first
    r = float(piece.get_attribute("r") or 0)
    drawn = sorted(
        {round(float(rings.nth(i).get_attribute("r") or 0) - r, 2) for i in range(rings.count())}
    )
    reaches = battle.reaches("wyatt")
    assert reaches and drawn == sorted(round(reach, 2) for _, reach in reaches)
    labels = page.locator("g.reaches text.reach-label").all_text_contents()
    for name, reach in reaches:
        assert f'{render(name, "en")} {reach:g}"' in labels
    page.context.close()


def test_a_regiments_front_arc_is_drawn_the_way_the_rules_say_it_faces(
    server: Server, browser: Any
) -> None:
    game = post(server, "/api/games", {"scenario": "fantasy.demo", "seed": 2})
    battle = battle_at_start("fantasy.demo", 2)
    view = battle.view(None)
    page = page_of(browser, server, game, "empire")
    arcs = page.locator("#board polygon.front-arc")
    assert arcs.count() == len(view["units"])
    for unit in view["units"]:
        arc = page.locator(f"#board polygon.front-arc[data-arc='{unit['id']}']")
        points = [
            tuple(float(v) for v in p.split(","))
            for p in (arc.get_attribute("points") or "").split()
        ]
        (lx, ly), (qx, qy), far_right, far_left = points
        models = [p for p in view["pieces"] if p["unit"] == unit["id"]]
        cx = sum(p["x"] for p in models) / len(models)
        cy = sum(p["y"] for p in models) / len(models)
        ax, ay = unit["ahead"]
        front = ((lx + qx) / 2 - cx) * ax + ((ly + qy) / 2 - cy) * ay
        out = ((far_left[0] + far_right[0]) / 2 - cx) * ax
        out += ((far_left[1] + far_right[1]) / 2 - cy) * ay
        assert 0 < front < out  # the front edge ahead of the block, the arc beyond it
    page.context.close()


def to_a_charge(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    """Answer through the API (the default each time) until a side may charge."""
    state = get(server, f"/api/games/{game['game']}", game["spectator"])
    for _ in range(400):
        side = state["waiting_for"]
        state = get(server, f"/api/games/{game['game']}", game["sides"][side])
        options = state["pending"]["options"]
        if any(o["label"].startswith("charge") for o in options):
            return state
        pick = next((o["index"] for o in options if o["default"]), 0)
        body = {"seq": state["seq"], "answer": pick}
        state = post(server, f"/api/games/{game['game']}/answers", body, game["sides"][side])
    raise AssertionError("no regiment could charge")


def test_a_charges_odds_name_the_sides_never_a_letter(server: Server, browser: Any) -> None:
    game = post(server, "/api/games", {"scenario": "fantasy.demo", "seed": 2})
    state = to_a_charge(server, game)
    page = page_of(browser, server, game, state["waiting_for"])
    charge = page.locator(".option", has_text="charge").first
    charge.wait_for()
    wait_until(page, "!document.querySelector('#request').innerText.includes('working out')")
    figure = charge.locator(".figure").inner_text()
    assert re.fullmatch(r"victory for .+: \d+\.\d%", figure), figure
    option = next(o for o in state["pending"]["options"] if o["label"].startswith("charge"))
    target = option["label"].removeprefix("charge ").split(" (")[0]
    details = page.locator(".choice", has=charge).locator("details.odds")
    sides = details.locator(".sides").text_content() or ""  # (shown on demand: closed now)
    assert sides.startswith("sides: a — ") and f"b — {target}" in sides, sides
    charger = sides.removeprefix("sides: a — ").split(",")[0]
    assert figure.startswith(f"victory for {charger}:")
    page.context.close()
