"""Seat clocks of dealt games in the table core (issue 31): the one clock (``play.clock``, an
injected time, never a sleep) plays a seat at its deadline through the write path, a returned
seal's clock starts again, three clock-outs hand a seat to a bot (its ``Seat`` row follows), and
``hand_seat_to_bot`` is a product's take-over: one transaction, idempotent, saying whether a
person is left. The commands ``timeout`` and ``take_over`` are the core's alone."""

from datetime import UTC, datetime, timedelta

import pytest

from play import clock, selectors, services
from play.adapters.base import Command, Viewer
from play.adapters.split_uno_dealt import clock_move
from play.errors import Forbidden, Refused
from play.models import Game, GameEvent, GameStatus, HolderKind, Seat
from play.selectors import restore
from play.services import Actor, Holder, apply_command, hand_seat_to_bot, start_game
from tests.play.test_adapter_split_uno_dealt import snapshot

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 27, 21, 0, tzinfo=UTC)
SEED = bytes(range(16))
ADA = Actor("user:1")


@pytest.fixture
def now(monkeypatch):
    """The one time the write path and the clock read; a test moves it."""
    moment = [START]
    monkeypatch.setattr(services, "_clock", lambda: moment[0])
    monkeypatch.setattr(clock, "_now", lambda: moment[0])
    return moment


def dealt_game(seats: str = "AB", bots: str = "", **config) -> Game:
    holders = {
        s: Holder(HolderKind.BOT, bot_level="heuristic")
        if s in bots
        else Holder(HolderKind.ACCOUNT)
        for s in seats
    }
    config = {"ruleset": "tournament", "seat_clock": 30, "bots": list(bots)} | config
    return start_game(
        kind="split_uno_dealt", config=config, seats=list(seats), holders=holders, seed=SEED
    )


def anyone(game, actor, command) -> None:
    """A product's policy that lets every actor play every seat."""


def send(game: Game, command: Command, actor: Actor = ADA):
    game.refresh_from_db()
    return apply_command(
        game_id=game.pk,
        actor=actor,
        command=command,
        key="",
        seen_revision=game.revision,
        policy=anyone,
    )


def deadlines(game: Game) -> dict[str, datetime | None]:
    return dict(Seat.objects.filter(game=game).values_list("letter", "deadline"))


def clock_events(game: Game) -> list[tuple[str, dict]]:
    rows = GameEvent.objects.filter(game=game, by="clock").order_by("seq")
    return [(row["public"]["type"], row["public"].get("seat")) for row in rows.values("public")]


def test_the_clock_plays_each_seat_at_its_deadline_and_a_returned_seals_clock_starts_again(now):
    game = dealt_game(options={"starting_action_cards": {"A": 6}})
    assert deadlines(game) == dict.fromkeys("AB", START + timedelta(seconds=30))
    now[0] = START + timedelta(seconds=10)
    send(game, _own(game, "B"), Actor("user:2"))
    # Bo has sealed: no clock for Bo; Ada's keeps running.
    assert deadlines(game) == {"A": START + timedelta(seconds=30), "B": None}
    now[0] = START + timedelta(seconds=20)
    restored = restore(game)
    held = restored.adapter.view(restored.table, Viewer("seat", "A"))["hand"]["actions"]
    card = next(card for card in held if card != "block")  # a blocked Bo would sit out
    send(game, Command("play", "A", {"card": card, "color": "red"}))
    # Bo's seal went back to Bo: a fresh clock from the action card, as the adapter asks.
    game.refresh_from_db()
    assert "B" in [entry["seat"] for entry in game.awaited]
    assert deadlines(game)["B"] == START + timedelta(seconds=50)
    assert clock.act_if_due(game.pk, now=START + timedelta(seconds=49)) is False
    now[0] = START + timedelta(seconds=50)
    assert clock.check_on_request(game.pk) is True  # every seat past its deadline, one act each
    assert clock.check_on_request(game.pk) is False
    assert {seat for _, seat in clock_events(game)} == {"A", "B"}
    game.refresh_from_db()
    assert all(d is None or d > now[0] for d in deadlines(game).values())


