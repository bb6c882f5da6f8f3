"""A Redis of the test's own, on a free port, that a test may stop or freeze (SIGSTOP), with
this process's cache and Celery publishing pointed at it (the shared Redis is never touched)."""

import os
import shutil
import signal
import socket
import subprocess
import time
from contextlib import contextmanager

import redis


def private_redis_missing() -> str | None:
    """Why a Redis of the test's own cannot be started (a skip: REQUIRE_SERVICES=1 fails it)."""
    return None if shutil.which("redis-server") else "redis-server is not installed"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(5)

    @contextmanager
    def frozen(self):
        assert self.process
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self.process.pid, signal.SIGCONT)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)

    def queued(self) -> int:
        return self.client().llen("celery")


@contextmanager
def pointed_at(private: PrivateRedis, settings):
    """This process's cache and Celery publishing on `private`, not on the shared Redis."""
    from config.celery import app
    from core import redis_guard

    settings.CACHES = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": private.url,
            "OPTIONS": {
                "socket_connect_timeout": settings.REDIS_CONNECT_TIMEOUT,
                "socket_timeout": settings.REDIS_SOCKET_TIMEOUT,
            },
        }
    }
    before = (app.conf.broker_url, app.conf.task_always_eager)
    app.conf.broker_url = private.url
    app.conf.task_always_eager = False
    app._pool = None
    app.amqp._producer_pool = None
    redis_guard.cache.reset()
    redis_guard.broker.reset()
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.task_always_eager = before
        app._pool = None
        app.amqp._producer_pool = None
        redis_guard.cache.reset()
        redis_guard.broker.reset()
