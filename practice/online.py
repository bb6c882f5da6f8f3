"""Writes for online tables with friends (issue 31, ONLINE.md section 7; docs/online.md).

A host opens a table (the rules, the seats, teams, the bots' level, the seat clock), people
join by its one link (up to the empty seats), the host orders the seats and starts: the
people are dealt in at seats A, B, … in the lobby's order and bots of the chosen level hold
the rest. The game is a ``play.Game`` of the dealt adapter, as a practice duel is, played
through the table core's one write path, with this module's policy: a person acts for their
own seat only; anyone else is told there is no such game.

Every write locks the table's row first (then the game's, in ``apply_command``). The lobby's
forms carry the lobby's ``version`` they were drawn at: a form from before a change (a
double post of *Move up*, a start after someone left) is refused in words, nothing done."""

from __future__ import annotations

import secrets as random_source
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from cardtable.confirm import NeedsConfirmation, ending
from core import redis_guard
from core.publish import publish_at_commit
from core.rows import select_all, select_one
from play import clock, presence
from play import services as play
from play.adapters.base import Command, Viewer
from play.adapters.base import Refused as Unrestorable
from play.adapters.split_uno_dealt import BOTS_COMMAND, TIMEOUT, read_config
from play.effect_words import refusal
from play.errors import Forbidden, Hidden, Stale
from play.errors import Refused as Illegal
from play.models import Game, GameStatus, HolderKind, Seat
from play.selectors import Restored, only_seals_since, persons_left, seen_at

from .game import Refused
from .models import OnlinePlayer, OnlineTable
from .seat import BOTS, Played, bots_move, person_view, play_as_person
from .seating import SeatingRefused, choose
from .services import WORKER_LEVELS
from .words import NO_REVISION, bot_level_label

#: The bots' levels an online table offers, as practice does: the expert bot thinks in the
#: worker (``play_bots``, the task ``online_bots_turn``), the others inside the request.
BOT_LEVELS = ("random", "heuristic", "expert")
BOT = "heuristic"
#: The seat clock's bounds in seconds (ONLINE.md section 3); None is no clock.
CLOCK_MIN, CLOCK_MAX = 10, 120
#: How many unfinished online tables a person may host at once (bounded storage).
MAX_OPEN_HOSTED = 10
#: How many tables that are over a host keeps (as practice keeps 50 duels): opening one more
#: forgets the oldest beyond this, their games with them.
KEPT_HOSTED = 50
#: The join link's token: 32 random bytes.
TOKEN_BYTES = 32

STALE_LOBBY = gettext_noop("The table changed since this page was drawn: look again.")
NOT_HOST = gettext_noop("Only the host can do this.")
DEAD_LINK = gettext_noop("This join link no longer works: ask the host for the new one.")
FULL = gettext_noop("This table is full: every seat is taken.")
NOT_IN_LOBBY = gettext_noop("This table has already started.")
REMOVED = gettext_noop("The host removed you from this table: ask them for a new link.")


class LinkDead(Exception):
    """A join link that admits no one (revoked, replaced, or its table started): 404."""


@dataclass(frozen=True)
class Lobby:
    """A table and its people in seat order."""

    table: OnlineTable
    players: list[OnlinePlayer]


def sides(seats: int, teams: list | tuple) -> int:
    return len(teams) if teams else seats


def on_abandon(table: OnlineTable) -> str:
    """ONLINE.md section 4: with two sides a person who leaves forfeits; with more sides, or
    in a team game, a bot of the table's level takes their seat."""
    return "forfeit" if sides(table.seats, table.teams) == 2 and not table.teams else "bot"


def new_token() -> str:
    return random_source.token_urlsafe(TOKEN_BYTES)


