import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from core.release import release  # noqa: E402 - needs the settings loaded above

# The release digest reads every module and template once (tens of milliseconds): at the web
# process's start, not in the first request that embeds a shared part.
release()
