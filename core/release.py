"""What this release's code and templates are, in a few characters: the shared cache keys what
they render by it (`tournaments.live_cache`), so after a deployment no page embeds a part its
old templates rendered (a part is keyed by the tournament's version too, which a deployment does
not change)."""

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.apps import apps
from django.conf import settings


def digest_of(folders: Iterable[Path]) -> str:
    """A digest of every Python module and template under `folders`: their paths and contents."""
    digest = hashlib.blake2b(digest_size=6)
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".html") and path.is_file():
                digest.update(str(path.relative_to(folder)).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def release() -> str:
    """This process's release, worked out once (a few milliseconds, at its first use)."""
    base = Path(settings.BASE_DIR).resolve()
    ours = sorted(
        {Path(config.path).resolve() for config in apps.get_app_configs()}
        | {Path(folder).resolve() for engine in settings.TEMPLATES for folder in engine["DIRS"]}
    )
    return digest_of(folder for folder in ours if folder.is_relative_to(base))
