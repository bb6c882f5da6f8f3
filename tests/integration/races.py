"""Calls started at the same instant on their own database connections (PostgreSQL), for the
race tests: each call's outcome in words, sorted, whatever happened."""

import threading
from collections.abc import Callable, Sequence

from django.db import connection

from core.errors import ServiceError


def race(
    calls: Sequence[Callable[[], object]],
    *,
    done: Callable[[object], str] = lambda result: "applied",
    refused: Callable[[ServiceError], str] = lambda err: err.code,
) -> list[str]:
    """Runs ``calls`` in threads released together by a barrier; each outcome is ``done`` of
    its result, ``refused`` of a ServiceError, or the name of any other exception."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes.append(done(call()))
        except ServiceError as err:
            outcomes.append(refused(err))
        except Exception as exc:  # noqa: BLE001 - the test reports whatever else happened
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)
