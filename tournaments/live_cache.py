"""One render per change (issue 15): the live fragments of the public pages and the read
API's JSON, rendered once per tournament version and served to every spectator from the shared
cache (`core.shared_cache`), and the public version number the lean poll path answers from.

What is cached is only what is the same for everyone who may see it: a page's `live`
partial and the big screen's panels (they hold no CSRF token, no CSP nonce, no user menu,
nothing that differs by role: whoever may see the page sees the same partial), and the API's
JSON. Whole pages are never cached: each carries its own nonce, token and menu.

Keys carry the tournament's version (and, for "now playing", the digest of the open duels),
so a change needs no invalidation: the next version is another key.

Every part is rendered in a language (issue 29), and everything that carries one is keyed by
it: a tag names its language (`in_language`: the source language's tags are as they were,
another's end in "-<code>"), so the cache keys, the 304s and the pages' pushed parts of two
languages never meet; a push topic names it too (`public_topic`), and the API's JSON is keyed
by it. The language is the one active when the part is rendered: the request's
(LocaleMiddleware: the language cookie, then Accept-Language; the lean poll path reads it by
the same rule), or, in the worker, each language's in turn (`warm`). A fragment is rendered
ahead by the Celery task that runs after a result commits (`warm`), or by the first request
that misses, under a lock, while the others wait for its copy.
"""

import hashlib
import time
import zlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from core import push, shared_cache
from core.http import live_attrs
from core.release import release

from .models import Tournament
from .selectors_public import bracket, groups, home, lines, rounds, standings, tiebreaks, watch
from .selectors_public.lines import etag, live_fingerprint
from .selectors_public.screen import screen_language
from .selectors_schedule import venue

FRAGMENT_SECONDS = 600  # a version's fragments are dead once it moves on: let them expire
VERSION_SECONDS = 300  # the lean path's copy of the version; every change rewrites it anyway

# page name → (template, what the live partial needs beyond the tournament)
PAGES: dict[str, tuple[str, Callable[[Tournament], dict[str, Any]]]] = {
    "home": ("public/home.html", home.home),
    "standings": ("public/standings.html", standings.standings),
    "groups": ("public/groups.html", groups.groups),
    "rounds": ("public/rounds.html", rounds.rounds),
    "tiebreaks": ("public/tiebreaks.html", tiebreaks.tiebreaks),
    "bracket": ("public/bracket.html", bracket.bracket),
}
# Pages whose tag is the version alone (home adds the open duels' digest).
VERSION_TAGGED = ("standings", "groups", "rounds", "tiebreaks", "bracket")
SCREEN_PANELS = ("standings", "stage", "now")


def api_links(tournament: Tournament) -> dict[str, str]:
    """The read API's exports (tournaments/api.py serves them; the pages only link)."""
    base = f"/api/tournaments/{tournament.slug}"
    return {
        "standings_csv": f"{base}/standings.csv",
        "results_csv": f"{base}/results.csv",
        "standings_json": f"{base}/standings",
        "rounds_json": f"{base}/rounds",
        "groups_json": f"{base}/groups",
        "tiebreaks_json": f"{base}/tiebreaks",
        "bracket_json": f"{base}/bracket",
        "summary_json": base,
    }


# -- languages (issue 29) ---------------------------------------------------------------------


def languages() -> list[str]:
    """The site's languages (settings.LANGUAGES), the source language first."""
    codes = [code for code, _ in settings.LANGUAGES]
    return sorted(codes, key=lambda code: code != settings.LANGUAGE_CODE)


def language() -> str:
    """The active language, as what is rendered now is keyed by: the code LocaleMiddleware
    activated (one of the site's, or a test's pseudo-language: keyed apart too)."""
    return translation.get_language() or settings.LANGUAGE_CODE


def in_language(tag: str, code: str | None = None) -> str:
    """The tag of a part rendered in `code` (the active language by default): the source
    language's tag as it was, another's with "-<code>" at its end ('"t3-v12-es"')."""
    code = code or language()
    if code == settings.LANGUAGE_CODE:
        return tag
    return f'{tag[:-1]}-{code}"' if tag.endswith('"') else f"{tag}-{code}"


def tag_language(tag: str) -> str:
    """The language a tag names (`in_language`), the source language if it names none."""
    bare = tag.strip().removeprefix("W/").strip('"')
    for code in languages()[1:]:
        if bare.endswith(f"-{code}"):
            return code
    return settings.LANGUAGE_CODE


