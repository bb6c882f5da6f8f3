"""Practice pages at 3–6 seats and in teams: the table chosen, moves with targets, refusals."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from practice import services
from practice.models import PracticeDuel
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def start(client: Client, **fields) -> PracticeDuel:
    data = {"ruleset": "official", **fields}
    response = client.post(reverse("practice:index"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return PracticeDuel.objects.latest("pk")


def move(client: Client, practice: PracticeDuel, **data):
    practice.refresh_from_db()
    data.setdefault("seen", len(practice.moves))
    return client.post(reverse("practice:move", args=[practice.pk]), data)


def page_of(client: Client, practice: PracticeDuel) -> str:
    return client.get(reverse("practice:table", args=[practice.pk])).content.decode()


@pytest.mark.parametrize(
    ("fields", "seats", "variants", "options", "teams"),
    [
        ({"opponents": "2", "ruleset": "tournament"}, 3, [], {"max_seats": 3}, []),
        ({"opponents": "3"}, 4, [], {}, []),
        ({"opponents": "4", "variants": ["speed", "hardcore"]}, 5, ["speed", "hardcore"], {}, []),
        ({"opponents": "5"}, 6, [], {"number_pool": 188}, []),
        (
            {"opponents": "5", "ruleset": "arbiter", "teams": "AD,BE,CF"},
            6,
            ["team"],
            {"max_seats": 6, "number_pool": 188},
            [["A", "D"], ["B", "E"], ["C", "F"]],
        ),
        ({"opponents": "3", "teams": "AC,BD"}, 4, ["team"], {}, [["A", "C"], ["B", "D"]]),
        ({"opponents": "4", "teams": "ACE,BD"}, 5, ["team"], {}, [["A", "C", "E"], ["B", "D"]]),
    ],
)
def test_a_table_is_stored_with_its_seats_variants_options_and_teams(
    ada, fields, seats, variants, options, teams
):
    client = client_for(ada)
    practice = start(client, **fields)
    assert (practice.seats, practice.variants, practice.options, practice.teams) == (
        seats,
        variants,
        options,
        teams,
    )
    page = page_of(client, practice)
    # Every seat shows its counts; the bots are named by their letters.
    assert page.count('data-seat="') == seats
    for letter in "BCDEF"[: seats - 1]:
        assert f"Bot {letter}" in page
    if "number_pool" in options:
        assert "The number pool is raised to 188 cards, so that 68 stay in the deck" in page
        assert "Decks: 68 number" in page
    else:
        assert "number pool is raised" not in page
    if teams:
        partner = teams[0][1]
        assert f"Bot {partner} (your partner)" in page
    listing = client.get(reverse("practice:index")).content.decode()
    assert f"{seats} seats" in listing


def test_the_page_offers_the_persons_own_cards_and_legal_moves_only(ada):
    client = client_for(ada)
    practice = start(client, opponents="3", teams="AC,BD")
    game = services.load(practice)
    page = page_of(client, practice)
    offered = set(re.findall(r'name="play" value="reveal:(\d)"', page))
    assert offered == {str(v) for v, _ in game.my_numbers()}
    offered_cards = set(re.findall(r'name="play" value="action:([a-z_]+)', page))
    assert offered_cards == set(game.playable_actions())
    # The target picker names the two opponents, never the partner C nor the person.
    assert re.findall(r'name="target" value="([A-F])"', page) == ["B", "D"]
    # Nothing of any bot's hand: the hidden values of the next round are never on the page.
    assert "_bot_values" not in page and str(practice.seed) not in page


def seeded_with_a_seven(ada) -> PracticeDuel:
    """A 4-seat practice duel whose person holds a 7 (the seed is set: the deal is ours)."""
    for seed in range(80):
        practice = services.start_practice(ada, "official", 4)
        practice.seed = seed
        practice.save()
        game = services.load(practice)
        if game.reveals() and dict(game.my_numbers()).get(7):
            return practice
    pytest.fail("no deal gave the person a 7")


def test_a_seven_is_played_at_the_chosen_target(ada):
    client = client_for(ada)
    practice = seeded_with_a_seven(ada)
    response = move(client, practice, play="reveal:7", target="D")
    assert response.status_code == 302
    practice.refresh_from_db()
    assert practice.moves == [{"kind": "reveal", "value": 7, "target": "D"}]
    assert "Bot D draws 2 number cards and 1 action card (ada&#x27;s 7)" in page_of(
        client, practice
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"play": "reveal:7"}, "Choose whom your 7 targets: B, C, D."),
        ({"play": "reveal:7", "target": "A"}, "Choose whom your 7 targets"),
        ({"play": "reveal:7", "target": "Z" * 5000}, "Choose whom your 7 targets"),
        ({"play": "reveal:x", "target": "B"}, "Reveal a number card from 0 to 9."),
        ({"play": "action:block", "target": "B"}, "You cannot play BLOCK now."),
        ({"play": "blocked_round"}, "You are not blocked: reveal a card."),
        ({"play": "respond:pass"}, "Unknown move"),
        ({"kind": "respond", "choice": "pass"}, "Nothing is asked of you now."),
    ],
)
def test_a_refused_move_is_explained_and_nothing_is_stored(ada, data, words):
    client = client_for(ada)
    practice = seeded_with_a_seven(ada)
    response = move(client, practice, **data)
    assert response.status_code == 422
    assert words in response.content.decode()
    practice.refresh_from_db()
    assert practice.moves == []


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"opponents": "6"}, "Choose from 1 to 5 bot opponents."),
        ({"opponents": "0"}, "Choose from 1 to 5 bot opponents."),
        ({"opponents": "²"}, "Choose from 1 to 5 bot opponents."),
        ({"opponents": "2", "teams": "AC,BD"}, "Teams need 4 to 6 seats"),
        ({"opponents": "3", "teams": "AB,CD"}, "At 4 seats choose teams from"),
        ({"opponents": "3", "variants": "team"}, "Choose variants from"),
        ({"opponents": "3", "variants": "<b>x</b>"}, "Choose variants from"),
    ],
)
def test_a_table_the_rules_do_not_offer_is_refused_and_nothing_is_created(ada, fields, words):
    response = client_for(ada).post(reverse("practice:index"), {"ruleset": "official", **fields})
    assert response.status_code == 422
    body = response.content.decode()
    assert words in body and "<b>x</b>" not in body
    assert not PracticeDuel.objects.exists()


def test_another_person_can_neither_see_nor_move_in_your_table(ada):
    practice = start(client_for(ada), opponents="3", teams="AC,BD")
    other = client_for(UserFactory())
    assert other.get(reverse("practice:table", args=[practice.pk])).status_code == 404
    for data in ({"kind": "resign"}, {"play": "reveal:1", "target": "B"}):
        response = other.post(reverse("practice:move", args=[practice.pk]), {**data, "seen": 0})
        assert response.status_code == 404
    practice.refresh_from_db()
    assert practice.moves == [] and not practice.finished


def test_resigning_for_a_team_loses_and_says_who_won(ada):
    client = client_for(ada)
    practice = start(client, opponents="3", teams="AC,BD")
    assert move(client, practice, kind="resign").status_code == 302
    practice.refresh_from_db()
    assert (practice.finished, practice.outcome) == (True, "lost")
    page = page_of(client, practice)
    assert "Bot B + Bot D win — forfeit." in page
    assert "Play again (official rules, 4 seats)" in page
    # Play again keeps the table.
    response = client.post(
        reverse("practice:index"),
        {"ruleset": "official", "opponents": "3", "teams": "AC,BD"},
    )
    assert response.status_code == 302
    assert PracticeDuel.objects.latest("pk").teams == [["A", "C"], ["B", "D"]]


def test_a_whole_four_seat_game_through_the_views_ends_with_an_outcome(ada):
    client = client_for(ada)
    practice = start(client, opponents="3")
    for _ in range(300):
        practice.refresh_from_db()
        if practice.finished:
            break
        game = services.load(practice)
        asked = game.awaiting_me()
        if asked:
            data = {"kind": "respond", "choice": asked[1][-1]}
        elif not game.reveals():
            data = {"play": "blocked_round"}
        else:
            data = {"play": f"reveal:{game.my_numbers()[-1][0]}", "target": game.targets()[0]}
        assert move(client, practice, **data).status_code == 302
    practice.refresh_from_db()
    assert practice.finished and practice.outcome in ("won", "lost", "drawn")
    state = services.load(practice).state()
    won = state["winner"] == "A"
    assert practice.outcome == ("won" if won else "drawn" if state["winner"] is None else "lost")
