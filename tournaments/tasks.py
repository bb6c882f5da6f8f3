"""Celery tasks: a thin API over the services. Each takes an id and recomputes from committed
data, so a duplicated, late or out-of-order delivery changes nothing."""

import logging
from typing import Any

from celery import shared_task
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.outbox import outboxed
from core import redis_guard
from core.links import absolute

logger = logging.getLogger(__name__)


def enqueue_on_commit(task: Any, *args: Any, **options: Any) -> None:
    """Send `task` once the transaction commits; a broker failure is logged, never raised.

    Like Celery's `delay_on_commit`, but robust: tasks never fail a request (DESIGN.md), a
    Redis that is down or frozen costs one socket timeout at most (`core.redis_guard`), and
    the beat sweep repairs what a lost task left stale. A notification task (`outbox=True`)
    is also written to the outbox in this transaction, so that a lost one is sent by the
    sweep (`accounts.outbox`).
    """
    if getattr(task, "outbox", False):
        from accounts.outbox import notify_on_commit

        notify_on_commit(task, *args)
        return
    redis_guard.send_on_commit(task, *args, **options)


def _tournament(tournament_id: int):
    from .models import Tournament

    return Tournament.objects.filter(pk=tournament_id).first()


@shared_task(acks_late=True)
def recompute_standings(tournament_id: int) -> int | None:
    from .services.standings import recompute_standings as recompute

    tournament = _tournament(tournament_id)
    return recompute(tournament) if tournament else None


@shared_task(acks_late=True)
def advance_tournament(tournament_id: int) -> bool:
    from .services.progression import sync

    tournament = _tournament(tournament_id)
    return bool(tournament and sync(tournament))


@shared_task(bind=True, ignore_result=True)
def warm_live_pages(self, tournament_id: int) -> int:
    """After a change commits: render the new version's live fragments once, ahead of the
    spectators' polls (issue 15, tournaments/live_cache.py)."""
    from core import push

    if self.request.is_eager and not push.enabled():
        # No worker (the embedded default, the tests): rendering here would only slow the
        # request that made the change; the first poll renders it, once, under the lock.
        # (With push on, the pages wait for the pushed parts: rendered here, then.)
        return 0
    from .live_cache import warm

    tournament = _tournament(tournament_id)
    return warm(tournament) if tournament and tournament.published else 0


@shared_task(ignore_result=True)
def push_playing(tournament_id: int, duel_id: int | None = None) -> int:
    """A running duel of the tournament moved: the public parts that show it, rendered once
    and pushed to the spectators' streams (issue 28)."""
    from .live_cache import push_playing as push_parts

    tournament = _tournament(tournament_id)
    return push_parts(tournament, duel_id) if tournament and tournament.published else 0


@shared_task
def sweep() -> dict[str, int]:
    """Beat: repair whatever a lost task left stale. Every step is idempotent.

    Rebuilds standings whose materialised rows are missing, closes duels nobody may play any
    more, takes every tournament's next step, and sends the time-limit warnings that are due
    (as `keep_time` does; the time limit itself is the one clock's, `play.tasks`).
    """
    from duels.models import Duel

    from .models import FINAL_PHASES, Tournament
    from .services.lifecycle import GROUP_KINDS, OPEN, repair
    from .services.progression import sync
    from .services.standings import recompute_standings as recompute

    done = {"advanced": 0, "recomputed": 0, "repaired": 0, **keep_time()}
    # Group duels left open past the group phase by an earlier version (one query).
    for tournament in Tournament.objects.filter(
        phase__in=["tie_breaks", "playoffs", *FINAL_PHASES],
        pk__in=Duel.objects.filter(kind__in=GROUP_KINDS, status__in=OPEN).values("tournament_id"),
    ):
        done["repaired"] += repair(tournament)
    for tournament in Tournament.objects.exclude(phase__in=FINAL_PHASES).exclude(
        phase__in=["draft", "registration"]
    ):
        if tournament.standing_rows.count() != tournament.entrants.count():
            recompute(tournament)
            done["recomputed"] += 1
        done["advanced"] += sync(tournament)
    return done


@shared_task
def expire_claim_links() -> int:
    from .services import expire_claim_links as expire

    return expire()


# Duel time limits (TOURNAMENT.md "No winner"): the deadline is the duel's game's, and the
# table core's one clock ends the duel there (play.clock: the sweep `play.tasks.sweep_deadlines`
# every 5 s, no ETA task for a deadline this far; the tournament's part is
# `refereeing.clock_keeper`). The referee's warning five minutes before is the tournament's
# own, sent by beat every few seconds (`keep_time`).


