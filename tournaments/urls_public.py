"""Public, player and live pages (issue 9). Mounted under /t/<slug>/ (after the other routes)."""

app_name = "public"

urlpatterns: list = []
