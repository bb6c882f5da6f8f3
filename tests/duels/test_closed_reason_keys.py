"""Why a duel was closed is stored as a key with its parameters and read in the reader's
language (issue 29, "Words stored in the database"): the automation's English sentences
already stored are turned into keys by duels/migrations/0013_closed_reasons_to_keys.py, and
any other text is kept as typed, shown as is."""

import pytest
from django.utils import translation

from duels import services as duel_services
from duels.models import Duel, DuelStatus
from duels.selectors import console
from duels.words import closed_reason_text, closed_why
from tests.factories import group_phase_duel
from tests.migrating import before, forward

SENTENCES = {
    "eliminated": (
        "Reds was eliminated after round 3: the group phase is over and this duel has no result."
    ),
    "froze": "Group results froze when the playoffs started: this duel has no result.",
    "over": "The group phase is over: this round's duel has no result.",
    "cancelled": "The tournament was cancelled: this duel has no result.",
    "typed": "The venue closed early: Olga sent everyone home.",
}
KEYS = {
    "eliminated": {"key": "group_eliminated", "group": "Reds", "round": "3"},
    "froze": {"key": "playoffs_froze"},
    "over": {"key": "group_phase_over"},
    "cancelled": {"key": "cancelled"},
}


@pytest.mark.django_db(transaction=True)
def test_stored_sentences_become_keys_and_typed_text_is_kept():
    # The duels are made with today's models, then stored as they were before the migration.
    made = {name: group_phase_duel(players=(f"{name} A", f"{name} B"))[0] for name in SENTENCES}
    old = before("duels", "_closed_reasons_to_keys")
    OldDuel = old.get_model("duels", "Duel")
    stored: dict[str, int] = {}
    for name, sentence in SENTENCES.items():
        OldDuel.objects.filter(pk=made[name].pk).update(
            status=DuelStatus.ABANDONED, closed_reason=sentence
        )
        stored[name] = made[name].pk
    forward()

    duels = {name: Duel.objects.get(pk=pk) for name, pk in stored.items()}
    for name, why in KEYS.items():
        assert closed_why(duels[name].closed_reason) == why
    # Text no key knows stays as typed, and no key is made up for it.
    assert duels["typed"].closed_reason == SENTENCES["typed"]
    assert closed_why(duels["typed"].closed_reason) is None
    # Each reads in English exactly as it was stored, and in Spanish in Spanish (typed text
    # as typed).
    with translation.override("en-gb"):
        for name, duel in duels.items():
            assert closed_reason_text(duel.closed_reason) == SENTENCES[name]
    with translation.override("es"):
        assert "fase final" in closed_reason_text(duels["froze"].closed_reason)
        assert "Reds" in closed_reason_text(duels["eliminated"].closed_reason)
        assert closed_reason_text(duels["typed"].closed_reason) == SENTENCES["typed"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_back_writes_the_sentences_again():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    duel, _referee = group_phase_duel()
    duel_services.abandon([duel.pk], SENTENCES["eliminated"])
    duel.refresh_from_db()
    assert closed_why(duel.closed_reason) == KEYS["eliminated"]
    before("duels", "_closed_reasons_to_keys")  # the migration undone
    assert (
        Duel.objects.values_list("closed_reason", flat=True).get(pk=duel.pk)
        == (SENTENCES["eliminated"])
    )
    forward()
    assert (
        MigrationExecutor(connection).migration_plan(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
        == []
    )
    duel.refresh_from_db()
    assert closed_why(duel.closed_reason) == KEYS["eliminated"]


@pytest.mark.django_db
def test_the_automation_stores_a_key_and_the_console_reads_it_in_the_readers_language():
    duel, _referee = group_phase_duel()
    duel_services.abandon([duel.pk], SENTENCES["froze"])  # as tournaments/services still says it
    duel.refresh_from_db()
    assert closed_why(duel.closed_reason) == {"key": "playoffs_froze"}
    with translation.override("en-gb"):
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
    with translation.override("en-gb"):
        assert console(first).subline == (
            "Blues was eliminated after round 7: the group phase is over and this duel has no "
            "result."
        )
    assert second.closed_reason == "Power cut at the venue."
    with translation.override("fr"):
        assert console(second).subline == "Power cut at the venue."
        assert "Blues" in console(first).subline and "7" in console(first).subline
        assert console(first).subline != console(second).subline
