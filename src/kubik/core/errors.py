"""Exceptions that say what kind of wrong happened.

Every error a user can cause derives from :class:`KubikError`; the CLI and the web
layer print its message as one line and never show a traceback.
"""

from __future__ import annotations

from typing import Any

from kubik import text as kubik_text  # render loads the catalogues on first use
from kubik.text.message import Message


class KubikError(Exception):
    """Base class of every error caused by input from a user.

    Raised with plain text (English) or with a catalogue message
    (``StoreError(msg(...))``), which :meth:`text` renders in the user's language;
    ``str(error)`` is always the English text.
    """

    message: Message | None = None

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], Message):
            self.message = args[0]
            args = (kubik_text.render(args[0], "en"),)
        super().__init__(*args)

    def text(self, lang: str = "en") -> str:
        """What went wrong, in ``lang`` (English when the error carries no message)."""
        if self.message is None or lang == "en":
            return str(self)
        return kubik_text.render(self.message, lang)

    def said(self) -> Message | str:
        """What the error says, to put inside another message: its catalogue message
        (so it still translates), else its English text."""
        return self.message if self.message is not None else str(self)


class DiceError(KubikError, ValueError):
    """A die that does not exist, a malformed dice expression, or a bad die step."""


class UnknownProcedureError(KubikError, LookupError):
    """A procedure name that is not registered."""


class InputError(KubikError, ValueError):
    """Input to a procedure that does not match its schema (names the field)."""


class TooLargeError(InputError):
    """A question inside its fields' ranges whose exact answer takes more work than one
    question may (:data:`~kubik.core.limits.ODDS_STEPS`): an estimate answers it."""


class DiceAnswerError(KubikError, ValueError):
    """Typed-in dice that are missing, extra, non-numeric or impossible."""


class ScenarioError(KubikError, ValueError):
    """A scenario that cannot be read or played: names the file and the field."""


class UnknownRulesetError(KubikError, LookupError):
    """A ruleset with no game adapter (no ``kubik.rulesets.<id>.turns``)."""


class RecordError(KubikError, ValueError):
    """A save that cannot be read: malformed, or of a format this kubik does not know."""


class GameInputError(KubikError, ValueError):
    """An answer that does not fit what the game is waiting for (names what is allowed)."""


class StoreError(KubikError, LookupError):
    """A saved-game name that is malformed or not in the store."""


class ProcedureError(Exception):
    """A procedure broke the engine's protocol (a bug in a rule, not user input)."""