def test_three_clock_outs_forfeit_the_seat_through_the_core(now):
    game = dealt_game(bots="B")
    for k in range(1, 4):
        now[0] = START + timedelta(seconds=30 * k)
        assert clock.sweep() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.next_deadline is None
    types = [t for t, _ in clock_events(game)]
    assert types[-1] == "abandon" and len(types) == 4
    last = GameEvent.objects.filter(game=game).latest("seq").public
    assert last["engine"] == {"type": "forfeit", "seat": "A", "reason": "abandoned"}


def test_three_clock_outs_hand_the_seat_to_a_bot_and_its_row_follows(now):
    game = dealt_game("ABC", bots="C", on_abandon="bot")
    for k in range(1, 40):
        now[0] = START + timedelta(seconds=30 * k)
        # Bo seals his own card each round; Ada lets her clock play.
        game.refresh_from_db()
        if any(entry["seat"] == "B" for entry in game.awaited):
            send(game, _own(game, "B"), Actor("user:2"))
        clock.sweep()
        if Seat.objects.get(game=game, letter="A").holder == HolderKind.BOT:
            break
    seat = Seat.objects.get(game=game, letter="A")
    assert (seat.holder, seat.bot_level) == (HolderKind.BOT, "heuristic")
    assert [t for t, _ in clock_events(game)][-1] == "take_over"
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING
    assert [(e["seat"], e["seconds"]) for e in game.awaited] == [("B", 30)]
    assert selectors.persons_left(game) is True


def _own(game: Game, seat: str) -> Command:
    """What the clock would play for ``seat``, sent as the seat's own command."""
    command = clock_move(restore(game).table, seat)
    assert command is not None
    return command


def test_hand_seat_to_bot_returns_the_seals_once_and_says_whether_a_person_is_left(now):
    game = dealt_game("ABC", bots="C")
    send(game, _own(game, "B"), Actor("user:2"))
    game.refresh_from_db()
    revision = game.revision
    assert hand_seat_to_bot(game_id=game.pk, seat="A", actor=ADA) is True
    game.refresh_from_db()
    assert game.revision == revision + 1
    taken = GameEvent.objects.filter(game=game, revision=game.revision).order_by("seq").first()
    assert (taken.by, taken.actor, taken.public) == (
        "table",
        "user:1",
        {"type": "take_over", "seat": "A", "returned": ["B", "C"]},
    )
    seat = Seat.objects.get(game=game, letter="A")
    assert (seat.holder, seat.bot_level, seat.deadline) == (HolderKind.BOT, "heuristic", None)
    assert [(e["seat"], e["what"]) for e in game.awaited] == [("B", "seal")]
    # Idempotent: a bot holds the seat already, nothing is applied again.
    assert hand_seat_to_bot(game_id=game.pk, seat="A", actor=ADA) is True
    game.refresh_from_db()
    assert game.revision == revision + 1
    # The last person leaves: the product learns it, and decides (the bots wait).
    assert hand_seat_to_bot(game_id=game.pk, seat="B", actor=Actor("user:2")) is False
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.next_deadline is None
    services.abandon_game(game_id=game.pk)
    assert hand_seat_to_bot(game_id=game.pk, seat="B", actor=ADA) is False
    before = snapshot(restore(game).table)
    with pytest.raises(Refused):
        hand_seat_to_bot(game_id=game.pk, seat="Z", actor=ADA)
    assert snapshot(restore(game).table) == before


def test_the_clocks_and_the_take_overs_commands_are_the_cores_alone(now):
    game = dealt_game()
    for name in ("timeout", "take_over"):
        with pytest.raises(Forbidden):
            send(game, Command(name, "A"))
    game.refresh_from_db()
    assert game.revision == 0
    outcome = send(game, Command("timeout", "A"), Actor(clock.CLOCK))
    assert outcome.revision == 1 and clock_events(game) == [("seal", "A")]
