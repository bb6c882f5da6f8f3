"""Settings: one module, driven by the environment.

With nothing set, the app runs on the embedded default: SQLite and Celery eager, DEBUG on.
Production defaults (secure cookies, SSL redirect, HSTS) switch on whenever DEBUG is off,
unless the environment turns them off explicitly.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# A development key is only acceptable while DEBUG is on; production must set its own.
_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production-" + "x" * 20
SECRET_KEY = os.environ.get("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "core",
    "accounts",
    "play",
    "tournaments",
    "duels",
    "practice",
    "tables",
    "rulebook",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A database that does not answer is a 503 with Retry-After (docs/operations.md, Faults).
    "core.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Issue 15: an anonymous, unchanged poll answered 304 here, before sessions and the rest.
    "tournaments.middleware.LeanPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Issue 29: a signed-in person's language follows them to a new device.
    "accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Axes goes last so that it sees the outcome of every sign-in attempt.
    "axes.middleware.AxesMiddleware",
]

# Django's fallback storage, its cookie's signer made only when a message is there
# (core/messages.py).
MESSAGE_STORAGE = "core.messages.FallbackStorage"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

# Database: PostgreSQL (psycopg 3) when DATABASE_URL is set, SQLite otherwise.
_database_url = os.environ.get("DATABASE_URL", "")
if _database_url:
    DATABASES = {
        "default": dj_database_url.parse(_database_url, conn_max_age=60, conn_health_checks=True)
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # WAL and IMMEDIATE transactions: concurrent writers wait instead of failing
            # with "database is locked" (SQLite ignores select_for_update).
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Issue 15 (speed under a crowd): Argon2id at OWASP's minimum cost first, so a sign-in costs
# tens of milliseconds of CPU, not PBKDF2's seconds; hashes of the other hashers listed are
# still read, and rewritten with the first at the next sign-in (Django's upgrade path).
PASSWORD_HASHERS = [
    "accounts.hashers.OwaspArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "home"

# Sign-in throttling keyed on username and IP together: a venue behind one address is not
# locked out by one person's typos, and one account cannot be guessed from many tries.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The posted username bounded to the column axes stores it in (accounts/signin.py).
AXES_USERNAME_CALLABLE = "accounts.signin.attempted_username"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The lockout page with Retry-After (when the cool-off ends), 429.
AXES_LOCKOUT_CALLABLE = "accounts.signin.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_ENABLED = env_bool("AXES_ENABLED", True)
# The client's address for axes and the rate limits alike (core.http.client_ip): REMOTE_ADDR,
# or behind TRUSTED_PROXY_COUNT proxies of ours the address the outermost one saw.
# AXES_PROXY_COUNT is its older name (it needed django-ipware, which is not installed).
TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", os.environ.get("AXES_PROXY_COUNT", "0")) or 0
)
AXES_CLIENT_IP_CALLABLE = "core.http.client_ip"

# Sign-up and password reset (accounts.ratelimit): at most ATTEMPTS posts per WINDOW seconds
# for one address and one username or e-mail together, and for one address alone (accounts
# created, reset posts: well above a club night behind one address: a tournament has at most
# 30 players, and its referees come through invitation links), counted in the cache
# (Redis when REDIS_URL is set). Sign-ups through a valid claim or invite link are not counted.
RATE_LIMITS = {
    "signup_address": (
        int(os.environ.get("SIGNUP_ADDRESS_RATE_ATTEMPTS", "40")),
        int(os.environ.get("SIGNUP_ADDRESS_RATE_WINDOW", "3600")),
    ),
    "password_reset_address": (
        int(os.environ.get("PASSWORD_RESET_ADDRESS_RATE_ATTEMPTS", "30")),
        int(os.environ.get("PASSWORD_RESET_ADDRESS_RATE_WINDOW", "3600")),
    ),
    "signup": (
        int(os.environ.get("SIGNUP_RATE_ATTEMPTS", "5")),
        int(os.environ.get("SIGNUP_RATE_WINDOW", "900")),
    ),
    "password_reset": (
        int(os.environ.get("PASSWORD_RESET_RATE_ATTEMPTS", "3")),
        int(os.environ.get("PASSWORD_RESET_RATE_WINDOW", "3600")),
    ),
}

# Issue 29: every page in the person's language (docs/translating.md). English is the source;
# the URL never changes: LocaleMiddleware reads the language cookie, then Accept-Language.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [
    ("en-gb", "English"),
    ("es", "Español"),
    ("fr", "Français"),
    ("ms", "Bahasa Melayu"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times in each language's own way (Django's formats, config/formats/ where ours
# differ); Malay keeps a 12-hour clock, Spanish and French a 24-hour one.
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# STATIC_ROOT from the environment: bench/crowd.py collects into a directory of its own, so
# that a benchmark never rewrites the files a test run's WhiteNoise is reading.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs collectstatic; DEBUG and tests serve files as they are.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or env_bool("PLAIN_STATIC", False)
        else "core.static_storage.StaticStorage",
    },
}

# Mail goes to the console in development and through SMTP in production (Django 6.1's MAILERS).
_mail_backend = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_mail_options = (
    {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "25")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", False),
    }
    if _mail_backend.endswith("smtp.EmailBackend")
    else {}
)
MAILERS = {"default": {"BACKEND": _mail_backend, "OPTIONS": _mail_options}}


def site_url(explicit: str, allowed_hosts: list[str], debug: bool, served: str = "") -> str:
    """The site's public address (no trailing slash), for the links in e-mails that the
    worker sends with no request to ask: SITE_URL, else https:// and the first named host of
    ALLOWED_HOSTS; with DEBUG on, the address `./dev run` serves (`served`: its ADDR, such as
    127.0.0.1:8101 or 0.0.0.0:8000, shown as localhost), http://localhost:8000 by default."""
    from urllib.parse import urlsplit

    explicit = explicit.strip().rstrip("/")
    if explicit:
        parts = urlsplit(explicit)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise RuntimeError(
                f"SITE_URL must be the site's address, such as https://uno.example.org (got "
                f"{explicit!r})."
            )
        return explicit
    named = [h for h in allowed_hosts if h and h != "*" and not h.startswith(".")]
    if debug:
        host, _, port = served.strip().rpartition(":")
        if not port.isdecimal():
            return "http://localhost:8000"
        # runserver's "8101" alone, or every interface: the machine itself, by name.
        if host in ("", "0.0.0.0", "[::]", "0"):  # noqa: S104 - read, not bound
            host = "localhost"
        return f"http://{host}:{port}"
    return f"https://{named[0]}" if named else ""


