"""Who may follow what (issue 28): the stream token view (/push/token, core.views.stream_token)
checks every topic again for the viewer, as the page that named it did. The role matrix, for
a published and an unpublished tournament: anonymous, a player of it, a player of another
tournament, a referee, a co-organiser, its organiser, an outsider. A player's stream refuses
another player's topics; nothing malformed is a server error."""

import pytest
from django.test import Client

from accounts.models import Role
from core import push
from tests.factories import EntrantFactory, RoleFactory, UserFactory, group_phase_duel
from tournaments.services import refereeing

pytestmark = pytest.mark.django_db

WHO = ("anonymous", "player", "other_player", "referee", "co_organiser", "organiser", "outsider")
STAFF = {"referee", "co_organiser", "organiser"}
INSIDE = STAFF | {"player"}


@pytest.fixture
def push_tokens(settings):
    """Push on (the view signs tokens; it needs no Redis to)."""
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/8"


def people(published: bool):
    duel, referee = group_phase_duel(published=published)
    tournament = duel.tournament
    player, other_player = UserFactory(), UserFactory()
    entrant = duel.seat_a
    entrant.user = player
    entrant.save(update_fields=["user"])
    # A player elsewhere: their own tournament, their own entry.
    elsewhere, _ = group_phase_duel(published=False)
    EntrantFactory(tournament=elsewhere.tournament, user=other_player, name="Elsewhere")
    who = {
        "anonymous": None,
        "player": player,
        "other_player": other_player,
        "referee": referee,
        "co_organiser": RoleFactory(tournament=tournament, role=Role.CO_ORGANISER).user,
        "organiser": tournament.created_by,
        "outsider": UserFactory(),
    }
    return tournament, duel, elsewhere, who


def ask(user, *topics: str):
    client = Client()
    if user is not None:
        client.force_login(user)
    query = "&".join(f"topic={t}" for t in topics)
    return client.get(f"/push/token?{query}")


@pytest.mark.parametrize("published", [True, False], ids=["published", "unpublished"])
def test_the_role_matrix(push_tokens, published):
    tournament, duel, elsewhere, who = people(published)
    expected = {
        f"tournament:{tournament.pk}": set(WHO) if published else INSIDE,
        f"public:{tournament.slug}:home": set(WHO) if published else INSIDE,
        f"public:{tournament.slug}:screen-standings": set(WHO) if published else INSIDE,
        f"duel:{duel.pk}": STAFF,  # its consoles: nobody else, the player in it neither
        f"tournament:{elsewhere.tournament.pk}": {"other_player"},  # theirs, not this one's
    }
    for topic, allowed in expected.items():
        for name, user in who.items():
            response = ask(user, topic)
            status = 200 if name in allowed else 403
            assert response.status_code == status, (topic, name, response.content)
            if status == 200:
                given = response.json()
                token = given["url"].partition("?t=")[2]
                assert push.topics_of(token) == [topic]  # exactly what was asked
                assert given["topics"] == topic
            else:
                assert response.json()["topics"] == [topic]
                assert "url" not in response.json()


def test_a_players_stream_refuses_another_players_topics(push_tokens):
    tournament, duel, elsewhere, who = people(published=False)
    mine = f"tournament:{tournament.pk}"
    theirs = f"tournament:{elsewhere.tournament.pk}"
    assert ask(who["player"], mine).status_code == 200
    # One topic refused refuses the token: no stream for the rest either.
    response = ask(who["player"], mine, theirs)
    assert response.status_code == 403
    assert response.json()["topics"] == [theirs]
    assert ask(who["player"], f"duel:{elsewhere.pk}").status_code == 403
    assert ask(who["player"], f"public:{elsewhere.tournament.slug}:home").status_code == 403