# -- tags ---------------------------------------------------------------------------------


def page_tag(tournament: Tournament, page: str, fingerprint: str | None = None) -> str:
    """A page's tag; `fingerprint`, the open duels' digest if already read (saves a query)."""
    if page == "home":
        # Duels starting and moving do not bump the version: now playing needs the open duels.
        return in_language(etag(tournament, fingerprint or live_fingerprint(tournament)))
    return in_language(etag(tournament))


def screen_tag(tournament: Tournament, panel: str, fingerprint: str | None = None) -> str:
    """A panel's tag; `fingerprint`, the open duels' digest if already read (saves a query)."""
    if panel == "call":
        # A call bumps the version; the minute matters too, as "next" drops past starts.
        minute = timezone.now().strftime("%Y%m%d%H%M")
        fingerprint = fingerprint or live_fingerprint(tournament)
        return in_language(etag(tournament, f"call-{minute}-{fingerprint}"))
    if panel == "now":
        return in_language(etag(tournament, "now-" + (fingerprint or live_fingerprint(tournament))))
    return in_language(etag(tournament, panel))


def _identity(tournament: Tournament) -> str:
    # The primary key with the moment of creation: a database recreated (tests, a restore)
    # may give another tournament the same key, never the same key and moment.
    return f"{tournament.pk}.{tournament.created_at.timestamp():.6f}"


def fragment_key(identity: str, name: str, tag: str) -> str:
    """The cache key of a shared part (`name`: a page, or "screen-<panel>") for a tag, as
    this release renders it (the tag names the language: `in_language`)."""
    return f"live:{release()}:{identity}:{name}:{tag.strip(chr(34))}"


def api_key(identity: str, endpoint: str, version: int, code: str | None = None) -> str:
    """The cache key of an API answer's JSON, in a language (the active one by default):
    its human-readable fields (`title`, `status_label`…) are translated."""
    return f"api:{release()}:{identity}:{endpoint}:v{version}:{code or language()}"


def api_tag(pk: int, version: int, code: str | None = None) -> str:
    """The API's ETag for a version, in a language (`in_language`): what tournaments.api and
    the lean poll path both give."""
    return in_language(f'W/"{pk}-{version}"', code)


def _key(tournament: Tournament, name: str, tag: str) -> str:
    return fragment_key(_identity(tournament), name, tag)


# -- push (issue 28) -------------------------------------------------------------------------


def public_topic(tournament: Tournament, part: str, code: str | None = None) -> str:
    """The push topic of a public part (a page's `live` partial, a big-screen panel) in a
    language (the active one by default): its messages carry the part itself, rendered once
    for every spectator of that language. The source language's topic is
    `public:<slug>:<part>`, another's `public:<slug>:<part>:<code>`."""
    code = code or language()
    topic = f"public:{tournament.slug}:{part}"
    return topic if code == settings.LANGUAGE_CODE else f"{topic}:{code}"


def page_push(tournament: Tournament, parts: list[str]) -> dict[str, str] | None:
    """The `push` of a whole public page (base.html), for the parts it shows, in the
    language it is shown in."""
    return push.stream(public_topic(tournament, part) for part in parts)


def push_parts(tournament: Tournament, parts: dict[str, tuple[str, str]]) -> int:
    """Sends each public part's fragment (part → (tag, html)), rendered in the active
    language, to the streams of that language; how many went."""
    sent = 0
    for part, (tag, html) in parts.items():
        if push.send(public_topic(tournament, part), tag, html, order=tournament.standings_version):
            sent += 1
    return sent


# -- page contexts (the whole page builds the same, then renders per request) ---------------


def page_context(tournament: Tournament, page: str, tag: str) -> dict[str, Any]:
    _, build = PAGES[page]
    return {
        "tournament": tournament,
        "page": page,
        "live": live_attrs(
            None,
            tag,
            reverse(f"public:{page}", kwargs={"slug": tournament.slug}),
            topic=public_topic(tournament, page),
            order=tournament.standings_version,
        ),
        "api": api_links(tournament),
        **build(tournament),
    }


