# The web image: slim, non-root, gunicorn, static files collected at build time.
# The same image runs the Celery worker and beat (see compose.yaml).
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
# collectstatic needs settings to load: a throwaway key, never used at run time.
RUN DEBUG=0 SECRET_KEY=collectstatic-only-not-a-real-key python manage.py collectstatic --noinput

USER app
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", \
     "--workers", "3", "--access-logfile", "-", "--forwarded-allow-ips", "*"]
