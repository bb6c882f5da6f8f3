"""Why a duel was closed is stored as a key with its parameters and read in the reader's
language (issue 29, "Words stored in the database"): the automation's English sentences
already stored are turned into keys by duels/migrations/0014_closed_reasons_to_keys.py, and
any other text is kept as typed, shown as is."""

import pytest
from django.utils import translation

from duels import services as duel_services
from duels.models import Duel, DuelStatus
from duels.selectors import console
from duels.words import closed_reason_text
from tests.factories import group_phase_duel
from tests.migrating import migrate_around

SENTENCES = {
    "eliminated": (
        "Reds was eliminated after round 3: the group phase is over and this duel has no result."
    ),
    "froze": "Group results froze when the playoffs started: this duel has no result.",
    "over": "The group phase is over: this round's duel has no result.",
    "cancelled": "The tournament was cancelled: this duel has no result.",
    "typed": "The venue closed early: Olga sent everyone home.",
}


@pytest.mark.django_db(transaction=True)
def test_stored_sentences_become_keys_and_typed_text_is_kept():
    stored: dict[str, int] = {}

    def old_duels(apps):
        OldDuel = apps.get_model("duels", "Duel")
        for name, sentence in SENTENCES.items():
            duel, _referee = group_phase_duel(players=(f"{name} A", f"{name} B"))
            OldDuel.objects.filter(pk=duel.pk).update(
                status=DuelStatus.ABANDONED, closed_reason=sentence
            )
            stored[name] = duel.pk

    migrate_around("duels", "_closed_reasons_to_keys", old_duels)

    duels = {name: Duel.objects.get(pk=pk) for name, pk in stored.items()}
    assert duels["eliminated"].closed_why == {
        "key": "group_eliminated",
        "group": "Reds",
        "round": "3",
    }
    assert duels["froze"].closed_why == {"key": "playoffs_froze"}
    assert duels["over"].closed_why == {"key": "group_phase_over"}
    assert duels["cancelled"].closed_why == {"key": "cancelled"}
    for name in ("eliminated", "froze", "over", "cancelled"):
        assert duels[name].closed_reason == ""
    # Text no key knows stays as typed, and no key is made up for it.
    assert duels["typed"].closed_reason == SENTENCES["typed"]
    assert duels["typed"].closed_why == {}
    # Each reads in English exactly as it was stored.
    for name, duel in duels.items():
        assert closed_reason_text(duel.closed_reason, duel.closed_why) == SENTENCES[name]


@pytest.mark.django_db
def test_the_automation_stores_a_key_and_the_console_reads_it_in_the_readers_language():
    duel, _referee = group_phase_duel()
    duel_services.abandon([duel.pk], SENTENCES["froze"])  # as tournaments/services still says it
    duel.refresh_from_db()
    assert (duel.closed_reason, duel.closed_why) == ("", {"key": "playoffs_froze"})
    assert console(duel).subline == SENTENCES["froze"]
    with translation.override("es"):
        spanish = console(duel).subline
    assert spanish != SENTENCES["froze"] and "fase final" in spanish


@pytest.mark.django_db
def test_a_key_with_its_parameters_and_typed_text():
    first, _referee = group_phase_duel(players=("Ada", "Bao"))
    second, _referee = group_phase_duel(players=("Cy", "Di"))
    duel_services.abandon([first.pk], {"key": "group_eliminated", "group": "Blues", "round": 7})
    duel_services.abandon([second.pk], "Power cut at the venue.")
    first.refresh_from_db()
    second.refresh_from_db()
    assert console(first).subline == (
        "Blues was eliminated after round 7: the group phase is over and this duel has no result."
    )
    assert (second.closed_reason, second.closed_why) == ("Power cut at the venue.", {})
    with translation.override("fr"):
        assert console(second).subline == "Power cut at the venue."
        assert "Blues" in console(first).subline and "7" in console(first).subline