def open_table(
    *,
    host: Any,
    ruleset: str,
    seats: int,
    variants: tuple[str, ...] = (),
    layout: str = "",
    bot: str = BOT,
    seat_clock: int | None = None,
    truth_dare: bool = False,
    intent: str = "",
) -> OnlineTable:
    """A new table in its lobby, the host its first person, with a live join link. Refused
    in words for a table the rules or this page do not offer (truth and dare with rules that
    have no TRUTH or DARE cards, too); nothing stored then. ``intent``: the host's form's
    key: the same form sent again (Back, then the button) is the table it opened, not one
    more (the host's row is locked while it is looked up, so two posts at once open one)."""
    if bot not in BOT_LEVELS:
        raise Refused(
            gettext("Choose the bots' level from: %(levels)s.")
            % {"levels": ", ".join(bot_level_label(b) for b in BOT_LEVELS)}
        )
    if seat_clock is not None and not CLOCK_MIN <= seat_clock <= CLOCK_MAX:
        raise Refused(
            gettext("Choose a seat clock from %(lo)s to %(hi)s seconds, or none.")
            % {"lo": CLOCK_MIN, "hi": CLOCK_MAX}
        )
    if not 2 <= seats <= 6:
        raise Refused(gettext("Choose from 2 to 6 seats."))
    try:
        seating = choose(ruleset, seats, variants, layout)
    except SeatingRefused as err:
        raise Refused(str(err)) from None
    try:
        # The table as it would be dealt, every seat a bot's but A: refused now, not at the
        # start, if the rules cannot deal it.
        config = _config(
            ruleset, seating, {"A": "A"}, bot, seat_clock, "bot", truth_dare=truth_dare
        )
        read_config(config, seating.letters)
    except Unrestorable as err:
        raise Refused(refusal(err)) from None
    with transaction.atomic():
        if intent:
            get_user_model().objects.select_for_update().filter(pk=host.pk).first()
            opened = OnlineTable.objects.filter(host=host, intent=intent).first()
            if opened is not None:
                return opened
        _check_hosting(host)
        table = OnlineTable.objects.create(
            host=host,
            ruleset=ruleset,
            seats=seating.seats,
            variants=list(seating.variants),
            options=dict(seating.options),
            teams=[list(team) for team in seating.teams],
            layout=layout,
            bot=bot,
            seat_clock=seat_clock,
            truth_dare=truth_dare,
            join_token=new_token(),
            intent=intent,
        )
        OnlinePlayer.objects.create(table=table, user=host, position=0)
        _forget_beyond_kept(host)
    return table


def _forget_beyond_kept(host: Any) -> None:
    """Bounded storage whatever a person (or a script) opens: the host's tables that are over
    beyond the ``KEPT_HOSTED`` latest are forgotten, their games with them (their people lose
    them from their lists too: a table is its host's)."""
    over = (OnlineTable.Status.FINISHED, OnlineTable.Status.ENDED)
    oldest = list(
        OnlineTable.objects.filter(host=host, status__in=over)
        .order_by("-created_at", "-pk")
        .values_list("pk", "game_id")[KEPT_HOSTED:]
    )
    if not oldest:
        return
    OnlineTable.objects.filter(pk__in=[pk for pk, _ in oldest]).delete()
    play.forget_games([game_id for _, game_id in oldest if game_id is not None])


def _check_hosting(host: Any) -> None:
    """Bounded storage: a person hosts at most MAX_OPEN_HOSTED tables not yet ended."""
    open_ones = OnlineTable.objects.filter(
        host=host, status__in=(OnlineTable.Status.LOBBY, OnlineTable.Status.PLAYING)
    )
    if open_ones.count() >= MAX_OPEN_HOSTED:
        raise Refused(
            gettext("You host %(n)s tables that have not ended: end one first.")
            % {"n": MAX_OPEN_HOSTED}
        )


def _config(
    ruleset: str,
    seating: Any,
    persons: dict[str, str],
    bot: str,
    seat_clock: int | None,
    abandon: str,
    *,
    truth_dare: bool = False,
) -> dict[str, Any]:
    """The dealt adapter's config: ``persons`` (seat letter → name) hold their seats, bots
    the rest ("Bot C" in the log). ``seat_clock`` and ``on_abandon`` are the table core's
    (issue 31's seat clocks); ``truth_dare`` the host's switch (ONLINE.md 2)."""
    letters = seating.letters
    return {
        "ruleset": ruleset,
        "variants": list(seating.variants),
        "options": dict(seating.options),
        "teams": [list(team) for team in seating.teams],
        "bots": [s for s in letters if s not in persons],
        "bot": bot,
        "names": {s: persons.get(s, f"Bot {s}") for s in letters},
        "seat_clock": seat_clock,
        "on_abandon": abandon,
        # Two people who both abandon (ONLINE.md 4: "a table in which no person is left ends
        # without a result"): the game stops rather than give the first one's forfeit.
        "both_abandon": "stop" if abandon == "forfeit" else "forfeit",
        "bots_in_worker": bot in WORKER_LEVELS,
        "truth_dare": truth_dare,
    }


