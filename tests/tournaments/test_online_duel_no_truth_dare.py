"""A tournament's online duel never has truth and dare (ONLINE.md 2: "tournament duels never
have them"), whatever its rule set says: the dealt game's config switches them off."""

import pytest

from duels.models import Duel
from play.adapters.split_uno_dealt import read_config
from play.models import Game
from tests.factories import UserFactory
from tests.factories import group_phase_duel as make_duel
from tournaments.services import online as players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tournament", "arbiter"])
def test_an_online_duel_is_dealt_without_truth_and_dare(ruleset):
    duel, _referee = make_duel(online_duels=True)
    Duel.objects.filter(pk=duel.pk).update(online=True, ruleset=ruleset)
    duel.refresh_from_db()
    for entrant, name in ((duel.seat_a, "ada"), (duel.seat_b, "bo")):
        entrant.user = UserFactory(username=name)
        entrant.save(update_fields=["user"])
        players.ready(duel_id=duel.pk, user=entrant.user)
    duel.refresh_from_db()
    game = Game.objects.get(pk=duel.game_id)
    assert game.config["truth_dare"] is False
    cfg = read_config(game.config, ("A", "B"))
    assert cfg.truth_dare is False and cfg.options["truth_dare"] is False
