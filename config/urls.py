from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from tournaments import views as tournament_views

from .api import api
from .health import healthz

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("dashboard/", account_views.dashboard, name="dashboard"),
    path("me/", include("accounts.urls_player")),
    path("accounts/", include("accounts.urls")),
    path("t/", include("tournaments.urls")),
    path("t/<slug:slug>/duels/", include("duels.urls")),
    path("t/<slug:slug>/manage/", include("tournaments.urls_organiser")),
    path("t/<slug:slug>/", include("tournaments.urls_public")),
    path("practice/", include("practice.urls")),
    path("healthz", healthz, name="healthz"),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]
