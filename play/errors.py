"""The table core's refusals, one hierarchy for every product: each is a
``core.errors.ServiceError`` whose ``code`` says how a page answers it."""

from core.errors import ServiceError

from . import words


class Hidden(ServiceError):
    """No such game, or the product hides it from this person: a 404."""

    def __init__(self, message: str = words.HIDDEN) -> None:
        super().__init__(message, code="hidden")


class Forbidden(ServiceError):
    """The game is visible but the command is not this person's: a 403."""

    def __init__(self, message: str = words.FORBIDDEN) -> None:
        super().__init__(message, code="forbidden")


class Stale(ServiceError):
    """The page's revision is not the game's: someone else moved (a 409, and only that)."""

    def __init__(self, message: str = words.STALE) -> None:
        super().__init__(message, code="conflict")


class Refused(ServiceError):
    """The adapter refused the command (its words); nothing changed: a 422."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="illegal")
