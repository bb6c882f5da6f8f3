"""The catalogues themselves (issue 29, docs/translating.md): complete in every language,
their placeholders intact, the committed compiled files the same as their sources, and no
marked string of the code missing from them."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# One domain: the scripts' words are written into the page by the server (base.html).
DOMAINS = ["django"]
# What makemessages reads: the code and the templates, not the environment or the tests.
CODE = {
    "accounts",
    "config",
    "core",
    "duels",
    "games",
    "play",
    "practice",
    "rulebook",
    "tables",
    "tournaments",
    "templates",
    "static",
}
SKIP = shutil.ignore_patterns("__pycache__", "vendor", "*.so", "*.mo", "*.po", "locale")
IGNORED = [
    ".venv/*",
    "build/*",
    "tests/*",
    "bench/*",
    "staticfiles/*",
    "static/vendor/*",
    "node_modules/*",
]
PLURAL_FORMS = {"es": 2, "fr": 2, "ms": 1}
# %(name)s, %s, %d; {name} of JavaScript's interpolate() and format_lazy.
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdifr]|%[sdifr]|\{\w*\}")


def catalogue(code: str, domain: str) -> polib.POFile | None:
    path = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    return polib.pofile(str(path)) if path.exists() else None


def named(text: str) -> list[str]:
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text) if m.group(0) != "%s")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(code):
    po = catalogue(code, "django")
    assert po is not None, f"locale/{code}/LC_MESSAGES/django.po is missing"
    forms = int(re.search(r"nplurals=(\d+)", po.metadata.get("Plural-Forms", "")).group(1))
    assert forms == PLURAL_FORMS[code]
    problems = []
    for domain in DOMAINS:
        po = catalogue(code, domain)
        if po is None:
            continue
        for entry in po:
            if entry.obsolete:
                continue
            name = f"{domain}: {entry.msgid[:70]!r}"
            if "fuzzy" in entry.flags:
                problems.append(f"{name}: still marked fuzzy")
            if entry.msgid_plural:
                texts = [entry.msgstr_plural.get(i, "") for i in range(forms)]
                source = set(named(entry.msgid)) | set(named(entry.msgid_plural))
            else:
                texts, source = [entry.msgstr], set(named(entry.msgid))
            for text in texts:
                if not text.strip():
                    problems.append(f"{name}: not translated")
                # A plural form may leave the count out ("un duelo"), never name a
                # placeholder the source does not give: that would fail when shown.
                elif not (
                    set(named(text)) <= source if entry.msgid_plural else set(named(text)) == source
                ):
                    problems.append(f"{name}: placeholders of {text!r}")
                elif not entry.msgid_plural and text.count("%s") != entry.msgid.count("%s"):
                    problems.append(f"{name}: the %s of {text!r}")
                elif "python-format" in entry.flags and "%" in PLACEHOLDER.sub(
                    "", text.replace("%%", "")
                ):
                    problems.append(f"{name}: a lone % in {text!r} (write %% for a percent sign)")
    assert not problems, f"{len(problems)} problems in {code}:\n" + "\n".join(problems[:200])


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_is_the_source_compiled(code, domain):
    """The .mo files are committed (a machine without gettext's tools serves them as they
    are): each says exactly what its .po says."""
    po = catalogue(code, domain)
    if po is None:
        return
    mo_path = LOCALE / code / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run ./dev messages"
    compiled = {
        (e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in polib.mofile(str(mo_path))
    }
    source = {
        (e.msgctxt, e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in po.translated_entries()
    }
    compiled = {k: (s, {int(i): v for i, v in p.items()}) for k, (s, p) in compiled.items()}
    compiled.pop((None, ""), None)  # the header
    assert compiled == source, f"{mo_path} is out of date: run ./dev messages"


def test_every_marked_string_of_the_code_is_in_every_catalogue(tmp_path, settings):
    """makemessages run now over the code finds no message the catalogues lack: a new string
    fails here until it is translated in every language (docs/translating.md)."""
    if not shutil.which("xgettext") or not shutil.which("msguniq"):
        message = "gettext's tools (xgettext) are not installed"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but {message}")
        pytest.skip(message)
    # makemessages writes to the `locale` directory above each file it reads: it runs on a
    # copy of the code, so that the catalogues here are only read.
    source = Path(settings.BASE_DIR)
    copy = tmp_path / "code"
    for entry in source.iterdir():
        if entry.name in CODE:
            copier = shutil.copytree if entry.is_dir() else shutil.copy2
            copier(entry, copy / entry.name, **({"ignore": SKIP} if entry.is_dir() else {}))
    (copy / "locale").mkdir()
    settings.LOCALE_PATHS = [copy / "locale"]
    here = os.getcwd()
    os.chdir(copy)
    try:
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=["es"],
                domain=domain,
                no_location=True,
                no_obsolete=True,
                ignore_patterns=IGNORED,
                verbosity=0,
            )
    finally:
        os.chdir(here)
    problems = []
    for domain in DOMAINS:
        fresh_path = copy / "locale" / "es" / "LC_MESSAGES" / f"{domain}.po"
        fresh = {(e.msgctxt, e.msgid) for e in polib.pofile(str(fresh_path)) if e.msgid}
        # The extraction did read the code (a check that cannot pass on an empty result).
        assert len(fresh) > 1000, f"{domain}: only {len(fresh)} strings found"
        for code in LANGUAGES:
            po = catalogue(code, domain)
            have = {(e.msgctxt, e.msgid) for e in po.translated_entries()} if po else set()
            problems += [f"{code} {domain}: {m[1][:80]!r}" for m in sorted(fresh - have, key=str)]
    assert not problems, (
        f"{len(problems)} marked strings without a translation (./dev messages, then translate "
        "them in every language):\n" + "\n".join(problems[:200])
    )
