"""A duel played on paper, recorded in one service call (issue 16): its representatives
named, its shared cards dealt, its record one `adjudicate` event "played on paper"."""

import pytest

from accounts.models import Role
from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from duels.services import record_of
from tests.factories import EntrantFactory, RoleFactory, UserFactory, group_phase_duel
from tournaments.models import AuditEntry, RoundStatus, SharedCard, SharedCardStatus
from tournaments.services import refereeing
from tournaments.services.refereeing import PAPER_REASON, record_paper_result
from tournaments.services.shared_cards import record_shared_card

pytestmark = pytest.mark.django_db


def fingerprint(tournament):
    return (
        list(
            Duel.objects.filter(tournament=tournament).values_list(
                "pk", "seat_a", "seat_b", "status", "seq"
            )
        ),
        list(tournament.rounds.values_list("number", "status")),
        SharedCard.objects.filter(tournament=tournament, status=SharedCardStatus.PENDING).count(),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


@pytest.fixture
def round1():
    duel, referee = group_phase_duel()
    return duel.tournament, duel, referee


def test_one_call_names_the_players_and_records_the_result(round1):
    tournament, duel, referee = round1
    reds, blues = tournament.groups.order_by("order")
    cara = EntrantFactory(tournament=tournament, group=reds, name="Cara")
    recorded = record_paper_result(
        tournament,
        referee,
        round_number=1,
        first_id=cara.pk,
        second_id=duel.seat_b_id,
        winner_id=duel.seat_b_id,
        note="tablet battery died",
    )
    recorded.refresh_from_db()
    assert recorded.pk == duel.pk and recorded.seat_a == cara
    assert recorded.status == DuelStatus.FINISHED
    assert recorded.result.winner_id == duel.seat_b_id and recorded.result.finish == "adjudicated"
    assert record_of(recorded)["events"] == [
        {"type": "adjudicate", "winner": "B", "reason": PAPER_REASON}
    ]
    assert PAPER_REASON == "played on paper"
    assert tournament.rounds.get(number=1).status == RoundStatus.DECIDED
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN
    entry = AuditEntry.objects.get(tournament=tournament, action="paper_result")
    assert entry.reason == "tablet battery died" and entry.actor == referee
    standings = {r.entrant_id: r.points for r in tournament.standing_rows.all()}
    assert standings[duel.seat_b_id] == 3 and standings[cara.pk] == -2


def test_the_round_opened_before_naming_is_named_and_played_in_the_same_call():
    duel, referee = group_phase_duel()
    tournament = duel.tournament
    Duel.objects.filter(pk=duel.pk).delete()  # round 1 open, nobody named yet
    alice, bob = (tournament.entrants.get(name=n) for n in ("Alice", "Bob"))
    recorded = record_paper_result(
        tournament, referee, round_number=1, first_id=alice.pk, second_id=bob.pk, winner_id=alice.pk
    )
    assert recorded.result.winner == alice
    assert (recorded.seat_a, recorded.seat_b) == (alice, bob)


def test_a_pending_shared_card_is_dealt_into_the_paper_duel(round1):
    tournament, first, referee = round1
    refereeing.append_event(first, referee, {"type": "round", "cards": {"A": 3, "B": 7}}, 0)
    refereeing.append_event(first, referee, {"type": "forfeit", "seat": "B"}, 1)
    alice = first.seat_a
    mate = EntrantFactory(tournament=tournament, group=alice.group, name="Mate")
    dan = EntrantFactory(tournament=tournament, group=first.seat_b.group, name="Dan")
    card = record_shared_card(tournament, referee, alice.pk, mate.pk)
    duel = record_paper_result(
        tournament, referee, round_number=2, first_id=mate.pk, second_id=dan.pk, winner_id=dan.pk
    )
    card.refresh_from_db()
    assert card.status == SharedCardStatus.USED and card.used_in_id == duel.pk
    seat = "A" if duel.seat_a_id == mate.pk else "B"
    assert record_of(duel)["options"]["starting_action_cards"] == {seat: 1}
    assert duel.state["seats"][seat]["action_cards"] == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("not_a_player", "must be one of the duel's two players"),
        ("started", "has started on the console"),
        ("player_referee", "you play in this duel"),
        ("other_referee", "assigned to"),
        ("stranger", "only the tournament's referees and organisers"),
        ("finished", "was already recorded by"),
        ("neither", "choose a round or a duel"),
        ("wrong_group", "is not an active member"),
    ],
)
def test_refusals_change_nothing(round1, case, message):
    tournament, duel, referee = round1
    actor, kwargs = referee, {"round_number": 1, "winner_id": duel.seat_a_id}
    if case == "not_a_player":
        kwargs["winner_id"] = EntrantFactory(tournament=tournament, name="Outsider").pk
    elif case == "started":
        refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 3, "B": 4}}, 0)
    elif case == "player_referee":
        duel.seat_a.user = referee
        duel.seat_a.save()
    elif case == "other_referee":
        Duel.objects.filter(pk=duel.pk).update(
            referee=RoleFactory(tournament=tournament, role=Role.REFEREE).user
        )
    elif case == "stranger":
        actor = UserFactory()
    elif case == "finished":
        record_paper_result(tournament, referee, **kwargs)
        kwargs = {"duel_id": duel.pk, "winner_id": duel.seat_a_id}
    elif case == "neither":
        kwargs = {"winner_id": duel.seat_a_id}
    elif case == "wrong_group":
        kwargs.update(first_id=duel.seat_b_id, second_id=duel.seat_a_id)
    before = fingerprint(tournament)
    with pytest.raises(ServiceError) as err:
        record_paper_result(tournament, actor, **kwargs)
    assert message in err.value.message.lower()
    assert fingerprint(tournament) == before


