"""Online tournament duels, the organiser's side (ONLINE.md 6): the setting and its lock, the
per-duel switch, the no-show rule and its wait, the ruling on a duel neither player was ready
for, and which account holds each entry (unlinking)."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role, TournamentRole
from core.errors import ServiceError
from duels.models import Duel, DuelStatus
from duels.services import record_of
from tests.factories import EntrantFactory, RoleFactory, TournamentFactory, UserFactory
from tests.factories import group_phase_duel as make_duel
from tests.tournaments.helpers import finish
from tournaments import services, tasks
from tournaments.models import AuditEntry, Phase, RoundStatus
from tournaments.services import online_rulings
from tournaments.services.entrants import find_claimable

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def linked(duel):
    """The duel's two entries claimed by accounts of their own (ada, bo)."""
    for entrant, name in ((duel.seat_a, "ada"), (duel.seat_b, "bo")):
        entrant.user = UserFactory(username=name)
        entrant.save(update_fields=["user"])
    return duel


@pytest.fixture
def online_duel():
    """Round 1's duel of a tournament in its group phase, online, both entries claimed."""
    duel, referee = make_duel(online_duels=True, time_zone="Europe/Madrid")
    linked(duel)
    Duel.objects.filter(pk=duel.pk).update(online=True)
    duel.refresh_from_db()
    return duel, referee


def overdue(duel, *, a=False, b=False, minutes=1):
    """The duel's wait ran out `minutes` ago, with seat A and/or B ready."""
    now = timezone.now()
    Duel.objects.filter(pk=duel.pk).update(
        ready_by=now - timedelta(minutes=minutes),
        ready_a=now - timedelta(minutes=3) if a else None,
        ready_b=now - timedelta(minutes=3) if b else None,
    )
    duel.refresh_from_db()
    return duel


def rounds_url(duel, name=None):
    slug = duel.tournament.slug
    if name is None:
        return reverse("organiser:rounds", args=[slug])
    return reverse(f"organiser:{name}", args=[slug, duel.pk])


# ---- the setting -------------------------------------------------------------------------------


def test_the_setting_is_chosen_bounded_and_audited_in_words():
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Net Cup", created_by=organiser)
    services.configure(tournament, organiser, online_duels=True, seat_clock=45)
    tournament.refresh_from_db()
    assert (tournament.online_duels, tournament.seat_clock) == (True, 45)
    for bad in (9, 121, "30", True, None):
        with pytest.raises(ServiceError, match="10 to 120 seconds"):
            services.configure(tournament, organiser, seat_clock=bad)
    with pytest.raises(ServiceError, match="at a table or online"):
        services.configure(tournament, organiser, online_duels="yes")
    tournament.refresh_from_db()
    assert tournament.seat_clock == 45
    html = client_for(organiser).get(reverse("organiser:audit", args=[tournament.slug]))
    text = html.content.decode()
    assert "duels are played: at a table → online" in text
    assert "seat clock: 30 s → 45 s" in text


def test_the_settings_page_sets_it_and_refuses_out_of_range_in_words():
    organiser = UserFactory(username="olga")
    tournament = services.create_tournament(name="Net Cup", created_by=organiser)
    client = client_for(organiser)
    setup = reverse("organiser:setup", args=[tournament.slug])
    base = {"name": "Net Cup", "duel_preset": "tournament", "tiebreak_mode": "full"}
    page = client.get(setup).content.decode()
    assert "Duels are played" in page and "Seat clock (seconds, 10–120)" in page
    assert "online (each player on their own device, cards dealt by the app)" in page
    refused = client.post(setup, {**base, "online_duels": "online", "seat_clock": "121"})
    assert refused.status_code == 422
    assert "less than or equal to 120" in refused.content.decode()
    tournament.refresh_from_db()
    assert (tournament.online_duels, tournament.seat_clock) == (False, 30)  # nothing half-stored
    assert client.post(setup, {**base, "online_duels": "sideways"}).status_code == 422
    saved = client.post(setup, {**base, "online_duels": "online", "seat_clock": "20"})
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.online_duels, tournament.seat_clock) == (True, 20)
    # A post from an older page (without the two fields) keeps them.
    assert client.post(setup, base).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.online_duels, tournament.seat_clock) == (True, 20)


