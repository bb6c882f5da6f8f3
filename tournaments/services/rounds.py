"""Naming a round's representatives and giving its duel a table (TOURNAMENT.md, "Rounds")."""

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.permissions import Action, can
from core.errors import ServiceError
from duels import services as duels
from duels.models import DuelKind

from .. import format as fmt
from ..models import Entrant, EntrantStatus, Phase, Round, RoundStatus, Tournament
from . import audit, lifecycle
from .setup import lock


@transaction.atomic
def name_representatives(
    tournament: Tournament, actor, number: int, first_id: int, second_id: int, table: str = ""
):
    """Name (or replace, until the duel's first event) the two players of a round's duel.

    `first_id` represents the first-named group, `second_id` the other.
    """
    tournament = lock(tournament)
    if not can(actor, Action.NAME_REPRESENTATIVES, tournament):
        raise ServiceError(
            _("Only referees and organisers name representatives."), code="forbidden"
        )
    if tournament.phase != Phase.GROUP_PHASE:
        raise ServiceError(_("Representatives are named during the group phase."))
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None or rnd.status != RoundStatus.OPEN:
        raise ServiceError(_("Round %(number)s is not open.") % {"number": number})
    groups = list(tournament.groups.order_by("order"))
    named = {
        e.pk: e for e in Entrant.objects.filter(tournament=tournament, pk__in=[first_id, second_id])
    }
    for entrant_id, group in ((first_id, groups[0]), (second_id, groups[1])):
        entrant = named.get(entrant_id)
        if entrant is None:
            raise ServiceError(_("That player is not in this tournament."))
        if entrant.status != EntrantStatus.ACTIVE or entrant.group_id != group.pk:
            raise ServiceError(
                _("%(name)s is not an active member of %(group)s.")
                % {"name": entrant.name, "group": group.name}
            )
    table = duels.clean_table(table)
    duel = rnd.duels.filter(status__in=lifecycle.OPEN).first()
    if duel is not None and duel.kind == DuelKind.REPLAY:
        raise ServiceError(_("A replay is played by the same players on the same seats."))
    pairs = [(named[first_id], groups[0]), (named[second_id], groups[1])]
    if fmt.seat_a_group(number, [g.pk for g in groups]) != groups[0].pk:
        pairs.reverse()
    (seat_a, group_a), (seat_b, group_b) = pairs
    if duel is None:
        duel = duels.create_duel(
            tournament=tournament,
            kind=DuelKind.GROUP,
            round=rnd,
            ruleset=tournament.duel_preset,
            variants=tournament.variants,
            options={"truth_dare": False},
            seat_a_id=seat_a.pk,
            seat_b_id=seat_b.pk,
            group_a_id=group_a.pk,
            group_b_id=group_b.pk,
            table=table,
        )
    else:
        duels.name_seats(
            duel, seat_a=seat_a, seat_b=seat_b, group_a=group_a, group_b=group_b, table=table
        )
    audit.record(
        tournament,
        actor,
        "representatives_named",
        round=number,
        seat_a=seat_a.pk,
        seat_b=seat_b.pk,
        table=table,
    )
    audit.bump_version(tournament)
    from ..tasks import enqueue_on_commit, notify_named

    enqueue_on_commit(notify_named, duel.pk)  # sent once per duel and player, if they opted in
    return duel
