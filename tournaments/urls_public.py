"""Public, player and live pages (issue 9). Mounted under /t/<slug>/, before the other routes
(config/urls.py: a crowd loads these).

Every view receives `slug`; none of these paths is taken by the tournament's other pages
(detail, entrants, people, publish, claim, duels, manage).
"""

from django.urls import path

from .views import online, online_deal
from .views import public as views

app_name = "public"

urlpatterns = [
    path("live/", views.home, name="home"),
    path("standings/", views.standings, name="standings"),
    path("groups/", views.groups, name="groups"),
    path("rounds/", views.rounds, name="rounds"),
    path("tiebreaks/", views.tiebreaks, name="tiebreaks"),
    path("bracket/", views.bracket, name="bracket"),
    path("screen/", views.screen, name="screen"),
    path("sheets/<int:duel_id>/", views.sheet, name="sheet"),
    # Under duels/ beside the console's pages (tournaments/urls_console.py has no watch/):
    # these patterns are tried first.
    path("duels/<int:duel_id>/watch/", views.watch, name="watch"),
    # ONLINE.md 5, 6: an online duel as the public and its referee see it.
    path("duels/<int:duel_id>/online/", online.watch, name="online_watch"),
    path("duels/<int:duel_id>/online/poll/", online.watch_poll, name="online_poll"),
    path("duels/<int:duel_id>/online/end/", online.end, name="online_end"),
    path("duels/<int:duel_id>/online/deal/", online_deal.deal, name="online_deal"),
]
