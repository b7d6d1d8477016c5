"""The one error the battlefield raises: bad sizes, bad shapes, models off the table.

A :class:`TableError` always names the field it is about, so the CLI and the web
layer can print it as one line:

>>> str(TableError("width", "must be greater than 0, got -4", owner="table"))
'table.width: must be greater than 0, got -4'
"""

from __future__ import annotations

from kubik.core.errors import KubikError


class TableError(KubikError, ValueError):
    """Bad battlefield input; the message reads ``owner.field: problem``.

    ``owner`` says which object (``table``, ``terrain 'house'``, ``terrain[2]``,
    ``base 'sgt'``) and ``field`` which of its fields; :meth:`under` re-labels the
    owner, so a scenario loader can say ``terrain[2]`` where the constructor said
    ``terrain 'house'``.
    """

    def __init__(self, field: str, problem: str, owner: str = "") -> None:
        self.field = field
        self.problem = problem
        self.owner = owner
        super().__init__(f"{self.where}: {problem}")

    @property
    def where(self) -> str:
        """The full field name, e.g. ``terrain[2].points``."""
        if not self.owner:
            return self.field
        return f"{self.owner}.{self.field}" if self.field else self.owner

    def under(self, owner: str) -> TableError:
        """The same problem, reported for another owner label."""
        return TableError(self.field, self.problem, owner)