def lobby(table_id: int, user: Any) -> Lobby:
    """The table and its people, for one of its people (the host is one). DoesNotExist for
    anyone else: a table is no one else's business. Read by every request of a table's pages
    (its polls, beats and moves: issue 31's capacity), in SQL written once (core/rows.py)."""
    table = select_one(
        OnlineTable, where=(("pk", "="),), values=(table_id,), related=("host", "game", "rematch")
    )
    if table is None or user.pk is None:
        raise OnlineTable.DoesNotExist()
    players = people(table)
    if not any(p.user_id == user.pk for p in players):
        raise OnlineTable.DoesNotExist()
    return Lobby(table, players)


def people(table: OnlineTable) -> list[OnlinePlayer]:
    """The table's people in seat order, with their accounts (SQL written once)."""
    players = select_all(
        OnlinePlayer,
        where=(("table", "="),),
        values=(table.pk,),
        order=("position", "pk"),
        related=("user",),
    )
    for player in players:
        player.table = table  # as the table's own related manager attaches it
    return players


def _locked(table_id: int, user: Any) -> OnlineTable:
    """The table's row, locked, for one of its people; DoesNotExist for anyone else."""
    table = OnlineTable.objects.select_for_update().get(pk=table_id)
    if not OnlinePlayer.objects.filter(table=table, user=user).exists():
        raise OnlineTable.DoesNotExist()
    return table


def _host_in_lobby(table: OnlineTable, user: Any, version: int | None) -> None:
    if table.host_id != user.pk:
        raise Forbidden(gettext(NOT_HOST))
    if table.status != OnlineTable.Status.LOBBY:
        raise Refused(gettext(NOT_IN_LOBBY))
    if version is None or version != table.version:
        raise Refused(gettext(STALE_LOBBY))


def _changed(table: OnlineTable, **fields: Any) -> None:
    """Every change of the table (its lobby, its status, its links, a rematch): a new version,
    announced at commit to its people's open pages (push, where it runs; their poll
    otherwise), so a lobby sees a friend join within a second."""
    for name, value in fields.items():
        setattr(table, name, value)
    table.version += 1
    table.save(update_fields=[*fields, "version", "updated_at"])
    publish_at_commit(table_topic(table.pk), table.version)


def table_topic(table_id: int) -> str:
    """The push topic of a table's own changes (its game's moves are ``game:<id>``)."""
    return f"onlinetable:{table_id}"


def may_follow_table(request: Any, key: str) -> bool:
    """May this viewer follow the table's changes (push)? Its people only, as its pages."""
    user = request.user
    return (
        user.is_authenticated and OnlinePlayer.objects.filter(table_id=int(key), user=user).exists()
    )


def new_link(*, table_id: int, user: Any, version: int | None) -> OnlineTable:
    """The host's new join link: the old one is dead from now on. It admits the people the
    host removed too (the host chooses whom to give it)."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_in_lobby(table, user, version)
        _changed(table, join_token=new_token(), removed=[])
        return table


def revoke_link(*, table_id: int, user: Any, version: int | None) -> OnlineTable:
    """The join link dead: nobody joins until the host issues a new one."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_in_lobby(table, user, version)
        _changed(table, join_token=None)
        return table


def _host_at(table: OnlineTable, user: Any, version: int | None) -> None:
    """The host's action at any time (the watch link): the host, and a form of this version."""
    if table.host_id != user.pk:
        raise Forbidden(gettext(NOT_HOST))
    if version is None or version != table.version:
        raise Refused(gettext(STALE_LOBBY))


def new_watch_link(*, table_id: int, user: Any, version: int | None) -> OnlineTable:
    """The host's watch link (ONLINE.md 5), issued or replaced: an older one is dead from now
    on. At any time: in the lobby, during the game and after its end."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_at(table, user, version)
        _changed(table, watch_token=new_token())
        return table


def revoke_watch_link(*, table_id: int, user: Any, version: int | None) -> OnlineTable:
    """The watch link dead at once: its holders' pages and polls are 404 from now on."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_at(table, user, version)
        _changed(table, watch_token=None)
        return table


