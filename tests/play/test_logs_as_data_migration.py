"""The migration that turns the games' stored English log lines into data (issue 29,
play/migrations/0006_logs_as_data.py): a refereed Split UNO game's lines (an undone move and
the clock's included) and a Trois game's public and private lines become the data the
adapters store today, shown in the same English; a product's own words and a game that no
longer replays stay as stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from play.adapters.base import Command, Viewer
from play.adapters.split_uno_refereed import ADAPTER as REFEREED
from play.adapters.trois import ADAPTER as TROIS
from play.effect_words import say_all
from play.models import GameEvent
from play.selectors import events_of
from tests.migrating import migrate_around

NAMES = {"A": "Ann", "B": "Bo"}
CONFIG = {"ruleset": "paper", "names": NAMES}
SEED = bytes(range(16))


def _english(lines, names):
    with translation.override("en"):
        return say_all(lines, names)


@pytest.mark.django_db(transaction=True)
def test_stored_english_lines_become_data_and_read_the_same() -> None:
    expected: dict = {}

    def old_rows(apps) -> None:
        Game = apps.get_model("play", "Game")
        Event = apps.get_model("play", "GameEvent")
        GameSecret = apps.get_model("play", "GameSecret")
        EventSecret = apps.get_model("play", "EventSecret")
        start = timezone.now() - timedelta(hours=1)

        # A refereed game: two rounds, a third undone, then the clock's time limit.
        table, events = REFEREED.start(CONFIG, "AB", b"")
        for name, args in [
            ("round", {"cards": {"A": 5, "B": 3}}),
            ("round", {"cards": {"A": 2, "B": 4}}),
        ]:
            events += REFEREED.apply(table, Command(name, None, args))
        undone = REFEREED.apply(table, Command("round", None, {"cards": {"A": 6, "B": 1}}))
        table = REFEREED.restore(CONFIG, "AB", b"", events)
        events += REFEREED.apply(table, Command("time"))
        game = Game.objects.create(kind="split_uno_refereed", config=CONFIG, seats=["A", "B"])
        rows = [(e, None) for e in events[:3]] + [(undone[0], 5)] + [(events[3], None)]
        seqs = [1, 2, 3, 4, 4]
        for n, ((event, undone_after), seq) in enumerate(zip(rows, seqs, strict=True)):
            public = dict(event.public)
            if "log" in public:
                public["log"] = _english(public["log"], NAMES)
            row = Event.objects.create(
                game=game,
                seq=seq,
                revision=n,
                by=event.by,
                public=public,
                undone_at=start + timedelta(minutes=undone_after) if undone_after else None,
            )
            Event.objects.filter(pk=row.pk).update(created_at=start + timedelta(minutes=n))
        # A product's own words for a move (kept), on a game of its own.
        kept = Game.objects.create(kind="split_uno_refereed", config=CONFIG, seats=["A", "B"])
        Event.objects.create(game=kept, seq=1, revision=0, by="referee", public=events[0].public)
        Event.objects.create(
            game=kept,
            seq=2,
            revision=1,
            by="referee",
            public={"event": events[1].public["event"], "log": ["Ann wins it, says the sheet"]},
        )
        expected["refereed"] = (game.pk, [e.public.get("log") for e, _ in rows])
        expected["kept"] = kept.pk

        # A Trois game: the person's moves and the bots', with their private lines.
        bots = {"B": "random", "C": "random", "D": "random"}
        config = {"names": ["Me", "Bot 1", "Bot 2", "Bot 3"], "bots": bots}
        trois, _ = TROIS.start(config, "ABCD", SEED)
        for _ in range(6):
            legal = TROIS.view(trois, Viewer("seat", "A"))["legal"]
            if legal is None:
                break
            if legal["by_colour"] or legal["by_number"]:
                card = (legal["by_colour"] or legal["by_number"])[0]
                TROIS.apply(trois, Command("play", "A", {"cards": [card]}))
            else:
                TROIS.apply(trois, Command("take", "A"))
        dealt = list(trois.events)
        game = Game.objects.create(kind="trois", config=config, seats=list("ABCD"))
        GameSecret.objects.create(game=game, seed=SEED, deal=[dealt[0].private])
        names = config["names"]
        for n, event in enumerate(dealt, start=1):
            public = dict(event.public)
            if "log" in public:
                public["log"] = _english(public["log"], names)
            row = Event.objects.create(game=game, seq=n, revision=n, by=event.by, public=public)
            for key, facts in event.private.items():
                facts = dict(facts)
                if "log" in facts:
                    facts["log"] = _english(facts["log"], names)
                EventSecret.objects.create(event=row, key=key, facts=facts)
        expected["trois"] = (
            game.pk,
            [e.public.get("log") for e in dealt],
            [{k: f.get("log") for k, f in e.private.items()} for e in dealt],
        )

    migrate_around("play", "_logs_as_data", old_rows)

    pk, logs = expected["refereed"]
    rows = list(GameEvent.objects.filter(game_id=pk).order_by("pk"))
    assert [r.public.get("log") for r in rows] == logs  # data, as the adapter stores it now
    assert rows[-1].public["log"][0] == {"say": "time_up"}
    with translation.override("en"):
        shown = [public.get("log") or [] for _, _, _, _, public, _, _ in events_of(pk)]
    assert shown[-1][0] == "Time is up."
    assert all(isinstance(line, str) for log in shown for line in log)
    assert shown[2] == _english(logs[2], NAMES)
    kept = list(GameEvent.objects.filter(game_id=expected["kept"]).order_by("pk"))
    assert kept[1].public["log"] == ["Ann wins it, says the sheet"]

    from play.models_secret import EventSecret

    pk, public_logs, private_logs = expected["trois"]
    assert any(log for private in private_logs for log in private.values())  # some to convert
    rows = list(GameEvent.objects.filter(game_id=pk).order_by("seq"))
    assert [r.public.get("log") for r in rows] == public_logs
    for row, private in zip(rows, private_logs, strict=True):
        stored = {s.key: s.facts.get("log") for s in EventSecret.objects.filter(event=row)}
        assert stored == private


@pytest.mark.django_db(transaction=True)
def test_backwards_the_lines_are_english_words_again() -> None:
    from play.models import Game
    from tests.migrating import before, forward

    table, events = REFEREED.start(CONFIG, "AB", b"")
    events += REFEREED.apply(table, Command("round", None, {"cards": {"A": 5, "B": 3}}))
    game = Game.objects.create(kind="split_uno_refereed", config=CONFIG, seats=["A", "B"])
    for n, event in enumerate(events, start=1):
        GameEvent.objects.create(game=game, seq=n, revision=n - 1, by=event.by, public=event.public)
    english = _english(events[1].public["log"], NAMES)
    apps = before("play", "_logs_as_data")
    old = apps.get_model("play", "GameEvent").objects.get(game_id=game.pk, seq=2)
    assert old.public["log"] == english and english[0] == "Ann reveals 5"
    forward()
    assert GameEvent.objects.get(game_id=game.pk, seq=2).public["log"] == events[1].public["log"]
