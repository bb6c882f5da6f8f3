"""Names compared by a key (core.names.name_key): players and groups unique by it within their
tournament, and every existing name cleaned as new names are.

Existing rows are never dropped. A name that loses its invisible or control characters, is too
long, shows nothing, or collides with an earlier row's (by id: the first registered keeps its
name) is renamed — "Ada (2)" — and each rename is written to the tournament's audit log
(`name_changed_by_upgrade`, with the old and new names and why), where organisers see it.
Tournament names are not unique (the slug tells tournaments apart); they are cleaned the same
way and logged the same way. Display names of accounts are not unique and keep their limit, so
nothing of theirs can collide or overflow: they are cleaned when next written, not here.

Reversible: going back restores every old name from the audit entries this migration wrote
and removes those entries.
"""

import unicodedata

from django.db import migrations, models

from core.names import KEY_WIDTH, has_visible, name_key, with_suffix

ACTION = "name_changed_by_upgrade"
LIMITS = {"tournament": 120, "group": 40, "entrant": 80}
FALLBACK = {"tournament": "Tournament", "group": "Group", "entrant": "Player"}


def _cleaned(name: str, kind: str, pk: int) -> tuple[str, list[str]]:
    """The name as core.names.clean_name would store it, and why it changed; never refused."""
    why = []
    text = "".join(
        ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf") or ch in "\t\n\r"
    )
    if text != name:
        why.append("invisible or control characters removed")
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    if not has_visible(text):
        why.append("nothing visible")
        text = f"{FALLBACK[kind]} {pk}"
    if len(text) > LIMITS[kind]:
        why.append(f"longer than {LIMITS[kind]} characters")
        text = text[: LIMITS[kind]].rstrip()
    if len(name_key(text)) > LIMITS[kind] * KEY_WIDTH:  # the key column would refuse it
        why.append("too long once written out")
        while len(name_key(text)) > LIMITS[kind] * KEY_WIDTH:
            text = text[:-1]
    return text, why


def _log(AuditEntry, tournament_id: int, kind: str, pk: int, old: str, new: str, why) -> None:
    AuditEntry.objects.create(
        tournament_id=tournament_id,
        actor=None,
        action=ACTION,
        reason="The upgrade made names unique by how they look.",
        detail={"was": old, "now": new, "why": ", ".join(why), "row": {"model": kind, "pk": pk}},
    )


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Group = apps.get_model("tournaments", "Group")
    Entrant = apps.get_model("tournaments", "Entrant")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    for tournament in Tournament.objects.order_by("pk").iterator():
        new, why = _cleaned(tournament.name, "tournament", tournament.pk)
        if new != tournament.name:
            _log(AuditEntry, tournament.pk, "tournament", tournament.pk, tournament.name, new, why)
            Tournament.objects.filter(pk=tournament.pk).update(name=new)
    for Model, kind in ((Group, "group"), (Entrant, "entrant")):
        taken: dict[tuple[int, str], str] = {}
        for row in Model.objects.order_by("tournament_id", "pk").iterator():
            new, why = _cleaned(row.name, kind, row.pk)
            key = name_key(new)
            if (row.tournament_id, key) in taken:
                why.append(f"looked like “{taken[row.tournament_id, key]}”")
                n = 2
                while (row.tournament_id, name_key(with_suffix(new, n, LIMITS[kind]))) in taken:
                    n += 1
                new = with_suffix(new, n, LIMITS[kind])
                key = name_key(new)
            taken[row.tournament_id, key] = new
            if new != row.name:
                _log(AuditEntry, row.tournament_id, kind, row.pk, row.name, new, why)
            Model.objects.filter(pk=row.pk).update(name=new, name_key=key)


def backwards(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    models_by_kind = {
        kind: apps.get_model("tournaments", kind.capitalize())
        for kind in ("tournament", "group", "entrant")
    }
    # Latest first, so that a row renamed twice ends with its oldest name.
    for entry in AuditEntry.objects.filter(action=ACTION).order_by("-pk"):
        row = entry.detail.get("row") or {}
        Model = models_by_kind.get(row.get("model"))
        if Model is not None:
            Model.objects.filter(pk=row.get("pk")).update(name=entry.detail["was"])
        entry.delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_progression")]

    operations = [
        migrations.RemoveConstraint(model_name="entrant", name="unique_entrant_name"),
        migrations.AddField(
            model_name="entrant",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=320),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="group",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                fields=("tournament", "name_key"), name="unique_entrant_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="group",
            constraint=models.UniqueConstraint(
                fields=("tournament", "name_key"), name="unique_group_name"
            ),
        ),
    ]
