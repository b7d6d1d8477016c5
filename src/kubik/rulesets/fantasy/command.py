"""The command group's own rules (FB-CMD-02, FB-CMD-05, FB-SHOOT-03), templates
(FB-ABSENT-12) and breath weapons (FB-SR-01).

>>> may_look_out_sir(template=True, champion=True, infantry_models=6)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.reducers import AtMost
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.pools import Successes


@decides("FB-CMD-02")
def may_look_out_sir(*, template: bool, champion: bool, infantry_models: int) -> bool:
    """A champion under a template in a unit of more than five infantry may call
    "Look out, Sir!" (FB-CMD-02)."""
    least = int(data()["command"]["look_out_sir_min_models"])
    return template and champion and infantry_models >= least


def look_out_sir() -> Procedure[bool]:
    """d6: on a 1 the champion takes the hit himself; 2–6 another model does (True)."""
    fails = int(data()["command"]["look_out_sir_fails_on"])
    struck = yield Roll(
        D6, msg("fantasy.command.look_out_sir"), reduce=AtMost(fails), rules=("FB-CMD-02",)
    )
    yield emit(
        "fantasy.command.look_out_sir_result", rules=("FB-CMD-02", "FB-CMD-05"), saved=not struck
    )
    return not struck


@decides()
def champion_removed_out_of_order(*, failed_look_out_sir: bool, sniper: bool) -> Verdict:
    """The champion is removed before the rest when he failed "Look out, Sir!" or a
    Sniper picked him (FB-CMD-05, FB-SHOOT-03)."""
    if failed_look_out_sir:
        return Verdict.allow("FB-CMD-05", "FB-CMD-02")
    if sniper:
        return Verdict.allow("FB-CMD-05", "FB-SHOOT-03")
    return Verdict.forbid(msg("fantasy.permission.champion_last"), "FB-CMD-05")


@dataclass(frozen=True, slots=True)
class Breath:
    """A breath weapon in the Shooting phase: models fully and partly under the
    template (FB-SR-01, FB-ABSENT-12)."""

    fully: int
    partly: int
    uses_left: int = 2
    used_this_turn: bool = False


@decides()
def may_breathe(uses_left: int, used_this_turn: bool) -> Verdict:
    """Twice per game, at most once per turn (FB-SR-01)."""
    if uses_left <= 0:
        return Verdict.forbid(msg("fantasy.permission.breath_spent"), "FB-SR-01")
    if used_this_turn:
        return Verdict.forbid(msg("fantasy.permission.breath_this_turn"), "FB-SR-01")
    return Verdict.allow("FB-SR-01")


@decides()
def may_aim_template(covered: int) -> Verdict:
    """A template is placed where it covers models of the target (FB-ABSENT-12)."""
    if covered <= 0:
        return Verdict.forbid(msg("fantasy.permission.template_misses"), "FB-ABSENT-12")
    return Verdict.allow("FB-ABSENT-12")


def breath_hits(b: Breath) -> Procedure[int]:
    """Models fully under the template are hit; partly under, on a 4+ each."""
    need = int(data()["breath"]["partial_hit"])
    hits = b.fully
    if b.partly:
        answer = yield Roll(
            (D6,) * b.partly,
            msg("fantasy.breath.partial", dice=b.partly, needed=need),
            unordered=True,
            reduce=Successes(need),
            rules=("FB-SR-01", "FB-ABSENT-12"),
        )
        hits += int(answer[1])
    yield emit("fantasy.breath.hits", rules=("FB-SR-01", "FB-ABSENT-12"), hits=hits)
    return hits
