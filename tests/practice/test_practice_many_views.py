"""Practice pages at 3–6 seats and in teams: the table chosen, moves with targets, refusals."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from cardtable.confirm import ending
from cardtable.words import CHOOSE_TITLE, consequence, question
from practice import services
from practice.models import PracticeDuel
from tests.factories import UserFactory
from tests.practice.test_practice_views import mine, revision

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
    data.setdefault("revision", revision(practice))
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
        # The pool is raised so that 68 number cards stay in the deck after the deal.
        assert "Decks: 68 number, " in page
    if teams:
        partner = teams[0][1]
        assert f"Bot {partner} (your partner)" in page
    listing = client.get(reverse("practice:index")).content.decode()
    assert f"{seats} seats" in listing


def test_the_page_offers_the_persons_own_cards_and_legal_moves_only(ada):
    client = client_for(ada)
    practice = start(client, opponents="3", teams="AC,BD")
    commands = mine(practice)["commands"]
    page = page_of(client, practice)
    offered = set(re.findall(r'name="play" value="seal:(\d)"', page))
    assert offered == {str(v) for v in commands["seal"]["cards"]}
    offered_cards = set(re.findall(r'name="play" value="play:([a-z_]+)', page))
    assert offered_cards == set(commands.get("play", {}).get("cards", ()))
    # The target picker names the two opponents, never the partner C nor the person.
    assert re.findall(r'name="target" value="([A-F])"', page) == ["B", "D"]
    # The bots have sealed, and nothing of their cards is on the page.
    for bot in "BCD":
        assert f"Bot {bot} has sealed a card" in page
    assert "reveals" not in page


def with_a_seven(ada) -> PracticeDuel:
    """A 4-seat practice duel whose person holds a 7 (nearly every deal)."""
    for _ in range(20):
        practice = services.start_practice(ada, "official", 4)
        if 7 in mine(practice)["commands"].get("seal", {}).get("cards", ()):
            return practice
    pytest.fail("no deal gave the person a 7")


def test_a_seven_is_played_at_the_chosen_target(ada):
    client = client_for(ada)
    practice = with_a_seven(ada)
    response = move(client, practice, play="seal:7", target="D")
    assert response.status_code == 302
    page = page_of(client, practice)
    assert "You reveal 7" in page
    assert "Bot D draws 2 number cards and 1 action card (your 7)" in page


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"play": "seal:7"}, "Name whom your 7 targets: B, C, D."),
        ({"play": "seal:7", "target": "A"}, "Name whom your 7 targets"),
        ({"play": "seal:7", "target": "Z" * 5000}, "Name whom your 7 targets"),
        ({"play": "seal:x", "target": "B"}, "Seal a number card you hold."),
        ({"play": "play:block", "target": "B"}, "Play an action card you hold"),
        ({"play": "answer:pass"}, "Unknown command"),
        ({"kind": "answer", "choice": "pass"}, "Nothing is asked of you now."),
    ],
)
def test_a_refused_move_is_explained_and_nothing_is_stored(ada, data, words):
    client = client_for(ada)
    practice = with_a_seven(ada)
    response = move(client, practice, **data)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert revision(practice) == 0


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
    for data in ({"kind": "resign"}, {"play": "seal:1", "target": "B"}):
        response = other.post(reverse("practice:move", args=[practice.pk]), {**data, "revision": 0})
        assert response.status_code == 404
    practice.refresh_from_db()
    assert revision(practice) == 0 and not practice.finished


def test_resigning_for_a_team_loses_and_says_who_won(ada):
    client = client_for(ada)
    practice = start(client, opponents="3", teams="AC,BD")
    assert move(client, practice, kind="resign").status_code == 302
    practice.refresh_from_db()
    assert (practice.finished, practice.outcome) == (True, "lost")
    page = page_of(client, practice)
    assert "Bot B + Bot D win — forfeit." in page
    # Play again keeps the whole set-up: its form sends this table's.
    assert "Play again with the same set-up" in page
    for hidden in ('name="opponents" value="3"', 'name="teams" value="AC,BD"', 'name="bot"'):
        assert hidden in page
    response = client.post(
        reverse("practice:index"),
        {"ruleset": "official", "opponents": "3", "teams": "AC,BD"},
    )
    assert response.status_code == 302
    assert PracticeDuel.objects.latest("pk").teams == [["A", "C"], ["B", "D"]]


def test_a_whole_four_seat_game_through_the_views_ends_with_an_outcome(ada):
    client = client_for(ada)
    practice = start(client, opponents="3")
    for _ in range(400):
        practice.refresh_from_db()
        if practice.finished:
            break
        commands = mine(practice)["commands"]
        if "choose" in commands:
            # The page asks which card goes, one button per card the person may give.
            page = page_of(client, practice)
            assert CHOOSE_TITLE[commands["choose"]["what"]] in page
            data = {"kind": "choose", "card": commands["choose"]["cards"][0]}
        elif "answer" in commands:
            data = {"kind": "answer", "choice": commands["answer"]["choices"][-1]}
        else:
            seal = commands["seal"]
            data = {"play": f"seal:{seal['cards'][-1]}", "target": seal["targets"][0]}
        assert move(client, practice, **data).status_code == 302
    practice.refresh_from_db()
    assert practice.finished and practice.outcome in ("won", "lost", "drawn")
    winner = mine(practice)["state"]["winner"]
    won = winner == "A"
    assert practice.outcome == ("won" if won else "drawn" if winner is None else "lost")


def test_a_decision_names_the_card_and_who_played_it_and_says_what_each_choice_does():
    # From the dealt view's "other" and "card" (not from the log's latest move, which may be
    # another seat's at more than two seats), in the second person.
    assert question("counter", "Bot C", "+2") == "Bot C played +2 on you. Counter it?"
    says = {
        c: consequence("counter", c, "Bot C", "draw_two", many=True, forfeits=False, hopeless=False)
        for c in ("draw_two", "draw_four", "pass")
    }
    assert says == {
        "draw_two": "Counter with +2: you both draw 1 number card",
        "draw_four": "Counter with +4: Bot C draws 3 number cards",
        "pass": "No counter: you draw 2 number cards",
    }
    refuse = consequence("dare", "refuse", "Bot", None, many=False, forfeits=True, hopeless=False)
    assert refuse == "Refuse — you forfeit: Bot wins the game"
    hopeless = consequence(
        "challenge", "draw_two", "Bot", None, many=False, forfeits=False, hopeless=True
    )
    assert "cannot succeed" in hopeless


@pytest.mark.parametrize(
    ("ruleset", "seats", "decision", "choice", "actions", "why"),
    [
        ("paper", 2, "dare", "refuse", 3, "forfeit"),
        ("official", 4, "dare", "refuse", 3, "forfeit"),
        ("arbiter", 2, "dare", "refuse", 3, None),  # refusing earns a penalty there
        ("paper", 2, "dare", "complete", 3, None),
        ("tournament", 2, "challenge", "draw_two", 1, "hopeless"),
        ("tournament", 2, "challenge", "draw_two", 2, None),
        ("official", 2, "challenge", "draw_two", 1, None),  # any_card: one card is enough
        ("tournament", 2, "challenge", "pass", 2, "concede"),
        ("official", 4, "challenge", "pass", 2, None),  # another opponent may challenge
        ("tournament", 2, "counter", "pass", 1, None),
    ],
)
def test_the_choices_that_end_the_game_against_the_person_are_asked_once(
    ruleset, seats, decision, choice, actions, why
):
    practice = PracticeDuel(ruleset=ruleset, seats=seats, variants=[], options={})
    view = {
        "commands": {"answer": {"decision": decision, "choices": [choice]}},
        "state": {"seats": {"A": {"action_cards": actions}}},
    }
    command = services.Command("answer", "A", {"choice": choice})
    assert ending(practice, view, command, "A") == why


def test_a_decision_the_hand_leaves_one_answer_to_is_asked_and_says_why():
    # Answering it at once would tell the others the person holds no +2 or +4 (issue 30).
    from types import SimpleNamespace

    from cardtable.page import _asked

    practice = PracticeDuel(ruleset="tournament", seats=2, variants=[], options={})
    asked = {"decision": "counter", "choices": ["pass"], "other": "B", "card": "draw_four"}
    words = _asked(practice, asked, {"A": "ada", "B": "Bot"}, False, SimpleNamespace(tiles=[]), "A")
    assert words["note"] == "You hold no +2 or +4, so you cannot counter."
    assert [c["label"] for c in words["choices"]] == ["No counter: you draw 4 number cards"]
