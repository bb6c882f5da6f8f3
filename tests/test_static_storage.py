"""The production static storage (core.static_storage): each URL worked out once per
process, the same URL the manifest gives, and a name missing from it still refused."""

import json

import pytest

from core.static_storage import StaticStorage


@pytest.fixture
def storage(tmp_path, settings):
    settings.DEBUG = False  # the manifest storage hands out hashed names only with DEBUG off
    manifest = {"paths": {"css/app.css": "css/app.0123456789ab.css"}, "version": "1.1"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    return StaticStorage(location=str(tmp_path), base_url="/static/")


def test_a_url_is_the_manifests_and_is_worked_out_once(storage, monkeypatch):
    assert storage.url("css/app.css") == "/static/css/app.0123456789ab.css"
    calls = []
    monkeypatch.setattr(storage, "_url", lambda *args, **kwargs: calls.append(args) or "x")
    assert storage.url("css/app.css") == "/static/css/app.0123456789ab.css"
    assert calls == []


def test_a_name_missing_from_the_manifest_is_still_refused(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/nope.css")
