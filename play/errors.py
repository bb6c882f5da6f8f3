"""The table core's refusals, one hierarchy for every product: each is a
``core.errors.ServiceError`` whose ``code`` says how a page answers it. The message is said
when the error is raised, in the language of the request (play.words)."""

from core.errors import ServiceError

from . import words


class Hidden(ServiceError):
    """No such game, or the product hides it from this person: a 404."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(str(words.HIDDEN if message is None else message), code="hidden")


class Forbidden(ServiceError):
    """The game is visible but the command is not this person's: a 403."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(str(words.FORBIDDEN if message is None else message), code="forbidden")


class Stale(ServiceError):
    """The page's revision is not the game's: someone else moved (a 409, and only that)."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(str(words.STALE if message is None else message), code="conflict")


class Refused(ServiceError):
    """The adapter refused the command (its words); nothing changed: a 422."""

    def __init__(self, message: str) -> None:
        super().__init__(str(message), code="illegal")
