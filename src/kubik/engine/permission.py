"""A rule's answer to a question of legality: may this unit shoot, move, charge now?

Each such question is answered by one function in the rule module that owns it
(driven by the ruleset's data), and every menu, bot and referee prompt asks that
function: a :class:`Verdict` says whether the act is allowed, allowed only after a
test (a reaction test, a Pluck test ...), or forbidden, and which rules decided,
with a reason people can read. Verdicts of several rules combine into the most
restrictive one, so a menu never has to decide anything itself.

>>> from kubik.engine.requests import msg
>>> moving = Verdict.allow("SW-CORE-04")
>>> shaken = Verdict.need("leave_cover", msg("steel_war.permission.test"), "SW-MOR-01")
>>> both = Verdict.combine(moving, shaken)
>>> both.permission, both.test, both.rules
(<Permission.NEEDS_TEST: 'needs_test'>, 'leave_cover', ('SW-CORE-04', 'SW-MOR-01'))
>>> Verdict.combine(both, Verdict.forbid(msg("x"), "SW-SUP-01")).allowed
False
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from kubik.core.errors import ProcedureError
from kubik.engine.requests import Message


class Permission(StrEnum):
    """How far a rule lets an act go ahead (ordered from most to least permissive)."""

    ALLOWED = "allowed"
    NEEDS_TEST = "needs_test"  # allowed once a test is passed (the verdict names it)
    FORBIDDEN = "forbidden"

    @property
    def severity(self) -> int:
        """0 allowed, 1 needs a test, 2 forbidden: the most severe verdict wins."""
        return _SEVERITY[self]

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"kubik.permission.{self.value}"


_SEVERITY = {Permission.ALLOWED: 0, Permission.NEEDS_TEST: 1, Permission.FORBIDDEN: 2}


@dataclass(frozen=True, slots=True)
class Verdict:
    """One rule's (or several rules') answer to "may this be done now?".

    ``rules``: the catalogue IDs that decided (for the log and for people asking
    why). ``reason``: why not, or which test is needed, as a message. ``test``: the
    ruleset's own value naming the test to pass first (only with ``NEEDS_TEST``).
    """

    permission: Permission
    rules: tuple[str, ...] = ()
    reason: Message | None = None
    test: Hashable | None = None

    def __post_init__(self) -> None:
        if (self.test is not None) != (self.permission is Permission.NEEDS_TEST):
            raise ProcedureError("a Verdict names a test exactly when it needs one")
        if self.permission is Permission.FORBIDDEN and self.reason is None:
            raise ProcedureError("a forbidding Verdict says why (a reason message)")

    @classmethod
    def allow(cls, *rules: str) -> Verdict:
        """Allowed by ``rules`` (verdicts are values: one is made per set of rules)."""
        if cls is not Verdict:
            return cls(Permission.ALLOWED, rules)
        made = _ALLOWED.get(rules)
        if made is None:
            made = cls(Permission.ALLOWED, rules)
            if len(_ALLOWED) < _KEEP:
                _ALLOWED[rules] = made
        return made

    @classmethod
    def neutral(cls) -> Verdict:
        """Allowed, and no rule decided it: the verdict on an option no rule governs (end
        the activation, hold fire, stay put, decline), which battle code offers itself.
        Every option a rule governs takes its verdict from that rule's permission
        function instead (a test keeps battle code from building any other).

        >>> Verdict.neutral().allowed, Verdict.neutral().rules
        (True, ())
        """
        return _NEUTRAL

    @classmethod
    def need(cls, test: Hashable, reason: Message, *rules: str) -> Verdict:
        """Allowed once ``test`` is passed (``reason`` says so to people)."""
        return cls(Permission.NEEDS_TEST, rules, reason, test)

    @classmethod
    def forbid(cls, reason: Message, *rules: str) -> Verdict:
        """Not allowed, because of ``reason``."""
        return cls(Permission.FORBIDDEN, rules, reason)

    @classmethod
    def of(cls, allowed: bool, reason: Message, *rules: str) -> Verdict:
        """Allowed or forbidden by a plain yes/no of ``rules``."""
        return cls.allow(*rules) if allowed else cls.forbid(reason, *rules)

    @property
    def allowed(self) -> bool:
        """Whether the act may go ahead (perhaps after a test)."""
        return self.permission is not Permission.FORBIDDEN

    @property
    def needs_test(self) -> bool:
        """Whether a test must be passed first."""
        return self.permission is Permission.NEEDS_TEST

    @staticmethod
    def combine(*verdicts: Verdict) -> Verdict:
        """The most restrictive of ``verdicts`` (the first among equals gives the reason
        and the test), naming every rule that was asked. Two different tests cannot be
        combined: the rules must say which one is taken."""
        if not verdicts:
            raise ProcedureError("combine needs at least one verdict")
        if all(v.permission is Permission.ALLOWED and v.reason is None for v in verdicts):
            return Verdict.allow(*_merged(v.rules for v in verdicts))
        worst = max(verdicts, key=lambda v: v.permission.severity)
        tests = {v.test for v in verdicts if v.test is not None}
        if worst.permission is Permission.NEEDS_TEST and len(tests) > 1:
            raise ProcedureError(f"verdicts need different tests {sorted(map(str, tests))}")
        return Verdict(
            worst.permission, _merged(v.rules for v in verdicts), worst.reason, worst.test
        )


#: :meth:`Verdict.neutral`'s one value.
_NEUTRAL = Verdict(Permission.ALLOWED)
#: The allowing verdicts made so far, by their rules (at most :data:`_KEEP` kept).
_ALLOWED: dict[tuple[str, ...], Verdict] = {}
_KEEP = 4096


def _merged(groups: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for group in groups:
        for rule in group:
            seen.setdefault(rule, None)
    return tuple(seen)


__all__ = ["Permission", "Verdict"]