def test_the_setting_locks_when_the_group_phase_starts():
    organiser = UserFactory(username="olga")
    tournament = TournamentFactory(created_by=organiser, phase=Phase.GROUP_PHASE)
    with pytest.raises(ServiceError, match="locked once the group phase has started"):
        services.configure(tournament, organiser, online_duels=True)
    with pytest.raises(ServiceError, match="locked once the group phase has started"):
        services.configure(tournament, organiser, seat_clock=60)
    client = client_for(organiser)
    setup = reverse("organiser:setup", args=[tournament.slug])
    html = client.get(setup).content.decode()
    assert html.count("Locked: the group phase has started.") >= 6
    client.post(
        setup,
        {
            "name": tournament.name,
            "tiebreak_mode": "full",
            "online_duels": "online",
            "seat_clock": 99,
        },
    )
    tournament.refresh_from_db()
    assert (tournament.online_duels, tournament.seat_clock) == (False, 30)


def test_a_new_duel_copies_the_setting():
    organiser = UserFactory()
    tournament = services.create_tournament(name="Net Cup", created_by=organiser)
    services.configure(tournament, organiser, online_duels=True)
    services.register_list(tournament, "\n".join(f"P{i}" for i in range(10)), organiser)
    services.split_groups(tournament, organiser, "alternating")
    services.start_group_phase(tournament, organiser)
    g1, g2 = (list(g.members.order_by("pk")) for g in tournament.groups.order_by("order"))
    duel = services.name_representatives(tournament, organiser, 1, g1[0].pk, g2[0].pk)
    assert duel.online


# ---- the switch --------------------------------------------------------------------------------


def _people(duel, referee):
    tournament = duel.tournament
    co = RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user
    player = UserFactory(username="pia")
    other = tournament.entrants.exclude(pk__in=[duel.seat_a_id, duel.seat_b_id]).first()
    other.user = player
    other.save(update_fields=["user"])
    return {
        "organiser": tournament.created_by,
        "co_organiser": co,
        "referee": referee,
        "player": player,
        "anonymous": None,
    }


@pytest.mark.parametrize(
    "who", ["organiser", "co_organiser", "referee", "player", "plays_in_it", "anonymous"]
)
def test_who_may_switch_a_duel(who):
    duel, referee = make_duel()
    linked(duel)
    people = _people(duel, referee)
    if who == "plays_in_it":  # a co-organiser who plays in this duel
        actor = duel.seat_a.user
        RoleFactory(tournament=duel.tournament, user=actor, role=Role.CO_ORGANISER)
    else:
        actor = people[who]
    may = who in ("organiser", "co_organiser")
    if may:
        online_rulings.switch_duel(duel, actor, online=True)
    else:
        with pytest.raises(ServiceError) as refused:
            online_rulings.switch_duel(duel, actor, online=True)
        assert refused.value.code == "forbidden"
        if who == "plays_in_it":
            assert "You play in this duel" in refused.value.message
    duel.refresh_from_db()
    assert duel.online is may
    assert AuditEntry.objects.filter(action="duel_switched").count() == (1 if may else 0)
    # The same through the Rounds page's button.
    response = client_for(actor).post(rounds_url(duel, "switch_duel"), {"online": "0"})
    expected = {
        "organiser": 302,
        "co_organiser": 302,
        "referee": 403,  # the page is theirs; the ruling is not
        "player": 403,
        "plays_in_it": 403,
        "anonymous": 404,  # an unpublished tournament is not there for them
    }[who]
    assert response.status_code == expected
    duel.refresh_from_db()
    assert duel.online is False


def test_the_switch_is_audited_and_shown_on_the_rounds_page(online_duel):
    duel, _referee = online_duel
    organiser = duel.tournament.created_by
    client = client_for(organiser)
    page = client.get(rounds_url(duel)).content.decode()
    assert "Play Group round 1 at a table" in page
    done = client.post(rounds_url(duel, "switch_duel"), {"online": "0"}, follow=True)
    assert "Group round 1 is played at a table, with a referee." in done.content.decode()
    assert "Play Group round 1 online" in done.content.decode()
    entry = AuditEntry.objects.get(action="duel_switched")
    assert entry.actor == organiser and entry.detail == {"duel": duel.pk, "online": False}
    assert Duel.objects.get(pk=duel.pk).ready_by is None  # a table duel has no wait
    # Switched online with both players named, the wait for them starts at once.
    before = timezone.now()
    assert client.post(rounds_url(duel, "switch_duel"), {"online": "1"}).status_code == 302
    ready_by = Duel.objects.get(pk=duel.pk).ready_by
    assert before + timedelta(minutes=5) <= ready_by <= timezone.now() + timedelta(minutes=5)
    audit = client.get(reverse("organiser:audit", args=[duel.tournament.slug])).content.decode()
    assert "Duel switched between a table and online" in audit