def default_from_email(explicit: str, site: str) -> str:
    """The sender of every e-mail: DEFAULT_FROM_EMAIL, else noreply at the site's host (the
    address the links point at), so a reply-to-nobody address still names the site; an
    address by number (127.0.0.1 under `./dev run`) is no mail domain: localhost then."""
    import ipaddress
    from urllib.parse import urlsplit

    if explicit.strip():
        return explicit.strip()
    host = urlsplit(site).hostname or "localhost"
    try:
        ipaddress.ip_address(host)
        host = "localhost"
    except ValueError:
        pass
    return f"Split UNO <noreply@{host}>"


SITE_URL = site_url(
    os.environ.get("SITE_URL", ""), ALLOWED_HOSTS, DEBUG, os.environ.get("ADDR", "")
)
DEFAULT_FROM_EMAIL = default_from_email(os.environ.get("DEFAULT_FROM_EMAIL", ""), SITE_URL)

# Security. Behind TLS in production; the run command and the test server stay plain HTTP
# because they run with DEBUG on (or set SECURE_SSL_REDIRECT=0 explicitly).
_secure = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _secure)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _secure)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _secure)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if _secure else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _secure)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", _secure)
if env_bool("BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, the row read with SQL written once (core/sessions.py).
SESSION_ENGINE = "core.sessions"

# CSP: scripts only from us (htmx is served from our static files), styles only from us.
# htmx is configured through a meta tag with its inline indicator style switched off, so
# neither 'unsafe-inline' nor 'unsafe-eval' is needed.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}


def _redis_of_this_test_worker(url: str) -> str:
    """`url`, or under a test run on several cores (pytest-xdist) the Redis database numbered
    `url`'s minus the worker's: each worker's cache, Celery queue and results apart, as its
    database is (pytest-django's test_<name>_gw<n>). Its Celery worker process inherits the
    worker's name, so it reads the same database."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker.startswith("gw"):
        return url
    parts = urlsplit(url)
    base = parts.path.strip("/") or "0"
    if parts.scheme not in ("redis", "rediss", "unix"):
        return url  # not Redis (an AMQP broker, say): not numbered here
    if parts.scheme == "unix" or not base.isdigit():
        raise ImproperlyConfigured(
            f"A test run on several cores needs redis://host:port/N URLs, not {url!r}: "
            "or run it in one process (TEST_WORKERS=0)."
        )
    number = int(base) - int(worker[2:])
    if number < 0:
        raise ImproperlyConfigured(
            f"Redis database {base} leaves room for {int(base) + 1} test workers, counting down "
            f"from it: set TEST_WORKERS to at most that, or use a higher number."
        )
    return urlunsplit(parts._replace(path=f"/{number}"))


# Celery: Redis when configured, eager otherwise (same code paths, no services needed).
REDIS_URL = _redis_of_this_test_worker(os.environ.get("REDIS_URL", ""))


def _own(name: str, default: str | None) -> str | None:
    """A URL set on its own in the environment (numbered per test worker), else `default`
    (REDIS_URL's, numbered already)."""
    value = os.environ.get(name)
    return default if value is None else _redis_of_this_test_worker(value)


CELERY_BROKER_URL = _own("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = _own("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    # Eager tasks still borrow a producer to serialise their arguments: the in-process
    # transport, with a host named, keeps kombu from reaching for amqp:// and printing
    # "No hostname was supplied" on the console. Nothing is ever sent through it.
    CELERY_BROKER_URL = "memory://localhost/"
# A failing eager task must never fail the request that committed the change; it is logged
# and the periodic sweep repairs what it left stale.
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Every task is short (a recomputation is milliseconds, a sweep seconds): a task that runs a
# minute is stuck. A task taken by a worker that then dies is handed out again after the
# visibility timeout, which must outlast the longest task (Redis's default is an hour).
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
# Redis may fail; the site may not (docs/operations.md, "Redis down or frozen"). Every Redis
# client has a socket timeout: without one, a publish to a frozen Redis (SIGSTOP: connections
# are accepted, nothing answers) waited as long as it stayed frozen. A request sends its tasks
# through core.redis_guard.send, whose breaker skips the broker for a few seconds after a
# failure, so a request pays one timeout at most. The worker's own BRPOP runs in its event loop
# and is not bound by socket_timeout (kombu checks it with health_check_interval).
REDIS_SOCKET_TIMEOUT = float(os.environ.get("REDIS_SOCKET_TIMEOUT", "0.5"))
REDIS_CONNECT_TIMEOUT = float(os.environ.get("REDIS_CONNECT_TIMEOUT", "0.25"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 180,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    # Connecting (kombu pings Redis when it opens a channel) is tried once, not for ever.
    "max_retries": 0,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
# A publish that fails is not retried: the sweeps redo what a lost task would have done, and
# each retry against a frozen Redis costs another socket timeout. A connection Redis closed
# (a restart) is replaced by redis-py when it is taken from the pool, before the publish.
CELERY_TASK_PUBLISH_RETRY = False
# Nobody reads a task's result (a test asks for it with ignore_result=False): sending a task
# whose result is kept subscribes to its result first, and against a Redis that is down that
# subscription retried 20 times a second apart (the ending move of a duel took 19.7 s).
CELERY_TASK_IGNORE_RESULT = True
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_SOCKET_TIMEOUT
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {
        "max_retries": 2,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
    }
}
CELERY_RESULT_EXPIRES = 3600
CELERY_RESULT_EXTENDED = True  # results name the worker that ran them
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "celerybeat-schedule")
)

# Push to open pages (issue 28; core.push sends, core.streams serves the streams in each web
# process, config/asgi.py). On where Redis is configured, unless PUSH=0; the embedded default
# polls. While a page's stream is up its poll slows to PUSH_POLL_SECONDS (a lost message is
# caught by it); a process holds at most STREAMS_MAX streams (then pages poll), and a stream
# ends after STREAM_SECONDS (the page comes back with a fresh token: access checked again).
PUSH_ENABLED = os.environ.get("PUSH", "1") != "0"
PUSH_PATH = "/push/stream"
PUSH_POLL_SECONDS = int(os.environ.get("PUSH_POLL_SECONDS", "30"))
STREAMS_MAX = int(os.environ.get("STREAMS_MAX", "10000"))
STREAM_SECONDS = int(os.environ.get("STREAM_SECONDS", "1800"))
# A stream that has said nothing this long after opening is held back on the way (a proxy
# that buffers): the page polls instead (static/js/live.js).
PUSH_READY_SECONDS = float(os.environ.get("PUSH_READY_SECONDS", "8"))
# Threads for Django's requests in each web process (gunicorn.conf.py reads the same). Two:
# enough to cover a request's waits on PostgreSQL and Redis, few enough that the threads of a
# busy process do not share its one interpreter lock among many requests at once, which made
# every answer as slow as all of them together (docs/performance.md, "Writes first, two
# threads"). Requests beyond wait their turn, a write (a move) first (config/django_bridge.py).
WEB_THREADS = int(os.environ.get("GUNICORN_THREADS", "2"))

# The shared cache (issue 15): the live fragments rendered once per version and the lean poll
# path's version numbers. Redis when configured, so that every process shares them; local
# memory otherwise. It fails open (core/shared_cache.py): short timeouts, so that a Redis that
# is down or stalled costs a request milliseconds, never a page.
CACHES = (
    {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": _own("CACHE_URL", REDIS_URL),
            # No retry (redis-py's default for a pool built here): a breaker skips a Redis
            # that failed (core.redis_guard), so one call costs one timeout at most.
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                "socket_timeout": REDIS_SOCKET_TIMEOUT,
            },
        }
    }
    if REDIS_URL
    else {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
)

CLAIM_LINK_DAYS = int(os.environ.get("CLAIM_LINK_DAYS", "14"))
# A casual table's co-referee invitation link works once, for this many days (docs/tables.md).
TABLE_INVITATION_DAYS = int(os.environ.get("TABLE_INVITATION_DAYS", "14"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # One line per task run drowns the console in eager mode; failures still show.
        "celery.app.trace": {"level": os.environ.get("CELERY_TRACE_LOG_LEVEL", "WARNING")},
    },
}