def screen_context(tournament: Tournament, panel: str, tag: str) -> dict[str, Any]:
    url = f"{reverse('public:screen', kwargs={'slug': tournament.slug})}?panel={panel}"
    topic = public_topic(tournament, f"screen-{panel}")
    live = {
        f"live_{panel}": live_attrs(None, tag, url, topic=topic, order=tournament.standings_version)
    }
    if panel == "standings":
        return {**live, "board": standings.screen_standings(tournament)}
    if panel == "call":
        return {**live, "venue": venue(tournament)}
    if panel == "stage":
        if tournament.playoff_seeding:
            return {**live, "stage": "bracket", "bracket": bracket.bracket(tournament)}
        if tournament.tiebreak_seed and tournament.phase == "tie_breaks":
            return {**live, "stage": "tiebreaks", "tb": tiebreaks.tiebreaks(tournament)}
        return {**live, "stage": "groups", "race": groups.groups(tournament)}
    return {**live, "now": home.now_playing(tournament, recent=1)}


# -- the fragments, once per version ------------------------------------------------------


def _render_page(tournament: Tournament, page: str, tag: str) -> str:
    template, _ = PAGES[page]
    return render_to_string(template + "#live", page_context(tournament, page, tag))


def _render_nav(tournament: Tournament, page: str) -> str:
    # Nothing in it differs by viewer or by request: the tournament's privacy note and its
    # pages' links, the current one marked.
    return render_to_string(
        "public/layout.html#tournament_nav", {"tournament": tournament, "page": page}
    )


def _render_screen(tournament: Tournament, panel: str, tag: str) -> str:
    context = {"tournament": tournament, **screen_context(tournament, panel, tag)}
    return render_to_string(f"public/screen.html#panel_{panel}", context)


def nav_key(tournament: Tournament, page: str) -> str:
    # The version alone: whatever the nav shows (the slug, the published flag) bumps it.
    return _key(tournament, f"nav-{page}", in_language(etag(tournament)))


def page_fragment(tournament: Tournament, page: str, tag: str) -> str:
    """The `live` partial of a public page, for this tag: from the cache, or rendered once."""
    return shared_cache.render_once(
        _key(tournament, page, tag), lambda: _render_page(tournament, page, tag), FRAGMENT_SECONDS
    )


def screen_fragment(tournament: Tournament, panel: str, tag: str) -> str:
    return shared_cache.render_once(
        _key(tournament, f"screen-{panel}", tag),
        lambda: _render_screen(tournament, panel, tag),
        FRAGMENT_SECONDS,
    )


# The row's fields, in the key too: a deploy that changes them never reads a row stored by
# the code before it (a copy lacking a field would be half a row).
ROW_FIELDS = tuple(field.attname for field in Tournament._meta.concrete_fields)
_ROW_SHAPE = zlib.crc32(",".join(ROW_FIELDS).encode())


def row_key(identity: str, version: int) -> str:
    return f"row:{identity}:v{version}:{_ROW_SHAPE:x}"


def _row(tournament: Tournament) -> Tournament:
    # A clean copy of the row as read: its fields only, none of the caches a request added.
    return Tournament.from_db(
        tournament._state.db, ROW_FIELDS, [getattr(tournament, name) for name in ROW_FIELDS]
    )


def public_tournament(slug: str, page: str = "") -> tuple[Tournament, dict[str, Any]] | None:
    """The tournament as it was read at its current public version, from the cache alone (no
    query), or None: what an anonymous visitor's whole page is framed with. With it, the
    page's shared parts read in the same round trip where their keys follow from the version
    alone (the pages tagged by it), for `shared_parts`.

    The version is cached only while the tournament is published (`version_entry`), and the
    row is keyed by the version it was read at, so it is never older than the version: every
    change of what a page's frame reads from it (name, slug, publication, time zone) bumps
    the version in the same transaction. A row stored at a version is stored by the first
    whole page of that version served by the full path (`shared_parts`).
    """
    # The version this process read within the last second, as an unchanged poll takes it
    # (`recent_entry`): a crowd loading the page asks the shared cache once a second per
    # process, not once a page (the round trip was a seventh of the page's CPU). So a change
    # made in another process reaches a page load a second later at most, unpublishing too:
    # within that second such a process may still serve the page as it was public a moment
    # before (the process that unpublishes refuses it at once: it forgets its copy).
    entry = recent_entry(slug) or read_entry(slug)
    if entry is None:
        return None
    pk, version, identity = entry
    row = row_key(identity, version)
    tag = f'"t{pk}-v{version}"'  # what etag gives the row: checked below
    parts = []
    if page in VERSION_TAGGED:
        shown = in_language(tag)  # the parts in the request's language
        parts = [fragment_key(identity, page, shown), fragment_key(identity, f"nav-{page}", shown)]
    found = shared_cache.get_many_versioned([row, *parts])
    tournament = found.pop(row, None)
    if not isinstance(tournament, Tournament) or (tournament.pk, tournament.slug) != (pk, slug):
        return None
    if tournament.standings_version != version or not tournament.published:
        return None
    return tournament, (found if etag(tournament) == tag else {})


