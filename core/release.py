"""What this release's code and templates are, in a few characters: the shared cache keys what
they render by it (`tournaments.live_cache`), so after a deployment no page embeds a part its
old templates rendered (a part is keyed by the tournament's version too, which a deployment does
not change)."""

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.conf import settings

# Code, templates, and the compiled catalogues (issue 29): a changed translation is a new
# release too, so no page embeds a part rendered with the old words.
SOURCES = (".py", ".html", ".mo")


def digest_of(folders: Iterable[Path]) -> str:
    """A digest of every Python module, template and compiled catalogue under `folders`:
    their paths and contents."""
    digest = hashlib.blake2b(digest_size=6)
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in SOURCES and path.is_file():
                digest.update(str(path.relative_to(folder)).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def release() -> str:
    """This process's release, worked out once (config/wsgi.py: when a web process starts)."""
    return digest_of(source_folders(Path(settings.BASE_DIR).resolve()))


def source_folders(base: Path) -> list[Path]:
    """Our code and templates: every package at the top of the repository (the apps, `core`,
    `config`, `games`), not the tests, and the template folders. A virtual environment or a
    build folder is no package, so the libraries' code is not read."""
    packages = {
        path
        for path in base.iterdir()
        if path.is_dir() and path.name != "tests" and (path / "__init__.py").is_file()
    }
    templates = {
        Path(folder).resolve() for engine in settings.TEMPLATES for folder in engine["DIRS"]
    }
    locales = {Path(folder).resolve() for folder in getattr(settings, "LOCALE_PATHS", ())}
    ours = {folder for folder in templates | locales if folder.is_relative_to(base)}
    return sorted(packages | ours)
