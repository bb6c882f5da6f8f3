"""Why a duel was closed, as a key (issue 29, "Words stored in the database"): the automation
stored its reasons in `Duel.closed_reason` as English sentences; each sentence it wrote is
turned into its key and parameters, kept as JSON text in the same column ('{"key":
"group_eliminated", "group": "Reds", "round": "3"}') and read in each reader's language
(duels.words.closed_reason_text). Any other text (typed by a person, or written by an older
version in other words) is kept as it was, shown as is. No column changes.

Backwards, the English sentence is written again from the key."""

import json
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


def key_of(sentence: str) -> str | None:
    """The stored key for a known sentence (JSON text, as duels.words.closed_reason_stored
    writes it), or None."""
    for key, (pattern, _english) in SENTENCES.items():
        found = re.fullmatch(pattern, sentence.strip())
        if found:
            stored = json.dumps(
                {"key": key, **found.groupdict()}, ensure_ascii=False, separators=(", ", ": ")
            )
            return stored if len(stored) <= 200 else None
    return None


def sentence_of(stored: str) -> str | None:
    if not stored.startswith("{"):
        return None
    try:
        why = json.loads(stored)
    except ValueError:
        return None
    if not isinstance(why, dict) or why.get("key") not in SENTENCES:
        return None
    params = {k: v for k, v in why.items() if k != "key"}
    try:
        return SENTENCES[why["key"]][1].format(**params)[:200]
    except (KeyError, IndexError):
        return None


def to_keys(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    rows = Duel.objects.exclude(closed_reason="").values_list("pk", "closed_reason")
    for pk, sentence in rows.iterator():
        stored = key_of(sentence)
        if stored is not None:
            Duel.objects.filter(pk=pk).update(closed_reason=stored)


def to_sentences(apps, schema_editor):
    Duel = apps.get_model("duels", "Duel")
    rows = Duel.objects.filter(closed_reason__startswith="{").values_list("pk", "closed_reason")
    for pk, stored in rows.iterator():
        sentence = sentence_of(stored)
        if sentence is not None:
            Duel.objects.filter(pk=pk).update(closed_reason=sentence)


class Migration(migrations.Migration):
    dependencies = [("duels", "0012_remove_duel_deadline")]

    operations = [migrations.RunPython(to_keys, to_sentences, elidable=False)]
