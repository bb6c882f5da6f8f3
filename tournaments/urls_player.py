"""A player's own pages (issue 9). Include in config/urls.py as

path("me/", include("tournaments.urls_player")),
"""

from django.urls import path

from .views import player as views

app_name = "player"

urlpatterns = [
    path("", views.my_tournaments, name="tournaments"),
    path("duels/", views.my_duels, name="duels"),
]
