"""English says "an 8", "an 11", "an 18", "an 80": the card table's, the dealt log's and the
CPT-113 engine's words with a number after "a" once read "wins the round with a 8". The other
languages take the number as a placeholder and say their own article ("con un 8", "avec un 8",
"dengan 8"). Display words only: no record holds an article."""

from __future__ import annotations

import pytest
from django.utils import translation

from cardtable.words import round_won, you_won_round
from games.common import IllegalMove
from games.common.words import a_number, takes_an
from games.cpt113.rules import apply
from play.effect_words import say
from tests.games.test_cpt113_rules import table

NAMES = {"A": "Mira", "B": "Bot B"}
AN = [8, 11, 18, *range(80, 90), 800, 899, 8000, 11_000, 18_500, 80_000, 11_000_000]
A = [0, 1, 7, 9, 10, 12, 17, 19, 20, 70, 79, 90, 99, 100, 110, 180, 1100, 1800, 111_000]


def test_an_goes_before_the_numbers_said_with_a_vowel_and_a_before_the_others() -> None:
    assert [n for n in AN if not takes_an(n)] == []
    assert [n for n in A if takes_an(n)] == []
    assert (a_number(8), a_number(7), a_number("11"), a_number(18)) == (
        "an 8",
        "a 7",
        "an 11",
        "an 18",
    )
    # Not a whole number: the ordinary article, never an error.
    assert not any(takes_an(x) for x in (None, True, -8, "8a", "", 8.0))


@pytest.mark.parametrize(
    ("language", "won", "you_won", "shed", "you_shed"),
    [
        (
            "en",
            "Mira wins the round with an 8.",
            "You win the round with an 8.",
            "Mira sheds an 8",
            "You shed an 8",
        ),
        (
            "es",
            "Mira gana la ronda con un 8.",
            "Ganas la ronda con un 8.",
            "Mira descarta un 8",
            "Descartas un 8",
        ),
        (
            "fr",
            "Mira gagne la manche avec un 8.",
            "Vous gagnez la manche avec un 8.",
            "Mira se défausse d'un 8",
            "Vous vous défaussez d'un 8",
        ),
        (
            "ms",
            "Mira memenangi pusingan dengan 8.",
            "Anda memenangi pusingan dengan 8.",
            "Mira membuang kad 8",
            "Anda membuang kad 8",
        ),
    ],
)
def test_a_round_won_and_a_card_shed_with_an_8_read_right_in_every_language(
    language: str, won: str, you_won: str, shed: str, you_shed: str
) -> None:
    line = {"say": "shed", "seat": "A", "card": 8}
    with translation.override(language):
        assert round_won(["Mira"], 8) == won
        assert you_won_round(8) == you_won
        assert say(line, NAMES) == shed
        assert say(line, NAMES, "A") == you_shed
        # Any other card keeps the sentence it always had ("a 7" in English).
        seven = won.replace("an 8", "a 8") if language == "en" else won
        assert round_won(["Mira"], 7) == seven.replace("8", "7")
        nine = you_shed.replace("an 8", "a 8") if language == "en" else you_shed
        assert say({**line, "card": 9}, NAMES, "A") == nine.replace("8", "9")


def test_the_cpt113_engine_asks_for_an_8() -> None:
    state = table([["R1", "Y6", "W"], ["G6"]], ["B8"])
    with pytest.raises(IllegalMove, match="play blue, an 8, or a wild"):
        apply(state, {"kind": "play", "card": "Y6"})
