"""Casual tables' services: opening (bounds, the deck, the 50 kept), moves under an expected
revision, undo, refusals that store nothing, and the record replayed by the engine's CLI."""

import json
import subprocess
import sys

import pytest

from core.errors import ServiceError
from play.models import Game, GameEvent, GameStatus
from tables import selectors, services
from tables.models import CasualTable
from tests.factories import UserFactory
from tests.tables.helpers import moves, play, rev, status, three_seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def test_a_three_seat_table_raises_max_seats_and_keeps_the_usual_pool(ada):
    table = services.open_table(owner=ada, ruleset="tournament", names=["Ann", " Bo ", "Cy"])
    assert table.seats == ["Ann", "Bo", "Cy"]
    # 3 × 20 = 60 fits the pool of 108: only the seat limit is raised.
    assert table.options == {"max_seats": 3}
    assert table.names == {"A": "Ann", "B": "Bo", "C": "Cy"}


def test_six_seats_get_a_pool_that_leaves_68_after_the_deal(ada):
    table = services.open_table(owner=ada, ruleset="official", names=list("UVWXYZ"))
    assert table.options == {"number_pool": 68 + 20 * 6}
    state = services.engine_of(table).state()
    assert state["decks"]["number"] == 68


def test_two_seats_on_tournament_rules_need_no_option(ada):
    table = services.open_table(owner=ada, ruleset="tournament", names=["Ann", "Bo"])
    assert table.options == {} and table.teams is None


def test_teams_go_into_the_record(ada):
    table = services.open_table(
        owner=ada,
        ruleset="official",
        names=["Ann", "Bo", "Cy", "Di"],
        variants=["team"],
        teams=[["A", "C"], ["B", "D"]],
    )
    record = services.record_of(table)
    assert record["teams"] == [["A", "C"], ["B", "D"]] and record["variants"] == ["team"]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"names": ["Ann"]}, "2 to 6 seats"),
        ({"names": list("ABCDEFG")}, "2 to 6 seats"),
        ({"names": ["Ann", "   "]}, "Give seat B a name"),
        ({"names": ["Ann", "x" * 41]}, "longer than 40"),
        ({"names": ["Ann", "a\x00b"]}, "control characters"),
        ({"names": ["Ann", "ANN"]}, "Two seats are called"),
        ({"ruleset": "house"}, "rulesets offered"),
        ({"variants": ["team"]}, "Teams go with the team variant"),
        ({"variants": ["turbo"]}, "variants among those offered"),
        ({"number_cards": 0}, "1 to 20 number cards"),
        ({"action_cards": 6}, "0 to 5 action cards"),
        (
            {
                "names": ["A1", "B1", "C1", "D1"],
                "variants": ["team"],
                "teams": [["A", "B", "C"], ["D"]],
            },
            "engine refuses",
        ),
    ],
)
def test_a_refused_table_stores_nothing(ada, kwargs, words):
    args = {"ruleset": "official", "names": ["Ann", "Bo", "Cy"], **kwargs}
    with pytest.raises(ServiceError, match=words):
        services.open_table(owner=ada, **args)
    assert CasualTable.objects.count() == 0


def test_a_person_keeps_their_latest_50_tables(ada):
    other = UserFactory()
    theirs = services.open_table(owner=other, ruleset="official", names=["X", "Y"])
    first = three_seats(ada)
    play(first, ada, {"type": "round", "cards": {"A": 9, "B": 1, "C": 2}})
    for _ in range(services.KEEP_TABLES - 1):
        services.open_table(owner=ada, ruleset="official", names=["Ann", "Bo"])
    assert CasualTable.objects.filter(owner=ada).count() == 50
    services.open_table(owner=ada, ruleset="official", names=["Ann", "Bo"])  # the 51st
    assert CasualTable.objects.filter(owner=ada).count() == 50
    assert not CasualTable.objects.filter(pk=first.pk).exists()
    # Its game goes with it, moves and all.
    assert not Game.objects.filter(pk=first.game_id).exists()
    assert not GameEvent.objects.filter(game_id=first.game_id).exists()
    assert Game.objects.count() == 51
    assert CasualTable.objects.filter(pk=theirs.pk).exists()  # nobody else's table goes


def test_moves_a_challenge_passed_round_the_table_and_a_forfeit(ada):
    table = three_seats(ada)
    play(table, ada, {"type": "round", "cards": {"A": 9, "B": 1, "C": 2}})
    state = services.engine_of(table).state()
    # Ann is at 0: Bo is asked first, then Cy (the seat after the potential winner, 11.6).
    assert state["awaiting"]["decision"] == "challenge" and state["awaiting"]["seat"] == "B"
    play(table, ada, {"type": "respond", "seat": "B", "choice": "pass"})
    assert services.engine_of(table).state()["awaiting"]["seat"] == "C"
    play(table, ada, {"type": "respond", "seat": "C", "choice": "draw_two"})
    play(table, ada, {"type": "forfeit", "seat": "B", "reason": "left"})
    assert status(table) == GameStatus.PLAYING  # two seats still in play
    play(table, ada, {"type": "forfeit", "seat": "C", "reason": "left too"})
    state = services.engine_of(table).state()
    assert status(table) == GameStatus.FINISHED
    assert (state["winner"], state["finish"]) == ("A", "forfeit")
    with pytest.raises(ServiceError, match="over"):
        play(table, ada, {"type": "time_limit"})


