"""A frozen multiset: how many times each outcome happened.

>>> t = Tally(["wounded", "killed", "wounded"])
>>> t["wounded"], t["unharmed"], len(t), t.total
(2, 0, 2, 3)
>>> t == Tally.from_counts({"killed": 1, "wounded": 2})
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Generic, TypeVar

H = TypeVar("H", bound=Hashable)


class Tally(Mapping[H, int], Generic[H]):
    """Immutable, hashable counts of hashable items; missing items count 0."""

    __slots__ = ("_counts", "_hash")

    def __init__(self, items: Iterable[H] = ()) -> None:
        self._counts: dict[H, int] = dict(Counter(items))
        self._hash: int | None = None

    @classmethod
    def from_counts(cls, counts: Mapping[H, int]) -> Tally[H]:
        """Build from ``{item: count}`` (zero counts are dropped)."""
        tally: Tally[H] = cls.__new__(cls)  # (no empty Counter to build first)
        tally._counts = {k: v for k, v in counts.items() if v}
        tally._hash = None
        return tally

    def __getitem__(self, item: H) -> int:
        return self._counts.get(item, 0)

    def __iter__(self) -> Iterator[H]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    @property
    def total(self) -> int:
        """Number of items counted, with repetitions."""
        return sum(self._counts.values())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._counts.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tally):
            return self._counts == other._counts
        return NotImplemented

    def __repr__(self) -> str:
        return f"Tally({self._counts!r})"


class PairCounts(Generic[H]):
    """How many of a tally's items are ``first`` and how many ``second``: a
    ``Call(times=n, reduce=...)`` reducer with a fold form (``start``, ``step``,
    ``finish``), so the exact odds count one run at a time instead of every tally.

    >>> counts = PairCounts("wounded", "killed")
    >>> counts(Tally(["wounded", "killed", "wounded", "unharmed"]))
    (2, 1)
    >>> counts.finish(counts.step(counts.step(counts.start(), "killed"), "unharmed"))
    (0, 1)
    """

    __slots__ = ("first", "second")

    def __init__(self, first: H, second: H) -> None:
        self.first = first
        self.second = second

    def __call__(self, tally: Tally[H]) -> tuple[int, int]:
        return tally[self.first], tally[self.second]

    def start(self) -> tuple[int, int]:
        """Nothing counted yet."""
        return 0, 0

    def step(self, counts: tuple[int, int], item: H) -> tuple[int, int]:
        """One more run's item."""
        if item == self.first:
            return counts[0] + 1, counts[1]
        if item == self.second:
            return counts[0], counts[1] + 1
        return counts

    def finish(self, counts: tuple[int, int]) -> tuple[int, int]:
        """The counts are the answer."""
        return counts