def test_organiser_records_a_duel_assigned_to_another_referee(round1):
    tournament, duel, referee = round1
    Duel.objects.filter(pk=duel.pk).update(referee=referee)
    duel = record_paper_result(
        tournament, tournament.created_by, duel_id=duel.pk, winner_id=duel.seat_a_id
    )
    assert duel.result.winner_id == duel.seat_a_id


# ---- the form on the rounds page --------------------------------------------------------


def _post(client, tournament, data):
    from django.urls import reverse

    return client.post(reverse("organiser:paper_result", args=[tournament.slug]), data)


@pytest.fixture
def paper_cup():
    """Round 1 open with no duel; a referee, a co-organiser, a linked player, a stranger and
    another tournament's organiser."""
    duel, referee = group_phase_duel()
    tournament = duel.tournament
    Duel.objects.filter(pk=duel.pk).delete()
    alice, bob = (tournament.entrants.get(name=n) for n in ("Alice", "Bob"))
    bob.user = UserFactory()
    bob.save()
    other, _ = group_phase_duel()
    users = {
        "organiser": tournament.created_by,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "referee": referee,
        "player": bob.user,
        "other_staff": other.tournament.created_by,
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return tournament, alice, bob, users


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("organiser", 302),
        ("co_organiser", 302),
        ("referee", 302),
        ("player", 403),
        ("other_staff", 404),
        ("stranger", 404),
        ("anonymous", 404),
    ],
)
def test_role_matrix(paper_cup, who, status):
    from django.test import Client

    tournament, alice, bob, users = paper_cup
    client = Client()
    if users[who] is not None:
        client.force_login(users[who])
    response = _post(
        client, tournament, {"round": 1, "first": alice.pk, "second": bob.pk, "winner": "second"}
    )
    assert response.status_code == status
    played = Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED)
    assert played.exists() is (status == 302)


def test_a_player_who_is_also_referee_cannot_record_their_own_duel(paper_cup):
    from django.test import Client

    tournament, alice, bob, users = paper_cup
    RoleFactory(tournament=tournament, user=bob.user, role=Role.REFEREE)
    client = Client()
    client.force_login(bob.user)
    response = _post(
        client, tournament, {"round": 1, "first": alice.pk, "second": bob.pk, "winner": "second"}
    )
    assert response.status_code == 422
    assert "another referee must run it" in response.content.decode()
    assert not Duel.objects.filter(tournament=tournament, status=DuelStatus.FINISHED).exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"first": "x", "second": "1", "winner": "first"}, "Select a valid choice"),
        ({"winner": "nobody"}, "Select a valid choice"),
        ({"note": "n" * 201}, "at most 200 characters"),
    ],
)
def test_bad_input_is_refused_in_words_and_kept(paper_cup, data, words):
    from django.test import Client

    tournament, alice, bob, users = paper_cup
    client = Client()
    client.force_login(users["organiser"])
    response = _post(client, tournament, {"round": 1, **data})
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not Duel.objects.filter(tournament=tournament).exists()


def test_a_tie_break_style_duel_from_its_card(round1):
    from django.test import Client
    from django.urls import reverse

    tournament, duel, referee = round1
    client = Client()
    client.force_login(referee)
    page = client.get(reverse("organiser:rounds", args=[tournament.slug])).content.decode()
    assert "Played on paper?" in page and f"id_paper{duel.pk}_winner_0" in page
    response = client.post(
        reverse("organiser:paper_duel", args=[tournament.slug, duel.pk]),
        {"winner": "B", "note": "", "rev": str(duel.revision)},  # the revision the card shows
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.result.winner_id == duel.seat_b_id
    page = client.get(reverse("organiser:rounds", args=[tournament.slug])).content.decode()
    assert "played on paper: Bob won" in page
