"""Every form, fuzzed (issue 14): generated odd values — other scripts' digits, NUL and other
control characters, bidi overrides, zero-width and format characters, huge strings and
numbers, empty and missing fields — posted to every POST view of the site, signed in with
the role that may post there; and to every number read from a query string.

Two promises: no answer is a server error (5xx), and a refusal (4xx) leaves the database as
it was (a snapshot of every table of ours, compared row by row).

The POST views are found by walking the URL patterns: a new POST view without an entry in
FORMS (or a reason in NOT_FUZZED) fails `test_every_post_view_has_a_fuzz_entry`.

To add a form: one line in FORMS — its URL name, the role that may post there, the world it
needs (`WORLDS`: "setup", a tournament taking registrations; "running", round 1 open with its
duel ready; "played", that duel finished), and its fields with a valid value each (a
function of the world when the value is an id). The fuzz replaces any of them with odd
values, or leaves them out. A new path argument gets its value in `World.kwargs`.
`FUZZ_SHOW=1 … -s` prints every answer's status (and the errors a refused valid post got):
an entry whose valid post is refused reaches less code. `FUZZ_EXAMPLES=200` fuzzes longer
than CI's 6 examples a form.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Role
from tests.factories import EntrantFactory, RoleFactory, UserFactory, group_phase_duel
from tournaments import services

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))

# Values people (and scripts) do send: each one has broken a page somewhere once.
ODD = [
    "",
    " ",
    "²",
    "٣",
    "１２",  # fullwidth digits
    "-1",
    "0",
    "1e9",
    "NaN",
    "9" * 30,
    "-" + "9" * 30,
    "1" + "0" * 400,
    "\x00",
    "Ada\x00",
    "\x1b[31m",
    "\u202eevil\u202c",  # a bidi override
    "\u200b\u200d\ufeff",  # zero-width space, joiner, BOM
    "\u2028",  # line separator
    "x" * 20_000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%00",
    "A\u0301" * 50,  # combining marks
]
odd_text = st.one_of(
    st.sampled_from(ODD),
    st.text(
        st.characters(categories=["Cc", "Cf", "Nd", "No", "Zs", "Zl", "Zp", "Mn", "So"]),
        max_size=12,
    ),
    st.text(max_size=12),
)
ABSENT = object()


@dataclass
class World:
    """One tournament and its people, with whatever a form may name."""

    tournament: Any
    organiser: Any
    referee: Any
    player: Any
    outsider: Any  # signed in, no role and no entry in this tournament
    entrants: list[Any]
    duel: Any = None
    grant: Any = None
    practice: Any = None
    game: Any = None
    token: str = ""
    invitation: Any = None  # a referee invitation, waiting
    invite_token: str = ""
    table: Any = None  # a casual table the player owns
    table_invite: str = ""  # a co-referee invitation to it
    replay_token: str = ""
    lobby: Any = None  # an online table in its lobby, hosted by the player (issue 31)
    online: Any = None  # an online table started: the player against a bot
    online_token: str = ""  # the lobby's join link
    online_watch: str = ""  # the started table's watch link

    def kwargs(self, names: list[str], view: str = "") -> dict[str, Any]:
        values = {
            "slug": self.tournament.slug,
            "duel_id": self.duel.pk if self.duel else 1,
            "entrant_id": self.entrants[2].pk,  # not linked to an account
            "grant_id": self.grant.pk,
            "practice_id": self.practice.pk,
            "game_id": self.game.pk,
            # The token a view reads: a claim link's unless the view is another link's.
            "token": {
                "tournaments:invite": self.invite_token,
                "tables:invitation": self.table_invite,
                "tables:replay": self.replay_token,
                "practice:online_join": self.online_token,
                "practice:online_watch": self.online_watch,
                "practice:online_watch_poll": self.online_watch,
            }.get(view, self.token),
            "uidb64": "MQ",
            "invitation_id": self.invitation.pk,
            # The online tables' views name an online table (the join link's lobby, or the one
            # being played); the casual tables' a casual table.
            "table_id": (
                self.lobby.pk
                if view
                in ("practice:online_lobby", "practice:online_join", "practice:online_remove")
                else self.online.pk
                if view.startswith("practice:online")
                else self.table.pk
            ),
            "withdrawal_id": 1,  # none in the world: the undo is refused in words
        }
        if "player_id" in names:
            # The person in the host's lobby whom the host may remove.
            values["player_id"] = self.lobby.players.get(user=self.outsider).pk
        return {name: values[name] for name in names}

    def user(self, role: str):
        return {
            "organiser": self.organiser,
            "referee": self.referee,
            "player": self.player,
            "outsider": self.outsider,
            "anonymous": None,
        }[role]


def _people(tournament, entrants) -> dict[str, Any]:
    from accounts import services as role_services
    from practice import game_services, online
    from practice import services as practice_services
    from tables import services as table_services

    organiser = tournament.created_by
    grant = RoleFactory(tournament=tournament, role=Role.REFEREE)
    player = UserFactory()
    entrants[0].user = player
    entrants[0].save(update_fields=["user"])
    invitation, invite_token = role_services.issue_invitation(
        organiser, tournament, role=Role.REFEREE, label="Ref"
    )
    table = table_services.open_table(owner=player, ruleset="tournament", names=["Ann", "Ben"])
    outsider = UserFactory()
    lobby = online.open_table(host=player, ruleset="tournament", seats=3, seat_clock=30)
    online.join(token=lobby.join_token, user=outsider)  # someone the host may move or remove
    playing = online.open_table(host=player, ruleset="tournament", seats=2)
    playing = online.start(table_id=playing.pk, user=player, version=playing.version)
    playing = online.new_watch_link(table_id=playing.pk, user=player, version=playing.version)
    return {
        "lobby": lobby,
        "online": playing,
        "online_token": lobby.join_token,
        "online_watch": playing.watch_token,
        "invitation": invitation,
        "invite_token": invite_token,
        "table": table,
        "table_invite": table_services.invite_co_referee(table_id=table.pk, actor=player),
        "replay_token": table_services.make_replay_link(table_id=table.pk, actor=player),
        "organiser": organiser,
        "referee": grant.user,
        "player": player,
        "outsider": outsider,
        "grant": grant,
        "practice": practice_services.start_practice(player, "tournament"),
        "game": game_services.start_game(player, "cpt113", 2),
        "token": services.issue_claim_link(entrants[1], organiser),
    }


def setup_world() -> World:
    """A tournament taking registrations: six players, two groups (named by the split)."""
    organiser = UserFactory()
    tournament = services.create_tournament(name="Fuzz Cup", created_by=organiser)
    services.open_registration(tournament, organiser)
    services.register_list(tournament, "\n".join(f"P{i}" for i in range(1, 7)), organiser)
    entrants = list(tournament.entrants.order_by("name"))
    return World(tournament=tournament, entrants=entrants, **_people(tournament, entrants))


def running_world() -> World:
    """Round 1 of the group phase open, its duel ready, two more players in each group."""
    duel, _ = group_phase_duel(players=("Alice", "Bob"))
    tournament = duel.tournament
    for name, group in (("Cy", duel.group_a), ("Di", duel.group_b)):
        EntrantFactory(tournament=tournament, name=name, group=group)
    entrants = list(tournament.entrants.order_by("name"))
    people = _people(tournament, entrants)
    duel.referee = people["referee"]
    duel.save(update_fields=["referee"])
    return World(tournament=tournament, entrants=entrants, duel=duel, **people)


def played_world() -> World:
    """The running world with its duel finished (a forfeit): results can be corrected."""
    from tournaments.services import refereeing

    world = running_world()
    refereeing.append_event(world.duel, world.referee, {"type": "forfeit", "seat": "B"}, 0)
    world.duel.refresh_from_db()
    return world


def online_world() -> World:
    """The running world with its duel played online (ONLINE.md 6) and started: the player
    is Alice at seat A, Bob has an account of his own; the referee watches it."""
    from tournaments.services import online

    world = running_world()
    bob = UserFactory()
    type(world.duel.seat_b).objects.filter(pk=world.duel.seat_b_id).update(user=bob)
    type(world.duel).objects.filter(pk=world.duel.pk).update(online=True)
    online.ready(duel_id=world.duel.pk, user=world.player)
    online.ready(duel_id=world.duel.pk, user=bob)
    world.duel.refresh_from_db()
    return world


WORLDS: dict[str, Callable[[], World]] = {
    "setup": setup_world,
    "running": running_world,
    "played": played_world,
    "online": online_world,
}

Fields = dict[str, Any] | Callable[[World], dict[str, Any]]


@dataclass(frozen=True)
class Form:
    role: str
    world: str = "running"
    fields: Fields = field(default_factory=dict)
    files: tuple[str, ...] = ()  # fields posted as an uploaded file

    def valid(self, world: World) -> dict[str, Any]:
        return self.fields(world) if callable(self.fields) else dict(self.fields)


def _e(world: World, i: int) -> str:
    return str(world.entrants[i].pk)


def _version(world: World) -> str:
    """The tournament's version now: what a ruling form is drawn for."""
    world.tournament.refresh_from_db(fields=["standings_version"])
    return str(world.tournament.standings_version)


