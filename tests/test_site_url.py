"""SITE_URL: the address the worker's e-mails link to (it has no request to ask)."""

import pytest

from config.settings import site_url


def test_an_explicit_address_is_kept_without_its_trailing_slash():
    assert site_url("https://uno.example.org/", ["x.example"], False) == "https://uno.example.org"
    assert site_url(" https://ex.org/uno ", [], False) == "https://ex.org/uno"


@pytest.mark.parametrize(
    "bad", ["uno.example.org", "ftp://ex.org", "https://", "https://ex.org/?a=1"]
)
def test_an_address_that_is_not_one_stops_the_start_in_words(bad):
    with pytest.raises(RuntimeError, match="SITE_URL must be the site's address"):
        site_url(bad, [], False)


def test_without_it_production_uses_the_first_named_host_over_https():
    assert site_url("", ["*", ".example.org", "uno.example.org", "b.org"], False) == (
        "https://uno.example.org"
    )
    assert site_url("", ["*"], False) == ""  # no name to give: links stay paths


def test_development_links_to_the_run_command():
    assert site_url("", ["localhost"], True) == "http://localhost:8000"
