"""The public, player and live pages (issue 9): who sees them, what they show, fixed query
counts, and live polls that cost a 304 when nothing changed.

Tournaments are made by `simulate_tournament` with every duel a forfeit (one move each), so
a whole 30-player event takes about a second.
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import EntrantFactory, TournamentFactory, UserFactory
from tests.tournaments.test_group_services import make, play_round
from tournaments import charts, services, simulation
from tournaments.models import Entrant
from tournaments.services import refereeing as duel_services

pytestmark = pytest.mark.django_db

PAGES = ["live/", "standings/", "groups/", "rounds/", "tiebreaks/", "bracket/", "screen/"]
POLLED = ["live/", "standings/", "groups/", "rounds/", "tiebreaks/", "bracket/"]


@pytest.fixture
def quick(monkeypatch):
    """Simulated tournaments in which every duel is a forfeit: the whole format, fast."""
    monkeypatch.setattr(simulation, "FORFEIT_RATE", 1.0)

    def run(players=12, until="complete", seed=None, **kwargs):
        tournament, _ = simulation.simulate_tournament(
            players=players, seed=seed or f"pages-{players}-{until}", until=until, **kwargs
        )
        return tournament

    return run


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return response, len(queries)


def poll(client, url, tag):
    return get(client, url, **{"HX-Request": "true", "If-None-Match": tag})


@pytest.fixture
def running():
    """21 players in the group phase, round 1 decided, round 2's duel named and ready."""
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    duel = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="7"
    )
    services.set_published(tournament, True, organiser)
    tournament.refresh_from_db()
    return tournament, organiser, referee, entrants, duel


class TestWhoSeesThem:
    def test_unpublished_pages_are_404_to_the_public_and_open_to_their_people(self, quick):
        tournament = quick(players=10, until="round:2", publish=False)
        player = UserFactory()
        Entrant.objects.filter(tournament=tournament, name="Ada").update(user=player)
        referee = tournament.roles.get().user
        anonymous, stranger = Client(), Client()
        stranger.force_login(UserFactory())
        staff, own = Client(), Client()
        staff.force_login(referee)
        own.force_login(player)
        for page in PAGES:
            url = f"/t/{tournament.slug}/{page}"
            assert anonymous.get(url).status_code == 404, url
            assert stranger.get(url).status_code == 404, url
            assert staff.get(url).status_code == 200, url
            assert own.get(url).status_code == 200, url  # a player sees it before publishing

    @pytest.mark.parametrize("until", ["round:3", "tie_breaks", "playoffs", "complete"])
    def test_every_page_answers_in_every_phase(self, quick, until):
        tournament = quick(players=14, until=until)
        client = Client()
        duel = tournament.duels.order_by("pk").first()
        for page in [*PAGES, f"sheets/{duel.pk}/", "screen/?show=now"]:
            response = client.get(f"/t/{tournament.slug}/{page}")
            assert response.status_code == 200, page
            html = response.content.decode()
            # CSP: no inline style and no inline handlers (charts use SVG attributes).
            assert not re.search(r"\sstyle=", html), page
            assert "hx-on" not in html and "<script>" not in html, page

    @pytest.mark.parametrize("phase", ["draft", "registration", "cancelled"])
    def test_pages_answer_before_the_group_phase_and_after_a_cancellation(self, phase):
        tournament = TournamentFactory(published=True, phase=phase)
        EntrantFactory(tournament=tournament, name="Ada")
        for page in PAGES:
            response = Client().get(f"/t/{tournament.slug}/{page}")
            assert response.status_code == 200, page


class TestStandings:
    def test_shared_ranks_read_t3_and_the_plan_sits_beside_them(self, running):
        tournament, *_ = running
        html = Client().get(f"/t/{tournament.slug}/standings/").content.decode()
        assert ">T2</td>" in html  # everyone but the round's two players is level at 0
        assert "If it ended now" in html
        assert "Positions 2–20" in html
        assert "Tie-break: positions 2–20" in html
        assert f"/api/tournaments/{tournament.slug}/standings.csv" in html
        assert f"/api/tournaments/{tournament.slug}/results.csv" in html

    def test_the_final_table_lists_the_placings_first(self, quick):
        tournament = quick(players=12, until="complete")
        html = Client().get(f"/t/{tournament.slug}/standings/").content.decode()
        assert "Final table" in html
        first = {v: int(k) for k, v in tournament.placings.items()}[1]
        champion = Entrant.objects.get(pk=first).name
        rows = re.findall(r'<th scope="row">([^<]+)</th>', html)
        assert rows[0] == champion


