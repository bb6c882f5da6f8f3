from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0012_online_removed"),
    ]

    operations = [
        migrations.AddField(
            model_name="onlinetable",
            name="watch_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
    ]
