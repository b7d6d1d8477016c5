"""The engine's bounded keeping of answers (:class:`kubik.core.keeping.Kept`)."""

from __future__ import annotations

import pytest

from kubik.core.keeping import Kept


def test_kept_answers_are_found_until_the_limit_starts_it_afresh() -> None:
    kept: Kept[str, int] = Kept(3)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        assert kept.keep(key, value) == value
    assert (kept.get("a"), kept.get("c"), len(kept), "b" in kept) == (1, 3, 3, True)
    kept.keep("d", 4)  # full: everything before is forgotten at once
    assert (kept.get("a"), kept.get("d"), len(kept)) == (None, 4, 1)


def test_kept_lookup_takes_a_default_and_keeps_its_limit_after_clearing() -> None:
    kept: Kept[str, int | None] = Kept(2)
    kept.keep("none", None)
    missing = object()
    assert kept.get("none", missing) is None and kept.get("other", missing) is missing
    kept.clear()
    kept.keep("x", 5)
    assert (kept["x"], len(kept), kept.limit) == (5, 1, 2)


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Kept(0)
