"""Names of players, groups, tournaments, tables and accounts: every writer cleans them the same
way, look-alikes collide with words, and the migration renames old look-alikes visibly."""

import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.forms import modelform_factory
from django.test import Client
from django.urls import reverse

from accounts.admin import UserForm
from accounts.models import User
from accounts.services import clean_display_name
from core.errors import ServiceError
from duels.services import clean_table
from tests.factories import TournamentFactory, UserFactory
from tournaments import services
from tournaments.admin import EntrantAdminForm, TournamentAdminForm
from tournaments.models import AuditEntry, Entrant, Group, Tournament
from tournaments.presentation import action_text

pytestmark = pytest.mark.django_db

LOOK_ALIKES = ["Ada\u200b", "ADA", "ada", "Ａｄａ", "\u2067Ada\u2069"]


@pytest.fixture
def cup():
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Cup", created_by=organiser)
    services.add_entrant(tournament, "Ada", organiser)
    return tournament, organiser


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_look_alike_player_is_refused_in_words(cup, look_alike):
    tournament, organiser = cup
    with pytest.raises(ServiceError) as refused:
        services.add_entrant(tournament, look_alike, organiser)
    assert "is already registered in this tournament" in refused.value.message
    if look_alike.strip("\u200b\u2067\u2069") != "Ada":
        assert "as “Ada”: names that differ only in capitals, character width" in (
            refused.value.message
        )
    assert list(tournament.entrants.values_list("name", flat=True)) == ["Ada"]


def test_the_same_name_in_another_tournament_is_fine(cup):
    tournament, organiser = cup
    other = services.create_tournament(name="Cup", created_by=organiser)  # names may repeat
    assert services.add_entrant(other, "ADA", organiser).name == "ADA"
    assert other.slug != tournament.slug


def test_a_pasted_list_refuses_look_alikes_of_earlier_lines_and_of_registered_players(cup):
    tournament, organiser = cup
    report = services.register_list(
        tournament, "Bo\nＢｏ\nada\u200b\nCy\u200d\n\u3164\nZoe\u0308", organiser
    )
    assert [(r.line, r.added) for r in report] == [
        (1, True),
        (2, False),
        (3, False),
        (4, True),
        (5, False),
        (6, True),
    ]
    assert "“Ｂｏ” is already registered as “Bo”" in report[1].message
    assert "“ada” is already registered as “Ada”" in report[2].message
    assert "needs at least one visible character" in report[4].message
    names = set(tournament.entrants.values_list("name", "name_key"))
    assert names == {("Ada", "ada"), ("Bo", "bo"), ("Cy", "cy"), ("Zoë", "zoë")}


def test_a_csv_goes_through_the_same_check(cup):
    tournament, organiser = cup
    report = services.register_csv(tournament, "name\nＡＤＡ\nBea\n".encode(), organiser)
    assert [(r.line, r.added) for r in report] == [(2, False), (3, True)]
    assert "already registered as “Ada”" in report[0].message


def test_the_database_refuses_a_look_alike_that_skips_the_service(cup):
    tournament, _ = cup
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(tournament=tournament, name="Ａｄａ")


def test_group_names_are_cleaned_and_look_alikes_refused(cup):
    tournament, organiser = cup
    for first, second in (("Reds", "REDS"), ("Reds", "Reds\u200b"), ("Ｒｅｄｓ", "reds")):
        with pytest.raises(ServiceError, match="two different names: names that differ only"):
            services.name_groups(tournament, organiser, first, second)
    with pytest.raises(ServiceError, match="needs at least one visible character"):
        services.name_groups(tournament, organiser, "\u3164", "Blues")
    with pytest.raises(ServiceError, match="at most 40 characters"):
        services.name_groups(tournament, organiser, "R" * 41, "Blues")
    services.name_groups(tournament, organiser, "Re\u200bds", "\u202eBlues")
    assert list(tournament.groups.values_list("name", "name_key")) == [
        ("Reds", "reds"),
        ("Blues", "blues"),
    ]