def table_of_watch_link(token: str) -> OnlineTable:
    """The table a live watch link shows; LinkDead for a wrong, revoked or replaced token."""
    if not token:
        raise LinkDead()
    table = select_one(
        OnlineTable, where=(("watch_token", "="),), values=(token,), related=("host", "game")
    )
    if table is None:
        raise LinkDead()
    return table


def table_of_link(token: str) -> OnlineTable:
    """The table a live link admits to; LinkDead otherwise (a wrong, revoked or replaced
    token, or a table that started)."""
    if not token:
        raise LinkDead()
    table = (
        OnlineTable.objects.select_related("host")
        .filter(join_token=token, status=OnlineTable.Status.LOBBY)
        .first()
    )
    if table is None:
        raise LinkDead()
    return table


def join(*, token: str, user: Any) -> OnlineTable:
    """``user`` takes the next place at the link's table (joining twice is joining once);
    LinkDead for a link that admits no one, Refused when every seat is taken."""
    with transaction.atomic():
        found = table_of_link(token)
        table = OnlineTable.objects.select_for_update().get(pk=found.pk)
        if table.join_token != token or table.status != OnlineTable.Status.LOBBY:
            raise LinkDead()
        if OnlinePlayer.objects.filter(table=table, user=user).exists():
            return table
        if user.pk in table.removed:
            raise Refused(gettext(REMOVED))
        here = OnlinePlayer.objects.filter(table=table)
        if here.count() >= table.seats:
            raise Refused(gettext(FULL))
        last = here.aggregate(m=Max("position"))["m"]
        OnlinePlayer.objects.create(table=table, user=user, position=(last or 0) + 1)
        _changed(table)
        return table


def _renumber(table: OnlineTable) -> None:
    for i, player in enumerate(table.players.order_by("position", "pk")):
        if player.position != i:
            OnlinePlayer.objects.filter(pk=player.pk).update(position=i)


def leave(*, table_id: int, user: Any) -> None:
    """A person (not the host) leaves the lobby; leaving twice is leaving once."""
    with transaction.atomic():
        try:
            table = _locked(table_id, user)
        except OnlineTable.DoesNotExist:
            return
        if table.status != OnlineTable.Status.LOBBY:
            raise Refused(gettext(NOT_IN_LOBBY))
        if table.host_id == user.pk:
            raise Refused(gettext("The host cannot leave: end the table instead."))
        OnlinePlayer.objects.filter(table=table, user=user).delete()
        _renumber(table)
        _changed(table)


