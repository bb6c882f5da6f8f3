from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language
from core.views import stream_token
from tournaments.views import home as tournament_views
from tournaments.views import player as player_views

from .api import api
from .health import healthz, readyz

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("dashboard/", player_views.dashboard, name="dashboard"),
    path("me/", include("tournaments.urls_player")),
    path("accounts/", include("accounts.urls")),
    path("language/", set_language, name="set_language"),  # the language menu (issue 29)
    # The public pages first: a crowd loads them, and Django tries the patterns in order (no
    # path of one of these includes is a path of another, so the order decides nothing else).
    path("t/<slug:slug>/", include("tournaments.urls_public")),
    path("t/<slug:slug>/duels/", include("tournaments.urls_console")),
    path("t/", include("tournaments.urls")),
    path("t/<slug:slug>/manage/", include("tournaments.urls_organiser")),
    path("practice/", include("practice.urls")),
    path("tables/", include("tables.urls")),
    path("rules/", include("rulebook.urls")),
    path("push/token", stream_token, name="stream_token"),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]
