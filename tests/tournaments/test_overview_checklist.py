"""The venue's evening (issue 26): the overview's checklist says what is in place as it is
(who joined by link, the schedule, check-in, the groups in words, what *Open registration*
does), the audit log's times read on the venue's clock, and counts read in the singular."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from accounts.services import grant_role, issue_invitation
from tests.factories import EntrantFactory, TournamentFactory, UserFactory, group_phase_duel
from tournaments import presentation, services
from tournaments.models import AuditEntry
from tournaments.services.checkin import check_in
from tournaments.services.invitations import accept_invitation
from tournaments.services.refereeing import call_duel
from tournaments.services.schedule import set_schedule

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def checklist(client, slug) -> str:
    html = client.get(reverse("organiser:overview", args=[slug])).content.decode()
    return html.split('<ol class="checklist">', 1)[1].split("</ol>", 1)[0]


def test_the_checklist_says_what_is_in_place_as_it_is():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, slug="cup", time_zone="Europe/Paris")
    reds = tournament.groups.create(name="Group 1", order=1)
    tournament.groups.create(name="Group 2", order=2)
    client = signed_in(organiser)

    # Nothing yet: every line says so, and how to go on.
    html = client.get(reverse("organiser:overview", args=["cup"])).content.decode()
    items = checklist(client, "cup")
    assert "Group 1: 0 players, Group 2: 0 players" in items  # it read "Group 1 0, Group 2 0"
    assert "none yet: add them by username, or give each an invitation link." in items
    assert "Schedule</a>: not set (optional" in items
    assert f'href="{reverse("organiser:schedule", args=["cup"])}"' in items
    assert "Check-in</a>: nobody checked in yet (0 of 0 players)." in items
    assert f'href="{reverse("organiser:check_in", args=["cup"])}"' in items
    # What *Open registration* does, said beside it and tied to the button.
    assert 'aria-describedby="open-registration-help"' in html
    assert f'id="open-registration-help">{presentation.OPEN_REGISTRATION_HELP}' in html

    # Two referees join by link, a co-organiser by username, one link still waiting; a
    # start time; two players, one in a group and checked in.
    for name in ("rita", "sam"):
        _, token = issue_invitation(organiser, tournament, role=Role.REFEREE)
        accept_invitation(tournament, token, UserFactory(username=name))
    UserFactory(username="cora")
    grant_role(organiser, tournament, "cora", Role.CO_ORGANISER)
    issue_invitation(organiser, tournament, role=Role.REFEREE)
    at = datetime(2026, 12, 5, 20, 0, tzinfo=ZoneInfo("Europe/Paris"))
    set_schedule(tournament, organiser, time_zone="Europe/Paris", starts={"round:1": at})
    ada = EntrantFactory(tournament=tournament, name="Ada", group=reds)
    EntrantFactory(tournament=tournament, name="Bao")
    check_in(tournament, organiser, ada.pk)

    items = checklist(client, "cup")
    assert "Group 1: 1 player, Group 2: 0 players" in items
    assert "referees: rita and sam; co-organisers: cora; 1 invitation link not used yet." in items
    assert "invite them by username" not in items
    assert "1 start time set; first, Group round 1 at 5 Dec 20:00 (Europe/Paris)." in items
    assert "Check-in</a>: 1 of 2 players checked in." in items

    # Registration opened: the button and its explanation are gone.
    services.open_registration(tournament, organiser)
    html = client.get(reverse("organiser:overview", args=["cup"])).content.decode()
    assert "open-registration-help" not in html and "Open registration</button>" not in html


def test_the_audit_log_reads_a_call_on_the_venues_clock():
    duel, referee = group_phase_duel(time_zone="Europe/Paris")
    tournament = duel.tournament
    call_duel(duel, referee, "3")
    duel.refresh_from_db()
    local = duel.called_at.astimezone(ZoneInfo("Europe/Paris"))
    client = signed_in(tournament.created_by)
    html = client.get(reverse("organiser:audit", args=[tournament.slug])).content.decode()
    assert f"called at: {local.day} {local:%b %Y %H:%M}" in html
    assert duel.called_at.isoformat() not in html and "+00:00" not in html
    assert "Times are the venue's (Europe/Paris)" in html
    # The "When" column too: the entry's own time on the venue's clock.
    entry = AuditEntry.objects.get(tournament=tournament, action="duel_called")
    when = entry.created_at.astimezone(ZoneInfo("Europe/Paris"))
    assert f">{when.day} {when:%b %H:%M:%S}</time>" in html


@pytest.mark.parametrize(
    ("missing", "heading"), [(1, "Remove this no-show?"), (3, "Remove these 3 no-shows?")]
)
def test_the_no_shows_confirmation_counts_in_words(missing, heading):
    organiser = UserFactory()
    tournament = TournamentFactory(created_by=organiser)
    for i in range(missing):
        EntrantFactory(tournament=tournament, name=f"P{i}")
    client = signed_in(organiser)
    html = client.post(reverse("organiser:withdraw_no_shows", args=[tournament.slug])).content
    assert heading in html.decode()
    assert presentation.no_shows_question(1, removes=False) == "Withdraw this no-show?"
    assert presentation.no_shows_question(3, removes=False) == "Withdraw these 3 no-shows?"


def test_printed_sheets_say_this_referee_or_these_referees():
    organiser = UserFactory()
    tournament = TournamentFactory(created_by=organiser)
    invitation, _ = issue_invitation(organiser, tournament, role=Role.REFEREE, label="Rita")
    client = signed_in(organiser)
    page = client.post(
        reverse("organiser:print_referees", args=[tournament.slug]), {"replace": invitation.pk}
    ).content.decode()
    assert "1 sheet ready: print this page (Ctrl+P). The earlier link of this referee no " in page
    assert "these 1" not in page
    assert presentation.sheets_ready(2, "referee").endswith(
        "The earlier links of these 2 referees no longer work. These links are shown only now."
    )