def remove(*, table_id: int, user: Any, player_id: int, version: int | None) -> None:
    """The host removes a person before the start (not themself); the link they had does not
    admit them again (a new link does)."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_in_lobby(table, user, version)
        player = OnlinePlayer.objects.filter(table=table, pk=player_id).first()
        if player is None or player.user_id == table.host_id:
            raise Refused(gettext("Choose a person at this table other than you."))
        player.delete()
        _renumber(table)
        _changed(table, removed=sorted({*table.removed, player.user_id}))


def move(*, table_id: int, user: Any, player_id: int, up: bool, version: int | None) -> None:
    """The host moves a person one place up or down the seat order."""
    with transaction.atomic():
        table = _locked(table_id, user)
        _host_in_lobby(table, user, version)
        order = list(table.players.order_by("position", "pk"))
        at = next((i for i, p in enumerate(order) if p.pk == player_id), None)
        if at is None:
            raise Refused(gettext("Choose a person at this table."))
        other = at - 1 if up else at + 1
        if not 0 <= other < len(order):
            raise Refused(gettext("This person cannot move further that way."))
        order[at], order[other] = order[other], order[at]
        for i, player in enumerate(order):
            OnlinePlayer.objects.filter(pk=player.pk).update(position=i)
        _changed(table)


def start(*, table_id: int, user: Any, version: int | None) -> OnlineTable:
    """The host starts the game: the people at A, B, … in the lobby's order, bots of the
    table's level at the empty seats; the link is dead from now on. Starting a table that
    already started is no second start (a double post): the table as it is."""
    with transaction.atomic():
        table = _locked(table_id, user)
        if table.host_id != user.pk:
            raise Forbidden(gettext(NOT_HOST))
        if table.status == OnlineTable.Status.PLAYING and table.game_id is not None:
            return table
        _host_in_lobby(table, user, version)
        players = list(table.players.select_related("user").order_by("position", "pk"))
        seating = table.seating
        letters = list(seating.letters)
        persons = {letters[i]: p.user.get_username() for i, p in enumerate(players)}
        config = _config(
            table.ruleset,
            seating,
            persons,
            table.bot,
            table.seat_clock,
            on_abandon(table),
            truth_dare=table.truth_dare,
        )
        holders = {
            letter: play.Holder(HolderKind.ACCOUNT, account=players[i].user)
            if i < len(players)
            else play.Holder(HolderKind.BOT, bot_level=table.bot)
            for i, letter in enumerate(letters)
        }
        try:
            game = play.start_game(
                kind="split_uno_dealt", config=config, seats=letters, holders=holders
            )
        except Unrestorable as err:
            raise Refused(refusal(err)) from None
        for i, player in enumerate(players):
            OnlinePlayer.objects.filter(pk=player.pk).update(seat=letters[i])
        status = (
            OnlineTable.Status.FINISHED
            if game.status == GameStatus.FINISHED
            else OnlineTable.Status.PLAYING
        )
        _changed(table, game=game, status=status, join_token=None)
        beat_all(table, letters[: len(players)])
        _wake_bots_if_asked(table, game)
        return table


def seat_of(table: OnlineTable, user: Any) -> OnlinePlayer:
    """The person's place at a started table; DoesNotExist for anyone else."""
    return OnlinePlayer.objects.get(table=table, user=user)


def seat_policy(table: OnlineTable, known: OnlinePlayer | None = None) -> play.Policy:
    """The table's policy: a person at it acts for their own seat, while they hold it; anyone
    else is told there is no such game (404). ``known``: the acting person's place, read under
    the table's lock by the caller (not read again)."""

    def policy(game: Game, actor: play.Actor, command: Command) -> None:
        if game.pk != table.game_id:
            raise Hidden()
        if actor.key == clock.CLOCK:
            # The seat clock's move (the core sends only its own command as the clock).
            if command.name != TIMEOUT:
                raise Forbidden()
            return
        if actor.key == BOTS:
            # The worker's move of the bots (an expert table's: ``play_bots``).
            if command.name != BOTS_COMMAND or command.seat is not None:
                raise Forbidden()
            return
        if actor.user is None:
            raise Hidden()
        if known is not None and known.user_id == actor.user.pk:
            player: OnlinePlayer | None = known
        else:
            player = OnlinePlayer.objects.filter(table=table, user=actor.user).first()
        if player is None:
            raise Hidden()
        if not player.active or not player.seat or command.seat != player.seat:
            raise Forbidden()

    return policy


def play_move(
    table_id: int,
    user: Any,
    command: Command,
    *,
    revision: int | None,
    intent: str,
    confirmed: bool = True,
) -> Played[OnlineTable]:
    """The person's ``command`` for their own seat through the write path (the page's
    ``revision``, the form's key ``intent``: a repeat is answered as one, an older page is
    Stale). DoesNotExist for anyone not at the table. Unless ``confirmed``, an answer that
    ends the game against the person's side is NeedsConfirmation (practice's ``ending``:
    from public counts and the rules only), nothing played."""
    if revision is None:
        raise Refused(gettext(NO_REVISION))
    if not confirmed and command.name == "answer":
        # Read before the write, which then checks the page's revision: the state asked
        # about is the state the move would be applied to (else it is stale).
        table = OnlineTable.objects.get(pk=table_id, players__user=user)
        player = seat_of(table, user)
        if table.game_id is not None and player.seat:
            view = person_view(table.game_id, player.seat)
            why = ending(table, view, command, player.seat)
            if why is not None:
                raise NeedsConfirmation(why)
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        # The person's place, read once under the table's lock (and given to the policy).
        player = OnlinePlayer.objects.filter(table=table, user=user).first()
        if player is None:
            raise OnlineTable.DoesNotExist()  # not at this table: no such table for them
        if table.game_id is None:
            raise Refused(gettext("This table has not started yet."))
        if table.status == OnlineTable.Status.ENDED:
            raise Refused(gettext("The host ended this game: no move is taken."))
        command = Command(command.name, player.seat, dict(command.args))

        def send(seen: int) -> Played[OnlineTable]:
            return play_as_person(
                table,
                user,
                command,
                revision=seen,
                intent=intent,
                policy=seat_policy(table, player),
                settle=lambda outcome: _settle(table, outcome.status, outcome.restored),
                seat=player.seat,
                view=False,
            )

        try:
            return send(revision)
        except Stale:
            # People seal at the same time: a page overtaken only by other seats' seals is
            # not out of date for a seal or an action card (a seal changes nothing another
            # seat can do; ONLINE.md section 2). Anything else since the page is stale.
            if command.name not in ("seal", "play") or not only_seals_since(
                table.game_id, revision, player.seat
            ):
                raise
            return send(Game.objects.get(pk=table.game_id).revision)


