"""Practice pages: signed-in people only, each their own duels; moves checked on the server,
played through the table core (the dealt Split UNO adapter, ONLINE.md)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.split_uno.constants import CARD_LABELS
from play.models import Game, GameEvent
from play.selectors import view_of
from practice import services
from practice.models import PracticeDuel
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def ada():
    return UserFactory(username="ada")


def start(client: Client, ruleset: str = "tournament") -> PracticeDuel:
    response = client.post(reverse("practice:index"), {"ruleset": ruleset})
    assert response.status_code == 302
    return PracticeDuel.objects.latest("pk")


def move_url(practice: PracticeDuel) -> str:
    return reverse("practice:move", args=[practice.pk])


def page_of(client: Client, practice: PracticeDuel) -> str:
    return client.get(reverse("practice:table", args=[practice.pk])).content.decode()


def revision(practice: PracticeDuel) -> int:
    return Game.objects.get(pk=practice.game_id).revision


def mine(practice: PracticeDuel) -> dict:
    """The person's seat's view of the duel (what every page is drawn from)."""
    return view_of(practice.game_id, services.ME)


def form_of(page: str, button: str) -> dict[str, str]:
    """The hidden fields of the form that holds ``button`` (its revision and its key)."""
    at = page.index(button)
    form = page[page.rindex("<form", 0, at) : page.index("</form>", at)]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_the_pages_need_a_sign_in(ada):
    practice = start(client_for(ada))
    anonymous = Client()
    for path in (reverse("practice:index"), reverse("practice:table", args=[practice.pk])):
        response = anonymous.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = anonymous.post(move_url(practice), {"kind": "resign", "revision": 0})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert revision(practice) == 0


def test_someone_elses_duel_is_not_found_and_takes_no_move(ada):
    practice = start(client_for(ada))
    other = client_for(UserFactory())
    assert other.get(reverse("practice:table", args=[practice.pk])).status_code == 404
    for data in ({"kind": "resign"}, {"play": "seal:1"}):
        response = other.post(move_url(practice), {**data, "revision": 0, "intent": "k"})
        assert response.status_code == 404
    assert revision(practice) == 0 and not PracticeDuel.objects.get(pk=practice.pk).finished
    assert ada.username not in other.get(reverse("practice:index")).content.decode()


def test_start_reveal_and_see_the_log_then_resign(ada):
    client = client_for(ada)
    practice = start(client, "paper")
    page = page_of(client, practice)
    assert "Your turn: round 1, choose a card" in page and " · paper · " in page
    assert "Bot has sealed a card" in page  # the bot seals at once, its card hidden
    value = mine(practice)["hand"]["numbers"][0]
    button = f'name="play" value="seal:{value}"'
    assert button in page
    response = client.post(move_url(practice), form_of(page, button) | {"play": f"seal:{value}"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f"You reveal {value}" in page and "Bot reveals" in page  # the log says You
    assert revision(practice) == 1
    client.post(move_url(practice), form_of(page, "Resign this duel") | {"kind": "resign"})
    practice.refresh_from_db()
    assert (practice.finished, practice.outcome) == (True, "lost")
    page = page_of(client, practice)
    assert "The bot wins — forfeit." in page and "Play again with the same set-up" in page
    assert "lost" in client.get(reverse("practice:index")).content.decode()


def test_a_refused_move_is_explained_and_nothing_is_stored(ada):
    client = client_for(ada)
    practice = start(client)
    events = GameEvent.objects.filter(game_id=practice.game_id).count()
    for data, words in (
        ({"play": "seal:x"}, "Seal a number card you hold."),
        ({"kind": "answer", "choice": "pass"}, "Nothing is asked of you now."),
        ({"play": "play:block"}, "Play an action card you hold"),
        ({"kind": "choose", "card": "3"}, "You have no card to choose now."),
        ({"kind": "deal"}, "Unknown command"),
    ):
        response = client.post(move_url(practice), data | {"revision": 0, "intent": "k"})
        assert response.status_code == 422, data
        assert words in response.content.decode()
    assert revision(practice) == 0
    assert GameEvent.objects.filter(game_id=practice.game_id).count() == events


def test_an_unknown_rule_set_is_refused_and_nothing_is_created(ada):
    response = client_for(ada).post(reverse("practice:index"), {"ruleset": "<b>poker</b>"})
    assert response.status_code == 422
    assert "Choose one of the rule sets" in response.content.decode()
    assert not PracticeDuel.objects.exists() and not Game.objects.exists()


def test_moves_need_the_csrf_token(ada):
    practice = start(client_for(ada))
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    response = client.post(move_url(practice), {"kind": "resign", "revision": 0, "intent": "k"})
    assert response.status_code == 403
    assert client.post(reverse("practice:index"), {"ruleset": "paper"}).status_code == 403
    assert revision(practice) == 0


def test_a_person_keeps_only_their_latest_practice_duels(ada, monkeypatch):
    monkeypatch.setattr(services, "KEPT_PER_PERSON", 3)
    other = UserFactory()
    theirs = services.start_practice(other, "paper")
    started = [services.start_practice(ada, "tournament") for _ in range(5)]
    kept = list(PracticeDuel.objects.filter(user=ada).values_list("pk", flat=True))
    assert sorted(kept) == [p.pk for p in started[-3:]]
    assert PracticeDuel.objects.filter(pk=theirs.pk).exists()  # nobody else's is touched
    # The forgotten duels' games go with them.
    assert not Game.objects.filter(pk__in=[p.game_id for p in started[:2]]).exists()


def test_the_log_tells_the_person_what_their_own_hand_drew(ada):
    # The dealt view's private facts of the person's seat, in words, on their page only: a
    # round lost draws a card, which the public lines give as a count ("draws 1 number card").
    client = client_for(ada)
    practice = start(client)
    for _ in range(30):
        page = page_of(client, practice)
        if "You drew " in page or PracticeDuel.objects.get(pk=practice.pk).finished:
            break
        view = mine(practice)
        commands = view["commands"]
        if "answer" in commands:  # a bot's action card asked something first: pass it by
            choice = commands["answer"]["choices"][0]
            field, value = "choice", choice
        elif "choose" in commands:
            field, value = "card", commands["choose"]["cards"][0]
        else:  # the lowest card loses the round, mostly: the loser draws
            field, value = "play", f"seal:{min(view['hand']['numbers'])}"
        button = f'name="{field}" value="{value}"'
        client.post(move_url(practice), form_of(page, button) | {field: value})
    drawn = [e.get("mine", {}).get("drew") for e in mine(practice)["log"] if e.get("mine")]
    cards = next(c for c in reversed(drawn) if c)
    labels = [str(c) if isinstance(c, int) else CARD_LABELS[c] for c in cards]
    assert f"You drew {', '.join(labels)}." in page_of(client, practice)


def test_a_finished_duel_counts_once_in_the_record_which_outlives_the_duels(ada):
    client = client_for(ada)
    practice = start(client, "paper")
    form = {"kind": "resign", "revision": revision(practice), "intent": "same-form"}
    assert client.post(move_url(practice), form).status_code == 302
    # The same form again (a double tap): already recorded, not counted twice.
    assert client.post(move_url(practice), form).status_code == 200
    record = ada.practice_records.get()
    assert (record.ruleset, record.seats, record.bot) == ("paper", 2, "heuristic")
    assert (record.played, record.won, record.drawn, record.rounds) == (1, 0, 0, 0)
    listing = client.get(reverse("practice:index")).content.decode()
    assert "My practice record" in listing
    assert re.search(
        r"<th scope=\"row\">paper</th><td>2</td><td>normal \(heuristic\)</td>"
        r"<td>1</td><td>0</td><td>0</td><td>1</td><td>0.0</td>",
        listing,
    )
    # Forgetting the duel (beyond the latest 50) leaves the record as it was.
    PracticeDuel.objects.all().delete()
    assert ada.practice_records.get().played == 1


def test_the_bots_level_is_chosen_kept_and_refused_when_unknown(ada):
    client = client_for(ada)
    response = client.post(reverse("practice:index"), {"ruleset": "tournament", "bot": "random"})
    assert response.status_code == 302
    practice = PracticeDuel.objects.get()
    assert practice.bot == "random" and "bots: easy" in page_of(client, practice)
    assert Game.objects.get().config["bot"] == "random"
    response = client.post(reverse("practice:index"), {"ruleset": "tournament", "bot": "oracle"})
    assert response.status_code == 422 and "Choose the bots&#x27; level" in response.text
    assert PracticeDuel.objects.count() == 1


def challenged(client: Client, ada) -> PracticeDuel:
    """A duel played until the person is asked to challenge the bot at 0: the person reveals
    their lowest card every round and keeps their action cards (speed: 15 cards each)."""
    for _ in range(20):
        response = client.post(
            reverse("practice:index"), {"ruleset": "tournament", "variants": "speed"}
        )
        practice = PracticeDuel.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
        for _ in range(200):
            commands = mine(practice)["commands"]
            asked = commands.get("answer")
            if asked and asked["decision"] == "challenge":
                return practice
            if asked:
                form = {"kind": "answer", "choice": asked["choices"][-1]}
            elif "choose" in commands:
                form = {"kind": "choose", "card": commands["choose"]["cards"][0]}
            elif "seal" in commands:
                form = {"play": f"seal:{commands['seal']['cards'][0]}"}
            else:
                break
            form |= {"revision": revision(practice), "intent": f"k{revision(practice)}"}
            assert client.post(move_url(practice), form).status_code == 302
    pytest.fail("no duel reached a challenge")


def test_no_challenge_at_two_seats_ends_the_duel_so_it_asks_once(ada):
    client = client_for(ada)
    practice = challenged(client, ada)
    before = revision(practice)
    form = {"kind": "answer", "choice": "pass", "revision": before, "intent": "pass-1"}
    response = client.post(move_url(practice), form)
    page = response.content.decode()
    # Asked, not played: the words say what it does; the confirmation carries the choice.
    assert response.status_code == 200 and revision(practice) == before
    assert "End the game?" in page and "Without a challenge Bot wins the duel now." in page
    assert 'name="confirm" value="yes"' in page and 'name="choice" value="pass"' in page
    response = client.post(move_url(practice), form | {"confirm": "yes", "intent": "pass-2"})
    assert response.status_code == 302
    practice.refresh_from_db()
    assert practice.finished and practice.outcome == "lost"
