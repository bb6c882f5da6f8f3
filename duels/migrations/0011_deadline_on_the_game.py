"""A duel's time limit moves to its game (issue 27, "One clock mechanism"): `Game.deadline` is
the duel's deadline, kept by the table core's one clock, and `Duel.deadline` reads it. Every
stored deadline is copied to its duel's game — a running duel's game also gets it as its
`next_deadline`, so the clock's sweep finds it; the next migration drops the duel's column
(apart, so that on PostgreSQL no table is altered in the transaction that wrote its rows)."""

from django.db import migrations

RUNNING = "running"
GOING_ON = ("open", "playing")


def copy_deadlines(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    Game = apps.get_model("play", "Game")
    rows = Duel.objects.filter(deadline__isnull=False, game__isnull=False).values_list(
        "game_id", "deadline", "status"
    )
    for game_id, deadline, status in rows.iterator():
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            continue
        game.deadline = deadline
        if status == RUNNING and game.status in GOING_ON:
            # Refereed games have no seat clocks: the game's own deadline is the earliest.
            game.next_deadline = min(d for d in (deadline, game.next_deadline) if d is not None)
        game.save(update_fields=["deadline", "next_deadline"])


def copy_back(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    for duel in Duel.objects.filter(game__deadline__isnull=False).select_related("game"):
        Duel.objects.filter(pk=duel.pk).update(deadline=duel.game.deadline)


class Migration(migrations.Migration):
    dependencies = [
        ("duels", "0010_drop_duel_event"),
        ("play", "0005_event_actor"),
    ]

    operations = [
        migrations.RunPython(copy_deadlines, copy_back, elidable=False),
    ]