def _settle(table: OnlineTable, status: str, restored: Restored | None = None) -> None:
    """The table's rows after a command of its game (a person's, or the clock's): the seats
    a bot took over (an abandonment) no longer a person's, the table finished with its game,
    or ended without a result when no person is left in play (ONLINE.md 4). ``restored``:
    the table the command left (not restored again)."""
    game = Game.objects.get(pk=table.game_id)
    bots = _bot_seats(game)
    OnlinePlayer.objects.filter(table=table, seat__in=list(bots), active=True).update(active=False)
    if status == GameStatus.FINISHED:
        if table.status != OnlineTable.Status.FINISHED:
            _changed(table, status=OnlineTable.Status.FINISHED)
        return
    if status in (GameStatus.OPEN, GameStatus.PLAYING) and not persons_left(game, restored):
        play.abandon_game(game_id=game.pk)
        _changed(table, status=OnlineTable.Status.ENDED)
        return
    if status == GameStatus.PLAYING and not game.awaited and _stopped(game, restored):
        # Both people abandoned: nobody is left in play, the table ends without a result.
        play.abandon_game(game_id=game.pk)
        OnlinePlayer.objects.filter(table=table, active=True).update(active=False)
        _changed(table, status=OnlineTable.Status.ENDED)
        return
    # The lists order tables by their latest move.
    OnlineTable.objects.filter(pk=table.pk).update(updated_at=timezone.now())
    _wake_bots_if_asked(table, game, bots)


def _stopped(game: Game, restored: Restored | None = None) -> bool:
    """Whether the game stopped because both its people abandoned (asked only when nobody is
    awaited in a game still playing: rare; from ``restored``, the table the command left,
    when it is at the game's revision)."""
    return seen_at(game, Viewer("public"), None, restored)["phase"] == "stopped"


def _bot_seats(game: Game) -> set[str]:
    """The seats bots hold (from the start, or taken over from a person)."""
    return set(
        Seat.objects.filter(game=game, holder=HolderKind.BOT).values_list("letter", flat=True)
    )


def _bots_asked(game: Game, bots: set[str]) -> bool:
    """Whether the game, still being played, waits for one of ``bots``."""
    return game.status == GameStatus.PLAYING and any(
        ask.get("seat") in bots for ask in game.awaited
    )


def _wake_bots_if_asked(table: OnlineTable, game: Game, bots: set[str] | None = None) -> None:
    """At commit, the worker moves the bots of an expert table when the game waits for one
    (a needless or repeated wake changes nothing: ``play_bots`` finds nothing asked)."""
    if table.bot not in WORKER_LEVELS:
        return
    if _bots_asked(game, _bot_seats(game) if bots is None else bots):
        from . import tasks

        redis_guard.send_on_commit(tasks.online_bots_turn, table.pk)


def play_bots(table_id: int) -> bool:
    """The worker's move at an expert table: one bot decision through the write path (the
    table's row locked first, as for every write to it), the table settled as after a
    person's move. Whether the bots have more to do now."""
    with transaction.atomic():
        table = (
            OnlineTable.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=table_id)
        )
        if table.game_id is None or table.status != OnlineTable.Status.PLAYING:
            return False
        revision = table.game.revision  # type: ignore[union-attr]
        outcome = bots_move(table.game_id, revision, seat_policy(table))
        if outcome is None:
            return False
        game = Game.objects.get(pk=table.game_id)
        more = _bots_asked(game, _bot_seats(game))
        _settle_after_bots(table, outcome.status)
        return more


