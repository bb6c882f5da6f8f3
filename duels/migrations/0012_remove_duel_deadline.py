"""The duel's deadline is its game's (`Game.deadline`, copied by 0011): its own column goes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("duels", "0011_deadline_on_the_game"),
    ]

    operations = [
        migrations.RemoveField(model_name="duel", name="deadline"),
    ]
