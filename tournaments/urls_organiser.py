"""Organiser pages (issue 8): set-up, rounds, transfers, people, results, phases.

Mounted under /t/<slug>/manage/.
"""

app_name = "organiser"

urlpatterns: list = []