def shared_parts(
    tournament: Tournament,
    parts: dict[str, Callable[[], str]],
    *,
    cached: dict[str, Any] | None = None,
) -> dict[str, str] | None:
    """Cache key → its shared part, for the parts a whole page embeds, read in one round trip.

    By the full path (`cached` None), the public version and the tournament's row are read in
    the same trip: a missing part is rendered once (`render_once`), a missing version
    remembered for the lean path, a missing row stored for the lean page start
    (`public_tournament`). The lean start (`cached`: what it read already) renders nothing:
    None when a part is missing from the cache, and the full path serves the page.
    """
    if cached is not None:
        missing = [key for key in parts if not isinstance(cached.get(key), str)]
        found = {**cached, **shared_cache.get_many_versioned(missing)} if missing else cached
        if not all(isinstance(found.get(key), str) for key in parts):
            return None
        return found
    version = version_key(tournament.slug)
    row = row_key(_identity(tournament), tournament.standings_version)
    found = shared_cache.get_many([*parts, version, row])
    if version not in found:
        remember_version(tournament)
    if row not in found and tournament.published:
        shared_cache.add(row, _row(tournament), FRAGMENT_SECONDS)
    return {
        key: value
        if isinstance(value := found.get(key), str)
        else shared_cache.render_once(key, render, FRAGMENT_SECONDS)
        for key, render in parts.items()
    }


def page_parts(
    tournament: Tournament, page: str, tag: str, *, cached: dict[str, Any] | None = None
) -> tuple[str, str] | None:
    """A whole public page's shared parts: its `live` partial (for this tag) and the
    tournament's nav (for its version), from one read of the cache (see `shared_parts`)."""
    live, nav = _key(tournament, page, tag), nav_key(tournament, page)
    found = shared_parts(
        tournament,
        {
            live: lambda: _render_page(tournament, page, tag),
            nav: lambda: _render_nav(tournament, page),
        },
        cached=cached,
    )
    return None if found is None else (found[live], found[nav])


def screen_parts(
    tournament: Tournament, names: tuple[str, ...], *, cached: dict[str, Any] | None = None
) -> dict[str, str] | None:
    """Panel (or "call", the venue strip) → its shared part, for the big screen's whole page:
    the open duels read once for every tag, the parts from one read of the cache."""
    fingerprint = live_fingerprint(tournament)
    tags = {name: screen_tag(tournament, name, fingerprint) for name in names}
    keys = {name: _key(tournament, f"screen-{name}", tag) for name, tag in tags.items()}
    found = shared_parts(
        tournament,
        {
            keys[name]: (lambda name=name: _render_screen(tournament, name, tags[name]))
            for name in names
        },
        cached=cached,
    )
    return None if found is None else {name: found[keys[name]] for name in names}


def api_json(tournament: Tournament, endpoint: str, render: Callable[[], str]) -> str:
    """An API answer's JSON text for the tournament's current version."""
    key = api_key(_identity(tournament), endpoint, tournament.standings_version)
    return shared_cache.render_once(key, render, FRAGMENT_SECONDS)


