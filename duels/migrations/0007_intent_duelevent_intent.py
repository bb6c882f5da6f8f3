from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("duels", "0006_duel_called_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="duelevent",
            name="intent",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
