"""Co-referee invitations expire (docs/tables.md): each gets `expires_at`. An invitation made
before this migration expires `TABLE_INVITATION_DAYS` after it was made, as a new one does
(so one older than that is expired at once)."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.db.models import F


def set_expiry(apps, schema_editor):
    CoReferee = apps.get_model("tables", "CoReferee")
    days = timedelta(days=getattr(settings, "TABLE_INVITATION_DAYS", 14))
    CoReferee.objects.update(expires_at=F("created_at") + days)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0001_casual_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="coreferee",
            name="expires_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(set_expiry, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="coreferee",
            name="expires_at",
            field=models.DateTimeField(),
        ),
    ]