@shared_task
def keep_time() -> dict[str, int]:
    """Beat: the referee's warning for the running duels whose deadline is five minutes off
    or less (once each: `warn_time_limit` is idempotent), and the no-show rule of online
    duels whose wait has run out (`online_rulings.rule_no_shows`, idempotent too)."""
    from django.utils import timezone

    from duels.models import Duel, DuelStatus

    from .services.refereeing import WARNING_BEFORE, warn_time_limit

    done = {"warned": 0}
    now = timezone.now()
    for duel in Duel.objects.filter(
        status=DuelStatus.RUNNING,
        warned_at__isnull=True,
        game__deadline__lte=now + WARNING_BEFORE,
    ):
        done["warned"] += warn_time_limit(duel, now)
    # ONLINE.md 6: online duels whose players were not all ready in time (no-shows).
    from .services.online_rulings import rule_no_shows

    ruled = rule_no_shows(now)
    done["no_shows"] = ruled["forfeit"] + ruled["void"]
    return done


# Notifications (issue 16): each takes ids, reads committed data, and sends at most once per
# event and person (`accounts.notifications.send_once`); retried when the mail server fails.

# `outbox=True`: enqueue_on_commit writes them to the outbox too (accounts.outbox), and each
# marks its row done when it has run (`outboxed`). A task with these options but without
# `@outboxed` refuses the `due=` it is sent with, so its mail never goes out (merged once):
# tests/accounts/test_outbox.py holds every `outbox=True` task to the decorator.
_RETRY = {
    "acks_late": True,
    "autoretry_for": (OSError,),
    "retry_backoff": True,
    "max_retries": 5,
    "outbox": True,
}


def _me() -> str:
    return absolute(reverse("player:tournaments"))


def _my_duels() -> str:
    return absolute(reverse("player:duels"))


def _players(duel) -> list:
    return [e for e in (duel.seat_a, duel.seat_b) if e is not None and e.user_id]


def _opponent(duel, entrant) -> str:
    other = duel.seat_b if entrant.pk == duel.seat_a_id else duel.seat_a
    return other.name if other else _("an opponent to be named")


# Each e-mail's words are built in its recipient's language (issue 29): the one on their
# account, else the tournament's, else the site's (accounts.notifications.in_language_of).


@shared_task(**_RETRY)
@outboxed
def notify_named(duel_id: int) -> int:
    """The players named to play a duel are told whom they play (once per duel and player)."""
    from accounts.notifications import in_language_of, send_once
    from duels.models import Duel

    from .presentation import duel_title, table_label

    duel = (
        Duel.objects.select_related("tournament", "round", "seat_a__user", "seat_b__user")
        .filter(pk=duel_id, status__in=["pending", "ready"])
        .first()
    )
    if duel is None:
        return 0  # started, finished or voided before the task ran: nothing to say
    t = duel.tournament
    sent = 0
    for entrant in _players(duel):
        with in_language_of(entrant.user, t.language):
            values = {
                "tournament": t.name,
                "title": duel_title(duel),
                "player": entrant.name,
                "opponent": _opponent(duel, entrant),
                "where": table_label(duel.table) if duel.table else "",
                "link": _me(),
            }
            subject = _("%(tournament)s: you play %(title)s") % values
            if duel.online and duel.seat_a_id and duel.seat_b_id:
                # ONLINE.md 6: played on the player's own device; the link opens the duel's
                # ready screen, where the 5 minutes to be ready count down.
                values["link"] = absolute(reverse("player:online_duel", args=[duel.pk]))
                body = _(
                    "%(player)s, you play %(title)s of %(tournament)s against %(opponent)s, "
                    "online: on your own device, the cards dealt by the app.\n"
                    "Open it and say you are ready within 5 minutes: %(link)s\n"
                )
            elif duel.table:
                body = _(
                    "%(player)s, you play %(title)s of %(tournament)s against %(opponent)s.\n"
                    "Where: %(where)s\n\nYour next duel, live: %(link)s\n"
                )
            else:
                body = _(
                    "%(player)s, you play %(title)s of %(tournament)s against %(opponent)s."
                    "\n\nYour next duel, live: %(link)s\n"
                )
            body %= values
        sent += send_once(
            entrant.user,
            f"named:{duel.pk}:{entrant.pk}",
            subject,
            body,
            default_language=t.language,
        )
    return sent


