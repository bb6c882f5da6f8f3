"""Online tournament duels (issue 31, ONLINE.md 6) at the same instant, threads on PostgreSQL:
both players saying "ready" at once, both seats sealing from pages of the same revision, a seal
racing an action card, a seal racing its own seat's clock, a withdrawal racing a seal. Every
write of a duel locks the tournament's row, then the duel's: one outcome each, never two, and
after each the duel's record replays with the engine to the same state and every card is in
its one place. Skipped without PostgreSQL, like the other real-service tests."""

import os
from datetime import timedelta

import pytest
from django.db import connection

from duels.models import Duel, DuelStatus
from duels.services import record_of
from games.split_uno import Duel as EngineDuel
from play import clock
from play.adapters.base import Command, Viewer
from play.adapters.split_uno_dealt import conservation_problems
from play.models import Game, GameEvent, Seat
from play.selectors import restore, view_of
from tests.factories import EntrantFactory
from tests.tournaments.test_online_duels import online_duel
from tournaments import services
from tournaments.models import Withdrawal
from tournaments.services import online

from . import races

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name a PostgreSQL database")
    assert connection.vendor == "postgresql"


def outcome(result: object) -> str:
    """A call's result in words: a move applied, or what the clock did."""
    if result is True:
        return "clock played"
    if result is False:
        return "clock did nothing"
    return "applied"


def refusal(err) -> str:
    return type(err).__name__ if type(err).__name__ != "ServiceError" else err.code


def started() -> tuple[Duel, dict]:
    """An online duel both players are ready for: dealt, its seat clocks running."""
    duel, _referee, alice, bob = online_duel()
    online.ready(duel_id=duel.pk, user=alice)
    online.ready(duel_id=duel.pk, user=bob)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.RUNNING and duel.game_id is not None
    return duel, {"A": alice, "B": bob}


def seal(duel: Duel, players: dict, seat: str, revision: int, key: str):
    """A seat's seal of its lowest card, sent from a page drawn at ``revision``."""
    cards = view_of(duel.game_id, Viewer("seat", seat))["commands"]["seal"]["cards"]
    command = Command("seal", seat, {"card": cards[0]})
    return lambda: online.play_move(
        duel_id=duel.pk, user=players[seat], command=command, revision=revision, intent=key
    )


def public_events(duel: Duel) -> list[dict]:
    return [
        {**public, "by": by}
        for by, public in GameEvent.objects.filter(game_id=duel.game_id, undone_at=None)
        .order_by("seq")
        .values_list("by", "public")
    ]


def assert_replays_and_conserves(duel: Duel) -> None:
    """The duel's record (an ordinary one) replays with the engine to the duel's state, and
    every card of the dealt game is in exactly one place."""
    duel.refresh_from_db()
    game = Game.objects.get(pk=duel.game_id)
    assert duel.revision == game.revision
    assert EngineDuel.from_record(record_of(duel)).state() == duel.state
    assert conservation_problems(restore(game).table) == []


def test_both_players_ready_at_once_deal_one_game():
    duel, _referee, alice, bob = online_duel()
    outcomes = races.race(
        [
            lambda: online.ready(duel_id=duel.pk, user=alice),
            lambda: online.ready(duel_id=duel.pk, user=bob),
        ],
        done=outcome,
        refused=refusal,
    )
    assert outcomes == ["applied", "applied"]
    duel.refresh_from_db()
    assert duel.ready_a and duel.ready_b
    assert duel.status == DuelStatus.RUNNING and duel.game_id is not None
    assert Game.objects.count() == 1  # dealt once, never twice
    assert [e["type"] for e in public_events(duel)].count("deal") == 1
    # Saying it again, both at once, once it started, changes nothing.
    again = races.race(
        [
            lambda: online.ready(duel_id=duel.pk, user=alice),
            lambda: online.ready(duel_id=duel.pk, user=bob),
        ],
        done=outcome,
        refused=refusal,
    )
    assert again == ["applied", "applied"] and Game.objects.count() == 1
    assert_replays_and_conserves(duel)


def test_both_seats_sealing_at_once_from_the_same_page_both_count_the_round_revealed_once():
    duel, players = started()
    drawn = duel.revision
    outcomes = races.race(
        [seal(duel, players, "A", drawn, "a1"), seal(duel, players, "B", drawn, "b1")],
        done=outcome,
        refused=refusal,
    )
    # The second is overtaken only by the other's seal: it still counts (ONLINE.md 2).
    assert outcomes == ["applied", "applied"]
    events = public_events(duel)
    assert sorted(e["seat"] for e in events if e["type"] == "seal") == ["A", "B"]
    assert [e["type"] for e in events].count("round") == 1
    duel.refresh_from_db()
    assert duel.state["rounds"] == 1
    assert_replays_and_conserves(duel)


