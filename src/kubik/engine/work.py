"""A bound on the work of one exact question, counted in steps, so that a question
too large to answer at once is refused at once, and the same way every time.

A step is a third to half a microsecond of CPU, as the odds driver and the optimal
policy's solver spend it (fitted over the slowest questions of every procedure,
docs/benchmarks.md, "Exact work counted in steps"): a branch either replays and each
answer replayed on the way to it, each outcome weighed (more for long weights), each
answer of a tail call taken through its ``then``, each position the solver looks at
and each outcome it adds up there, and each outcome of the answer written. Steps are
counted from what the question asks, not from a clock, so a machine under load refuses
exactly what an idle one does.

Nothing is counted unless a bound is set around the work (:func:`bounded`, as the
odds questions of :mod:`kubik.api` do): battles, bots and simulations never meet one.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from types import TracebackType

#: Steps of replaying one branch of a procedure (restarting it, then its own answer).
BRANCH_STEPS = 25
#: Steps of each earlier answer replayed on the way to a branch.
REPLAYED_STEPS = 2
#: Bits of an outcome's weight that cost one step more to add up and write (its
#: fraction is as long as the total over which it is weighed).
BITS_PER_STEP = 170
#: Steps the odds driver sums before it counts them (a bound is passed by at most so many:
#: about a millisecond).
COUNTED_AT_ONCE = 2_000
#: Steps of one position the optimal policy looks at (its node and memo tables).
POSITION_STEPS = 10
#: Steps of adding one outcome's probability, weighed, into a solved position's (a
#: product and a sum of exact fractions).
MERGED_STEPS = 6
#: Steps of taking one answer of a ``tail`` call to its caller's outcome (its ``then``:
#: a rule's own code, which builds the outcome's record).
THEN_STEPS = 30
#: Steps of writing one outcome of an answer for people and programs (its fields read,
#: its fraction written: :class:`kubik.api.odds_table.OddsTable`), besides its bits.
WRITTEN_STEPS = 12


class TooLarge(Exception):
    """The work ran past its bound (:attr:`limit` steps): the question is refused."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit} steps of exact work")
        self.limit = limit


class Work:
    """Steps left to a bounded question; :meth:`spend` raises :class:`TooLarge` past them.

    As a context manager (:func:`bounded`) it is the bound of the work done inside (a
    thread or task of its own has its own)."""

    __slots__ = ("_token", "left", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.left = limit
        self._token: Token[Work | None] | None = None

    def __enter__(self) -> Work:
        self._token = _CURRENT.set(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)
            self._token = None

    def spend(self, steps: int) -> None:
        """Count ``steps`` of work done."""
        self.left -= steps
        if self.left < 0:
            raise TooLarge(self.limit)

    def outcomes(self, count: int, total: int, each: int = 1) -> None:
        """Count ``count`` outcomes weighed over ``total`` (their weights as long), at
        ``each`` steps apiece besides their bits."""
        self.spend(outcome_steps(count, total, each))

    @property
    def spent(self) -> int:
        """Steps spent so far."""
        return self.limit - self.left


def outcome_steps(count: int, total: int, each: int = 1) -> int:
    """The steps of ``count`` outcomes weighed over ``total``: ``each`` apiece, and one
    more for every :data:`BITS_PER_STEP` bits of the total (their weights as long)."""
    return count * (each + total.bit_length() // BITS_PER_STEP)


_CURRENT: ContextVar[Work | None] = ContextVar("kubik_exact_work", default=None)

#: The bound of the question being answered here (``None``: none is counted); the
#: context variable's own ``get``, as the drivers read it at every procedure they count.
current = _CURRENT.get


def bounded(limit: int) -> Work:
    """Count the exact work done inside a ``with`` against ``limit`` steps."""
    return Work(limit)


__all__ = ["TooLarge", "Work", "bounded", "current"]