@shared_task(**_RETRY)
@outboxed
def notify_duel_called(duel_id: int, called_at: str) -> int:
    """The players of a duel called to its table are told where (once per call); an online
    duel's, that it is time to open it on their device."""
    from accounts.notifications import in_language_of, send_once
    from duels.models import Duel

    from .presentation import duel_title, table_label

    duel = (
        Duel.objects.select_related("tournament", "round", "seat_a__user", "seat_b__user")
        .filter(pk=duel_id, status__in=["pending", "ready"])
        .first()
    )
    if duel is None or duel.called_at is None or duel.called_at.isoformat() != called_at:
        return 0  # called again since (that call has its own task), or already played
    t = duel.tournament
    sent = 0
    for entrant in _players(duel):
        with in_language_of(entrant.user, t.language):
            values = {
                "tournament": t.name,
                "title": duel_title(duel),
                "where": table_label(duel.table),
                "player": entrant.name,
                "opponent": _opponent(duel, entrant),
                "link": _me(),
            }
            if duel.online:
                # ONLINE.md 6: an online duel has no table to go to; it is opened on the
                # player's own device, where the 5 minutes to be ready count down.
                values["link"] = absolute(reverse("player:online_duel", args=[duel.pk]))
                subject = _("%(tournament)s: %(title)s — open your online duel") % values
                body = (
                    _(
                        "%(player)s, %(title)s against %(opponent)s is called: open it online "
                        "now and say you are ready.\n\nYour duel: %(link)s\n"
                    )
                    % values
                )
            else:
                subject = _("%(tournament)s: %(title)s — go to %(where)s") % values
                body = (
                    _(
                        "%(player)s, %(title)s against %(opponent)s is called to %(where)s now."
                        "\n\nYour duels, live: %(link)s\n"
                    )
                    % values
                )
        sent += send_once(
            entrant.user,
            f"called:{duel.pk}:{called_at}:{entrant.pk}",
            subject,
            body,
            default_language=t.language,
        )
    return sent


@shared_task(**_RETRY)
@outboxed
def notify_playoffs(tournament_id: int) -> int:
    """Every player with an account is told the playoffs are announced (once each)."""
    from accounts.notifications import in_language_of, send_once

    from .models import Entrant

    tournament = _tournament(tournament_id)
    if tournament is None or not tournament.playoff_seeding:
        return 0
    sent = 0
    bracket = absolute(reverse("public:bracket", args=[tournament.slug]))
    for entrant in Entrant.objects.filter(tournament=tournament, user__isnull=False).select_related(
        "user"
    ):
        qualified = entrant.pk in tournament.playoff_seeding
        with in_language_of(entrant.user, tournament.language):
            values = {"tournament": tournament.name, "player": entrant.name, "link": bracket}
            subject = _("%(tournament)s: the playoffs are announced") % values
            if qualified:
                body = _(
                    "%(player)s, the playoff bracket of %(tournament)s is announced: you play "
                    "in it.\n\nThe bracket: %(link)s\n"
                )
            else:
                body = _(
                    "%(player)s, the playoff bracket of %(tournament)s is announced."
                    "\n\nThe bracket: %(link)s\n"
                )
            body %= values
        sent += send_once(
            entrant.user,
            f"playoffs:{tournament.pk}:{entrant.pk}",
            subject,
            body,
            default_language=tournament.language,
        )
    return sent


@shared_task(**_RETRY)
@outboxed
def notify_withdrawal_undone(withdrawal_id: int, restored: list[int], voided: list[int]) -> int:
    """A withdrawal was undone (TOURNAMENT.md "Corrections": "tells whoever was notified"):
    the referee and the players of a duel it had forfeited are told it goes on; the players
    told they were named for a duel the automation created after it are told it is off."""
    from accounts.models import SentNotification
    from accounts.notifications import in_language_of, send_once
    from duels.models import Duel

    from .models import Withdrawal
    from .presentation import duel_off_mail, duel_title, withdrawal_undone_mail

    withdrawal = (
        Withdrawal.objects.select_related("tournament", "entrant").filter(pk=withdrawal_id).first()
    )
    if withdrawal is None or withdrawal.undone_at is None:
        return 0
    t = withdrawal.tournament
    name, who = t.name, withdrawal.entrant.name
    sent = 0
    related = ("round", "referee", "seat_a__user", "seat_b__user")
    for duel in Duel.objects.filter(pk__in=restored).select_related(*related):
        # The referee is sent to the duel's console, a player to their duels.
        console = absolute(reverse("duels:console", args=[t.slug, duel.pk]))
        people = [(duel.referee, console)] if duel.referee else []
        people += [(e.user, _my_duels()) for e in _players(duel)]
        for user, link in people:
            with in_language_of(user, t.language):
                subject, body = withdrawal_undone_mail(name, who, duel_title(duel), link)
            sent += send_once(
                user,
                f"withdrawal-undone:{withdrawal.pk}:{duel.pk}:{user.pk}",
                subject,
                body,
                default_language=t.language,
            )
    for duel in Duel.objects.filter(pk__in=voided).select_related(*related):
        for entrant in _players(duel):
            if not SentNotification.objects.filter(
                user=entrant.user, key=f"named:{duel.pk}:{entrant.pk}"
            ).exists():
                continue  # never told of it: nothing to take back
            with in_language_of(entrant.user, t.language):
                subject, body = duel_off_mail(name, entrant.name, who, duel_title(duel), _me())
            sent += send_once(
                entrant.user,
                f"withdrawal-undone:{withdrawal.pk}:{duel.pk}:{entrant.user_id}",
                subject,
                body,
                default_language=t.language,
            )
    return sent
