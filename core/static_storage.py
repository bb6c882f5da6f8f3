"""The production static files storage: WhiteNoise's compressed manifest storage, with each
file's URL worked out once per process (issue 15).

Every page asks for the same few URLs (`{% static %}` in base.html: the stylesheet, the
scripts, the icon), and the manifest storage works each out again on every call (cleaning
the name, splitting it, looking the hashed name up, joining it to STATIC_URL): about 13 µs
each, five times a page. The manifest is read once, when the process starts, and does not
change while it runs (a deploy starts new processes), so the URL of a name does not either.
"""

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str, force: bool = False) -> str:
        if force:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:
            # A name missing from the manifest raises here, as before, and is not kept.
            found = self._urls[name] = super().url(name)
        return found
