"""gunicorn's worker for the web process (gunicorn.conf.py): uvicorn's, with the graceful
timeout passed on (the packaged worker leaves uvicorn waiting without a bound for open
responses; the streams are closed by core.streams when the signal comes, and anything still
open after the graceful timeout is cut rather than waited for)."""

from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {"loop": "auto", "http": "auto", "lifespan": "on"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
