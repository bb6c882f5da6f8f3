"""Writes to the tournament: one transaction each, rows locked where people can race.

Each module holds the services of one part of TOURNAMENT.md; this package re-exports them.
"""

from .entrants import (
    LineReport,
    add_entrant,
    claim_entry,
    expire_claim_links,
    find_claimable,
    hash_claim_token,
    issue_claim_link,
    register_csv,
    register_list,
    remove_entrant,
)
from .groups import change_groups, name_groups, split_groups, start_group_phase, withdraw
from .rounds import name_representatives
from .setup import (
    cancel,
    configure,
    create_tournament,
    create_tournament_once,
    lock,
    open_registration,
    set_published,
)
from .shared_cards import record_shared_card
from .standings import recompute_standings

__all__ = [
    "LineReport",
    "add_entrant",
    "cancel",
    "claim_entry",
    "configure",
    "create_tournament",
    "create_tournament_once",
    "expire_claim_links",
    "find_claimable",
    "hash_claim_token",
    "issue_claim_link",
    "lock",
    "open_registration",
    "register_csv",
    "register_list",
    "remove_entrant",
    "set_published",
    "change_groups",
    "name_groups",
    "split_groups",
    "start_group_phase",
    "withdraw",
    "name_representatives",
    "record_shared_card",
    "recompute_standings",
]
