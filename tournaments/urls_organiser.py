"""Organiser pages (issue 8): set-up, rounds, transfers, people, results, phases.

Mounted under /t/<slug>/manage/.
"""

from django.urls import path

from .views.organiser import (
    audit,
    checkin,
    groups,
    online_duels,
    overview,
    people,
    players,
    printing,
    results,
    rounds,
    schedule,
    settings,
    transfers,
)

app_name = "organiser"

urlpatterns = [
    path("", overview.overview, name="overview"),
    path("registration/open/", overview.open_registration, name="open_registration"),
    path("group-phase/start/", overview.start_group_phase, name="start_group_phase"),
    path("playoffs/start/", overview.start_playoffs, name="start_playoffs"),
    path("catch-up/", overview.catch_up, name="catch_up"),
    path("publish/", overview.publish, name="publish"),
    path("cancel/", overview.cancel, name="cancel"),
    path("settings/", settings.setup, name="setup"),
    path("players/", players.players, name="players"),
    path("players/list/", players.register_list, name="register_list"),
    path("players/csv/", players.register_csv, name="register_csv"),
    path("players/withdraw/", players.withdraw, name="withdraw"),
    path(
        "players/withdrawals/<int:withdrawal_id>/undo/",
        players.undo_withdrawal,
        name="undo_withdrawal",
    ),
    path("players/<int:entrant_id>/claim-link/", players.issue_claim, name="issue_claim"),
    path("players/<int:entrant_id>/remove/", players.remove, name="remove_player"),
    path("players/<int:entrant_id>/unlink/", players.unlink, name="unlink_entry"),
    path("check-in/", checkin.check_in, name="check_in"),
    path("check-in/<int:entrant_id>/", checkin.check_in_player, name="check_in_player"),
    path("check-in/no-shows/", checkin.withdraw_no_shows, name="withdraw_no_shows"),
    path("check-in/<int:entrant_id>/undo/", checkin.undo_check_in, name="undo_check_in"),
    path("groups/", groups.groups, name="groups"),
    path("groups/check/", groups.groups_check, name="groups_check"),
    path("groups/names/", groups.group_names, name="group_names"),
    path("transfers/", transfers.transfers, name="transfers"),
    path("transfers/check/", transfers.transfers_check, name="transfers_check"),
    path("rounds/", rounds.rounds, name="rounds"),
    path("rounds/representatives/", rounds.name_representatives, name="name_representatives"),
    path("schedule/", schedule.schedule, name="schedule"),
    path("schedule/plan/", schedule.schedule_plan, name="schedule_plan"),
    path("schedule/shift/", schedule.schedule_shift, name="schedule_shift"),
    path("duels/<int:duel_id>/call/", schedule.call_duel, name="call_duel"),
    path("rounds/paper/", rounds.paper_result, name="paper_result"),
    path("duels/<int:duel_id>/paper/", rounds.paper_duel, name="paper_duel"),
    path("rounds/shared-card/", rounds.shared_card, name="shared_card"),
    path("duels/<int:duel_id>/referee/", rounds.assign_referee, name="assign_referee"),
    path("duels/<int:duel_id>/online/", online_duels.switch_duel, name="switch_duel"),
    path("duels/<int:duel_id>/wait/", online_duels.extend_wait, name="extend_wait"),
    path("duels/<int:duel_id>/rule/", online_duels.rule_unready, name="rule_unready"),
    path("results/", results.results, name="results"),
    path("results/<int:duel_id>/", results.result, name="result"),
    path("people/", people.people, name="people"),
    path("people/<int:grant_id>/revoke/", people.revoke, name="revoke"),
    path("people/invite/", people.invite, name="invite"),
    path(
        "people/invitations/<int:invitation_id>/revoke/",
        people.revoke_invitation,
        name="revoke_invitation",
    ),
    path("print/players/", printing.print_players, name="print_players"),
    path("print/referees/", printing.print_referees, name="print_referees"),
    path("print/poster/", printing.poster, name="poster"),
    path("audit/", audit.audit, name="audit"),
]
