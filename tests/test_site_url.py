"""SITE_URL: the address the worker's e-mails link to (it has no request to ask)."""

import pytest

from config.settings import default_from_email, site_url


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


@pytest.mark.parametrize(
    ("served", "address"),
    [
        ("127.0.0.1:8101", "http://127.0.0.1:8101"),  # the club night's ADDR
        ("0.0.0.0:8000", "http://localhost:8000"),  # every interface: the machine by name
        ("8102", "http://localhost:8102"),  # runserver's port alone
        ("uno.lan:8000", "http://uno.lan:8000"),
        ("", "http://localhost:8000"),
    ],
)
def test_development_links_to_the_address_dev_run_serves(served, address):
    assert site_url("", ["localhost"], True, served) == address
    # SITE_URL still wins, and production never reads ADDR.
    assert site_url("https://ex.org", [], True, served) == "https://ex.org"
    assert site_url("", ["uno.example.org"], False, served) == "https://uno.example.org"


def test_the_sender_is_the_setting_or_noreply_at_the_sites_name():
    assert default_from_email("Club <uno@club.example>", "https://x.org") == (
        "Club <uno@club.example>"
    )
    assert default_from_email("", "https://uno.example.org/cup") == (
        "Split UNO <noreply@uno.example.org>"
    )
    assert default_from_email("", "http://127.0.0.1:8101") == "Split UNO <noreply@localhost>"
    assert default_from_email("", "") == "Split UNO <noreply@localhost>"
