"""gunicorn's settings for production (issue 15), read by gunicorn from the working directory
(the image's /app): the command is `gunicorn` and nothing more (the app is `wsgi_app` below).
Flags on the command line would override these, so the Dockerfile and compose.yaml pass none.

Each worker is uvicorn's (config/worker.py) serving config/asgi.py (issue 28): the pages'
streams (Server-Sent Events) on its event loop, without a thread each, and Django in a pool
of threads, as the threaded workers (gthread) served it before: a spectator's connection
stays open between polls (keep-alive), and a request that waits on PostgreSQL or Redis leaves
the other threads to serve. One process per core,
and two threads in each for the waits on PostgreSQL and Redis: more threads share a process's
interpreter lock among more requests at once, and on a quiet 2-core machine 100 online tables
(bench/online_capacity.py) had a move answered at p95 1.6 s with 8 threads, 137-165 ms with
2 serving writes first (config/django_bridge.py; docs/performance.md, "Writes first, two
threads"); bench/crowd.py's spectators were served as well with either.
WEB_CONCURRENCY and GUNICORN_THREADS override them on a bigger machine.
"""

import os

wsgi_app = "config.asgi:application"
bind = [os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")]

worker_class = "config.worker.Worker"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Django's threads in each worker: config/asgi.py reads GUNICORN_THREADS (settings.WEB_THREADS).
# Spectators poll every few seconds: hold their connection a little longer than that.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "10"))
# Each worker listens on a socket of its own (SO_REUSEPORT) and the kernel spreads new
# connections over them evenly. With the one shared socket, a burst of connections went to
# whichever worker woke first, and a kept-alive connection stays with the worker that took it:
# in one wrk run out of three or so, all 32 of its connections sat on one worker and the other
# core idled (the static file at 1,450 requests/s instead of 7,000, the page at 590 instead of
# 1,430; docs/performance.md, "Fourth pass"). Off with GUNICORN_REUSE_PORT=0, and for a Unix
# socket, where each worker would replace the one before it.
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "1") != "0" and not any(
    address.startswith(("unix:", "fd://")) for address in bind
)
# Every request is short (the slowest page is tens of milliseconds), and a worker's event loop
# tells the master it lives while streams stay open: a worker stuck this long is restarted.
timeout = 30
graceful_timeout = 20
# Recycle workers now and then (staggered), so a slow leak can never grow without bound.
max_requests = 200000
max_requests_jitter = 20000

# Access log to stdout as before; GUNICORN_ACCESS_LOG=off silences it (a benchmark).
accesslog = None if os.environ.get("GUNICORN_ACCESS_LOG") == "off" else "-"
# The proxy in front sets X-Forwarded-*; Django trusts the scheme only with BEHIND_PROXY=1.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
