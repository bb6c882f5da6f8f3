"""The practice bindings' leftovers of before the table core (issue 27) go: the old storage
(``seed`` and ``moves`` of both bindings), read only by the data migrations 0005 and 0008 that
converted the games stored so — which run before this one, on the historical models — and
``PracticeGame.deadline`` with its index: Trois's 25 minutes are the ``play.Game``'s own
deadline since 0006 copied them there, kept by the core's one clock (``play.clock``)."""

from django.db import migrations

#: The columns that go, by model.
DROPPED = [
    ("practiceduel", "moves"),
    ("practiceduel", "seed"),
    ("practicegame", "deadline"),
    ("practicegame", "moves"),
    ("practicegame", "seed"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0008_practice_duels_to_play"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="practicegame", name="practice_pr_finishe_79f03e_idx"),
        *(migrations.RemoveField(model_name=model, name=name) for model, name in DROPPED),
    ]
