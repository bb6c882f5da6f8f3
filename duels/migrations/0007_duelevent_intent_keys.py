from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("duels", "0006_duel_called_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="duelevent",
            name="intent",
            field=models.CharField(blank=True, db_default="", default="", max_length=64),
        ),
        migrations.AddField(
            model_name="duelevent",
            name="undo_intent",
            field=models.CharField(blank=True, db_default="", default="", max_length=64),
        ),
    ]
