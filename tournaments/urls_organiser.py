"""Organiser pages (issue 8): set-up, rounds, transfers, people, results, phases.

Mounted under /t/<slug>/manage/.
"""

from django.urls import path

from . import views_organiser as views

app_name = "organiser"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("registration/open/", views.open_registration, name="open_registration"),
    path("group-phase/start/", views.start_group_phase, name="start_group_phase"),
    path("playoffs/start/", views.start_playoffs, name="start_playoffs"),
    path("catch-up/", views.catch_up, name="catch_up"),
    path("publish/", views.publish, name="publish"),
    path("cancel/", views.cancel, name="cancel"),
    path("settings/", views.setup, name="setup"),
    path("players/", views.players, name="players"),
    path("players/list/", views.register_list, name="register_list"),
    path("players/csv/", views.register_csv, name="register_csv"),
    path("players/withdraw/", views.withdraw, name="withdraw"),
    path("players/<int:entrant_id>/claim-link/", views.issue_claim, name="issue_claim"),
    path("groups/", views.groups, name="groups"),
    path("groups/check/", views.groups_check, name="groups_check"),
    path("groups/names/", views.group_names, name="group_names"),
    path("transfers/", views.transfers, name="transfers"),
    path("transfers/check/", views.transfers_check, name="transfers_check"),
    path("rounds/", views.rounds, name="rounds"),
    path("rounds/representatives/", views.name_representatives, name="name_representatives"),
    path("rounds/shared-card/", views.shared_card, name="shared_card"),
    path("duels/<int:duel_id>/referee/", views.assign_referee, name="assign_referee"),
    path("results/", views.results, name="results"),
    path("results/<int:duel_id>/", views.result, name="result"),
    path("people/", views.people, name="people"),
    path("people/<int:grant_id>/revoke/", views.revoke, name="revoke"),
    path("audit/", views.audit, name="audit"),
]