def test_a_duel_is_not_switched_once_started(online_duel):
    duel, referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(online=False)
    duel.refresh_from_db()
    finish(duel, referee, "A")  # played at a table, to the end
    duel.refresh_from_db()
    for online in (True, False):
        with pytest.raises(ServiceError) as refused:
            online_rulings.switch_duel(duel, duel.tournament.created_by, online=online)
        assert refused.value.code == "conflict"
    assert not AuditEntry.objects.filter(action="duel_switched").exists()
    assert Duel.objects.get(pk=duel.pk).online is False


def test_a_duel_is_not_switched_online_without_a_claimed_entry():
    duel, _referee = make_duel()
    organiser = duel.tournament.created_by
    with pytest.raises(ServiceError, match="Alice has not claimed their entry"):
        online_rulings.switch_duel(duel, organiser, online=True)
    duel.refresh_from_db()
    assert not duel.online
    response = client_for(organiser).post(rounds_url(duel, "switch_duel"), {"online": "1"})
    assert response.status_code == 422
    assert "Alice has not claimed their entry" in response.content.decode()
    assert client_for(organiser).post(rounds_url(duel, "switch_duel"), {}).status_code == 422


# ---- no-shows ----------------------------------------------------------------------------------


def test_one_ready_the_other_forfeits_no_show_and_the_standings_count_it(
    online_duel, django_capture_on_commit_callbacks
):
    duel, _referee = online_duel
    overdue(duel, a=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.keep_time()["no_shows"] == 1
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.winner_id == duel.seat_a_id
    assert record_of(duel)["events"] == [{"type": "forfeit", "seat": "B", "reason": "no_show"}]
    tournament = duel.tournament
    points = dict(tournament.standing_rows.values_list("entrant", "points"))
    assert points[duel.seat_a_id] == 3 and points[duel.seat_b_id] == -2
    assert tournament.rounds.get(number=1).status == RoundStatus.DECIDED
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN
    entry = AuditEntry.objects.get(action="no_show_forfeit")
    assert entry.actor is None and entry.detail == {"duel": duel.pk, "entrant": duel.seat_b_id}
    # Safe to repeat: the beat again, and the player's page load, find nothing due.
    assert online_rulings.rule_no_shows() == {"forfeit": 0, "void": 0, "waiting": 0}
    assert online_rulings.rule_no_shows_for(duel).done == ""


def test_nothing_is_ruled_before_the_deadline_or_for_a_table_duel(online_duel):
    duel, _referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(
        ready_by=timezone.now() + timedelta(minutes=2), ready_a=timezone.now()
    )
    duel.refresh_from_db()
    assert online_rulings.rule_no_shows_for(duel).done == ""
    overdue(duel, a=True)
    Duel.objects.filter(pk=duel.pk).update(online=False)
    duel.refresh_from_db()
    assert online_rulings.rule_no_shows_for(duel).done == ""
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.READY


def test_the_per_duel_rule_serves_a_page_load(online_duel):
    duel, _referee = online_duel
    overdue(duel, b=True)
    outcome = online_rulings.rule_no_shows_for(Duel.objects.get(pk=duel.pk))
    assert (outcome.done, outcome.seat) == ("forfeit", "A")
    assert Duel.objects.get(pk=duel.pk).result.winner_id == duel.seat_b_id


def test_neither_ready_is_left_to_the_organisers_with_their_tools(online_duel):
    duel, referee = online_duel
    overdue(duel)
    assert online_rulings.rule_no_shows() == {"forfeit": 0, "void": 0, "waiting": 1}
    duel.refresh_from_db()
    assert duel.status == DuelStatus.READY  # never drawn, never decided by itself
    organiser = duel.tournament.created_by
    client = client_for(organiser)
    page = client.get(rounds_url(duel)).content.decode()
    assert "Neither player was ready: rule on this duel." in page
    assert "Void: this round has no result" in page
    # Unconfirmed: nothing happens.
    refused = client.post(rounds_url(duel, "rule_unready"), {"ruling": "forfeit_A"})
    assert refused.status_code == 422
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.READY
    # A referee may rule a forfeit (not a void).
    with pytest.raises(ServiceError, match="Only the tournament's organisers void"):
        online_rulings.rule_unready(duel, referee, "void")
    response = client_for(referee).post(
        rounds_url(duel, "rule_unready"), {"ruling": "forfeit_A", "confirm": "1"}, follow=True
    )
    assert "Alice forfeits (not ready); Bob wins." in response.content.decode()
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_b_id
    assert record_of(duel)["events"] == [{"type": "forfeit", "seat": "A", "reason": "no_show"}]
    # The same ruling again is told, not applied twice.
    again = client.post(rounds_url(duel, "rule_unready"), {"ruling": "forfeit_B", "confirm": "1"})
    assert again.status_code == 302
    assert Duel.objects.get(pk=duel.pk).result.winner_id == duel.seat_b_id


def test_an_organiser_voids_a_duel_neither_player_was_ready_for(online_duel):
    duel, _referee = online_duel
    overdue(duel)
    organiser = duel.tournament.created_by
    response = client_for(organiser).post(
        rounds_url(duel, "rule_unready"), {"ruling": "void", "confirm": "1"}
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID
    tournament = duel.tournament
    assert tournament.rounds.get(number=1).status == RoundStatus.NOT_PLAYED
    assert tournament.rounds.get(number=2).status == RoundStatus.OPEN
    assert AuditEntry.objects.get(action="unplayed_duel_voided").actor == organiser


def test_neither_ready_and_only_organisers_who_play_could_rule_it_is_voided(online_duel):
    duel, _referee = online_duel
    TournamentRole.objects.filter(tournament=duel.tournament).delete()  # no referee
    organiser = duel.tournament.created_by
    seat_a = duel.seat_a
    seat_a.user = organiser  # the organiser plays in it: nobody else may rule
    seat_a.save(update_fields=["user"])
    overdue(duel)
    assert online_rulings.rule_no_shows() == {"forfeit": 0, "void": 1, "waiting": 0}
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID and not hasattr(duel, "result")
    assert "nobody else could rule" in duel.closed_reason or "nobody_ready" in duel.closed_reason
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.NOT_PLAYED
    assert AuditEntry.objects.get(action="unplayed_duel_voided").actor is None
    # The organiser who plays has no ruling of their own on it.
    with pytest.raises(ServiceError, match="You play in this duel"):
        online_rulings.rule_unready(duel, organiser, "forfeit_B")


def test_one_ready_forfeits_even_where_only_organisers_who_play_could_rule(online_duel):
    duel, _referee = online_duel
    TournamentRole.objects.filter(tournament=duel.tournament).delete()
    seat_b = duel.seat_b
    seat_b.user = duel.tournament.created_by
    seat_b.save(update_fields=["user"])
    overdue(duel, b=True)
    assert online_rulings.rule_no_shows()["forfeit"] == 1
    assert Duel.objects.get(pk=duel.pk).result.winner_id == duel.seat_b_id


# ---- the wait ----------------------------------------------------------------------------------


def test_extend_the_wait(online_duel):
    duel, referee = online_duel
    organiser = duel.tournament.created_by
    with pytest.raises(ServiceError, match="The wait has not begun"):
        online_rulings.extend_wait(duel, organiser)
    now = timezone.now()
    later = now + timedelta(minutes=2)
    Duel.objects.filter(pk=duel.pk).update(ready_by=later)
    duel.refresh_from_db()
    online_rulings.extend_wait(duel, organiser, seen=later, now=now)
    duel.refresh_from_db()
    assert duel.ready_by == later + timedelta(minutes=5)
    # A second press of the same page's button is told, not added.
    with pytest.raises(ServiceError, match="already changed") as told:
        online_rulings.extend_wait(duel, organiser, seen=later, now=now)
    assert told.value.code == "done"
    # Past the deadline: five minutes from now.
    overdue(duel)
    online_rulings.extend_wait(duel, organiser, now=now)
    duel.refresh_from_db()
    assert duel.ready_by == now + timedelta(minutes=5)
    assert online_rulings.rule_no_shows_for(duel, now).done == ""
    assert AuditEntry.objects.filter(action="no_show_wait_extended").count() == 2
    for actor in (referee, None):
        with pytest.raises(ServiceError) as refused:
            online_rulings.extend_wait(duel, actor)
        assert refused.value.code == "forbidden"


def test_extend_the_wait_from_the_rounds_page(online_duel):
    duel, _referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(ready_by=timezone.now() + timedelta(minutes=3))
    duel.refresh_from_db()
    madrid = ZoneInfo("Europe/Madrid")  # the tournament's zone: its times are shown in it
    client = client_for(duel.tournament.created_by)
    page = client.get(rounds_url(duel)).content.decode()
    time = duel.ready_by.astimezone(madrid).strftime("%H:%M")
    assert f"A player not ready by {time} (Europe/Madrid) forfeits." in page
    assert "Neither player is ready yet." in page
    response = client.post(
        rounds_url(duel, "extend_wait"), {"seen": duel.ready_by.isoformat()}, follow=True
    )
    later = (duel.ready_by + timedelta(minutes=5)).astimezone(madrid).strftime("%H:%M")
    assert f"the players now have until {later} to be ready" in response.content.decode()
    again = client.post(rounds_url(duel, "extend_wait"), {"seen": duel.ready_by.isoformat()})
    assert again.status_code == 302
    assert Duel.objects.get(pk=duel.pk).ready_by == duel.ready_by + timedelta(minutes=5)


def test_the_rounds_page_shows_each_online_duel(online_duel):
    duel, _referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(
        ready_a=timezone.now(), ready_by=timezone.now() + timedelta(minutes=4)
    )
    client = client_for(duel.tournament.created_by)
    page = client.get(rounds_url(duel)).content.decode()
    assert "Online duels" in page
    assert "Alice is ready; waiting for the other player." in page
    overdue(duel, a=True)
    online_rulings.rule_no_shows()
    page = client.get(rounds_url(duel)).content.decode()
    assert "Finished: Alice won" in page


def test_an_organiser_who_plays_sees_no_organiser_action_on_their_duel(online_duel):
    duel, _referee = online_duel
    co = duel.seat_a.user
    RoleFactory(tournament=duel.tournament, user=co, role=Role.CO_ORGANISER)
    overdue(duel)
    page = client_for(co).get(rounds_url(duel)).content.decode()
    assert "You play in this duel" in page
    assert rounds_url(duel, "switch_duel") not in page
    assert rounds_url(duel, "extend_wait") not in page
    assert rounds_url(duel, "rule_unready") not in page


# ---- who holds each entry ----------------------------------------------------------------------


def test_unlink_an_entry_with_a_confirmation_and_claim_it_again(online_duel):
    duel, referee = online_duel
    tournament = duel.tournament
    organiser = tournament.created_by
    client = client_for(organiser)
    players = reverse("organiser:players", args=[tournament.slug])
    unlink = reverse("organiser:unlink_entry", args=[tournament.slug, duel.seat_a_id])
    page = client.get(players).content.decode()
    assert "ada" in page and "Unlink…" in page
    asked = client.post(unlink)
    assert asked.status_code == 200
    assert "Unlink Alice's entry from ada?" in asked.content.decode()
    assert Duel.objects.get(pk=duel.pk).seat_a.user_id is not None  # nothing yet
    # A referee may not (not their page).
    assert client_for(referee).post(unlink, {"confirm": "1"}).status_code == 403
    ada = duel.seat_a.user
    done = client.post(unlink, {"confirm": "1", "account": str(ada.pk)}, follow=True)
    assert "no longer linked to an account" in done.content.decode()
    entrant = tournament.entrants.get(pk=duel.seat_a_id)
    assert entrant.user_id is None and entrant.claim_token_hash == ""
    entry = AuditEntry.objects.get(action="entry_unlinked")
    assert entry.detail == {"entrant": entrant.pk, "account": "ada"}
    # The same confirmation again is told, nothing changed.
    again = client.post(unlink, {"confirm": "1", "account": str(ada.pk)})
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="entry_unlinked").count() == 1
    # The entry is claimed again through a new claim link, by another account.
    token = services.issue_claim_link(entrant, organiser)
    assert find_claimable(tournament, token) == entrant
    newcomer = UserFactory(username="alice2")
    services.claim_entry(tournament, token, newcomer)
    assert tournament.entrants.get(pk=entrant.pk).user == newcomer


def test_unlink_is_refused_while_the_entry_plays_an_online_duel(online_duel):
    duel, _referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(status=DuelStatus.RUNNING)
    tournament = duel.tournament
    with pytest.raises(ServiceError, match="is playing an online duel now"):
        services.entrants.unlink_entry(
            tournament, tournament.created_by, duel.seat_a_id, expected_account=None
        )
    other = EntrantFactory(tournament=tournament, name="Zed")
    with pytest.raises(ServiceError, match="not linked to an account"):
        services.entrants.unlink_entry(tournament, tournament.created_by, other.pk)


# ---- both abandon (ONLINE.md 6) ------------------------------------------------------------------


def abandoned_by_both(duel, monkeypatch):
    """Both players say they are ready, then neither moves: the seat clock (injected, never
    slept on) plays for both until the duel stops. Returns the duel, stopped."""
    from types import SimpleNamespace

    from play import clock
    from play import services as play_services
    from tournaments.services import online as players

    moment = [timezone.now()]
    monkeypatch.setattr("play.services._clock", lambda: moment[0])
    monkeypatch.setattr("play.clock._now", lambda: moment[0])
    monkeypatch.setattr(play_services, "random_source", SimpleNamespace(token_bytes=bytes))
    for user in (duel.seat_a.user, duel.seat_b.user):
        players.ready(duel_id=duel.pk, user=user)
    for _ in range(40):
        duel.refresh_from_db()
        if duel.status != DuelStatus.RUNNING or online_rulings.both_abandoned(duel):
            break
        moment[0] += timedelta(seconds=duel.tournament.seat_clock + 1)
        clock.check_on_request(duel.game_id)
    duel.refresh_from_db()
    return duel


def test_both_abandoning_stops_the_duel_for_a_ruling_never_one_forfeit(online_duel, monkeypatch):
    duel, _referee = online_duel
    duel = abandoned_by_both(duel, monkeypatch)
    assert duel.status == DuelStatus.RUNNING and online_rulings.both_abandoned(duel)
    assert not hasattr(duel, "result")
    assert online_rulings.waiting_for_ruling(duel)
    assert AuditEntry.objects.filter(action="online_duel_stopped").count() == 1
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.OPEN  # not decided
    page = client_for(duel.tournament.created_by).get(rounds_url(duel)).content.decode()
    assert "Both players abandoned: rule on this duel." in page
    assert "Stopped: both players abandoned" in page
    for words in ("Alice forfeits: Bob wins", "Adjudicate: Alice wins", "Adjudicate: Bob wins"):
        assert words in page
    assert "Void: this round has no result" in page
    # Each player's page says it stopped: no card to play, no resign button.
    from tournaments.views.online import _closed

    assert "the organisers rule on it" in _closed(duel)


@pytest.mark.parametrize(
    ("ruling", "winner", "finish"),
    [("forfeit_A", "B", "forfeit"), ("adjudicate_A", "A", "adjudicated")],
)
def test_a_forfeit_or_an_adjudication_rules_a_duel_both_abandoned(
    online_duel, monkeypatch, ruling, winner, finish
):
    duel, referee = online_duel
    duel = abandoned_by_both(duel, monkeypatch)
    response = client_for(referee).post(
        rounds_url(duel, "rule_unready"), {"ruling": ruling, "confirm": "1"}, follow=True
    )
    said = response.content.decode()
    assert ("Alice forfeits (abandoned); Bob wins." in said) or ("adjudicated to Alice" in said)
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.closed_reason == ""
    assert duel.result.winner_id == (duel.seat_a_id if winner == "A" else duel.seat_b_id)
    assert duel.result.finish == finish
    last = record_of(duel)["events"][-1]
    assert last["type"] == ("forfeit" if finish == "forfeit" else "adjudicate")
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.DECIDED
    action = "abandoned_duel_forfeit" if finish == "forfeit" else "stopped_duel_adjudicated"
    assert AuditEntry.objects.get(action=action).actor == referee
    # The same form again is told, not applied twice.
    again = client_for(referee).post(
        rounds_url(duel, "rule_unready"), {"ruling": "adjudicate_B", "confirm": "1"}
    )
    assert again.status_code == 302
    assert Duel.objects.get(pk=duel.pk).result.winner_id == duel.result.winner_id


def test_an_organiser_voids_a_duel_both_abandoned(online_duel, monkeypatch):
    duel, _referee = online_duel
    duel = abandoned_by_both(duel, monkeypatch)
    organiser = duel.tournament.created_by
    unconfirmed = client_for(organiser).post(rounds_url(duel, "rule_unready"), {"ruling": "void"})
    assert unconfirmed.status_code == 422
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.RUNNING
    response = client_for(organiser).post(
        rounds_url(duel, "rule_unready"), {"ruling": "void", "confirm": "1"}
    )
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID and not hasattr(duel, "result")
    assert duel.game.status == "abandoned"
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.NOT_PLAYED
    assert AuditEntry.objects.get(action="abandoned_duel_voided").actor == organiser


@pytest.mark.parametrize(
    "who", ["organiser", "co_organiser", "referee", "player", "plays_in_it", "anonymous"]
)
def test_who_may_rule_on_a_duel_both_abandoned(online_duel, monkeypatch, who):
    duel, referee = online_duel
    people = _people(duel, referee)
    if who == "plays_in_it":
        actor = duel.seat_a.user
        RoleFactory(tournament=duel.tournament, user=actor, role=Role.CO_ORGANISER)
    else:
        actor = people[who]
    duel = abandoned_by_both(duel, monkeypatch)
    response = client_for(actor).post(
        rounds_url(duel, "rule_unready"), {"ruling": "adjudicate_B", "confirm": "1"}
    )
    expected = {
        "organiser": 302,
        "co_organiser": 302,
        "referee": 302,  # TOURNAMENT.md: a referee records an adjudication
        "player": 403,
        "plays_in_it": 403,
        "anonymous": 404,
    }[who]
    assert response.status_code == expected
    duel.refresh_from_db()
    assert (duel.status == DuelStatus.FINISHED) is (expected == 302)
    # A void is an organiser's only.
    if who == "referee":
        with pytest.raises(ServiceError, match="Only the tournament's organisers void"):
            online_rulings.rule_unready(duel, referee, "void")


def test_a_csrf_less_ruling_is_refused(online_duel, monkeypatch):
    duel, _referee = online_duel
    duel = abandoned_by_both(duel, monkeypatch)
    client = Client(enforce_csrf_checks=True)
    client.force_login(duel.tournament.created_by)
    response = client.post(rounds_url(duel, "rule_unready"), {"ruling": "void", "confirm": "1"})
    assert response.status_code == 403
    assert Duel.objects.get(pk=duel.pk).status == DuelStatus.RUNNING


def test_both_abandoned_where_only_organisers_who_play_could_rule_it_is_voided(
    online_duel, monkeypatch
):
    duel, _referee = online_duel
    TournamentRole.objects.filter(tournament=duel.tournament).delete()
    organiser = duel.tournament.created_by
    # The organiser plays seat A.
    seat_a = duel.seat_a
    seat_a.user = organiser
    seat_a.save(update_fields=["user"])
    duel = Duel.objects.get(pk=duel.pk)
    duel = abandoned_by_both(duel, monkeypatch)
    assert duel.status == DuelStatus.VOID and not hasattr(duel, "result")
    assert "both_abandoned" in duel.closed_reason
    assert duel.tournament.rounds.get(number=1).status == RoundStatus.NOT_PLAYED
    assert AuditEntry.objects.get(action="abandoned_duel_voided").actor is None


def test_an_adjudication_rules_a_duel_neither_player_was_ready_for(online_duel):
    duel, referee = online_duel
    overdue(duel)
    online_rulings.rule_unready(duel, referee, "adjudicate_B")
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED and duel.result.winner_id == duel.seat_b_id
    assert duel.result.finish == "adjudicated"
    assert record_of(duel)["events"] == [
        {"type": "adjudicate", "winner": "B", "reason": online_rulings.ADJUDICATED_UNREADY}
    ]
    assert AuditEntry.objects.get(action="stopped_duel_adjudicated").actor == referee
    with pytest.raises(ServiceError) as again:
        online_rulings.rule_unready(duel, referee, "adjudicate_B")
    assert again.value.code == "done"


# ---- tie-break and playoff duels: a void is replayed (TOURNAMENT.md) -----------------------------


def _online_tiebreak(tournament, organiser_plays: bool):
    from duels.models import DuelKind
    from tests.tournaments.helpers import open_duels

    duel = open_duels(tournament, DuelKind.TIE_BREAK)[0]
    a, b = duel.seat_a, duel.seat_b
    a.user = tournament.created_by if organiser_plays else UserFactory(username="ada")
    b.user = UserFactory(username="bo")
    a.save(update_fields=["user"])
    b.save(update_fields=["user"])
    Duel.objects.filter(pk=duel.pk).update(online=True)
    return Duel.objects.get(pk=duel.pk)


def _the_replay(duel):
    replay = Duel.objects.get(replay_of=duel)
    assert (replay.kind, replay.stage) == (duel.kind, duel.stage)
    assert (replay.seat_a_id, replay.seat_b_id) == (duel.seat_a_id, duel.seat_b_id)
    assert replay.online and replay.status == DuelStatus.READY and replay.game_id is None
    assert replay.ready_by > timezone.now() + timedelta(minutes=4)  # a new 5-minute wait
    # The plan's one duel for that match: the void one is kept, struck through.
    live = Duel.objects.filter(tournament=duel.tournament, kind=duel.kind, stage=duel.stage)
    assert list(live.exclude(status=DuelStatus.VOID)) == [replay]
    return replay


def test_a_tie_break_duel_nobody_else_could_rule_is_voided_and_replayed(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, _organiser, _referee = played_group_phase
    TournamentRole.objects.filter(tournament=tournament).delete()  # no referee, no co-organiser
    duel = overdue(_online_tiebreak(tournament, organiser_plays=True))
    with django_capture_on_commit_callbacks(execute=True):
        assert online_rulings.rule_no_shows() == {"forfeit": 0, "void": 1, "waiting": 0}
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID and not hasattr(duel, "result")
    replay = _the_replay(duel)
    entry = AuditEntry.objects.get(action="unplayed_duel_voided")
    assert entry.actor is None and entry.detail == {"duel": duel.pk, "replay_duel": replay.pk}
    # Safe to repeat: the beat again finds nothing due.
    with django_capture_on_commit_callbacks(execute=True):
        assert online_rulings.rule_no_shows() == {"forfeit": 0, "void": 0, "waiting": 0}
    assert Duel.objects.filter(replay_of=duel).count() == 1


def test_an_organiser_voids_a_tie_break_duel_and_it_is_replayed(
    played_group_phase, django_capture_on_commit_callbacks
):
    tournament, organiser, _referee = played_group_phase
    duel = overdue(_online_tiebreak(tournament, organiser_plays=False))
    page = client_for(organiser).get(rounds_url(duel)).content.decode()
    assert "Void: the duel is replayed with a new deal" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(organiser).post(
            rounds_url(duel, "rule_unready"), {"ruling": "void", "confirm": "1"}, follow=True
        )
    assert "is void: it is replayed with a new deal." in response.content.decode()
    duel.refresh_from_db()
    assert duel.status == DuelStatus.VOID
    _the_replay(duel)


# ---- found by the outside pass (2026-11-28) ----------------------------------------------------


def test_the_rounds_page_rules_a_wait_that_ran_out_where_no_worker_runs(online_duel):
    duel, _referee = online_duel
    overdue(duel, a=True)
    page = client_for(duel.tournament.created_by).get(rounds_url(duel))
    assert page.status_code == 200
    duel.refresh_from_db()
    assert duel.status == DuelStatus.FINISHED
    assert duel.result.winner_id == duel.seat_a_id and duel.state["finish"] == "forfeit"


def test_players_once_one_is_ready_are_not_replaced(online_duel):
    duel, _referee = online_duel
    Duel.objects.filter(pk=duel.pk).update(ready_a=timezone.now())
    tournament = duel.tournament
    others = [
        EntrantFactory(tournament=tournament, name=f"Sub {g.name}", group=g)
        for g in tournament.groups.order_by("order")
    ]
    with pytest.raises(ServiceError, match="is ready to play this duel online"):
        services.name_representatives(
            tournament, tournament.created_by, 1, others[0].pk, others[1].pk
        )
    duel.refresh_from_db()
    assert duel.ready_a is not None  # nothing thrown away


def test_nobody_is_a_no_show_while_an_entry_is_unclaimed_and_the_wait_starts_at_the_claim(
    online_duel,
):
    from tournaments.services.entrants import claim_entry, issue_claim_link

    duel, _referee = online_duel
    bob = duel.seat_b
    bob.user = None
    bob.save(update_fields=["user"])
    overdue(duel, a=True)
    assert online_rulings.rule_no_shows_for(duel).done == ""
    duel.refresh_from_db()
    assert duel.status != DuelStatus.FINISHED  # Bob could not even sign in to it
    token = issue_claim_link(bob)
    before = timezone.now()
    from django.db import transaction

    with transaction.atomic():
        claim_entry(duel.tournament, token, UserFactory(username="bob2"))
    duel.refresh_from_db()
    assert duel.ready_by >= before + timedelta(minutes=4)
    assert duel.ready_a is not None  # Alice stays ready