def test_the_two_groups_may_swap_names(cup):
    tournament, organiser = cup
    services.name_groups(tournament, organiser, "Reds", "Blues")
    services.name_groups(tournament, organiser, "BLUES", "reds")
    assert list(tournament.groups.values_list("name", "name_key")) == [
        ("BLUES", "blues"),
        ("reds", "reds"),
    ]


def test_tournament_names_are_cleaned_but_may_repeat():
    organiser = UserFactory()
    one = services.create_tournament(name="Spring\u200b Cup\u2066", created_by=organiser)
    two = services.create_tournament(name="SPRING CUP", created_by=organiser)
    assert (one.name, two.name) == ("Spring Cup", "SPRING CUP")
    with pytest.raises(ServiceError, match="needs at least one visible character"):
        services.create_tournament(name="\u200b\u3164", created_by=organiser)
    with pytest.raises(ServiceError, match="Give the tournament a name"):
        services.configure(one, organiser, name="   ")


def test_table_and_display_names_are_cleaned_the_same_way():
    assert clean_table("Table\u200b 5\u202e") == "Table 5"
    assert clean_table("\u200b") == ""  # no table
    with pytest.raises(ServiceError, match="A table's name needs at least one visible"):
        clean_table("\u3164")
    assert clean_display_name("Pat\u200b Player") == "Pat Player"
    with pytest.raises(ServiceError, match="A display name has at most 80 characters"):
        clean_display_name("P" * 81)


def test_the_demo_writes_names_through_the_same_cleaning(monkeypatch):
    monkeypatch.setattr(
        "tournaments.management.commands.seed_demo.DEMO_USERS", {"organiser": "Olga\u200b O"}
    )
    TournamentFactory(slug="demo-open")  # an existing demo is left as it is
    call_command("seed_demo", stdout=io.StringIO())
    assert User.objects.get(username="organiser").display_name == "Olga O"


def test_the_admin_forms_clean_names_and_refuse_look_alikes(cup):
    tournament, _ = cup
    entrant_form = modelform_factory(Entrant, form=EntrantAdminForm, fields=("name",))
    form = entrant_form(data={"name": "ａｄａ"}, instance=Entrant(tournament=tournament))
    assert not form.is_valid()
    assert "already registered in this tournament as “Ada”" in str(form.errors)
    renamed = Entrant.objects.get(tournament=tournament, name="Ada")
    form = entrant_form(data={"name": "Ada\u200b Lovelace"}, instance=renamed)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == "Ada Lovelace"
    tournament_form = modelform_factory(Tournament, form=TournamentAdminForm, fields=("name",))
    form = tournament_form(data={"name": "\u200b"}, instance=tournament)
    assert "needs at least one visible character" in str(form.errors["name"])
    user = UserFactory()
    user_form = modelform_factory(User, form=UserForm, fields=("display_name",))
    form = user_form(data={"display_name": "\u3164"}, instance=user)
    assert "needs at least one visible character" in str(form.errors["display_name"])


