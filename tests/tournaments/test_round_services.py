"""Naming representatives and sharing cards: every refusal leaves the database unchanged."""

import pytest

from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from tests.factories import EntrantFactory, UserFactory, group_phase_duel
from tournaments.models import AuditEntry, SharedCard, SharedCardStatus
from tournaments.services import refereeing as duel_services
from tournaments.services.rounds import name_representatives
from tournaments.services.shared_cards import record_shared_card

pytestmark = pytest.mark.django_db


def fingerprint(tournament):
    return (
        list(
            Duel.objects.filter(tournament=tournament).values_list(
                "pk", "seat_a", "seat_b", "status", "table", "seq"
            )
        ),
        SharedCard.objects.filter(tournament=tournament).count(),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


@pytest.fixture
def round2():
    """Round 1 played: Alice (Reds) took 1 action card from Bob's 7, then Bob forfeited.

    Alice ends holding one action card, Bob none. Round 2 is open, with no duel yet.
    """
    duel, referee = group_phase_duel()
    duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 3, "B": 7}}, 0)
    duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 1)
    duel.refresh_from_db()
    return duel.tournament, duel, referee


class TestNameRepresentatives:
    def test_even_round_gives_seat_a_to_the_second_group(self, round2):
        tournament, first, referee = round2
        reds, blues = tournament.groups.order_by("order")
        cara = EntrantFactory(tournament=tournament, group=reds, name="Cara")
        dan = EntrantFactory(tournament=tournament, group=blues, name="Dan")
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk, table=" 3 ")
        assert (duel.seat_a, duel.seat_b) == (dan, cara)
        assert (duel.group_a, duel.group_b) == (blues, reds)
        assert duel.table == "3" and duel.status == DuelStatus.READY

    def test_replacing_a_representative_before_the_first_event(self, round2):
        tournament, first, referee = round2
        reds, blues = tournament.groups.order_by("order")
        cara = EntrantFactory(tournament=tournament, group=reds, name="Cara")
        dan = EntrantFactory(tournament=tournament, group=blues, name="Dan")
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
        again = name_representatives(tournament, referee, 2, first.seat_a.pk, dan.pk)
        assert again.pk == duel.pk and again.seat_b == first.seat_a

    @pytest.mark.parametrize(
        ("case", "message"),
        [
            ("wrong_group", "is not an active member of Reds"),
            ("closed_round", "Round 3 is not open"),
            ("not_a_referee", "Only referees and organisers"),
            ("started", "can no longer be replaced"),
            ("stranger", "not in this tournament"),
        ],
    )
    def test_refusals(self, round2, case, message):
        tournament, first, referee = round2
        reds, blues = tournament.groups.order_by("order")
        cara = EntrantFactory(tournament=tournament, group=reds, name="Cara")
        dan = EntrantFactory(tournament=tournament, group=blues, name="Dan")
        args = [tournament, referee, 2, cara.pk, dan.pk]
        if case == "wrong_group":
            args[3] = dan.pk
            args[4] = cara.pk
        elif case == "closed_round":
            args[2] = 3
        elif case == "not_a_referee":
            args[1] = UserFactory()
        elif case == "started":
            duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
            duel_services.append_event(
                duel, referee, {"type": "round", "cards": {"A": 1, "B": 2}}, 0
            )
        elif case == "stranger":
            args[3] = EntrantFactory(name="Elsewhere").pk
        before = fingerprint(tournament)
        with pytest.raises(ServiceError) as err:
            name_representatives(*args)
        assert message in err.value.message
        assert fingerprint(tournament) == before


class TestSharedCards:
    def test_winner_with_an_action_card_gives_one_to_a_group_mate(self, round2):
        tournament, first, referee = round2
        alice = first.seat_a
        assert first.state["seats"]["A"]["action_cards"] == 1
        mate = EntrantFactory(tournament=tournament, group=alice.group, name="Mate")
        card = record_shared_card(tournament, referee, alice.pk, mate.pk)
        assert card.status == SharedCardStatus.PENDING and card.from_duel == first

    @pytest.mark.parametrize(
        ("case", "message"),
        [
            ("no_card", "no action card to give"),
            ("other_group", "is not a current member"),
            ("twice", "already given a card from that duel"),
            ("self", "to themselves"),
            ("switched_off", "switched off"),
            ("never_played", "has not played a group duel"),
        ],
    )
    def test_refusals(self, round2, case, message):
        tournament, first, referee = round2
        alice = first.seat_a
        mate = EntrantFactory(tournament=tournament, group=alice.group, name="Mate")
        giver, receiver = alice, mate
        if case == "no_card":
            bob = first.seat_b
            giver = bob
            receiver = EntrantFactory(tournament=tournament, group=bob.group, name="Blue mate")
        if case == "other_group":
            receiver = first.seat_b
        elif case == "twice":
            record_shared_card(tournament, referee, alice.pk, mate.pk)
            receiver = EntrantFactory(tournament=tournament, group=alice.group, name="Other")
        elif case == "self":
            receiver = alice
        elif case == "switched_off":
            tournament.shared_cards = False
            tournament.save()
        elif case == "never_played":
            giver = EntrantFactory(tournament=tournament, group=alice.group, name="Fresh")
        before = fingerprint(tournament)
        with pytest.raises(ServiceError) as err:
            record_shared_card(tournament, referee, giver.pk, receiver.pk)
        assert message in err.value.message
        assert fingerprint(tournament) == before
