"""A player's own pages (issue 9). Include in config/urls.py as

path("me/", include("tournaments.urls_player")),
"""

from django.urls import path

from .views import online
from .views import player as views

app_name = "player"

urlpatterns = [
    path("", views.my_tournaments, name="tournaments"),
    path("duels/", views.my_duels, name="duels"),
    # ONLINE.md 6: a player's online tournament duel (tournaments/views/online.py).
    path("duels/<int:duel_id>/online/", online.duel_page, name="online_duel"),
    path("duels/<int:duel_id>/online/ready/", online.ready, name="online_ready"),
    path("duels/<int:duel_id>/online/move/", online.move, name="online_move"),
    path("duels/<int:duel_id>/online/poll/", online.poll, name="online_poll"),
    path("duels/<int:duel_id>/online/resign/", online.resign, name="online_resign"),
    path("duels/<int:duel_id>/online/beat/", online.beat, name="online_beat"),
]
