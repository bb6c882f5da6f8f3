"""Names as long as the services allow, each one unbroken word, on every page at 390 px in
Chromium: every name wraps inside the screen, and no page scrolls sideways (issue 14)."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Role
from tests.e2e.conftest import PHONE
from tests.e2e.test_public_browser import sign_in
from tests.factories import RoleFactory, UserFactory
from tournaments import services
from tournaments.models import (
    ENTRANT_NAME_MAX,
    GROUP_NAME_MAX,
    TOURNAMENT_NAME_MAX,
)
from tournaments.services import refereeing as duel_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = "W" * 12  # a run no page should show without a break

# The page must not scroll sideways, and every text node holding a long run must lie inside
# the window — or, inside a table that scrolls sideways in its own box, be no wider than that
# box (it wrapped; the table's other columns may need the scroll). Returns what sticks out.
OVERFLOWING = """(run) => {
  const out = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.includes(run)) continue;
    const parent = node.parentElement;
    if (parent.closest("option, [hidden], template, script, .visually-hidden, .sr-only")) continue;
    const style = getComputedStyle(parent);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    let scroller = parent;
    while (scroller && !["auto", "scroll"].includes(getComputedStyle(scroller).overflowX)) {
      scroller = scroller.parentElement;
    }
    // Cut visibly with an ellipsis (the one-line phone header's username): not sticking out.
    const cut = getComputedStyle(parent);
    if (cut.textOverflow === "ellipsis" && cut.overflowX === "hidden") continue;
    for (const rect of range.getClientRects()) {
      const sticksOut = scroller
        ? rect.width > scroller.clientWidth + 1
        : rect.right > width + 1 || rect.left < -1;
      if (rect.width && sticksOut) {
        out.push(`<${parent.tagName.toLowerCase()} class="${parent.className}"> ` +
                 `${Math.round(rect.left)}..${Math.round(rect.right)}: ` +
                 node.textContent.trim().slice(0, 30));
        break;
      }
    }
  }
  return out;
}"""


def longest_names():
    """A tournament in its group phase where every name is as long as allowed, unbroken."""
    organiser = UserFactory(username="o" + "W" * 149, display_name="O" + "W" * 79)
    tournament = services.create_tournament(
        name="T" + "W" * (TOURNAMENT_NAME_MAX - 1), created_by=organiser
    )
    services.register_list(
        tournament,
        "\n".join(f"P{i:02d}" + "W" * (ENTRANT_NAME_MAX - 3) for i in range(1, 22)),
        organiser,
    )
    services.name_groups(
        tournament, organiser, "A" + "W" * (GROUP_NAME_MAX - 1), "B" + "W" * (GROUP_NAME_MAX - 1)
    )
    entrants = list(tournament.entrants.order_by("name"))
    services.split_groups(
        tournament, organiser, "hand", {e.pk: 1 if i < 15 else 2 for i, e in enumerate(entrants)}
    )
    referee = RoleFactory(
        tournament=tournament,
        role=Role.REFEREE,
        user=UserFactory(username="r" + "W" * 149, display_name="R" + "W" * 79),
    ).user
    services.start_group_phase(tournament, organiser)
    first = services.name_representatives(
        tournament, referee, 1, entrants[0].pk, entrants[15].pk, table="W" * 40
    )
    duel_services.append_event(first, referee, {"type": "forfeit", "seat": "B"}, 0)
    second = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="X" + "W" * 39
    )
    duel_services.append_event(second, referee, {"type": "round", "cards": {"A": 7, "B": 3}}, 0)
    services.set_published(tournament, True, organiser)
    player = UserFactory(username="p" + "W" * 149)
    get_user_model().objects.filter(pk=player.pk).update(display_name="P" + "W" * 79)
    tournament.entrants.filter(pk=entrants[1].pk).update(user=player)
    return tournament, organiser, player, second


# The site's header on a phone is one line that scrolls sideways in its own box: every item of
# it (the brand, each link, the account's name and "Sign out") keeps its width and none is
# drawn over another. Returns what clashes.
HEADER_CLASH = """() => {
  const items = [...document.querySelectorAll(
    ".site-header .brand, .site-header .nav li > a, .site-header .account > *")]
    .filter((e) => e.getClientRects().length);  // the big screen hides the header
  const out = [];
  const boxes = items.map((e) => [e, e.getBoundingClientRect()]);
  for (const [e, box] of boxes) {
    if (box.width < 8) out.push(`squashed: ${e.textContent.trim().slice(0, 20)}`);
  }
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const apart = p.right <= q.left + 1 || q.right <= p.left + 1 ||
                  p.bottom <= q.top + 1 || q.bottom <= p.top + 1;
    const name = (e) => e.textContent.trim().slice(0, 20);
    if (!apart) out.push(`overlap: ${name(a)} / ${name(b)}`);
  }));
  return out;
}"""


def test_the_longest_unbroken_names_wrap_on_every_page_at_390_px(page, artifacts_dir):
    tournament, organiser, player, duel = longest_names()
    page.set_viewport_size(PHONE)
    t = f"/t/{tournament.slug}"
    public = ["/", f"{t}/"] + [
        f"{t}/{p}/" for p in ("live", "standings", "groups", "rounds", "tiebreaks", "bracket")
    ]
    public += [f"{t}/screen/", f"{t}/sheets/{duel.pk}/"]
    organiser_pages = [
        f"{t}/manage/{p}" for p in ("", "settings/", "players/", "groups/", "transfers/")
    ]
    organiser_pages += [f"{t}/manage/{p}" for p in ("rounds/", "results/", "people/", "audit/")]
    organiser_pages += [f"{t}/duels/", f"{t}/duels/{duel.pk}/", "/dashboard/"]
    found = {}

    def check(urls):
        for url in urls:
            page.goto(url)
            found[url] = page.evaluate(OVERFLOWING, LONG) + page.evaluate(HEADER_CLASH)

    check(public)
    sign_in(page, organiser.username)
    check(organiser_pages)
    page.context.clear_cookies()
    sign_in(page, player.username)
    check(["/me/", "/me/duels/", f"{t}/live/", "/dashboard/"])
    page.screenshot(path=str(artifacts_dir / "long-names-dashboard-phone.png"), full_page=True)
    assert {url: problems for url, problems in found.items() if problems} == {}
