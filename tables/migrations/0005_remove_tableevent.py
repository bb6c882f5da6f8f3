"""Casual tables read and write their moves only through the table core (0004 copied them
into each table's `play.Game`): `TableEvent` goes, with the table's own `seq`, `revision` and
`status` (the game's are the ones kept), and every table has its game."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0001_initial"),
        ("tables", "0004_tables_on_play"),
    ]

    operations = [
        migrations.DeleteModel(name="TableEvent"),
        migrations.RemoveField(model_name="casualtable", name="seq"),
        migrations.RemoveField(model_name="casualtable", name="revision"),
        migrations.RemoveField(model_name="casualtable", name="status"),
        migrations.AlterField(
            model_name="casualtable",
            name="game",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="play.game"
            ),
        ),
    ]