PLACE_ROWS = re.compile(r'<td class="place">([^<]*)</td>.*?<th scope="row">([^<]+)</th>', re.S)


def retire_seat_b(tournament, stage):
    """The stage's duel won by seat A (seat B retires: that duel only, not a no-show)."""
    from duels.models import Duel
    from tournaments.services.progression import sync

    duel = Duel.objects.get(tournament=tournament, kind="playoff", stage=stage, status="ready")
    referee = tournament.roles.get().user
    duel_services.append_event(
        duel, referee, {"type": "forfeit", "seat": "B", "reason": "retired"}, 0
    )
    sync(tournament)
    return duel


class TestPlayoffTable:
    """While the playoffs run, the table (the standings page and the big screen) lists the
    qualifiers by the places still open to them: never 3rd and 4th above the two finalists
    (issue 26: the big screen's "Final table" did)."""

    def test_the_finalists_come_before_3rd_and_4th(self, quick):
        tournament = quick(players=12, until="playoffs")
        client = Client()
        name = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "name"))
        s1, s2, s3, s4 = (name[p] for p in tournament.playoff_seeding)

        def tables():
            page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
            screen = client.get(
                f"/t/{tournament.slug}/screen/?panel=standings", headers={"HX-Request": "true"}
            ).content.decode()
            return PLACE_ROWS.findall(page)[:4], PLACE_ROWS.findall(screen)[:4], page, screen

        page_rows, screen_rows, page, screen = tables()
        assert page_rows == screen_rows == [("1–3", s1), ("1–3", s2), ("1–4", s3), ("1–4", s4)]
        assert "Playoff table" in screen and "Final table" not in screen + page

        retire_seat_b(tournament, "E1")  # seed 4 is 4th
        retire_seat_b(tournament, "Q1")  # seed 1 to the Grand Final, seed 2 to Qualifier 2
        page_rows, screen_rows, *_ = tables()
        assert page_rows == screen_rows == [("1–2", s1), ("1–3", s2), ("1–3", s3), ("4", s4)]

        retire_seat_b(tournament, "Q2")  # seed 3 is 3rd
        page_rows, screen_rows, page, screen = tables()
        assert page_rows == screen_rows == [("1–2", s1), ("1–2", s2), ("3", s3), ("4", s4)]
        assert "Playoff table" in page and "Playoff table" in screen

        retire_seat_b(tournament, "GF")
        tournament.refresh_from_db()
        assert tournament.phase == "complete"
        page_rows, screen_rows, page, screen = tables()
        assert page_rows == screen_rows == [("1", s1), ("2", s2), ("3", s3), ("4", s4)]
        assert "Final table" in page and "Final table" in screen