def _settle_after_bots(table: OnlineTable, status: str) -> None:
    """The table after the worker's bot move: finished with its game (the task loops on by
    itself, so no new wake)."""
    if status == GameStatus.FINISHED and table.status != OnlineTable.Status.FINISHED:
        _changed(table, status=OnlineTable.Status.FINISHED)
    else:
        OnlineTable.objects.filter(pk=table.pk).update(updated_at=timezone.now())


def clock_keeper(game_id: int) -> clock.Keeper | None:
    """The table's part when the seat clock acts on its game (``play.clock.keep``, in
    PracticeConfig.ready): the table's row locked first, as for every write to it, the
    table's policy (the clock's own move), and the table settled in the same transaction."""
    table = OnlineTable.objects.filter(game_id=game_id).first()
    if table is None:
        return None
    held: dict[str, OnlineTable] = {}

    def lock_first() -> None:
        held["table"] = OnlineTable.objects.select_for_update().get(pk=table.pk)

    return clock.Keeper(
        policy=seat_policy(table),
        lock_first=lock_first,
        settle=lambda outcome: _settle(held.get("table", table), outcome.status, outcome.restored),
    )


def check_clock(table: OnlineTable) -> bool:
    """Before a page of a running table is drawn: a seat whose clock ran out is played for
    now (ONLINE.md 3), as the sweep would (in eager mode, with no worker, the only way).
    Whether the clock acted (the table and its game are then to be read again)."""
    if table.game_id is not None and table.status == OnlineTable.Status.PLAYING:
        # The game's row came with the table's (its deadline): read again only when due.
        return clock.may_be_due(table.game) and clock.check_on_request(table.game_id)  # type: ignore[arg-type]
    return False


def forfeits(table: OnlineTable) -> bool:
    """Whether resigning here forfeits (two sides, no teams: the other side wins); else a
    bot of the table's level takes the seat (ONLINE.md 4)."""
    return on_abandon(table) == "forfeit"


def resign(table_id: int, user: Any, *, revision: int | None, intent: str) -> Played[OnlineTable]:
    """The person resigns their seat (confirmed on its own page): at two sides the other side
    wins; with more sides, or in a team game, a bot of the table's level takes the seat
    (``play.services.hand_seat_to_bot``) and the person watches the game as the public does;
    when no person is left in play the table ends without a result. Resigning twice is once."""
    with transaction.atomic():
        table = _locked(table_id, user)
        if forfeits(table):
            return play_move(
                table_id, user, Command("resign", None, {}), revision=revision, intent=intent
            )
        player = seat_of(table, user)
        if table.game_id is None or not player.seat:
            raise Refused(gettext("This table has not started yet."))
        if not player.active or table.over:
            return Played(table, repeat=True)
        if revision is None:
            raise Refused(gettext(NO_REVISION))
        try:
            play.hand_seat_to_bot(
                game_id=table.game_id,
                seat=player.seat,
                actor=play.Actor(f"user:{user.pk}", user),
            )
        except Illegal as err:
            raise Refused(str(err)) from None
        OnlinePlayer.objects.filter(pk=player.pk).update(active=False)
        _settle(table, Game.objects.get(pk=table.game_id).status)
        return Played(table)


def end(*, table_id: int, user: Any) -> OnlineTable:
    """The host ends the table at any time, without a result (its game abandoned). Ending an
    ended or finished table changes nothing."""
    with transaction.atomic():
        table = _locked(table_id, user)
        if table.host_id != user.pk:
            raise Forbidden(gettext(NOT_HOST))
        if table.over:
            return table
        if table.game_id is not None:
            play.abandon_game(game_id=table.game_id)
        _changed(table, status=OnlineTable.Status.ENDED, join_token=None)
        return table


