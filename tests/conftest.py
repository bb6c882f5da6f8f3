"""Suite-wide fixtures and the REQUIRE_SERVICES rule.

On a user's machine without PostgreSQL, Redis or Chromium, integration and browser tests skip
and the summary says what was skipped. With REQUIRE_SERVICES=1 (CI), such a skip fails the run,
and so does a run in which no integration or browser test passed (a run that chose its tests
by marker, `-m e2e`, must pass one of those it chose).
"""

import os
import shutil
import socket
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's guard against ORM calls
# from async contexts would otherwise refuse the fixtures' queries.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
REQUIRED_MARKERS = ("integration", "e2e")
ARTIFACTS = Path(
    os.environ.get("TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts")
)
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def _answers(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def services_missing() -> str | None:
    """Why the real services are not usable, or None when they are."""
    db = os.environ.get("DATABASE_URL", "")
    redis = os.environ.get("REDIS_URL", "")
    if not db.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not name a PostgreSQL database"
    if not _answers(db, 5432):
        return "PostgreSQL does not answer"
    if not redis:
        return "REDIS_URL is not set"
    if not _answers(redis, 6379):
        return "Redis does not answer"
    return None


def browser_missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (install Debian's chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the test database is a file rather than memory. With an in-memory database
    Django shares one connection between the test thread and the live server's thread, and a
    test that writes while its page polls then fails at random ("bad parameter or other API
    misuse", seen as a 503 from the big screen). With a file each thread has its own
    connection, and WAL with a busy timeout (config/settings.py) makes them wait for each
    other instead."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        shm = Path("/dev/shm")
        where = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path_factory.mktemp("db")
        db.setdefault("TEST", {})["NAME"] = str(where / "test.sqlite3")
        yield
        shutil.rmtree(where, ignore_errors=True)
    else:
        yield


_results: dict[str, dict[str, int]] = {m: {"passed": 0, "skipped": 0} for m in REQUIRED_MARKERS}
# The kinds of test this run chose (seen in their reports), for a run that chose by marker.
_chosen: set[str] = set()


def _worker(config) -> bool:
    """A pytest-xdist worker: its reports go to the controller, which counts them."""
    return hasattr(config, "workerinput")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    markers = [m for m in REQUIRED_MARKERS if item.get_closest_marker(m)]
    if markers and report.skipped and REQUIRE_SERVICES:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"REQUIRE_SERVICES=1 but this {markers[0]} test skipped: {reason}"


def pytest_runtest_logreport(report):
    """Counted where every report arrives: in the one process, or xdist's controller."""
    markers = [m for m in REQUIRED_MARKERS if m in report.keywords]
    _chosen.update(markers)
    for marker in markers:
        if report.skipped:
            _results[marker]["skipped"] += 1
        elif report.when == "call" and report.passed:
            _results[marker]["passed"] += 1


def _required_markers(session) -> tuple[str, ...]:
    """The kinds of test the run must pass one of: both, unless the run chose its tests by
    marker (`-m e2e`, as CI's run under load does): then those it chose."""
    if not session.config.option.markexpr:
        return REQUIRED_MARKERS
    return tuple(m for m in REQUIRED_MARKERS if m in _chosen)


# The longest tests of a run (wall time, `--durations`, 2026-11-27 evening, the whole suite on
# PostgreSQL and Redis on two workers at load 8-9: 20 to 111 s each, about a sixth of the
# workers' time together; every parametrization of a name). Under pytest-xdist they go first,
# so that no worker is left finishing one of them alone at the end while the other waits: the
# engine's property tests (pure, so pytest-django puts them last) ended the run before. A test
# whose module builds a costly module-scoped fixture (test_htmx_everywhere) is not moved: its
# tests stay together on one worker. A name here that no longer exists only loses its place.
HEAVY = (
    "test_a_tournaments_life_keeps_its_invariants",
    "test_online_duels_in_a_tournaments_life_keep_its_invariants",
    "test_every_word_on_every_page_comes_through_the_catalogue",
    "test_a_simulated_tournament_completes_through_the_worker",
    "test_a_simulated_tournament_reaches_complete",
    "test_a_chaos_simulation_still_reaches_complete",
    "test_an_online_simulation_plays_a_whole_tournament_to_complete",
    "test_a_moves_answer_does_not_grow_with_the_duel",
    "test_tasks_shuffled_and_duplicated_leave_the_same_state_as_once_in_order",
    "test_a_referee_plays_a_duel_to_the_end_on_a_phone",
    "test_11_random_games_of_three_to_six_seats_and_teams_keep_every_invariant",
    "test_random_play_restores_refuses_conserves_and_hides",
    "test_a_pending_shared_card_changes_no_public_byte",
    "test_no_serious_accessibility_violation_on_any_public_page",
    "test_a_whole_duel_with_the_keyboard_only",
    "test_every_branch_of_every_kind_in_english",
    "test_an_event_is_taken_as_it_is_only_when_parse_event_would_return_it_unchanged",
    "test_the_same_duel_without_javascript",
    "test_1_8_random_duels_conserve_cards_refuse_cleanly_and_replay_identically",
    "test_an_organiser_runs_set_up_and_the_first_transfers",
    # Mostly waiting (people think 3-5 s a move): started early, it overlaps the rest.
    "test_the_capacity_bench_smoke_run_plays_moves_the_other_seat_sees",
)


@pytest.hookimpl(trylast=True)  # after pytest-django's order (database tests first)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist the engine's source run is started by its own test (below): that
    test goes first, so that the run overlaps the rest of the suite instead of trailing it;
    then the longest tests (`HEAVY`), then the rest in their order."""
    from tests.engine import source_run

    if _worker(config):
        items.sort(
            key=lambda item: (
                0
                if item.name == source_run.TEST_NAME
                else 1
                if getattr(item, "originalname", item.name) in HEAVY
                else 2
            )
        )


def pytest_collection_finish(session):
    """The engine suite on its sources starts now, beside the run (tests/engine/source_run.py),
    when its test was chosen and will not be skipped (the compiled engine is loaded)."""
    from tests.engine import source_run

    # Under pytest-xdist every worker collects every test, and which one runs this test is
    # not known yet: the test starts the run itself, in the worker that runs it.
    if (
        session.config.option.collectonly
        or _worker(session.config)
        or not any(item.name == source_run.TEST_NAME for item in session.items)
    ):
        return
    import games.split_uno

    if games.split_uno.COMPILED:
        source_run.start()


def pytest_sessionfinish(session, exitstatus):
    from tests.engine import source_run

    source_run.stop()  # a run still going when the session ends (-x, Ctrl+C)
    if _worker(session.config):
        return  # the controller judges the whole run
    if REQUIRE_SERVICES and exitstatus == 0 and not session.config.option.collectonly:
        never = [m for m in _required_markers(session) if _results[m]["passed"] == 0]
        if never:
            session.exitstatus = 1
            session.config._required_missing = never


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    missing = getattr(config, "_required_missing", None)
    if missing:
        terminalreporter.write_line(
            "REQUIRE_SERVICES=1: no " + " or ".join(missing) + " test passed in this run.",
            red=True,
        )
    skipped = {m: r["skipped"] for m, r in _results.items() if r["skipped"]}
    if skipped and not REQUIRE_SERVICES:
        terminalreporter.write_line(
            "Skipped on this machine: "
            + ", ".join(f"{n} {m}" for m, n in skipped.items())
            + " tests (they need PostgreSQL, Redis and Debian's chromium; see README)."
        )


# Pure-Python parts (the engine, the format rules) are tested without Django at all.
PURE = (Path(__file__).parent / "engine", Path(__file__).parent / "tournaments" / "format")


def _pure(request) -> bool:
    return any(Path(request.node.path).is_relative_to(folder) for folder in PURE)


@pytest.fixture(autouse=True)
def _celery_mode(request):
    """Unit tests run tasks eagerly; integration tests talk to the real broker."""
    if _pure(request):
        yield
        return
    from django.conf import settings

    from config.celery import app

    eager = request.node.get_closest_marker("integration") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager or settings.CELERY_TASK_ALWAYS_EAGER
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def artifacts_dir() -> Path:
    path = ARTIFACTS / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def _push_off(request):
    """Push (issue 28) is off unless a test asks for it (`push_on`): where Redis is set (CI),
    every commit of every test would otherwise publish, and every version bump render the
    public parts in the request (tasks run eagerly)."""
    if _pure(request) or "push_on" in request.fixturenames:
        return
    request.getfixturevalue("settings").PUSH_ENABLED = False


@pytest.fixture
def push_on(settings):
    """Push on, through the real Redis (skipped where it is not set up)."""
    from core import push

    redis = os.environ.get("REDIS_URL", "")
    if not redis or not _answers(redis, 6379):
        pytest.skip("push needs Redis: set REDIS_URL to a Redis that answers")
    settings.PUSH_ENABLED = True
    push.reset_client()
    yield
    push.reset_client()


@pytest.fixture(autouse=True)
def _language_reset():
    """Each test starts and ends in the site's language: LocaleMiddleware leaves the language
    of the last request active on the thread, which the next test would otherwise read."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # Production hashing costs about a second a password; tests check behaviour, not cost.
    if not _pure(request):
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"
        ]


@pytest.fixture(autouse=True)
def _fresh_local_cache(request):
    """The local-memory cache starts each test empty: rate-limit counters (accounts.ratelimit)
    and cached fragments and versions (keyed by tournament: a database rolled back between
    tests may reuse a key) do not carry over. A Redis cache is never flushed (that would also
    drop the Celery queue of the integration tests sharing its index): its rate-limit counters
    alone are deleted. Left there, they counted every sign-up as "ada" that one test worker
    ran within the window, and whichever test came sixth was refused (429)."""
    if _pure(request):
        yield
        return
    from django.conf import settings

    from core import redis_guard, shared_cache
    from tournaments import live_cache

    # A test that made the cache or the broker fail leaves its breaker open for seconds.
    redis_guard.cache.reset()
    redis_guard.broker.reset()
    shared_cache.forget_kept()
    live_cache.forget_recent()
    # The events of the games restored last (play.selectors): a rolled-back game's key may
    # come again.
    from play import selectors

    selectors.kept.forget()
    from django.core.cache import cache

    if "LocMemCache" in settings.CACHES["default"]["BACKEND"]:
        cache.clear()
    else:
        from redis.exceptions import RedisError

        try:
            client = cache._cache.get_client(write=True)
            stale = list(client.scan_iter(match="*:ratelimit:*", count=1000))
            if stale:
                client.delete(*stale)
        except RedisError:
            pass  # Redis down: the tests of that fault say so themselves
    yield


def _delete_rows_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    """PostgreSQL's flush between transactional tests (the browser and integration tests) as
    one DELETE a table instead of Django's TRUNCATE of them all: TRUNCATE makes new files for
    every table and index (about 1–2 s a test here), while a test leaves a few hundred rows.
    The tables end as empty either way; Django's foreign keys are deferred to the commit, so
    the order does not matter. A flush that resets sequences or cascades to other tables (a
    test case with `available_apps`; neither is used by the suite) keeps Django's TRUNCATE."""
    if reset_sequences or allow_cascade or not tables:
        return _truncate_flush(self, style, tables, reset_sequences=reset_sequences,
                               allow_cascade=allow_cascade)  # fmt: skip
    return ["SET CONSTRAINTS ALL DEFERRED;"] + [
        f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
        for table in tables
    ]


try:
    from django.db.backends.postgresql.operations import DatabaseOperations as _PostgresOps
except ImportError:  # no PostgreSQL driver: the suite runs on SQLite
    pass
else:
    _truncate_flush = _PostgresOps.sql_flush
    _PostgresOps.sql_flush = _delete_rows_flush