def wanted(tournament: Tournament, parts: list[str]) -> dict[str, list[str]]:
    """Part → the languages to render it in ahead (`warm`, `push_playing`): the source
    language always (its copy serves the crowd's polls, as before languages), and another
    language where an open page follows that part's topic in it (issue 29).

    The stream servers mark the public topics their open streams follow (`core.push.followed`,
    kept fresh every `core.streams.FOLLOW_REFRESH` seconds): one read for every part and
    language. A language nobody watches costs nothing; a poll in it renders its part once
    (`render_once`), as every part was rendered before the worker did it ahead. Without push,
    or when the marks cannot be read, the source language only: nothing would be pushed.
    A big-screen panel of a tournament with a language of its own (`screen_language`: every
    screen shows it, whatever its browser's) is rendered in that language alone.
    """
    source, others = settings.LANGUAGE_CODE, languages()[1:]
    screen = screen_language(tournament)
    topics = {
        (part, code): public_topic(tournament, part, code) for part in parts for code in others
    }
    found = push.followed(list(topics.values())) if others else None
    return {
        # The big screen in the tournament's language, when it has one: that language only.
        part: [screen]
        if screen and part.startswith("screen-")
        else [source, *(code for code in others if found and topics[part, code] in found)]
        for part in parts
    }


def warm(tournament: Tournament) -> int:
    """Render ahead what spectators will ask for after a change (run by a task after commit),
    so their polls find it in the cache, and push each part to the pages that show it (issue
    28) as soon as it is rendered: the pages rendered last no longer wait for the others
    (about 100 ms at the tail of a result, measured). Each part in the source language, and
    in each other language an open page shows it in (`wanted`), the languages of one part
    one after the other (a part reaches every language's pages at about the same moment).
    Returns how many fragments were looked at."""
    pushing = push.enabled()
    fingerprint = live_fingerprint(tournament)  # read once for every language
    screens = [f"screen-{panel}" for panel in SCREEN_PANELS]
    codes = wanted(tournament, [*PAGES, *screens]) if pushing else {}
    done = 0
    for page in PAGES:
        for code in codes.get(page, [settings.LANGUAGE_CODE]):
            with translation.override(code):
                tag = page_tag(tournament, page, fingerprint)
                found = page_parts(tournament, page, tag)  # and the row, the version
                if found is not None and pushing:
                    push_parts(tournament, {page: (tag, found[0])})
            done += 2
    for panel in SCREEN_PANELS:
        for code in codes.get(f"screen-{panel}", [settings.LANGUAGE_CODE]):
            with translation.override(code):
                tag = screen_tag(tournament, panel, fingerprint)
                html = screen_fragment(tournament, panel, tag)
                if pushing:
                    push_parts(tournament, {f"screen-{panel}": (tag, html)})
            done += 1
    remember_version(tournament)
    return done


def push_playing(tournament: Tournament, duel_id: int | None = None) -> int:
    """A running duel moved (no new version): the parts that show it, pushed (issue 28) —
    now playing on the live page and the big screen, and the duel's own watch page — in the
    source language and in each other language an open page shows them in (`wanted`)."""
    duel = lines.duel_queryset(tournament=tournament, pk=duel_id).first() if duel_id else None
    fingerprint = live_fingerprint(tournament)
    names = ["home", "screen-now", "screen-call"]
    if duel is not None:
        names.insert(0, f"watch-{duel.pk}")
    codes = wanted(tournament, names)
    sent = 0
    for name in names:
        for code in codes[name]:
            with translation.override(code):
                if name == "home":
                    tag = page_tag(tournament, name, fingerprint)
                    html = page_fragment(tournament, name, tag)
                elif name.startswith("screen-"):
                    panel = name.removeprefix("screen-")
                    tag = screen_tag(tournament, panel, fingerprint)
                    html = screen_fragment(tournament, panel, tag)
                else:
                    tag = watch_tag(tournament, duel)
                    html = watch_fragment(tournament, duel, tag)
                sent += push_parts(tournament, {name: (tag, html)})
    return sent


# -- the public version, for the lean poll path ---------------------------------------------


def version_key(slug: str) -> str:
    return f"public-version:{slug}"


Entry = tuple[int, int, str]


def version_entry(tournament: Tournament) -> Entry | None:
    """What the lean path may answer from while the tournament is published: its primary
    key, its version and the identity its shared parts are keyed by; None otherwise."""
    if not tournament.published:
        return None
    return (tournament.pk, tournament.standings_version, _identity(tournament))


def remember_version(tournament: Tournament) -> None:
    """A request of the full path leaves the version it read, unless one is already there.

    Only `add`, never `set`: a request that read the version just before a change committed
    must not put back the old number over the one the change wrote (`publish_version`).
    """
    shared_cache.add(
        version_key(tournament.slug), version_entry(tournament) or "private", VERSION_SECONDS
    )