def rematch(*, table_id: int, user: Any) -> OnlineTable:
    """A new table with the same settings and the same people in the same order, in its
    lobby, hosted by whoever asked; the others see a link to it on the old table. Asked
    twice (or by two people), the one rematch."""
    with transaction.atomic():
        table = _locked(table_id, user)
        if not table.over:
            raise Refused(gettext("The game is not over yet."))
        if table.rematch_id is not None:
            return table.rematch  # type: ignore[return-value]
        _check_hosting(user)
        new = OnlineTable.objects.create(
            host=user,
            ruleset=table.ruleset,
            seats=table.seats,
            variants=list(table.variants),
            options=dict(table.options),
            teams=list(table.teams),
            layout=table.layout,
            bot=table.bot,
            seat_clock=table.seat_clock,
            truth_dare=table.truth_dare,
            join_token=new_token(),
        )
        people = list(table.players.order_by("position", "pk"))
        people.sort(key=lambda p: p.user_id != user.pk)  # the new host first
        OnlinePlayer.objects.bulk_create(
            OnlinePlayer(table=new, user_id=p.user_id, position=i) for i, p in enumerate(people)
        )
        _changed(table, rematch=new)
        return new


def may_follow_game(request: Any, key: str) -> bool:
    """May this viewer follow game ``key``'s news (push)? A person at the online table whose
    game it is, or whoever holds its live watch link (``may_watch_game``)."""
    user = request.user
    return (
        user.is_authenticated
        and OnlinePlayer.objects.filter(table__game_id=int(key), user=user).exists()
    ) or may_watch_game(request, key)


#: The session's key for the watch links this browser opened: {table id: token}. The stream's
#: token is renewed by a view that hears only the topics (core.views.stream_token), so the
#: watch page leaves its token here; a renewal checks it is still the table's live one.
WATCHING = "online_watching"
#: How many watch links a session remembers (the latest opened): bounded like every input.
MAX_WATCHING = 8


def remember_watching(request: Any, table: OnlineTable, token: str) -> None:
    """The watch page's visitor holds ``token`` (written to the session only when new)."""
    kept = dict(request.session.get(WATCHING) or {})
    if kept.get(str(table.pk)) == token:
        return
    kept.pop(str(table.pk), None)
    kept[str(table.pk)] = token
    request.session[WATCHING] = dict(list(kept.items())[-MAX_WATCHING:])


def may_watch_game(request: Any, key: str) -> bool:
    """Whether this browser opened game ``key``'s table by its watch link, and that link is
    still live (a revoked or replaced link admits no renewal)."""
    tokens = [t for t in (request.session.get(WATCHING) or {}).values() if isinstance(t, str)]
    return bool(tokens) and (
        OnlineTable.objects.filter(game_id=int(key), watch_token__in=tokens).exists()
    )


# -- presence (ONLINE.md 4): "Ada is away" (play.presence) -----------------------------------

#: A visible seat page beats this often (static/js/presence.js), in seconds.
BEAT_SECONDS = presence.BEAT_SECONDS


def beat(table: OnlineTable, seat: str) -> None:
    """The person at ``seat`` is here now, while the table runs (``play.presence``)."""
    if seat and table.status == OnlineTable.Status.PLAYING and table.game_id is not None:
        presence.beat(table.game_id, seat)


def beat_by(table_id: int, user: Any) -> None:
    """A visible seat page's beat (every BEAT_SECONDS for each person at a table: 40 a second
    at issue 31's target): the person's place and its table in one read (SQL written once),
    nothing else; DoesNotExist for anyone not at the table. A beat counts only for a person
    still in play at a running table, as ``beat`` decides."""
    player = (
        select_one(
            OnlinePlayer,
            where=(("table", "="), ("user", "=")),
            values=(table_id, user.pk),
            related=("table",),
        )
        if user.pk is not None
        else None
    )
    if player is None:
        raise OnlineTable.DoesNotExist()
    if player.active:
        beat(player.table, player.seat)


def beat_all(table: OnlineTable, seats: list[str]) -> None:
    """Everyone just dealt in was in the lobby a moment ago: nobody starts away."""
    for seat in seats:
        beat(table, seat)


def away(table: OnlineTable, players: list[OnlinePlayer]) -> list[str]:
    """The seats of the people still in play shown away (``play.presence``): only people's
    seats (a bot is never away) and only a running table."""
    if table.status != OnlineTable.Status.PLAYING or table.game_id is None:
        return []
    return presence.away(table.game_id, [p.seat for p in players if p.seat and p.active])
