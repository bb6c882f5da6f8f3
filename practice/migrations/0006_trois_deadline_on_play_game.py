"""Trois's 25 minutes move to the table core's clock (issue 27, play.clock): a game still going
on when this runs gets its binding's deadline as the play.Game's own, so that the core's sweep
and page loads end it at the same time as before."""

from django.db import migrations


def deadlines_to_games(apps, schema_editor):
    PracticeGame = apps.get_model("practice", "PracticeGame")
    Game = apps.get_model("play", "Game")
    going_on = PracticeGame.objects.filter(
        finished=False, deadline__isnull=False, game__isnull=False
    ).values_list("game_id", "deadline")
    for game_id, deadline in going_on.iterator():
        # A Trois game has no seat clock: its own deadline is its earliest.
        Game.objects.filter(pk=game_id, status__in=["open", "playing"]).update(
            deadline=deadline, next_deadline=deadline
        )


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_game_deadline"),
        ("practice", "0005_practice_games_to_play"),
    ]

    operations = [migrations.RunPython(deadlines_to_games, migrations.RunPython.noop)]