@pytest.mark.parametrize(
    "topic",
    [
        "tournament:abc",
        "tournament:",
        "tournament:-1",
        "tournament:\u00b2",
        "tournament:99999999999999999999999999",
        "duel:x",
        "duel:1e3",
        "duel:99999999999999999999999999",
        "public:nope",
        "public:no-such-cup:home",
        "public::home",
        "game:1",  # no such game
        "game:x",
        "game:99999999999999999999999999",
        "nokind",
        ":",
        "tournament:1\nevent: change",
        "x" * 500,
        "%00",
    ],
)
def test_a_malformed_or_unknown_topic_is_refused_never_an_error(push_tokens, topic):
    duel, _ = group_phase_duel(published=True)
    organiser = duel.tournament.created_by
    for user in (None, organiser):
        response = ask(user, topic)
        assert response.status_code in (400, 403), response.content


def test_the_number_of_topics_is_bounded(push_tokens):
    duel, _ = group_phase_duel(published=True)
    topics = [f"tournament:{duel.tournament.pk}"] * (push.MAX_TOPICS + 1)
    assert ask(None, *topics[: push.MAX_TOPICS]).status_code == 200
    assert ask(None, *topics).status_code == 400
    assert ask(None).status_code == 400


def test_no_token_where_push_is_off(settings):
    settings.PUSH_ENABLED = False
    duel, _ = group_phase_duel(published=True)
    response = ask(None, f"tournament:{duel.tournament.pk}")
    assert response.status_code == 404  # the page polls


def test_the_token_is_asked_with_get_and_never_cached(push_tokens):
    duel, _ = group_phase_duel(published=True)
    topic = f"tournament:{duel.tournament.pk}"
    assert Client().post(f"/push/token?topic={topic}").status_code == 405
    response = ask(None, topic)
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_a_games_news_only_for_its_own_people(push_tokens):
    """`game:<pk>`: a casual table's owner and accepted co-referees, a practice game's
    player; nobody for a tournament duel's game (its consoles follow `duel:<pk>`)."""
    from practice.game_services import start_game
    from tables import services as tables
    from tests.tables.helpers import three_seats

    owner, co, outsider, stranger = (UserFactory() for _ in range(4))
    table = three_seats(owner)
    tables.accept_invitation(
        token=tables.invite_co_referee(table_id=table.pk, actor=owner), user=co
    )
    tables.invite_co_referee(table_id=table.pk, actor=owner)  # another, never accepted
    practice = start_game(stranger, "trois")
    duel, referee = group_phase_duel(published=True)
    refereeing.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    duel.refresh_from_db()  # its game is dealt at the first move
    assert duel.game_id
    expected = {
        f"game:{table.game_id}": {owner, co},
        f"game:{practice.game_id}": {stranger},
        f"game:{duel.game_id}": set(),
    }
    for topic, allowed in expected.items():
        for user in (None, owner, co, outsider, stranger, referee, duel.tournament.created_by):
            status = ask(user, topic).status_code
            assert status == (200 if user in allowed else 403), (topic, user)


def test_a_referee_playing_in_a_duel_may_not_follow_its_console(push_tokens):
    """A referee never referees a duel they play in: a referee of the tournament whose own
    entry is in the duel is refused its console's topic, and may follow another duel's."""
    tournament, duel, elsewhere, who = people(published=True)
    playing_referee = RoleFactory(tournament=tournament, role=Role.REFEREE).user
    entrant = duel.seat_b
    entrant.user = playing_referee
    entrant.save(update_fields=["user"])
    assert ask(playing_referee, f"duel:{duel.pk}").status_code == 403
    assert ask(who["referee"], f"duel:{duel.pk}").status_code == 200
    assert ask(playing_referee, f"tournament:{tournament.pk}").status_code == 200


def test_an_online_tables_changes_only_for_its_people(push_tokens):
    """`onlinetable:<pk>` (its lobby, a rematch): the people at the table, host or guest;
    nobody else, its watch link's spectators neither (they follow its game)."""
    from tests.practice.test_online_tables import join_url, open_table
    from tests.practice.test_practice_many_views import client_for

    host, guest, outsider = UserFactory(), UserFactory(), UserFactory()
    table = open_table(client_for(host))
    client_for(guest).post(join_url(table))
    topic = f"onlinetable:{table.pk}"
    for user, status in ((host, 200), (guest, 200), (outsider, 403), (None, 403)):
        assert ask(user, topic).status_code == status, user