def test_the_organiser_page_refuses_a_look_alike_with_422_and_words(cup):
    tournament, organiser = cup
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("organiser:players", args=[tournament.slug]), {"name": "Ａｄａ"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "“Ａｄａ” is already registered in this tournament as “Ada”" in html
    response = client.post(
        reverse("organiser:group_names", args=[tournament.slug]),
        {"first": "Reds", "second": "ＲＥＤＳ"},
    )
    assert response.status_code == 422
    assert "names that differ only in capitals" in response.content.decode()
    response = client.post(
        reverse("tournaments:create"),
        {"name": "\u200b\u200b", "duel_preset": "tournament", "tiebreak_mode": "full"},
    )
    assert response.status_code == 422
    assert "needs at least one visible character" in response.content.decode()


# The migration ------------------------------------------------------------------------------

BEFORE = [("tournaments", "0002_progression")]
AFTER = [("tournaments", "0003_name_keys")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_look_alikes_visibly_and_goes_back():
    try:
        old = _migrate(BEFORE)
        OldUser = old.get_model("accounts", "User")
        OldTournament = old.get_model("tournaments", "Tournament")
        OldEntrant = old.get_model("tournaments", "Entrant")
        OldGroup = old.get_model("tournaments", "Group")
        olga = OldUser.objects.create(username="olga")
        cup = OldTournament.objects.create(name="Cup\u200b", slug="cup", created_by=olga)
        other = OldTournament.objects.create(name="Other", slug="other", created_by=olga)
        OldGroup.objects.create(tournament=cup, name="Reds", order=1)
        OldGroup.objects.create(tournament=cup, name="REDS", order=2)
        OldGroup.objects.create(tournament=other, name="Reds", order=1)
        names = ["Ada", "Ada\u200b", "Ａｄａ", "Ada (2)", "Bo\u202e", "\u3164", "\ufdfa" * 20]
        if connection.vendor == "sqlite":  # SQLite keeps a value longer than its column
            names.append("x" * 90)
        old_rows = [OldEntrant.objects.create(tournament=cup, name=n) for n in names]
        OldEntrant.objects.create(tournament=other, name="ada")

        new = _migrate(AFTER)
        Entrant_ = new.get_model("tournaments", "Entrant")
        after = dict(Entrant_.objects.filter(tournament_id=cup.pk).values_list("pk", "name"))
        renamed = {
            "Ada": "Ada",  # the first registered keeps the name
            "Ada\u200b": "Ada (2)",
            "Ａｄａ": "Ａｄａ (3)",
            "Ada (2)": "Ada (2) (2)",
            "Bo\u202e": "Bo",
            "\u3164": f"Player {old_rows[5].pk}",
            "\ufdfa" * 20: "\ufdfa" * 17,  # 18 characters each once written out: 320 at most
            "x" * 90: "x" * 80,
        }
        assert [after[row.pk] for row in old_rows] == [renamed[n] for n in names]
        assert Entrant_.objects.get(tournament_id=other.pk).name == "ada"  # another tournament
        Group_ = new.get_model("tournaments", "Group")
        assert list(Group_.objects.filter(tournament_id=cup.pk).values_list("name", flat=True)) == [
            "Reds",
            "REDS (2)",
        ]
        assert new.get_model("tournaments", "Tournament").objects.get(pk=cup.pk).name == "Cup"
        # Every rename is in the tournament's audit log, old and new name and why.
        Audit = new.get_model("tournaments", "AuditEntry")
        log = {
            (e.detail["was"], e.detail["now"]): e.detail["why"]
            for e in Audit.objects.filter(tournament_id=cup.pk, action="name_changed_by_upgrade")
        }
        assert log[("Ada\u200b", "Ada (2)")] == (
            "invisible or control characters removed, looked like “Ada”"
        )
        assert log[("Ａｄａ", "Ａｄａ (3)")] == "looked like “Ada”"
        assert log[("REDS", "REDS (2)")] == "looked like “Reds”"
        assert log[("Cup\u200b", "Cup")] == "invisible or control characters removed"
        assert len(log) == len(names) - 1 + 2  # all but "Ada"; a group; the tournament
        assert not Audit.objects.filter(tournament_id=other.pk).exists()
        assert "names must look different" in action_text("name_changed_by_upgrade")

        # Back: every old name restored, the upgrade's entries gone.
        old = _migrate(BEFORE)
        restored = old.get_model("tournaments", "Entrant").objects.filter(tournament_id=cup.pk)
        assert sorted(restored.values_list("name", flat=True)) == sorted(names)
        assert old.get_model("tournaments", "Tournament").objects.get(pk=cup.pk).name == "Cup\u200b"
        assert not old.get_model("tournaments", "AuditEntry").objects.exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    # And forward again on the same rows: the live models read them.
    assert Entrant.objects.filter(tournament_id=cup.pk).count() == len(names)
    assert Group.objects.get(tournament_id=cup.pk, order=2).name_key == "reds (2)"
    assert AuditEntry.objects.filter(action="name_changed_by_upgrade").count() == len(names) + 1
    assert Tournament.objects.get(pk=cup.pk).name == "Cup"
