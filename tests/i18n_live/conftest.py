import pytest
from django.utils import translation

from tournaments import live_cache


@pytest.fixture(autouse=True)
def marked(monkeypatch):
    """Every shared part ends with the language it was rendered in: until the templates'
    words are translated, a part reads the same in every language, and this mark is the
    language its words come out in (tests/i18n_live/marks.py reads it)."""
    real = live_cache.render_to_string

    def render(*args, **kwargs):
        return real(*args, **kwargs) + f'<i data-rendered-in="{translation.get_language()}"></i>'

    monkeypatch.setattr(live_cache, "render_to_string", render)