def publish_version(slug: str, entry: Entry | None) -> None:
    """After a change commits: its version (or "private") replaces the old one.

    `entry` is `version_entry` taken when the version was bumped, inside the change.
    """
    # must_land: written later by this process if the cache is unreachable now (a Redis that
    # comes back with its data must not keep answering from the old version).
    shared_cache.set(version_key(slug), entry or "private", VERSION_SECONDS, must_land=True)
    # A request of this process may have noted the old version between the bump and the
    # commit (read back by a full-path request meanwhile): forgotten again, now.
    _recent.pop(slug, None)


def forget_version(slug: str) -> None:
    shared_cache.delete(version_key(slug), must_land=True)
    _recent.pop(slug, None)


# The public version a web process last read, for a second (`recent_entry`): a crowd's
# unchanged polls are answered 304 without asking Redis each time, and an anonymous visitor's
# whole page is framed from it (`public_tournament`). A poll gets only its 304 from it — that
# tells the poll nothing it does not hold already — so a copy a second old delays a
# spectator's update by that second at most. A whole page framed from it may, in a process
# other than the one that made a change, show the tournament as it was a second before:
# after unpublishing too, for that second (docs/public.md, "A crowd's page loads"). The
# process that makes a change forgets its own copy at once (`forget_version`), and again at
# commit (`publish_version`).
RECENT_SECONDS = 1.0
_recent: dict[str, tuple[float, Entry]] = {}
_clock = time.monotonic  # a test moves it, not the process's own clock


def recent_entry(slug: str) -> Entry | None:
    """The version entry this process read for `slug` within the last second, else None."""
    held = _recent.get(slug)
    if held is None or held[0] < _clock():
        return None
    return held[1]


def forget_recent() -> None:
    """Drop every copy this process keeps (a test's cache cleared with it)."""
    _recent.clear()


def read_entry(slug: str) -> Entry | None:
    """The public version entry as the shared cache holds it now, noted as this process's
    copy (`recent_entry`); None when it is missing, private, or the cache is down."""
    value = shared_cache.get(version_key(slug))
    if isinstance(value, tuple) and len(value) == 3:
        note_entry(slug, value)
        return value
    return None


def note_entry(slug: str, entry: Entry) -> None:
    """Keep the entry just read from the shared cache (see `recent_entry`)."""
    if len(_recent) > 1000:  # a bound on slugs asked for; each is a second's copy anyway
        _recent.clear()
    _recent[slug] = (_clock() + RECENT_SECONDS, entry)


# -- the watch page of one duel (issue 28) --------------------------------------------------
# One duel's public table (`selectors_public.watch`), rendered once per tag like a page's live
# part and shared by everyone who watches it. Nothing in it differs by viewer or by request
# (no CSRF token, no nonce, no user menu), so the same text may be published over push later.


def watch_tag(tournament: Tournament, duel: Any) -> str:
    """The watch page's tag: the tournament's version (names, results, corrections, voids)
    and the duel's own revision (every move and every undo adds one; moves do not bump the
    version), with its status and table (a digest: the table is typed text)."""
    digest = hashlib.blake2s(repr((duel.status, duel.table)).encode(), digest_size=4).hexdigest()
    return in_language(etag(tournament, f"watch{duel.pk}-r{duel.revision}-{digest}"))


def watch_context(tournament: Tournament, duel: Any, tag: str) -> dict[str, Any]:
    """What the watch page's `live` partial needs: `duel` read with `lines.duel_queryset`."""
    url = reverse("public:watch", kwargs={"slug": tournament.slug, "duel_id": duel.pk})
    return {
        "tournament": tournament,
        "page": "watch",
        "live": live_attrs(
            None,
            tag,
            url,
            topic=public_topic(tournament, f"watch-{duel.pk}"),
            order=tournament.standings_version,
        ),
        "w": watch.tables([duel])[0],
    }


def _render_watch(tournament: Tournament, duel: Any, tag: str) -> str:
    return render_to_string("public/watch.html#live", watch_context(tournament, duel, tag))


def watch_fragment(tournament: Tournament, duel: Any, tag: str) -> str:
    """The watch page's `live` partial for this tag: from the cache, or rendered once."""
    return shared_cache.render_once(
        _key(tournament, f"watch-{duel.pk}", tag),
        lambda: _render_watch(tournament, duel, tag),
        FRAGMENT_SECONDS,
    )
