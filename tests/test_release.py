"""The release digest (core.release) that keys the shared cache's parts: it changes with any
template or module of ours, and with nothing else."""

from core.release import digest_of, release


def test_the_digest_follows_templates_and_modules_and_nothing_else(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "views.py").write_text("x = 1\n")
    (tmp_path / "app" / "page.html").write_text("<p>hi</p>\n")
    first = digest_of([tmp_path])
    assert digest_of([tmp_path]) == first
    (tmp_path / "app" / "notes.txt").write_text("not code")
    (tmp_path / "app" / "views.cpython-312.pyc").write_bytes(b"\0")
    assert digest_of([tmp_path]) == first
    (tmp_path / "app" / "page.html").write_text("<p>hello</p>\n")
    second = digest_of([tmp_path])
    assert second != first
    (tmp_path / "app" / "page.html").rename(tmp_path / "app" / "other.html")
    assert digest_of([tmp_path]) != second


def test_this_release_is_worked_out_once_per_process():
    assert release() == release()
    assert len(release()) == 12 and release() is release()


def test_the_release_reads_our_packages_and_templates_not_the_libraries(tmp_path, settings):
    from core.release import source_folders

    for name in ("accounts", "core", "tests"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / "build").mkdir()
    (tmp_path / "templates").mkdir()
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path / "templates"]}]
    assert [p.name for p in source_folders(tmp_path)] == ["accounts", "core", "templates"]


def test_the_release_follows_the_compiled_catalogues(tmp_path, settings):
    from core.release import source_folders

    (tmp_path / "locale" / "es" / "LC_MESSAGES").mkdir(parents=True)
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": []}]
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    assert [p.name for p in source_folders(tmp_path)] == ["locale"]
    catalogue = tmp_path / "locale" / "es" / "LC_MESSAGES" / "django.mo"
    catalogue.write_bytes(b"one")
    first = digest_of([tmp_path / "locale"])
    catalogue.write_bytes(b"two")
    assert digest_of([tmp_path / "locale"]) != first