def test_a_stale_or_illegal_move_stores_nothing(ada):
    table = three_seats(ada)
    play(table, ada, {"type": "round", "cards": {"A": 5, "B": 1, "C": 2}})
    stale = rev(table) - 1
    with pytest.raises(services.Conflict):
        services.append_event(
            table_id=table.pk,
            actor=ada,
            event={"type": "round", "cards": {"A": 5, "B": 1, "C": 2}},
            expected_revision=stale,
        )
    with pytest.raises(ServiceError) as illegal:
        # A 7 with three seats must name its target.
        play(table, ada, {"type": "round", "cards": {"A": 7, "B": 1, "C": 2}})
    assert illegal.value.code == "illegal"
    assert moves(table).count() == 1
    assert rev(table) == 1


def test_undo_takes_back_even_the_ending_and_keeps_the_row(ada):
    table = three_seats(ada)
    play(table, ada, {"type": "adjudicate", "winner": "C", "reason": "agreed"})
    assert status(table) == GameStatus.FINISHED
    services.undo(table_id=table.pk, actor=ada, expected_revision=rev(table))
    assert (status(table), selectors.console(table).seq, rev(table)) == (GameStatus.PLAYING, 0, 2)
    assert moves(table).get().undone_at is not None
    with pytest.raises(ServiceError, match="no move to undo"):
        services.undo(table_id=table.pk, actor=ada, expected_revision=rev(table))


def test_only_referees_move(ada):
    table = three_seats(ada)
    stranger = UserFactory()
    with pytest.raises(ServiceError) as refused:
        services.append_event(
            table_id=table.pk, actor=stranger, event={"type": "time_limit"}, expected_revision=0
        )
    assert refused.value.code == "hidden"  # answered 404: the table is none of theirs
    assert rev(table) == 0
    token = services.invite_co_referee(table_id=table.pk, actor=ada)
    services.accept_invitation(token=token, user=stranger)
    play(table, stranger, {"type": "time_limit"})
    assert moves(table).count() == 1 and status(table) == GameStatus.FINISHED


def test_an_invitation_works_once_and_not_for_the_owner(ada):
    table = three_seats(ada)
    token = services.invite_co_referee(table_id=table.pk, actor=ada)
    with pytest.raises(ServiceError, match="your own table"):
        services.accept_invitation(token=token, user=ada)
    bo, cy = UserFactory(), UserFactory()
    services.accept_invitation(token=token, user=bo)
    with pytest.raises(ServiceError, match="no longer valid"):
        services.accept_invitation(token=token, user=cy)
    assert not services.may_referee(cy, table) and services.may_referee(bo, table)
    # Stored as a hash only.
    assert token not in str(list(table.co_referees.values()))


def test_tokens_are_stored_as_hashes_and_revocable(ada):
    table = three_seats(ada)
    token = services.make_replay_link(table_id=table.pk, actor=ada)
    table.refresh_from_db()
    assert table.replay_token_hash == services.token_hash(token) != token
    assert services.table_for_replay(token) == table
    newer = services.make_replay_link(table_id=table.pk, actor=ada)
    assert services.table_for_replay(token) is None and services.table_for_replay(newer) == table
    services.revoke_replay_link(table_id=table.pk, actor=ada)
    assert services.table_for_replay(newer) is None


def test_the_record_replays_with_the_cli_to_the_same_state(ada, tmp_path):
    table = services.open_table(
        owner=ada,
        ruleset="official",
        names=["Ann", "Bo", "Cy", "Di"],
        variants=["team"],
        teams=[["A", "C"], ["B", "D"]],
    )
    play(
        table,
        ada,
        {
            "type": "round",
            "cards": {"A": 7, "B": 0, "C": 9, "D": 2},
            "targets": {"A": "B", "B": "C"},
        },
        {"type": "round", "cards": {"A": 3, "B": 8, "C": 8, "D": 1}},
    )
    # An undone move is not part of the record.
    play(table, ada, {"type": "round", "cards": {"A": 1, "B": 2, "C": 3, "D": 4}})
    services.undo(table_id=table.pk, actor=ada, expected_revision=rev(table))
    record = services.record_of(table)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "duels.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    # The state the console shows is the state the CLI prints from the downloaded record.
    assert json.loads(done.stdout) == selectors.console(table).state
    assert json.loads(done.stdout)["events"] == 2