class TestLivePolls:
    @pytest.mark.parametrize("page", POLLED)
    def test_an_unchanged_poll_is_a_304_in_at_most_two_queries(self, running, page):
        tournament, *_ = running
        client = Client()
        url = f"/t/{tournament.slug}/{page}"
        first, _ = get(client, url, **{"HX-Request": "true"})
        assert first.status_code == 200
        body = first.content.decode()
        assert body.lstrip().startswith('<div id="live"') and "<html" not in body
        assert "HX-Request" in first["Vary"] and "Cookie" in first["Vary"]
        assert "no-store" in first["Cache-Control"]
        again, queries = poll(client, url, first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
        assert "HX-Request" in again["Vary"] and "Cookie" in again["Vary"]
        assert queries <= 2  # the tournament (and, for now playing, the open duels)

    def test_the_page_carries_the_tag_its_poll_sends_back(self, running):
        tournament, *_ = running
        client = Client()
        page = client.get(f"/t/{tournament.slug}/standings/")
        tag = client.get(f"/t/{tournament.slug}/standings/", headers={"HX-Request": "true"})["ETag"]
        html = page.content.decode()
        # Every 5 s, and at once when push brings news (issue 28).
        assert 'hx-trigger="every 5s, push"' in html and 'hx-swap="outerHTML"' in html
        # The header travels as JSON in hx-headers (HTML-escaped in the attribute).
        assert "If-None-Match" in html and tag.strip('"') in html
        # The whole page is never tagged: its nonce and CSRF token are its own.
        assert "ETag" not in page and "no-cache" in page["Cache-Control"]

    def test_a_result_changes_every_tag(self, running):
        tournament, organiser, referee, entrants, duel = running
        client = Client()
        tags = {
            page: client.get(f"/t/{tournament.slug}/{page}", headers={"HX-Request": "true"})["ETag"]
            for page in POLLED
        }
        # Round 2 is even: seat A is the second group's player, entrants[16].
        duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "A"}, 0)
        for page, tag in tags.items():
            response, _ = poll(client, f"/t/{tournament.slug}/{page}", tag)
            assert response.status_code == 200, page
        standings = poll(client, f"/t/{tournament.slug}/standings/", tags["standings/"])[
            0
        ].content.decode()
        assert re.search(rf"{entrants[1].name}</th>\s*<td class=\"num\">3</td>", standings)

    def test_a_duel_starting_changes_now_playing_but_not_the_standings(self, running):
        tournament, organiser, referee, entrants, duel = running
        client = Client()
        home = client.get(f"/t/{tournament.slug}/live/", headers={"HX-Request": "true"})
        table = client.get(f"/t/{tournament.slug}/standings/", headers={"HX-Request": "true"})
        assert "No duel is being played right now." in home.content.decode()
        duel_services.append_event(duel, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
        now, _ = poll(client, f"/t/{tournament.slug}/live/", home["ETag"])
        assert now.status_code == 200
        html = now.content.decode()
        assert "Playing" in html and "Number cards left" in html and "Table 7" in html
        assert poll(client, f"/t/{tournament.slug}/standings/", table["ETag"])[0].status_code == 304

    def test_screen_panels_poll_on_their_own(self, running):
        tournament, *_ = running
        client = Client()
        page = client.get(f"/t/{tournament.slug}/screen/").content.decode()
        for panel in ("standings", "stage", "now"):
            assert f"?panel={panel}" in page
            first, _ = get(
                client, f"/t/{tournament.slug}/screen/?panel={panel}", **{"HX-Request": "true"}
            )
            assert first.status_code == 200 and f'id="panel-{panel}"' in first.content.decode()
            again, queries = poll(
                client, f"/t/{tournament.slug}/screen/?panel={panel}", first["ETag"]
            )
            assert again.status_code == 304 and queries <= 2
        assert (
            get(client, f"/t/{tournament.slug}/screen/?panel=nope", **{"HX-Request": "true"})[
                0
            ].status_code
            == 404
        )
        pinned = client.get(f"/t/{tournament.slug}/screen/?show=now").content.decode()
        assert 'id="panel-now"' in pinned and 'id="panel-standings"' not in pinned
        assert "is-pinned" in pinned


class TestFixedQueryCounts:
    # Anonymous visitors: the count depends on the phase, never on the tournament's size.
    EXPECTED = {
        "round:5": {
            "live/": 7,
            "standings/": 2,
            "groups/": 5,
            "rounds/": 6,
            "tiebreaks/": 2,
            "bracket/": 1,
            # + the venue strip: start times, open duels, the rounds (what is next) (one
            # digest for every tag, read twice on a first view: by the lean start, which
            # finds the parts missing)
            "screen/": 14,
        },
        "tie_breaks": {
            # + whether a group replay is due (the plan is then provisional)
            "live/": 7,
            "standings/": 6,
            "groups/": 5,
            "rounds/": 6,
            "tiebreaks/": 8,
            "bracket/": 1,
            "screen/": 20,
        },
        "complete": {
            "live/": 8,  # nothing is next after the final: no playoff stages to read
            "standings/": 2,
            "groups/": 5,
            "rounds/": 6,
            "tiebreaks/": 7,
            "bracket/": 7,
            "screen/": 15,
        },
    }

    @pytest.mark.parametrize("until", EXPECTED)
    def test_each_page_costs_the_same_for_10_and_30_players(self, quick, until):
        small = quick(players=10, until=until)
        large = quick(players=30, until=until)
        client = Client()
        counts = {
            page: [get(client, f"/t/{t.slug}/{page}")[1] for t in (small, large)]
            for page in self.EXPECTED[until]
        }
        assert counts == {page: [n, n] for page, n in self.EXPECTED[until].items()}

    def test_a_signed_in_viewer_adds_only_the_session_and_the_user(self, quick):
        tournament = quick(players=10, until="round:2")
        anonymous, signed_in = Client(), Client()
        signed_in.force_login(UserFactory())
        url = f"/t/{tournament.slug}/standings/"
        Client().get(url)  # the shared live part rendered once (issue 15): both read it
        # The anonymous page starts lean from the cache (no query); the signed-in one takes
        # the full path: the tournament, then the session and the user.
        assert get(anonymous, url)[1] == 0
        assert get(signed_in, url)[1] == 1 + 2


class TestPages:
    def test_groups_show_totals_members_and_two_inline_charts(self, running):
        tournament, *_ = running
        html = Client().get(f"/t/{tournament.slug}/groups/").content.decode()
        assert html.count('<svg class="chart"') == 2
        assert "Group totals after each round" in html
        assert "Points of the top 5 players after each round" in html
        assert "<polyline" in html and 'stroke-dasharray="8 4"' in html

    def test_rounds_show_results_and_membership_as_it_was(self, running):
        tournament, organiser, referee, entrants, duel = running
        services.change_groups(tournament, organiser, {entrants[2].pk: 2})
        html = Client().get(f"/t/{tournament.slug}/rounds/").content.decode()
        round_1 = html[html.index('id="round-1"') : html.index('id="round-2"')]
        round_2 = html[html.index('id="round-2"') : html.index('id="round-3"')]
        first = tournament.groups.get(order=1).name
        second = tournament.groups.get(order=2).name
        members_1 = re.search(rf"<dt>{first} \(15\)</dt><dd>([^<]*)</dd>", round_1)
        members_2 = re.search(rf"<dt>{second} \(7\)</dt><dd>([^<]*)</dd>", round_2)
        assert members_1 and entrants[2].name in members_1[1]
        assert members_2 and entrants[2].name in members_2[1]
        assert f"<strong>{entrants[0].name}</strong> won" in round_1
        assert f"/t/{tournament.slug}/duels/" in round_1 and "/replay/" in round_1

    def test_tiebreaks_publish_draws_and_seeds(self, quick):
        tournament = quick(players=30, until="tie_breaks", seed="pages-tb")
        data = Client().get(f"/api/tournaments/{tournament.slug}/tiebreaks").json()
        html = Client().get(f"/t/{tournament.slug}/tiebreaks/").content.decode()
        assert data["planned"]["master_seed"] in html
        for knockout in data["planned"]["knockouts"]:
            assert knockout["seed"] in html
            drawn = re.findall(r"<li>([^<]+)</li>", html.split(knockout["seed"], 1)[1])
            assert drawn[: len(knockout["draw"])] == knockout["draw"]

    def test_the_bracket_shows_four_duels_the_placings_and_the_champion(self, quick):
        tournament = quick(players=12, until="complete")
        html = Client().get(f"/t/{tournament.slug}/bracket/").content.decode()
        for name in ("Qualifier 1", "Eliminator", "Qualifier 2", "Grand Final", "Placings"):
            assert f">{name}</h2>" in html
        champion = Entrant.objects.get(
            pk=int(next(k for k, v in tournament.placings.items() if v == 1))
        ).name
        assert f"Champion: <strong>{champion}</strong>" in html

    def test_before_the_playoffs_the_bracket_says_when_it_comes(self, running):
        tournament, *_ = running
        html = Client().get(f"/t/{tournament.slug}/bracket/").content.decode()
        assert "announced when the organisers start the playoffs" in html

    def test_home_shows_phase_now_playing_next_up_and_last_results(self, running):
        tournament, organiser, referee, entrants, duel = running
        html = Client().get(f"/t/{tournament.slug}/live/").content.decode()
        assert "Round 1 of 15 decided; round 2 is open." in html
        assert "No duel is being played right now." in html
        next_up = html[html.index("Next up") : html.index("Last results")]
        assert entrants[1].name in next_up and "Table 7" in next_up
        assert f"/t/{tournament.slug}/sheets/{duel.pk}/" in next_up
        recent = html[html.index("Last results") :]
        assert f"<strong>{entrants[0].name}</strong> beat {entrants[15].name}" in recent

    def test_score_sheet_shows_a_pending_shared_card_to_referees_only(self, running):
        tournament, organiser, referee, entrants, duel = running
        # A forfeit leaves the winner without an action card to give: give them one.
        first_duel = tournament.duels.get(round__number=1)
        first_duel.state = {**first_duel.state}
        first_duel.state["seats"]["A"]["action_cards"] = 1
        first_duel.save(update_fields=["state"])
        services.record_shared_card(tournament, referee, entrants[0].pk, entrants[1].pk)
        url = f"/t/{tournament.slug}/sheets/{duel.pk}/"
        public = Client().get(url).content.decode()
        staff = Client()
        staff.force_login(referee)
        private = staff.get(url).content.decode()
        assert entrants[1].name in public and "Where</dt><dd>Table 7" in public
        assert "starts with one shared action card" not in public
        assert "starts with one shared action card" in private
        assert Client().get(f"/t/{tournament.slug}/sheets/999999/").status_code == 404


class TestPlayerPages:
    def test_sign_in_is_needed(self):
        for url in (reverse("player:tournaments"), reverse("player:duels")):
            response = Client().get(url)
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    def test_my_next_duel_with_its_table_and_my_results(self, running):
        tournament, organiser, referee, entrants, duel = running
        player = UserFactory()
        Entrant.objects.filter(pk=entrants[1].pk).update(user=player)
        client = Client()
        client.force_login(player)
        html = client.get(reverse("player:duels")).content.decode()
        upcoming = html[html.index("Coming up") : html.index("Played")]
        assert "Next" in upcoming and entrants[16].name in upcoming
        assert "<strong>Table 7</strong>" in upcoming
        assert "You have not played a duel yet." in html
        mine = client.get(reverse("player:tournaments")).content.decode()
        assert tournament.name in mine and f"As <strong>{entrants[1].name}</strong>" in mine
        assert "Table 7" in mine
        duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "A"}, 0)
        html = client.get(reverse("player:duels")).content.decode()
        played = html[html.index("Played") :]
        assert "Won" in played and "+3" in played
        assert f"/t/{tournament.slug}/duels/{duel.pk}/replay/" in played

    def test_my_duels_poll_is_304_until_something_of_mine_changes(self, running):
        tournament, organiser, referee, entrants, duel = running
        player = UserFactory()
        Entrant.objects.filter(pk=entrants[1].pk).update(user=player)
        client = Client()
        client.force_login(player)
        url = reverse("player:duels")
        first, _ = get(client, url, **{"HX-Request": "true"})
        assert poll(client, url, first["ETag"])[0].status_code == 304
        duel_services.append_event(duel, referee, {"type": "forfeit", "seat": "B"}, 0)
        changed, _ = poll(client, url, first["ETag"])
        assert changed.status_code == 200 and "Lost" in changed.content.decode()

    def test_a_player_sees_their_entry_before_publishing(self, quick):
        tournament = quick(players=10, until="round:1", publish=False)
        player = UserFactory()
        Entrant.objects.filter(tournament=tournament, name="Bao").update(user=player)
        client = Client()
        client.force_login(player)
        html = client.get(reverse("player:tournaments")).content.decode()
        assert tournament.name in html and "Private" in html
        counts = [
            get(client, reverse("player:tournaments"))[1],
            get(client, reverse("player:duels"))[1],
        ]
        assert counts == [
            11,
            5,
        ]  # /me/ is live (issue 16): its tag, the next duels with start times