def _drawn(world: World) -> str:
    """The schedule's state now: what the schedule page's forms are drawn for."""
    from tournaments.services.schedule import schedule_state

    world.tournament.refresh_from_db(fields=["time_zone"])
    return schedule_state(world.tournament)


def _mark(entrant: Any) -> str:
    from tournaments.services.invitations import claim_sheet_mark

    entrant.refresh_from_db()
    return claim_sheet_mark(entrant)


def _g(world: World, i: int) -> str:
    return str(world.tournament.groups.order_by("order")[i].pk)


# Every POST view of the site: URL name -> who posts, and the fields with a valid value each.
FORMS: dict[str, Form] = {
    # Organiser pages
    "organiser:open_registration": Form("organiser", "setup"),
    "organiser:start_group_phase": Form("organiser", "setup", {"confirm": "1"}),
    "organiser:start_playoffs": Form(
        "organiser", fields=lambda w: {"confirm": "1", "version": _version(w)}
    ),
    "organiser:catch_up": Form("organiser"),
    "organiser:publish": Form("organiser", fields={"published": "1", "back": "/"}),
    "tournaments:publish": Form("organiser", fields={"published": "1", "back": "/"}),
    "organiser:cancel": Form("organiser", fields={"reason": "Rain", "confirm": "on"}),
    "organiser:setup": Form(
        "organiser",
        "setup",
        {
            "name": "Fuzz Cup",
            "duel_preset": "tournament",
            "variants": "speed",
            "tiebreak_mode": "full",
            "shared_cards": "on",
            "duel_time_limit_minutes": "30",
        },
    ),
    "organiser:players": Form("organiser", "setup", {"name": "Zoe"}),
    "organiser:register_list": Form("organiser", "setup", {"names": "Zoe\nYan"}),
    "organiser:register_csv": Form("organiser", "setup", {"file": "name\nZoe\n"}, ("file",)),
    "organiser:withdraw": Form(
        "organiser",
        fields=lambda w: {
            "entrant": _e(w, 2),
            "reason": "Ill",
            "confirm": "1",
            "version": _version(w),
        },
    ),
    "organiser:issue_claim": Form("organiser", "setup"),
    "organiser:undo_withdrawal": Form("organiser"),
    "organiser:groups": Form(
        "organiser",
        "setup",
        lambda w: (
            {"method": "hand"} | {f"g{e.pk}": str(1 + i % 2) for i, e in enumerate(w.entrants)}
        ),
    ),
    "organiser:groups_check": Form(
        "organiser",
        "setup",
        lambda w: {f"g{e.pk}": str(1 + i % 2) for i, e in enumerate(w.entrants)},
    ),
    "organiser:group_names": Form("organiser", fields={"first": "Reds", "second": "Blues"}),
    "organiser:transfers": Form(
        "organiser", fields=lambda w: {f"to{w.entrants[2].pk}": _g(w, 1), "reason": "Swap"}
    ),
    "organiser:transfers_check": Form(
        "organiser", fields=lambda w: {f"to{w.entrants[2].pk}": _g(w, 1), "reason": "Swap"}
    ),
    "organiser:name_representatives": Form(
        "organiser",
        fields=lambda w: {"first": _e(w, 2), "second": _e(w, 3), "table": "1", "referee": ""},
    ),
    "organiser:shared_card": Form(
        "organiser", fields=lambda w: {"giver": _e(w, 0), "receiver": _e(w, 2)}
    ),
    "organiser:assign_referee": Form(
        "organiser", fields=lambda w: {"referee": str(w.referee.pk), "table": "2"}
    ),
    "organiser:result": Form(
        "organiser",
        "played",
        lambda w: {"ruling": "B", "reason": "x", "apply": "1", "version": _version(w)},
    ),
    "organiser:people": Form(
        "organiser", fields=lambda w: {"username": "nobody", "role": "referee"}
    ),
    "organiser:revoke": Form("organiser"),
    # The referee console
    "duels:move": Form(
        "referee", fields={"seq": "0", "rev": "0", "type": "round", "card_A": "3", "card_B": "5"}
    ),
    "duels:undo": Form("referee", fields={"seq": "0", "rev": "0"}),
    "duels:end": Form(
        "referee",
        fields={"seq": "0", "rev": "0", "ending": "forfeit_A", "reason": "Left", "confirm": "on"},
    ),
    "duels:correct": Form(
        "organiser",
        "played",
        lambda w: {"winner": "B", "reason": "Typo", "version": _version(w)},
    ),
    "duels:take": Form("organiser", fields={"confirm": "1"}),
    # Tournament pages outside /manage/
    "tournaments:create": Form("player", fields={"name": "New Cup", "duel_preset": "tournament"}),
    "tournaments:claim": Form("outsider", "setup"),
    # Practice
    "practice:index": Form("player", fields={"ruleset": "tournament"}),
    "practice:move": Form(
        "player", fields={"play": "seal:3", "target": "B", "revision": "0", "intent": "k"}
    ),
    "practice:games": Form("player", fields={"kind": "cpt113", "groups": "2"}),
    "practice:game_move": Form(
        "player",
        fields={"kind": "draw", "revision": "0", "intent": "k", "card": "R1", "colour": "red"},
    ),
    # Online tables with friends (issue 31): the player hosts both tables.
    "practice:online_new": Form(
        "player", fields={"ruleset": "tournament", "seats": "3", "bot": "heuristic", "clock": "30"}
    ),
    "practice:online_join": Form("referee"),
    "practice:online_lobby": Form(
        "player",
        fields=lambda w: {
            "do": "up",
            "version": str(type(w.lobby).objects.get(pk=w.lobby.pk).version),
            "player": str(w.lobby.players.get(user=w.outsider).pk),
        },
    ),
    "practice:online_move": Form(
        "player", fields={"play": "seal:3", "target": "B", "revision": "0", "intent": "k"}
    ),
    "practice:online_resign": Form(
        "player", fields={"confirm": "yes", "revision": "0", "intent": "k"}
    ),
    "practice:online_end": Form("player", fields={"confirm": "yes"}),
    "practice:online_rematch": Form("player"),
    "practice:online_watch_link": Form(
        "player",
        fields=lambda w: {
            "do": "issue",
            "version": str(type(w.online).objects.get(pk=w.online.pk).version),
        },
    ),
    "practice:online_beat": Form("player"),
    # Online tournament duels (issue 31): the player's seat, the referee's endings.
    "player:online_ready": Form("player", world="online"),
    "player:online_move": Form(
        "player",
        world="online",
        fields=lambda w: {"play": "seal:3", "revision": str(w.duel.revision), "intent": "k"},
    ),
    "player:online_resign": Form(
        "player", world="online", fields=lambda w: {"revision": str(w.duel.revision), "intent": "k"}
    ),
    "player:online_beat": Form("player", world="online"),
    "public:online_end": Form(
        "referee",
        world="online",
        fields={"ending": "forfeit_A", "reason": "no connection", "confirm": "on"},
    ),
    "duels:redo": Form("referee", fields={"seq": "0", "rev": "0"}),
    # Event-day pages (issue 16)
    "organiser:call_duel": Form("organiser", fields={"table": "3"}),
    "organiser:paper_result": Form(
        "organiser",
        fields=lambda w: {
            "round": "1",
            "duel": str(w.duel.pk),
            "first": str(w.duel.seat_a_id),
            "second": str(w.duel.seat_b_id),
            "winner": "first",
            "note": "x",
        },
    ),
    "organiser:paper_duel": Form("organiser", fields={"winner": "A", "note": "x", "rev": "0"}),
    "organiser:schedule": Form(
        "organiser", fields=lambda w: {"time_zone": "Europe/Paris", "drawn": _drawn(w)}
    ),
    "organiser:schedule_plan": Form(
        "organiser",
        fields=lambda w: {
            "first": "2026-12-05T19:00",
            "every": "15",
            "before_tie_breaks": "10",
            "before_playoffs": "15",
            "drawn": _drawn(w),
        },
    ),
    "organiser:schedule_shift": Form(
        "organiser", fields=lambda w: {"minutes": "15"} | {"drawn": _drawn(w)}
    ),
    "organiser:check_in_player": Form("organiser", "setup", {"present": "1"}),
    "organiser:withdraw_no_shows": Form(
        "organiser",
        "setup",
        lambda w: {
            "confirm": "1",
            "expected": [str(e.pk) for e in w.tournament.entrants.filter(checked_in_at=None)],
        },
    ),
    "organiser:undo_check_in": Form("organiser", "setup"),
    "organiser:remove_player": Form("organiser", "setup", {"confirm": "1", "account": "0"}),
    # Online tournament duels, the organiser's side (issue 31, ONLINE.md 6)
    "organiser:switch_duel": Form("organiser", fields={"online": "0"}),
    "organiser:extend_wait": Form("organiser", fields={"seen": "2026-11-27T23:00:00+00:00"}),
    "organiser:rule_unready": Form("organiser", fields={"ruling": "forfeit_A", "confirm": "1"}),
    "organiser:unlink_entry": Form("organiser", fields={"confirm": "1", "account": "0"}),
    "organiser:invite": Form("organiser", fields={"label": "Ref", "role": "referee"}),
    "organiser:revoke_invitation": Form("organiser"),
    "organiser:print_players": Form(
        "organiser", "setup", lambda w: {"replace": f"{w.entrants[2].pk}:{_mark(w.entrants[2])}"}
    ),
    "organiser:print_referees": Form(
        "organiser", fields=lambda w: {"replace": str(w.invitation.pk)}
    ),
    "tournaments:check_in": Form("player", "setup"),
    "tournaments:undo_check_in": Form("player", "setup"),
    "tournaments:invite": Form("outsider", fields={}),
    # Casual tables (issue 17)
    "tables:index": Form(
        "player", fields={"ruleset": "tournament", "name_0": "Ann", "name_1": "Ben", "name_2": "Cy"}
    ),
    "tables:move": Form(
        "player", fields={"rev": "0", "type": "round", "card_A": "3", "card_B": "5"}
    ),
    "tables:undo": Form("player", fields={"rev": "0"}),
    "tables:end": Form(
        "player", fields={"rev": "0", "ending": "forfeit_A", "reason": "Left", "confirm": "on"}
    ),
    "tables:share": Form("player", fields={"do": "invite"}),
    "tables:invitation": Form("outsider"),
    # Account pages
    "notifications": Form("player", fields={"notify_by_email": "on", "email": "p@example.org"}),
    "notifications_on": Form("player", fields={"next": "/me/"}),
    "signup": Form(
        "anonymous",
        fields={
            "username": "newbie",
            "email": "n@example.org",
            "password1": "a long enough pass 42",
            "password2": "a long enough pass 42",
        },
    ),
    "login": Form("anonymous", fields={"username": "nobody", "password": "wrong"}),
    "logout": Form("player"),
    # The language menu (issue 29): signed in, so the account's language is written too.
    "set_language": Form("player", fields={"language": "es", "next": "/me/"}),
    "password_change": Form(
        "player",
        fields={"old_password": "x", "new_password1": "a long pass 42", "new_password2": "y"},
    ),
    "password_reset": Form("anonymous", fields={"email": "n@example.org"}),
    "password_reset_confirm": Form(
        "anonymous", fields={"new_password1": "a long pass 42", "new_password2": "y"}
    ),
}