def test_a_seal_racing_an_action_card_is_returned_or_stale_never_lost_half_way():
    duel, _referee, alice, bob = online_duel(starting_action_cards={"A": 6})
    online.ready(duel_id=duel.pk, user=alice)
    online.ready(duel_id=duel.pk, user=bob)
    duel.refresh_from_db()
    players = {"A": alice, "B": bob}
    drawn = duel.revision
    offer = view_of(duel.game_id, Viewer("seat", "A"))["commands"]["play"]
    card = next(c for c in offer["cards"] if c != "block")  # a blocked Bo would sit out
    action = Command("play", "A", {"card": card, "color": "red"})
    outcomes = races.race(
        [
            lambda: online.play_move(
                duel_id=duel.pk, user=alice, command=action, revision=drawn, intent="a1"
            ),
            seal(duel, players, "B", drawn, "b1"),
        ],
        done=outcome,
        refused=refusal,
    )
    events = public_events(duel)
    plays = [e for e in events if e["type"] == "play"]
    assert len(plays) == 1 and plays[0]["seat"] == "A"  # the action card, once
    if outcomes == ["applied", "applied"]:
        # Bo's seal first: Ada's page was overtaken only by it, her card still counts and
        # hands the seal back to Bo (ONLINE.md 2).
        assert [e["type"] for e in events].index("seal") < events.index(plays[0])
        assert plays[0]["returned"] == ["B"]
    else:
        # Ada's card first: Bo's page is out of date (not only a seal came since).
        assert outcomes == ["Stale", "applied"]
        assert not [e for e in events if e["type"] == "seal"]
    assert "B" not in view_of(duel.game_id, Viewer("public"))["sealed"]
    assert_replays_and_conserves(duel)


def test_a_seal_racing_its_own_seat_clock_is_one_move_never_two():
    duel, players = started()
    seen = set()
    for attempt in range(2):  # two rounds: fewer than three clock-outs, never an abandonment
        duel.refresh_from_db()
        drawn = duel.revision
        deadline = Seat.objects.get(game_id=duel.game_id, letter="A").deadline
        assert deadline is not None  # A is asked to seal, on the clock
        outcomes = races.race(
            [
                seal(duel, players, "A", drawn, f"a{attempt}"),
                # The clock's moment, injected: a second after A's deadline.
                lambda deadline=deadline: clock.act_if_due(
                    duel.game_id, now=deadline + timedelta(seconds=1)
                ),
            ],
            done=outcome,
            refused=refusal,
        )
        # Either A's seal, the clock then finding nothing due; or the clock's seal for A,
        # A's page then out of date (a seal overtaken by its own seat's move is stale).
        assert outcomes in (["applied", "clock did nothing"], ["Stale", "clock played"])
        seen.add(tuple(outcomes))
        since = [e for e in public_events(duel) if e.get("seat") == "A" and e["type"] == "seal"]
        assert len(since) == attempt + 1  # one seal of A this round, whoever sent it
        if outcomes[1] == "clock played":
            assert since[-1]["by"] == clock.CLOCK
        duel.refresh_from_db()
        assert duel.status == DuelStatus.RUNNING
        assert_replays_and_conserves(duel)
        # B seals: the round is revealed once and the next begins.
        seal(duel, players, "B", duel.revision, f"b{attempt}")()
        duel.refresh_from_db()
        assert duel.state["rounds"] == attempt + 1
        if duel.status != DuelStatus.RUNNING or duel.state.get("pending"):
            break
    assert seen  # which order won is the race's; each was one outcome


def test_a_withdrawal_racing_a_seal_forfeits_once_with_or_without_the_seal():
    duel, players = started()
    tournament = duel.tournament
    # A sixth member, so that Alice's leaving is a plain change (no group eliminated).
    EntrantFactory(tournament=tournament, name="Reds 6", group=duel.group_a)
    organiser = tournament.created_by
    drawn = duel.revision
    outcomes = races.race(
        [
            lambda: services.withdraw(
                tournament, organiser, duel.seat_a_id, reason="left", confirm=True
            ),
            seal(duel, players, "B", drawn, "b1"),
        ],
        done=outcome,
        refused=refusal,
    )
    # The seal came first (then the forfeit ended the duel) or the forfeit did (then the
    # seal is refused in words: the duel is over).
    assert outcomes in (["applied", "applied"], ["applied", "closed"]), outcomes
    assert Withdrawal.objects.filter(tournament=tournament).count() == 1
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.winner_id == duel.seat_b_id and duel.result.loser_id == duel.seat_a_id
    events = public_events(duel)
    assert [e["type"] for e in events].count("resign") == 1
    forfeits = [e for e in record_of(duel)["events"] if e["type"] == "forfeit"]
    assert forfeits == [{"type": "forfeit", "seat": "A", "reason": "withdrawn"}]
    b_seals = [e for e in events if e["type"] == "seal" and e["seat"] == "B"]
    assert len(b_seals) == (1 if outcomes.count("applied") == 2 else 0)
    assert_replays_and_conserves(duel)
