"""Duel pages: the referee console and the public replay (mounted under /t/<slug>/duels/)."""

app_name = "duels"

urlpatterns: list = []
