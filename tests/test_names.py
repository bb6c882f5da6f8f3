"""core.names: how every name is cleaned and what two names are compared by."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ServiceError
from core.names import KEY_WIDTH, clean_name, has_visible, name_key, with_suffix


def clean(text, **kw):
    return clean_name(text, what="A name", max_length=kw.pop("max_length", 20), **kw)


@pytest.mark.parametrize(
    "look_alike",
    ["Ada", "Ada\u200b", "A\u200dda", "ADA", "ada", "Ａｄａ", "\u202eAda", " Ada  ", "ａＤＡ"],
)
def test_look_alikes_share_one_key(look_alike):
    assert name_key(clean(look_alike)) == name_key("Ada") == "ada"


def test_different_names_keep_different_keys():
    keys = {name_key(n) for n in ("Ada", "Adam", "Ada 2", "Åda", "Ada Lovelace")}
    assert len(keys) == 5


def test_invisible_and_bidi_characters_are_removed_and_the_name_is_stored_in_nfc():
    assert clean("Ada\u200b\u2066Bo\u2069") == "AdaBo"
    assert clean("Zoe\u0308") == "Zoë"  # e + combining diaeresis → one character
    assert clean("  Ada \t  Bo ") == "Ada Bo"


@pytest.mark.parametrize(
    "invisible", ["\u200b", "\u3164", "\u115f\u1160", "\u0301", "\u2800", "\ufe0f", "\u200e \u200f"]
)
def test_a_name_with_nothing_visible_is_refused_in_words(invisible):
    with pytest.raises(ServiceError, match="needs at least one visible character"):
        clean(invisible)


def test_empty_is_refused_unless_allowed():
    with pytest.raises(ServiceError, match="A player needs a name"):
        clean("  ", missing="A player needs a name.")
    assert clean(" \u200b ", required=False) == ""


def test_control_characters_and_length_are_refused_in_words():
    with pytest.raises(ServiceError, match="may not contain control characters"):
        clean("Ada\x00")
    with pytest.raises(ServiceError, match="at most 20 characters; this one has 21"):
        clean("x" * 21)
    assert clean("x" * 20 + "\u200b") == "x" * 20  # invisible characters do not count
    with pytest.raises(ServiceError, match="too long once its characters are written out"):
        clean("\ufdfa" * 5)  # one character each, 18 once written out


def test_a_suffix_fits_within_the_limit():
    assert with_suffix("Ada", 2, 20) == "Ada (2)"
    assert with_suffix("x" * 20, 12, 20) == "x" * 15 + " (12)"


@given(st.text(max_size=60))
def test_cleaning_is_stable_and_keeps_the_key(text):
    try:
        name = clean(text, max_length=40)
    except ServiceError:
        return
    assert clean(name, max_length=40) == name
    assert name_key(name) == name_key(text)
    assert has_visible(name) and len(name) <= 40
    assert len(name_key(name)) <= 40 * KEY_WIDTH
    assert name == unicodedata.normalize("NFC", name)
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name)
    assert name == " ".join(name.split())


@given(st.text())
def test_the_key_is_its_own_key(text):
    assert name_key(name_key(text)) == name_key(text)
