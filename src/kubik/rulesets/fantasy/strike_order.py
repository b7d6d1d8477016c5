"""Who strikes when in a round of close combat (FB-ABSENT-17, FB-SR-02, FB-SR-03).

In the first round chargers strike first, then everyone by Initiative; from the
second round, as the seed words it, Always Strikes First strikes before everyone
and Always Strikes Last (and a great weapon) after everyone; both on one model
cancel; ties of Initiative strike at the same time.

>>> strike_key(5, frozenset({"always_strikes_first"}), round_number=2, charging=False)
(0, -5)
>>> strike_key(5, frozenset({"always_strikes_first"}), round_number=1, charging=False)
(1, -5)
"""

from __future__ import annotations

from kubik.rulesets.fantasy.attacks import weapon_flag


def strikes_last(rules: frozenset[str], weapon: str) -> bool:
    """Always Strikes Last, by the rule or by a great weapon (FB-ABSENT-18)."""
    return "always_strikes_last" in rules or weapon_flag(weapon, "strikes_last")


def strike_key(
    initiative: int,
    rules: frozenset[str],
    *,
    round_number: int,
    charging: bool,
    weapon: str = "hand_weapon",
) -> tuple[int, int]:
    """Sort key of a striker: lower strikes earlier; equal keys strike together."""
    if round_number == 1:
        return (0 if charging else 1, -initiative)
    first = "always_strikes_first" in rules
    last = strikes_last(rules, weapon)
    if first and not last:
        return (0, -initiative)
    if last and not first:
        return (2, -initiative)
    return (1, -initiative)


def order_rules(rules: frozenset[str], weapon: str, round_number: int) -> tuple[str, ...]:
    """The catalogue rules that placed a striker in the order."""
    if round_number == 1:
        return ("FB-ABSENT-17",)
    out: tuple[str, ...] = ("FB-ABSENT-17",)
    if "always_strikes_first" in rules:
        out += ("FB-SR-02",)
    if strikes_last(rules, weapon):
        out += ("FB-SR-03",)
    return out
