"""The one error type of every service (HackSoft's `core.exceptions`, in our words)."""


class ServiceError(Exception):
    """A refused change: the message says why, in words for the person who asked.

    Raised inside a service's transaction, so nothing of the change is kept. `code` says how
    a page answers it: "conflict"/"closed" 409, "forbidden" 403, "confirm" and the rest 422.
    """

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
