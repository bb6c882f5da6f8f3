"""Notifications (issue 16): opt-in e-mail, sent by Celery tasks after the commit (eager
here), once per event and person, never to entrants without an account."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Role, SentNotification
from accounts.services import grant_role
from accounts.tasks import notify_role_granted
from tests.factories import EntrantFactory, UserFactory, group_phase_duel
from tournaments.presentation import duel_title, table_label
from tournaments.services import name_representatives
from tournaments.services.refereeing import call_duel
from tournaments.tasks import notify_duel_called, notify_named

pytestmark = pytest.mark.django_db


def opted_in(**kwargs):
    return UserFactory(
        notify_by_email=True, email=f"{kwargs.get('username', 'p')}@example.org", **kwargs
    )


@pytest.fixture
def round2(django_capture_on_commit_callbacks):
    """Round 1 decided; two players with accounts (Cara opted in, Dan not) and one without."""
    duel, referee = group_phase_duel()
    tournament = duel.tournament
    from tests.tournaments.helpers import finish

    finish(duel, referee, "A")
    reds, blues = tournament.groups.order_by("order")
    cara = EntrantFactory(
        tournament=tournament, group=reds, name="Cara", user=opted_in(username="cara")
    )
    dan = EntrantFactory(tournament=tournament, group=blues, name="Dan", user=UserFactory())
    ed = EntrantFactory(tournament=tournament, group=blues, name="Ed")  # no account
    mail.outbox.clear()
    return tournament, referee, cara, dan, ed


def test_named_players_who_opted_in_are_told_once(round2, django_capture_on_commit_callbacks):
    tournament, referee, cara, dan, ed = round2
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk, "4")
    assert [m.to for m in mail.outbox] == [["cara@example.org"]]
    assert "you play Group round 2" in mail.outbox[0].subject
    assert "against Dan" in mail.outbox[0].body and "Where: Table 4" in mail.outbox[0].body
    # A retried or duplicated task sends nothing more.
    notify_named.apply(args=[duel.pk])
    notify_named.apply(args=[duel.pk])
    assert len(mail.outbox) == 1
    assert SentNotification.objects.filter(user=cara.user).count() == 1


def test_an_entrant_without_an_account_gets_nothing(round2, django_capture_on_commit_callbacks):
    tournament, referee, cara, dan, ed = round2
    cara.user.notify_by_email = False
    cara.user.save()
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, ed.pk)
        call_duel(duel, referee, "2")
    assert mail.outbox == []


def test_each_call_is_told_once(round2, django_capture_on_commit_callbacks):
    tournament, referee, cara, dan, ed = round2
    duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, referee, "6")
    assert len(mail.outbox) == 1 and "go to Table 6" in mail.outbox[0].subject
    duel.refresh_from_db()
    notify_duel_called.apply(args=[duel.pk, duel.called_at.isoformat()])
    assert len(mail.outbox) == 1
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, referee, "8")  # called again, another table: a new event
    assert len(mail.outbox) == 2 and "Table 8" in mail.outbox[1].subject


def test_a_failing_mail_server_leaves_no_record_so_the_retry_sends(round2, monkeypatch):
    tournament, referee, cara, dan, ed = round2
    duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    mail.outbox.clear()
    import accounts.notifications as notifications

    real = notifications.send_mail

    def down(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(notifications, "send_mail", down)
    with pytest.raises(OSError):
        notifications.send_once(cara.user, f"named:{duel.pk}:{cara.pk}", "s", "b")
    assert not SentNotification.objects.exists()
    monkeypatch.setattr(notifications, "send_mail", real)
    notify_named.apply(args=[duel.pk])
    assert len(mail.outbox) == 1


def test_a_new_referee_is_told(django_capture_on_commit_callbacks):
    duel, _ = group_phase_duel()
    tournament = duel.tournament
    rex = opted_in(username="rex")
    with django_capture_on_commit_callbacks(execute=True):
        grant = grant_role(tournament.created_by, tournament, "rex", Role.REFEREE)
    assert [m.to for m in mail.outbox] == [["rex@example.org"]]
    assert "referee of" in mail.outbox[0].subject
    notify_role_granted.apply(args=[grant.pk])
    assert len(mail.outbox) == 1 and rex.notifications_sent.count() == 1


def test_the_playoffs_are_announced(
    played_group_phase, django_capture_on_commit_callbacks, settings
):
    from tests.tournaments.helpers import settle_tiebreaks
    from tournaments.services.progression import start_playoffs

    tournament, organiser, referee = played_group_phase
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    entrants = list(tournament.entrants.order_by("pk")[:2])
    for i, entrant in enumerate(entrants):
        entrant.user = opted_in(username=f"po{i}")
        entrant.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        start_playoffs(tournament, organiser)
    announced = [m for m in mail.outbox if "playoffs are announced" in m.subject]
    assert sorted(m.to[0] for m in announced) == ["po0@example.org", "po1@example.org"]
    bracket = f"{settings.SITE_URL}/t/{tournament.slug}/bracket/"
    assert settings.SITE_URL.startswith("http") and all(bracket in m.body for m in announced)


def _everyone_opted_in(tournament):
    for entrant in tournament.entrants.order_by("pk"):
        entrant.user = opted_in(username=f"u{entrant.pk}")
        entrant.save()
    mail.outbox.clear()


@pytest.mark.parametrize("kind", ["tie_break", "playoff"])
def test_duels_the_automation_creates_are_announced_to_their_players(
    kind, played_group_phase, django_capture_on_commit_callbacks, settings
):
    """Tie-break and playoff duels are created by the automation, not by naming players: their
    players are told too, once, with an absolute link (SITE_URL)."""
    from tests.tournaments.helpers import play_playoffs, settle_tiebreaks
    from tournaments.services.progression import start_playoffs

    settings.SITE_URL = "https://uno.example.org"
    tournament, organiser, referee = played_group_phase
    _everyone_opted_in(tournament)
    first = tournament.duels.order_by("-pk").values_list("pk", flat=True).first()
    settle_tiebreaks(tournament, referee, django_capture_on_commit_callbacks)
    if kind == "playoff":
        with django_capture_on_commit_callbacks(execute=True):
            start_playoffs(tournament, organiser)
        play_playoffs(tournament, referee, django_capture_on_commit_callbacks)
    new = list(tournament.duels.filter(kind=kind, pk__gt=first, seat_a__isnull=False))
    assert new, "the automation created no duel after the players opted in"
    for duel in new:
        for entrant in (duel.seat_a, duel.seat_b):
            told = [
                m for m in mail.outbox if m.to == [entrant.user.email] and "you play" in m.subject
            ]
            assert any(duel_title(duel) in m.subject for m in told), (duel, entrant)
            assert SentNotification.objects.filter(key=f"named:{duel.pk}:{entrant.pk}").count() == 1
    assert all(
        "https://uno.example.org/me/" in m.body for m in mail.outbox if "you play" in m.subject
    )


def test_the_opt_in_page():
    user = UserFactory(email="")
    client = Client()
    url = reverse("notifications")
    assert client.get(url).status_code == 302  # sign-in first
    client.force_login(user)
    assert client.get(url).status_code == 200
    refused = client.post(url, {"notify_by_email": "on", "email": ""})
    assert refused.status_code == 422
    assert "Give an address" in refused.content.decode()
    done = client.post(url, {"notify_by_email": "on", "email": "me@example.org"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.notify_by_email and user.email == "me@example.org"
    client.post(url, {"email": "me@example.org"})
    user.refresh_from_db()
    assert not user.notify_by_email


def test_every_mail_links_on_the_sites_address_to_what_it_is_about_from_the_sender(
    round2, django_capture_on_commit_callbacks, settings
):
    """Issue 26: under `ADDR=127.0.0.1:8101 ./dev run` the links pointed at localhost:8000,
    the sender was noreply@localhost, and the role e-mail linked to the dashboard."""
    import re

    settings.SITE_URL = "http://127.0.0.1:8101"
    settings.DEFAULT_FROM_EMAIL = "Club UNO <uno@club.example>"
    tournament, referee, cara, dan, ed = round2
    opted_in(username="rex")
    opted_in(username="cora")
    organiser = tournament.created_by
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, referee, "3")
    with django_capture_on_commit_callbacks(execute=True):
        grant_role(organiser, tournament, "rex", Role.REFEREE)
        grant_role(organiser, tournament, "cora", Role.CO_ORGANISER)
    site, slug = settings.SITE_URL, tournament.slug
    expected = {
        "you play Group round 2": f"{site}/me/",
        "go to Table 3": f"{site}/me/",
        "You are now a referee": f"{site}/t/{slug}/duels/",
        "You are now a co-organiser": f"{site}/t/{slug}/manage/",
    }
    assert len(mail.outbox) == len(expected)
    for message in mail.outbox:
        assert message.from_email == "Club UNO <uno@club.example>"
        (link,) = re.findall(r"https?://\S+", message.body)
        what = next(k for k in expected if k in message.subject)
        assert link == expected[what], message.subject


def test_each_player_is_told_in_their_language_else_the_tournaments(
    round2, django_capture_on_commit_callbacks
):
    """Issue 29: Cara chose Spanish; Dan chose nothing, in a tournament set to French."""
    from django.utils import translation

    tournament, referee, cara, dan, ed = round2
    cara.user.language = "es"
    cara.user.save()
    dan.user.notify_by_email, dan.user.email = True, "dan@example.org"
    dan.user.save()
    tournament.language = "fr"
    tournament.save()
    duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk)
    mail.outbox.clear()
    with translation.override("en-gb"), django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, referee, "6")
    sent = {m.to[0]: m for m in mail.outbox}
    for address, code in (("cara@example.org", "es"), ("dan@example.org", "fr")):
        with translation.override(code):
            where = table_label("6")
            expected = translation.gettext("%(tournament)s: %(title)s — go to %(where)s") % {
                "tournament": tournament.name,
                "title": duel_title(duel),
                "where": where,
            }
        assert sent[address].subject == expected
        assert "is called to" not in sent[address].body  # the English body


def test_players_named_to_an_online_duel_are_sent_to_its_ready_screen(
    round2, django_capture_on_commit_callbacks
):
    tournament, referee, cara, dan, ed = round2
    tournament.online_duels = True
    tournament.save(update_fields=["online_duels"])
    with django_capture_on_commit_callbacks(execute=True):
        duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk, "")
    assert duel.online and duel.ready_by is not None
    (sent,) = mail.outbox
    assert "online: on your own device" in sent.body and "within 5 minutes" in sent.body
    assert f"/me/duels/{duel.pk}/online/" in sent.body


def test_an_online_duel_called_is_opened_online_not_at_a_table(
    round2, django_capture_on_commit_callbacks
):
    """Staff may call an online duel (ONLINE.md 6: its 5 minutes start then): its players are
    told to open it on their device, never to go to a table."""
    tournament, referee, cara, dan, ed = round2
    tournament.online_duels = True
    tournament.save(update_fields=["online_duels"])
    duel = name_representatives(tournament, referee, 2, cara.pk, dan.pk, "")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        call_duel(duel, referee, "6")
    (sent,) = mail.outbox
    assert sent.subject.endswith("Group round 2 — open your online duel")
    assert "is called: open it online now and say you are ready" in sent.body
    assert f"/me/duels/{duel.pk}/online/" in sent.body
    assert "Table" not in sent.subject + sent.body
