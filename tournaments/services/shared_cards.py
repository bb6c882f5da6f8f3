"""Shared action cards (002 §8.1, TOURNAMENT.md "Group phase")."""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus

from ..models import Entrant, EntrantStatus, Phase, SharedCard, SharedCardStatus, Tournament
from . import audit
from .setup import lock


def _last_duel(entrant: Entrant):
    return (
        Duel.objects.filter(Q(seat_a=entrant) | Q(seat_b=entrant))
        .exclude(status__in=["void", "abandoned"])
        .order_by("-created_at", "-pk")
        .first()
    )


@transaction.atomic
def record_shared_card(
    tournament: Tournament, actor, giver_id: int, receiver_id: int
) -> SharedCard:
    """Record, on both players' word, that `giver` gives one action card to `receiver`."""
    tournament = lock(tournament)
    if not can(actor, Action.RECORD_SHARED_CARD, tournament):
        raise ServiceError(_("Only referees and organisers record shared cards."), code="forbidden")
    if not tournament.shared_cards:
        raise ServiceError(_("Shared cards are switched off in this tournament."))
    if tournament.phase != Phase.GROUP_PHASE:
        raise ServiceError(_("Cards are shared only during the group phase."))
    people = {e.pk: e for e in tournament.entrants.filter(pk__in=[giver_id, receiver_id])}
    giver, receiver = people.get(giver_id), people.get(receiver_id)
    if giver is None or receiver is None:
        raise ServiceError(_("Both players must be in this tournament."))
    if giver.pk == receiver.pk:
        raise ServiceError(_("A player cannot give a card to themselves."))
    players = [giver.user_id, receiver.user_id]
    if not can(actor, Action.RECORD_SHARED_CARD, tournament, players=[p for p in players if p]):
        raise ServiceError(
            _("You are one of these players: another referee records it."), code="forbidden"
        )
    for entrant in (giver, receiver):
        if entrant.status != EntrantStatus.ACTIVE:
            raise ServiceError(
                _("%(name)s is no longer an active player.") % {"name": entrant.name}
            )
    if giver.group_id is None or giver.group_id != receiver.group_id:
        raise ServiceError(
            _("%(receiver)s is not a current member of %(giver)s's group.")
            % {"receiver": receiver.name, "giver": giver.name}
        )
    duel = _last_duel(giver)
    if duel is None or duel.kind not in (DuelKind.GROUP, DuelKind.REPLAY):
        raise ServiceError(_("%(name)s has not played a group duel yet.") % {"name": giver.name})
    if duel.status != DuelStatus.FINISHED:
        raise ServiceError(
            _(
                "%(name)s's next duel has already started (or their last one is still running): "
                "the card can no longer be given."
            )
            % {"name": giver.name}
        )
    seat = "A" if duel.seat_a_id == giver.pk else "B"
    if not duel.state or duel.state["seats"][seat]["action_cards"] < 1:
        raise ServiceError(
            _("%(name)s ended their last duel with no action card to give.") % {"name": giver.name}
        )
    if SharedCard.objects.filter(giver=giver, from_duel=duel).exists():
        raise ServiceError(
            _("%(name)s has already given a card from that duel.") % {"name": giver.name}
        )
    if SharedCard.objects.filter(receiver=receiver, status=SharedCardStatus.PENDING).exists():
        raise ServiceError(
            _("%(name)s already holds a pending gift: one at a time.") % {"name": receiver.name}
        )
    card = SharedCard.objects.create(
        tournament=tournament, giver=giver, receiver=receiver, from_duel=duel, recorded_by=actor
    )
    audit.record(
        tournament,
        actor,
        "shared_card_recorded",
        giver=giver.pk,
        receiver=receiver.pk,
        from_duel=duel.pk,
    )
    return card


def lapse_gifts(tournament: Tournament, receivers=None, reason: str = "") -> int:
    """Pending gifts lapse when the receiver changes groups, withdraws, is eliminated, or the
    group phase ends."""
    pending = SharedCard.objects.filter(tournament=tournament, status=SharedCardStatus.PENDING)
    if receivers is not None:
        pending = pending.filter(receiver__in=receivers)
    return pending.update(status=SharedCardStatus.LAPSED)


def restore_gifts(tournament: Tournament, gift_ids) -> int:
    """Gifts that lapsed because of a withdrawal now undone are pending again (the receiver is
    back in the group they were given in)."""
    return SharedCard.objects.filter(
        tournament=tournament, pk__in=list(gift_ids), status=SharedCardStatus.LAPSED
    ).update(status=SharedCardStatus.PENDING)


def pending_gifts(duel: Duel) -> dict[str, SharedCard]:
    """Seat → the pending shared card its player would start this duel with."""
    by_receiver = {
        g.receiver_id: g
        for g in SharedCard.objects.filter(
            receiver_id__in=[duel.seat_a_id, duel.seat_b_id], status=SharedCardStatus.PENDING
        )
    }
    seats = {"A": duel.seat_a_id, "B": duel.seat_b_id}
    return {seat: by_receiver[pk] for seat, pk in seats.items() if pk in by_receiver}


def starting_gifts(duel: Duel) -> dict[str, int]:
    """Seat → 1 for each player this duel's first move will deal a shared card to: only a
    group duel (not a replay) of a tournament with shared cards, before its first move."""
    if duel.seq or duel.kind != DuelKind.GROUP or not duel.tournament.shared_cards:
        return {}
    return {seat: 1 for seat in pending_gifts(duel)}


def start_options(duel: Duel) -> dict:
    """The engine options this duel will start with (shared cards dealt in a group duel)."""
    gifts = starting_gifts(duel)
    return {**duel.options, "starting_action_cards": gifts} if gifts else dict(duel.options)


def deal_gifts(duel: Duel) -> dict[str, int]:
    """At a group duel's first move: its players' pending gifts are used, dealt as one extra
    action card each. Returns seat → 1 for the engine's options."""
    gifts = pending_gifts(duel)
    for gift in gifts.values():
        gift.status = SharedCardStatus.USED
        gift.used_in = duel
        gift.save(update_fields=["status", "used_in"])
    return {seat: 1 for seat in gifts}
