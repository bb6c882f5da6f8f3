class ServiceError(Exception):
    """A refused change: the message says why, in words for the person who asked.

    Raised inside a service's transaction, so nothing of the change is kept.
    """

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