class TestCharts:
    def test_geometry_spans_rounds_0_to_15_with_nice_ticks(self):
        chart = charts.line_chart([("Reds", [3, 1, 4]), ("Blues", [-2, 0, -3])], rounds=15)
        assert chart.played == 3
        assert [t.label for t in chart.x_ticks] == ["0", "3", "6", "9", "12", "15"]
        assert [t.label for t in chart.y_ticks][0].startswith("-")
        reds = chart.lines[0]
        assert reds.points.startswith(f"{chart.left},{chart.zero_y}")  # starts at 0
        assert [p.value for p in reds.dots] == [3, 1, 4]
        assert chart.description == "After round 3: Reds +4; Blues -3."

    def test_labels_of_level_lines_never_overlap(self):
        chart = charts.line_chart([(f"P{i}", [3, 3]) for i in range(5)])
        ys = sorted(line.label_y for line in chart.lines)
        assert all(b - a >= charts.LABEL_GAP for a, b in zip(ys, ys[1:], strict=False))
        assert all(chart.top <= y <= chart.bottom + 4 for y in ys)

    def test_lines_differ_by_dash_as_well_as_colour(self):
        chart = charts.line_chart([(f"P{i}", [i]) for i in range(5)])
        assert len({line.dash for line in chart.lines}) == 5
        assert len({line.css for line in chart.lines}) == 5

    def test_nothing_played_is_an_empty_chart(self):
        chart = charts.line_chart([("Reds", []), ("Blues", [])])
        assert chart.empty and chart.description == "No round has been decided yet."
