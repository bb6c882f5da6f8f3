"""Why a duel was closed, as a key (issue 29, "Words stored in the database"): the automation
stored its reasons as English sentences in `Duel.closed_reason`; each sentence it wrote is
turned into its key and parameters in `Duel.closed_why`, read in each reader's language
(duels.words.closed_reason_text), and `closed_reason` is emptied. Any other text (typed by a
person, or written by an older version in other words) is kept as it was, shown as is.

Backwards, the English sentence is written again from the key."""

import re

from django.db import migrations

# The sentences as the automation wrote them (tournaments/services/lifecycle.py, setup.py),
# frozen here: the app's own list (duels.words.CLOSED_SENTENCES) may change later.
SENTENCES = {
    "group_eliminated": (
        r"(?P<group>.+) was eliminated after round (?P<round>\d+): the group phase is over and "
        r"this duel has no result\.",
        "{group} was eliminated after round {round}: the group phase is over and this duel has "
        "no result.",
    ),
    "playoffs_froze": (
        r"Group results froze when the playoffs started: this duel has no result\.",
        "Group results froze when the playoffs started: this duel has no result.",
    ),
    "group_phase_over": (
        r"The group phase is over: this round's duel has no result\.",
        "The group phase is over: this round's duel has no result.",
    ),
    "cancelled": (
        r"The tournament was cancelled: this duel has no result\.",
        "The tournament was cancelled: this duel has no result.",
    ),
}


def why_of(sentence: str) -> dict | None:
    for key, (pattern, _english) in SENTENCES.items():
        found = re.fullmatch(pattern, sentence.strip())
        if found:
            return {"key": key, **found.groupdict()}
    return None


def to_keys(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    rows = Duel.objects.exclude(closed_reason="").values_list("pk", "closed_reason")
    for pk, sentence in rows.iterator():
        why = why_of(sentence)
        if why is not None:
            Duel.objects.filter(pk=pk).update(closed_why=why, closed_reason="")


def to_sentences(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    for duel in Duel.objects.exclude(closed_why={}).only("pk", "closed_why"):
        why = dict(duel.closed_why or {})
        known = SENTENCES.get(why.pop("key", ""))
        if known is not None:
            Duel.objects.filter(pk=duel.pk).update(
                closed_reason=known[1].format(**why)[:200], closed_why={}
            )


class Migration(migrations.Migration):
    dependencies = [("duels", "0013_closed_why")]

    operations = [migrations.RunPython(to_keys, to_sentences, elidable=False)]
