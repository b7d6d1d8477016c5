"""Verdicts: one rule's answer to a question of legality, combined most-restrictive-first."""

from __future__ import annotations

import pytest

from kubik.core.errors import ProcedureError
from kubik.engine import Permission, Verdict, msg
from kubik.text.i18n import render


def test_the_most_restrictive_verdict_wins_and_every_rule_is_named() -> None:
    allowed = Verdict.allow("SW-CORE-04")
    test = Verdict.need("move_while_down", msg("x.test"), "SW-REACT-02")
    forbidden = Verdict.forbid(msg("x.suppressed"), "SW-SUP-01")
    assert Verdict.combine(allowed, allowed).permission is Permission.ALLOWED
    needs = Verdict.combine(allowed, test)
    assert needs.needs_test and needs.allowed and needs.test == "move_while_down"
    worst = Verdict.combine(test, forbidden, allowed)
    assert not worst.allowed and worst.reason == msg("x.suppressed")
    assert worst.rules == ("SW-REACT-02", "SW-SUP-01", "SW-CORE-04")


def test_verdicts_are_consistent() -> None:
    with pytest.raises(ProcedureError, match="says why"):
        Verdict(Permission.FORBIDDEN)
    with pytest.raises(ProcedureError, match="names a test"):
        Verdict(Permission.ALLOWED, test="x")
    with pytest.raises(ProcedureError, match="different tests"):
        Verdict.combine(Verdict.need("a", msg("x")), Verdict.need("b", msg("y")))
    assert Verdict.of(False, msg("x.no"), "OW-CC-01").reason == msg("x.no")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_permissions_have_names_in_both_languages(lang: str) -> None:
    names = {render(msg(permission.msgid), lang) for permission in Permission}
    assert len(names) == len(Permission)
    assert not any(name.startswith("kubik.") for name in names)


def test_the_neutral_verdict_allows_and_names_no_rule() -> None:
    neutral = Verdict.neutral()
    assert neutral.allowed and not neutral.needs_test and neutral.rules == ()
    assert neutral == Verdict.allow()  # the same answer battle code gave before it had a name
    refused = Verdict.forbid(msg("x.suppressed"), "SW-SUP-01")
    assert Verdict.combine(neutral, refused) == refused