# POST views left out on purpose, with the reason.
NOT_FUZZED = {
    "admin": "Django's own admin, for staff; not a page of ours",
}

# Numbers (and words) read from query strings: URL name -> role and the parameters.
QUERIES: dict[str, tuple[str, list[str]]] = {
    "duels:poll": ("referee", ["rev"]),
    "duels:replay": ("anonymous", ["step"]),
    "stream_token": ("anonymous", ["topic"]),
    "organiser:audit": ("organiser", ["page", "action", "who"]),
    "public:screen": ("anonymous", ["panel", "show"]),
    "tables:poll": ("player", ["rev"]),
    "practice:online_poll": ("player", ["rev", "version", "away"]),
    "practice:online_watch_poll": ("anonymous", ["v", "revision", "away"]),
    "player:online_poll": ("player", ["revision", "v", "away", "screen"]),
    "public:online_poll": ("referee", ["revision", "v", "away", "screen"]),
    "tables:replay": ("anonymous", ["step"]),
    "practice:online_deal": ("player", ["step"]),
    "public:online_deal": ("organiser", ["step"]),
}


def _patterns(resolver: URLResolver, prefix: str = "", namespace: str = ""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or namespace
            full = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else ns
            yield from _patterns(entry, prefix + str(entry.pattern), full or "")
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield name, prefix + str(entry.pattern), entry.callback


def _takes_post(view) -> bool:
    """Does this view handle a POST? A class view with a `post`; a function view whose code
    (decorators included) reads POST or FILES or says so."""
    import inspect

    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return hasattr(view_class, "post")
    try:
        source = inspect.getsource(inspect.unwrap(view))
    except (OSError, TypeError):
        return False
    return "POST" in source or "FILES" in source


def post_views() -> dict[str, str]:
    """URL name (or the first part of a namespace) -> pattern, for every POST view."""
    found = {}
    for name, pattern, view in _patterns(get_resolver()):
        if (name or "").split(":")[0] in NOT_FUZZED or pattern.startswith("admin/"):
            continue
        if _takes_post(view):
            found[name or pattern] = pattern
    return found


def test_every_post_view_has_a_fuzz_entry():
    assert {"organiser:players", "login", "practice:move"} <= set(post_views())
    missing = sorted(set(post_views()) - set(FORMS))
    assert not missing, f"POST views without a FORMS entry in {__name__}: {missing}"
    # And no entry names a view that is gone.
    assert not sorted(set(FORMS) - set(post_views()))


def test_every_view_reading_the_query_string_has_a_fuzz_entry():
    import inspect

    reading = set()
    for name, _pattern, view in _patterns(get_resolver()):
        if not name or name.split(":")[0] in NOT_FUZZED or getattr(view, "view_class", None):
            continue
        try:
            source = inspect.getsource(inspect.unwrap(view))
        except (OSError, TypeError):
            continue
        if "request.GET" in source:
            reading.add(name)
    assert {"duels:poll", "organiser:audit"} <= reading  # the walk finds what it should
    assert reading <= set(QUERIES), f"add to QUERIES: {sorted(reading - set(QUERIES))}"


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of our tables (and the users). Sessions, messages and django-axes' record of
    failed sign-ins are not ours to compare: a refused sign-in is recorded there on purpose."""
    labels = {"accounts", "tournaments", "duels", "practice", "games", "tables", "auth"}
    rows = {}
    for config in apps.get_app_configs():
        if config.label not in labels:
            continue
        for model in config.get_models():
            rows[model._meta.label] = list(model.objects.order_by("pk").values())
    return rows


def _address(name: str, world: World) -> str:
    pattern = _all_patterns()[name]
    wanted = re.findall(r"<(?:\w+:)?(\w+)>", pattern)
    return reverse(name, kwargs=world.kwargs(wanted, name))


def _all_patterns() -> dict[str, str]:
    return {name: pattern for name, pattern, _ in _patterns(get_resolver()) if name}


def _client(world: World, role: str) -> Client:
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("name", sorted(FORMS))
def test_odd_values_posted_to_every_form_are_answered_and_refusals_change_nothing(name):
    form = FORMS[name]
    world = WORLDS[form.world]()
    client = _client(world, form.role)
    address = _address(name, world)
    valid = form.valid(world)
    before = snapshot()

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.fixed_dictionaries(
            {
                # An uploaded file may also be any bytes (not UTF-8, UTF-16, NULs).
                key: st.one_of(
                    st.just(value),
                    odd_text,
                    st.just(ABSENT),
                    *([st.binary(max_size=300)] if key in form.files else []),
                )
                for key, value in valid.items()
            },
            optional={"extra": odd_text},
        )
    )
    def post(data: dict[str, Any]) -> None:
        sent = {}
        for key, value in data.items():
            if value is ABSENT:
                continue
            if key in form.files:
                raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
                value = SimpleUploadedFile("players.csv", raw)
            sent[key] = value
        # Counters kept in the cache (rate limits) start afresh: each example is a first try.
        cache.clear()
        with transaction.atomic():
            response = client.post(address, sent)
            status = response.status_code
            if os.environ.get("FUZZ_SHOW"):
                print(name, status, {k: v[:20] for k, v in sent.items() if isinstance(v, str)})
                if sent == valid and status >= 400:
                    print(
                        re.findall(
                            r'(?:errorlist|role="alert"|class="error)[^>]*>(.{0,160})',
                            response.content.decode(),
                            re.S,
                        )[:3]
                    )
            assert status < 500, (name, sent, status)
            if status >= 400:
                assert snapshot() == before, f"{name} refused {sent!r} ({status}) but changed rows"
            transaction.set_rollback(True)

    post()


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_odd_query_values_are_answered(name):
    role, params = QUERIES[name]
    world = running_world()
    services.set_published(world.tournament, True, world.organiser)
    client = _client(world, role)
    address = _address(name, world)

    @settings(
        max_examples=EXAMPLES * 2,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.fixed_dictionaries({}, optional={p: odd_text for p in params}))
    def get(query: dict[str, str]) -> None:
        response = client.get(address, query)
        assert response.status_code < 500, (name, query, response.status_code)

    get()


def test_the_fuzz_reaches_the_forms_it_means_to(client):
    """The valid values of a few entries are accepted: the fuzz starts from working posts."""
    world = setup_world()
    client.force_login(world.organiser)
    response = client.post(_address("organiser:players", world), {"name": "Zoe"})
    assert response.status_code < 400
    assert world.tournament.entrants.filter(name="Zoe").exists()
    assert get_user_model().objects.filter(pk=world.player.pk).exists()
