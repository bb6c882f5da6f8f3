# The web image: slim, non-root, gunicorn, static files collected at build time.
# The same image runs the Celery worker and beat (see compose.yaml).

# Stage 1: the referee engine compiled by mypyc (tools/build_engine.py). Only this stage has a
# C compiler; the image below takes the compiled modules and nothing else from it.
FROM python:3.12-slim AS engine
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.lock ./
RUN pip install -r requirements.lock
# games/__init__.py too: mypyc names the modules by their packages (games.split_uno.state).
COPY games/__init__.py games/__init__.py
COPY games/split_uno games/split_uno
COPY tools tools
RUN python tools/build_engine.py

# Stage 2: the application.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --home-dir /app app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY --chown=app:app . .
# Found by the hash of the very sources copied above (games/split_uno/native.py); the image
# fails to build rather than run an engine slower than expected.
COPY --from=engine --chown=app:app /app/build/split_uno build/split_uno
RUN SPLIT_UNO_ENGINE=compiled python -c "import games.split_uno"
# collectstatic needs settings to load: a throwaway key, never used at run time.
RUN DEBUG=0 SECRET_KEY=collectstatic-only-not-a-real-key python manage.py collectstatic --noinput

USER app
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"
# Workers (uvicorn's: the pages' streams and Django, config/asgi.py), threads, keep-alive, the
# bind address and the log are in gunicorn.conf.py (read from the working directory); a flag
# here would override it.
CMD ["gunicorn"]
